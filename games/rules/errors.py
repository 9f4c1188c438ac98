"""The three ways a command can fail (after python-chess: invalid, illegal, ambiguous).

Every message is written for the player: it says what was wrong and what is allowed instead.
Raising one of these never changes the state: `decide` works on a copy.
"""


class CommandError(Exception):
    """Base class: `str(error)` is the player-readable message."""

    kind = "error"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidCommand(CommandError):
    """The command cannot be understood: missing fields, unknown names, wrong types."""

    kind = "invalid"


class IllegalCommand(CommandError):
    """The command is understood but breaks a rule in the current position."""

    kind = "illegal"


class AmbiguousCommand(CommandError):
    """The command could mean more than one legal command; the message lists the readings."""

    kind = "ambiguous"
