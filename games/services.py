"""Writes: create a game, submit a seat's command, take back a seat's last move (docs/rules-api.md, docs/commands.md).

The documented entry of the play room's command path (`games.play.commands`, where they are
defined and described): every change to a game goes through these.
"""

from games.play.commands import (
    SEAT_CHANGED,
    CommandResult,
    SeatSpec,
    create_game,
    submit_command,
    submit_command_and_fold,
)
from games.play.take_backs import take_back

__all__ = [
    "SEAT_CHANGED",
    "CommandResult",
    "SeatSpec",
    "create_game",
    "submit_command",
    "submit_command_and_fold",
    "take_back",
]
