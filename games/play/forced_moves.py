"""Forced moves: a player seat whose decision has exactly one legal answer is not asked.

At the table a player with no card in hand passes without being asked, and a lone clan with
nowhere to go ends the clash; by email each such question is a prompt, a wait and an email that
needs nothing from the player. The service plays the only legal command for the seat in the
same transaction as the command that gave it the decision, recorded in the log like any other
command (idempotency key `forced:<colour>:<seq>`), so no prompt for it is ever delivered and
`verify_game` re-decides it like the rest (docs/rulings.md, "Forced moves").

Triskel reaction decisions are never forced: in the strict mode an instant "decline" would tell
the table that the seat holds no answering card, and in the holders mode a seat is asked only
when it has a card to play, so it always has two answers.
"""
from __future__ import annotations

from games import rules

# The "at any time" plays (the Moor) are real choices: a seat that has one is asked.
NEVER_FORCED_KINDS = ("reaction",)


def forced_command(state, seat: str, pending=None) -> dict | None:
    """The only legal command of `seat` (a colour) for its pending decision in `state`, or None
    when it has none or more than one, or when its decision is a Triskel reaction.
    pending: `rules.pending(state)` when the caller has it."""
    decisions = [d for d in (rules.pending(state) if pending is None else pending) if d.seat == seat]
    if len(decisions) != 1 or decisions[0].kind in NEVER_FORCED_KINDS:
        return None
    legal = rules.legal_commands(state, seat)
    return legal[0] if len(legal) == 1 else None


def forced_seat(seats, state):
    """The first of `seats` (player `Seat` rows, in seating order) with a forced command in
    `state`, as `(seat, command)`, or None. Bot seats are left to the bots."""
    if rules.is_over(state):
        return None
    pending = rules.pending(state)
    deciding = {d.seat for d in pending}
    for seat in seats:
        if seat.is_bot or seat.colour not in deciding:
            continue
        command = forced_command(state, seat.colour, pending)
        if command is not None:
            return seat, command
    return None
