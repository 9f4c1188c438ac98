"""Taking back a move: the table's courtesy of picking a mis-placed piece back up.

The rulebook is silent on it (a face-to-face table lets a player correct a slip at once); the
service's ruling (docs/rulings.md, "Taking back a move"): a player may take back their own last
move while

- nobody else has acted since (the move is the last in the log: the caller checks, it knows the
  log; `take_back` is told whose move it was);
- it was a choice (not the seat's only legal command, which a forced move is: taking it back
  would only ask the same question again);
- it revealed nothing new: every event it caused is public (no hidden card seen, no pack
  passed), it took nothing from a face-down pile or another player's hand (no card or tile
  drawn), and it drew nothing at random (no shuffle, no random draw: the generator of the move
  was never read).

The take-back is one event, `MoveTakenBack`, which puts the whole state back as it was before the
move (`state`, the fold of the log up to the move: hidden information, so the event is the
server's alone; others see who took back which events). The log stays append-only: the undone
events remain, the state after the take-back is the state before them, and an audit decides the
take-back again from the same facts (`take_back` is pure).
"""

from __future__ import annotations

import random
from dataclasses import fields

from .command_types import CommandFields
from .engine import anytime_commands, canonical_command, decide, evolve, evolver, legal_commands
from .errors import IllegalCommand
from .events import Event, Payload
from .language import _
from .state import GameState

TAKE_BACK = "take_back"


class _WatchedRandom(random.Random):
    """A generator that notes whether anything read it (`used`): every draw of `random.Random`
    goes through `random()` or `getrandbits()`."""

    used = False

    def random(self) -> float:
        self.used = True
        return super().random()

    def getrandbits(self, k: int) -> int:
        self.used = True
        return super().getrandbits(k)


def take_back(
    before: GameState,
    seat: str,
    move: CommandFields,
    *,
    mover: str,
    first_seq: int,
    last_seq: int,
    seed_rng: random.Random,
) -> list[Event]:
    """The events of `seat` taking back its last move (docs/rulings.md, "Taking back a move").

    before: the state just before the move (the fold of the log's first `first_seq - 1` events;
    not changed); move: the command that was decided there (a JSON dict); mover: the seat that
    sent it; first_seq..last_seq: the events it made (the last ones of the log); seed_rng: the
    generator the move was decided with (`rng_for(seed, first_seq - 1)`; it is read again here
    to tell whether the move drew anything at random).

    Returns `[MoveTakenBack]`, visible to the server alone (it carries the whole state).
    Raises IllegalCommand (in the active language) when the move is another seat's, was a take-back
    or the seat's only choice, or revealed something (a private event or a random draw).
    """
    if mover != seat:
        raise IllegalCommand(_("You can take back only your own last move: another player has acted since."))
    if move.get("type") == TAKE_BACK:
        raise IllegalCommand(_("You have already taken back your last move."))
    options = legal_commands(before, seat) or anytime_commands(before, seat)
    if len(options) == 1 and canonical_command(move) == options[0]:
        raise IllegalCommand(_("That move was your only choice: there is nothing to take back."))
    watched = _WatchedRandom()
    watched.setstate(seed_rng.getstate())
    events = decide(before, seat, move, rng=watched)
    if watched.used:
        raise IllegalCommand(_("That move drew something at random: it cannot be taken back."))
    if any(event.visibility is not None for event in events) or _drew_hidden(before, events, seat):
        raise IllegalCommand(
            _(
                "That move drew, showed or passed cards or tiles that others may not see: it cannot be taken back."
            )
        )
    return [
        Event(
            "MoveTakenBack",
            {"seat": seat, "first": first_seq, "last": last_seq, "state": before.to_json()},
            (),
        )
    ]


# What nobody may see (rulebook: the decks and the tile stack are face down; the set-aside
# Action card is face down): a move that takes anything from them reveals it.
_HIDDEN_PILES = ("tile_stack", "action_deck", "epic_deck", "set_aside")


def _drew_hidden(before: GameState, events: list[Event], seat: str) -> bool:
    """Whether `events` (a move of `seat` decided on `before`) change a face-down pile or
    another seat's hand: a draw, even told in a public event, shows what was hidden."""
    after = before.clone()
    for event in events:
        evolve(after, event)
    if any(getattr(after, pile) != getattr(before, pile) for pile in _HIDDEN_PILES):
        return True
    return any(after.hands.get(other) != before.hands.get(other) for other in before.seats if other != seat)


# The fields `MoveTakenBack` puts back: all but `seq`, which counts the log's events and so goes
# on counting (the undone events stay in the log).
_RESTORED = tuple(f.name for f in fields(GameState) if f.name != "seq")


@evolver("MoveTakenBack")
def _move_taken_back(state: GameState, p: Payload) -> None:
    restored = GameState.from_json(p["state"])  # a copy: shares nothing with the payload
    for name in _RESTORED:
        setattr(state, name, getattr(restored, name))
