"""Taking back a move: the table's courtesy of picking a mis-placed piece back up.

The rulebook is silent on it (a face-to-face table lets a player correct a slip at once); the
service's ruling (docs/rulings.md, "Taking back a move"): a player may take back their own last
move while

- nobody else has acted since (the move is the log's last command but for standing Triskel
  policies, `NO_MOVE_COMMANDS`, which are no move, the seat's or another's: the caller checks,
  it knows the log; `take_back` is told whose move it was);
- it was a choice (not the seat's only legal command, which a forced move is: taking it back
  would only ask the same question again);
- it revealed nothing, judged on what the mover may see and never on what only the server
  knows: it drew nothing at random (the generator of the move was never read); no Triskel window
  that asks only holders could have opened on it (`reactions.watching_windows`: another seat may
  hold an answering card, whether one opened or not); it took nothing from a face-down pile and
  moved no card between hands; it did not close a Triskel window (which shows the answers); it
  showed the mover no card hidden from it (in an event it reads, or in its next options, as the
  Druid's choice lists the face-down discard pile); it passed or showed nothing to another seat;
  and it made no secret answer or choice (`_revealed`). Each refusal names its reason.

That is the rule of a game started with the rules option `take_backs: "mover_view"` (every game
the service creates now). A game started without it keeps the rule it started with
(`"private_events"`): a move is refused when it drew at random, took from a face-down pile or
another hand, or made any event that not everybody sees; nothing else is looked at.

The take-back is one event, `MoveTakenBack`, which puts the whole state back as it was before the
move (`state`, the fold of the log up to the move: hidden information, so the event is the
server's alone; others see who took back which events), but for the standing Triskel policies:
those set since the move, by the mover or another seat, stand (`_KEPT`). The log stays
append-only: the undone events remain, the state after the take-back is the state before them
with the policies of now, and an audit decides the take-back again from the same facts
(`take_back` is pure).
"""

from __future__ import annotations

import random
from dataclasses import fields

from .command_types import CommandFields
from .engine import anytime_commands, canonical_command, decide, evolve, evolver, legal_commands
from .errors import IllegalCommand
from .event_payloads import MoveTakenBack
from .events import Event
from .information_sets import cards_named, hidden_from
from .language import _
from .reactions import watching_windows
from .state import GameState

TAKE_BACK = "take_back"
# The rules option `take_backs` (docs/rules-api.md): "private_events", the rule of the games
# started without the key, refuses a move that made an event not everybody sees; "mover_view"
# judges it on what the mover may see (`_revealed`).
TAKE_BACK_RULES = ("private_events", "mover_view")
# The commands a take-back passes over to find the move it takes back (docs/rulings.md, "Taking
# back a move"): a standing Triskel policy is no move, whoever set it, and setting one acts on
# nothing at the table (its `PolicySet` is private to its seat). A take-back takes back the
# seat's last other command when every command after it is one of these.
NO_MOVE_COMMANDS = ("set_policy",)


def _judged_on_mover_view(state: GameState) -> bool:
    """Whether the game of `state` started with the take-back rule "mover_view" (the rules
    option `take_backs`; absent in games started before it, which keep "private_events")."""
    return bool(state.options.get("take_backs", "private_events") == "mover_view")


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
    sent it; first_seq..last_seq: the events it made (the last ones of the log but for those of
    standing Triskel policies set since, `NO_MOVE_COMMANDS`, which the take-back keeps); seed_rng: the
    generator the move was decided with (`rng_for(seed, first_seq - 1)`; it is read again here
    to tell whether the move drew anything at random).

    Returns `[MoveTakenBack]`, visible to the server alone (it carries the whole state).
    Raises IllegalCommand (in the active language, naming the reason) when the move is another
    seat's, was a take-back or the seat's only choice, or revealed something (`_revealed`).
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
    with watching_windows(seat) as probe:
        events = decide(before, seat, move, rng=watched)
    if watched.used:
        raise IllegalCommand(_("That move drew something at random: it cannot be taken back."))
    if probe.could_open and _judged_on_mover_view(before):
        raise IllegalCommand(
            _(
                "Another player may hold a Triskel card that answers that move: it cannot be taken "
                "back, whether anyone holds one or not."
            )
        )
    refusal = _revealed(before, events, seat)
    if refusal is not None:
        raise IllegalCommand(refusal)
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
# A Triskel answer whose public part names nobody (a window that asks only holders): that the
# seat answered at all is hidden, and a take-back, which names its seat, would tell it.
_ANONYMOUS_ANSWER = "ReactionAnsweredPrivately"
# An answer seen by the others as "this seat answered", and nothing more: taken back, it tells
# them nothing new.
_NAMED_ANSWER = "ReactionAnswered"


def _revealed(before: GameState, events: list[Event], seat: str) -> str | None:
    """Why the move of `seat` that made `events` (decided on `before`) may not be taken back, in
    the active language: the first thing it revealed, to the mover or to the others; None when
    it revealed nothing (docs/rulings.md, "Taking back a move"). In a game without the rule
    "mover_view" (`_judged_on_mover_view`) only a draw, a card between hands or an event not
    everybody sees is refused, as when that game started."""
    after = before.clone()
    for event in events:
        evolve(after, event)
    others = [other for other in before.seats if other != seat]
    if any(getattr(after, pile) != getattr(before, pile) for pile in _HIDDEN_PILES):
        return _("That move drew cards or tiles from a face-down pile: it cannot be taken back.")
    if any(after.hands.get(other) != before.hands.get(other) for other in others):
        return _("That move moved cards between your hand and another player's: it cannot be taken back.")
    if not _judged_on_mover_view(before):
        # The rule the game started with ("private_events"): any event not everybody sees.
        if any(event.visibility is not None for event in events):
            return _(
                "That move drew, showed or passed cards or tiles that others may not see: it cannot be taken back."
            )
        return None
    if any(event.type == "ReactionsRevealed" for event in events):
        return _(
            "That answer closed the Triskel window and showed everyone's answers: it cannot be taken back."
        )
    # Shown to the mover: a card it could not see, named by an event it reads (a hand looked
    # at) or placed where it now sees it (a choice among the discarded cards, a card face up).
    hidden = hidden_from(before, seat)
    named = set().union(*(cards_named(event.payload) for event in events if event.visible_to(seat)))
    if hidden & named or hidden - hidden_from(after, seat):
        return _("That move showed you cards that were hidden from you: it cannot be taken back.")
    if any(event.visibility and set(event.visibility) - {seat} for event in events) or any(
        event.type == "DraftCardsPassed" for event in events
    ):
        return _("That move passed or showed cards to another player: it cannot be taken back.")
    if any(event.type == _ANONYMOUS_ANSWER for event in events):
        return _(
            "Your answer to a Triskel window is secret, even that you were asked: taking it back "
            "would tell the others. It stands."
        )
    if any(event.visibility is not None and event.type != _NAMED_ANSWER for event in events):
        return _("That move made a choice kept secret from the other players: it cannot be taken back.")
    return None


# The fields `MoveTakenBack` does not put back: `seq`, which counts the log's events and so goes
# on counting (the undone events stay in the log); `policies`, the standing Triskel policies,
# which only `PolicySet` changes (the `set_policy` command, `NO_MOVE_COMMANDS`): a policy set
# after the move, by the mover or another seat, is no part of the move and stands (docs/rulings.md,
# "Taking back a move"). Keeping it changes the fold of no log written before: until policies
# were passed over, a take-back was accepted only right after its move (the log's last
# command), and a move (a command other than `set_policy`) sets no policy, so the policies at the
# take-back were always those of the state it puts back; hence no rules revision.
_KEPT = ("seq", "policies")
_RESTORED = tuple(f.name for f in fields(GameState) if f.name not in _KEPT)


@evolver(MoveTakenBack)
def _move_taken_back(state: GameState, p: MoveTakenBack) -> None:
    restored = GameState.from_json(p["state"])  # a copy: shares nothing with the payload
    for name in _RESTORED:
        setattr(state, name, getattr(restored, name))
