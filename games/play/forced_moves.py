"""Forced moves: a player seat whose only legal answer everybody can work out is not asked.

At the table a player with no card in hand passes without being asked, and a lone clan with
nowhere to go ends the clash; by email each such question is a prompt, a wait and an email that
needs nothing from the player. The service plays the only legal command for the seat in the
same transaction as the command that gave it the decision, recorded in the log like any other
command (idempotency key `forced:<colour>:<seq>`), so no prompt for it is ever delivered and
`verify_game` re-decides it like the rest (docs/rulings.md, "Forced moves").

An instant answer tells the table that the seat had one option, so the decision to play it is
taken on the public view alone (`rules.options_are_public(rules.view_for(state, None), seat)`):
only when no card the others cannot see could have given the seat another option. Triskel
reaction decisions are never forced: whether a seat holds an answering card is hidden.

A Season turn whose one answer, the pass, only the seat's hidden hand decides (Geis as its only
card, where Festival could be played: `hand_forced_command`) is *hand-forced*: the seat is not
emailed, and the service passes for it after a delay drawn like the seat's own answer times
(`games.play.delayed_passes`), so that its timing tells the table nothing the public facts do
not; a player who chose "play my forced moves at once" (`Player.forced_moves_at_once`) has it
played at once, like a forced move, knowing that the table may then infer its hand.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable

from django.utils.translation import get_language

from games import rules
from games.store.models import Seat

# The public view last built by `public_view`: (state, its seq, language key, view).
_last_view: tuple[weakref.ReferenceType, int, str | None, dict] | None = None


def public_view(state: rules.GameState) -> dict:
    """`rules.view_for(state, None)`, built once for a state at its seq (in one language): the
    clocks and the forced moves of one command both ask it about the same state. The view is
    shared: read it, never change it."""
    global _last_view
    key = get_language()
    if _last_view is not None:
        ref, seq, language, view = _last_view
        if ref() is state and seq == state.seq and language == key:
            return view
    view = rules.view_for(state, None)
    _last_view = (weakref.ref(state), state.seq, key, view)
    return view


def forced_command(state: rules.GameState, seat: str, view: dict | None = None) -> rules.Command | None:
    """The only legal command of `seat` (a colour) for its pending decision in `state`, when the
    public view shows that no hidden card could change its options; None otherwise (none or
    several legal commands, or options that depend on cards the others cannot see).
    view: `rules.view_for(state, None)` when the caller has it (`public_view`)."""
    if view is None:
        view = public_view(state)
    if not rules.options_are_public(view, seat):
        return None
    # The public view settled that these commands are the same for every hidden content the
    # others could imagine: reading them from the state reveals nothing by the timing.
    legal = rules.legal_commands(state, seat)
    return legal[0] if len(legal) == 1 else None


# The one decision kind that may be hand-forced: a Season turn, whose pass stays legal whatever
# the hand holds (rulebook, Phase 2: The Season, "a player may pass").
HAND_FORCED_KIND = "season_turn"


def hand_forced_command(state: rules.GameState, seat: str, view: dict | None = None) -> rules.Command | None:
    """The pass, when `seat` (a colour) has a pending Season turn on which no card of its hand can
    be played, and no other move either, while the public view leaves open that it could (its
    hand holds cards the others cannot see); None otherwise (a choice, a move everybody can see
    is forced, `forced_command`, or another decision).

    Reads the seat's hidden hand: what it returns is for the seat's own use (its delayed pass,
    its next email), never for a channel another player reads.
    view: `rules.view_for(state, None)` when the caller has it (`public_view`).
    Source: rulebook, Phase 2: The Season; docs/rulings.md, "Forced moves".
    """
    if view is None:
        view = public_view(state)
    decisions = [d for d in view["pending"] if d["seat"] == seat]
    if len(decisions) != 1 or decisions[0]["kind"] != HAND_FORCED_KIND:
        return None
    if rules.options_are_public(view, seat):
        return None
    # A new dict each time: the caller may send it as a command.
    return {"type": "pass"} if rules.only_pass(state, seat) else None


def forced_seat(seats, state, *, at_once: Callable[[Seat], bool] = lambda seat: False):
    """The first of `seats` (player `Seat` rows, in seating order) with a forced command in
    `state`, as `(seat, command)`, or None. Bot seats are left to the bots.

    at_once(seat): whether the seat's player chose to have its hand-forced passes played at
    once (`Player.forced_moves_at_once`); asked only of a seat whose pass is hand-forced."""
    if rules.is_over(state):
        return None
    view = public_view(state)
    deciding = {d["seat"] for d in view["pending"]}
    for seat in seats:
        if seat.is_bot or seat.colour not in deciding:
            continue
        command = forced_command(state, seat.colour, view)
        if command is None:
            hand_forced = hand_forced_command(state, seat.colour, view)
            command = hand_forced if hand_forced is not None and at_once(seat) else None
        if command is not None:
            return seat, command
    return None
