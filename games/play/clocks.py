"""Each player seat's clock follows the game: it opens when the seat gets a decision (with a
deadline), closes when the decision is gone, and keeps the seat's attendance.

Runs inside the transaction that appended the events (`games.play.signals.events_recorded`), so
the clocks commit or roll back with them. For every player seat: when its pending decisions
changed, its clock opens at the new seq with a deadline (none for a move the table can see has
only one way to make, which the command path plays at once, `games.play.forced_moves`); when they are
gone, the clock closes (a prompt still in the outbox for the old decision is then skipped). A
seat whose player acted by themselves (not a deadline default, not the stand-in bot) has come
back: its missed deadlines are forgotten and the bot stops playing it; when that settled its
decision, the answer's time is kept (`games.play.answer_times`). Then the clocks announce
what changed (`decisions_changed`): the mail writes its prompts, news and game-over emails from
it, and may carry the clocks' update in its own statement (`ClockUpdate.take`). The stand-in bot
is enqueued only after the commit.

This runs on every command, so it reads and writes in bulk: one locking read of the clocks with
the players' preferences (`games.play.sql.locked_clocks`), and one update of those that changed
(tests/games/play/test_query_count.py).
"""

from __future__ import annotations

import enum
import functools
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.dispatch import receiver
from django.utils import timezone

from games import rules
from games.play import answer_times, delayed_passes, sql, standins
from games.play.forced_moves import forced_command, hand_forced_command, public_view
from games.play.models import SeatClock
from games.play.schedule import schedule
from games.play.signals import decisions_changed, events_recorded
from games.store.models import Game
from players import preferences

# Idempotency-key prefixes of commands the system sends for a seat (the player did not act):
# deadline defaults, the stand-in bot, moves the rules leave only one way to make, and the seat's
# standing orders (set earlier, they are no sign that the player is here now), the delayed passes
# of turns the hand alone forces, and the "never ask" policies set back to "ask" when the host
# gives the seat to somebody else (`table.seat_replace`).
PROXY_PREFIXES = ("deadline:", "standin:", "forced:", "order:", delayed_passes.KEY_PREFIX, "seat-replaced:")


class Change(enum.Enum):
    """What became of a seat's clock with the new events (`clock.change`)."""

    OVER = "over"  # the game ended: the clock closed
    FORCED = "forced"  # a new decision with one way to make it: played at once, the clock closed
    # A new Season turn only the seat's hand leaves the pass: the clock opened as for any
    # decision (same deadline), but nobody is emailed; the service passes at `pass_at`.
    HAND_FORCED = "hand_forced"
    OPENED = "opened"  # a new decision: the clock opened, with a deadline
    STOOD_IN = "stood_in"  # a new decision for a seat the stand-in bot plays: nobody is asked
    CLOSED = "closed"  # its decision is gone
    UNCHANGED = "unchanged"  # its decisions are the same as before


def is_proxy(command_id: str | None) -> bool:
    """True when a command was sent for the seat by the system (deadline default, stand-in bot)."""
    return bool(command_id) and command_id.startswith(PROXY_PREFIXES)


def _decisions_by_seat(decisions) -> dict[str, list]:
    by_seat: dict[str, list] = {}
    for decision in decisions:
        by_seat.setdefault(decision.seat, []).append(decision)
    return by_seat


def _fields(clock: SeatClock) -> tuple:
    return tuple(getattr(clock, name) for name in sql.CLOCK_FIELDS)


class ClockUpdate:
    """The update the clocks of one append owe: those whose CLOCK_FIELDS changed since they were
    read. A `decisions_changed` receiver that writes rows anyway may `take` it, to run it in its
    own statement; otherwise `finish` writes it."""

    def __init__(self, clocks: list[SeatClock]):
        self.clocks, self.taken = clocks, False

    def changed(self) -> list[SeatClock]:
        return [clock for clock in self.clocks if _fields(clock) != clock.before]

    def take(self) -> tuple[str, list] | None:
        """`(sql, params)` of the update of the clocks changed so far, now owed by the caller
        (call it when done changing the clocks); None when nothing changed or when the
        database cannot run it inside another statement (`games.play.sql.clocks_update`), or
        when it was taken already."""
        changed = self.changed()
        statement = sql.clocks_update(changed) if changed and not self.taken else None
        self.taken = self.taken or statement is not None
        return statement

    def finish(self) -> None:
        """Write the changed clocks, unless a receiver took the update."""
        if self.taken:
            return
        changed = self.changed()
        if changed:
            sql.update_clocks(changed)


def _locked_clocks(game: Game, seats) -> list[SeatClock]:
    """The clocks of the player `seats`, locked, in seating order (missing ones are made), each
    with `.seat`, `.game`, `.player` (created when the address has none yet) and `.before` (its
    CLOCK_FIELDS as read)."""
    found = {clock.seat_id: clock for clock in sql.locked_clocks(seats)}
    missing = [SeatClock(seat=seat, game=game) for seat in seats if seat.pk not in found]
    for clock in sql.made_clocks(missing) if missing else ():
        clock.player = None
        found[clock.seat_id] = clock
    clocks = []
    for seat in seats:
        clock = found[seat.pk]
        clock.seat, clock.game = seat, game
        if clock.player is None or clock.player.email != seat.email.strip().lower():
            clock.player = preferences.player_for(seat.email)
        clock.before = _fields(clock)
        clocks.append(clock)
    return clocks


def _close(clock: SeatClock) -> None:
    clock.seq, clock.kind, clock.deadline, clock.remind_at, clock.pass_at = None, "", None, None, None


def _hand_forced(state, clock: SeatClock, view: dict) -> bool:
    """Whether the clock's seat, not played by the stand-in, has a Season turn its hand alone
    leaves the pass (`forced_moves.hand_forced_command`)."""
    return not clock.stand_in and hand_forced_command(state, clock.seat.colour, view) is not None


def _at_once(clock: SeatClock) -> bool:
    """Whether the seat's player chose to have such passes played at once."""
    return bool(getattr(clock.player, "forced_moves_at_once", False))


def _hold_for_a_delayed_pass(clock: SeatClock, table_answers: list, now) -> None:
    """The just-opened clock's decision is hand-forced: no prompt and no reminder (the clock's
    deadline stays what any decision of its kind gets, as the table sees it), and the pass is
    drawn for later (`games.play.delayed_passes`); now: when the decision opened."""
    clock.pass_at = delayed_passes.pass_time(
        own=clock.answer_seconds,
        table=table_answers,
        opened_at=now,
        deadline=clock.deadline,
        away=preferences.vacation(clock.player),
    )
    clock.remind_at = None
    clock.change = Change.HAND_FORCED


@receiver(events_recorded, dispatch_uid="games.play.clocks.follow")
def follow(  # noqa: PLR0913 - the keywords of the events_recorded signal (games/play/signals.py)
    sender,
    *,
    game,
    state,
    pending_before,
    first_seq,
    last_seq,
    events=None,
    seat=None,
    command_id=None,
    prev_hash=None,
    last_hash=None,
    **kwargs,
) -> None:
    """Open, close and keep every player seat's clock (see the module docstring), announce the
    decisions that changed, write the clocks, and start the stand-in bot after the commit when
    one of its seats must decide.

    Queries: the seats come with the append's row lock; then one locking read of the clocks with
    the players' preferences; the receivers' own; one update of the clocks that changed, unless
    a receiver carried it.
    """
    seats = [s for s in game.seats.all() if not s.is_bot and s.email]
    if not seats:
        return
    turn = _turn_of(game, state, pending_before, seat, command_id, events)
    clocks = _locked_clocks(game, seats)
    table_answers = [seconds for clock in clocks for seconds in clock.answer_seconds or []]
    stand_ins_waiting = False
    for clock in clocks:
        stand_ins_waiting = _advance(clock, turn, table_answers) or stand_ins_waiting
    updates = ClockUpdate(clocks)
    decisions_changed.send(
        sender=Game,
        game=game,
        state=state,
        clocks=clocks,
        updates=updates,
        first_seq=first_seq,
        last_seq=last_seq,
        events=events,
        acting_seat_id=turn.acting_id,
        command_id=command_id,
        prev_hash=prev_hash,
        last_hash=last_hash,
        now=turn.now,
    )
    updates.finish()
    if stand_ins_waiting and not (command_id or "").startswith("standin:"):
        # The stand-in loop goes on by itself; only a command from elsewhere starts it.
        standins.enqueue_after_commit(game.pk)


@dataclass(frozen=True)
class _Turn:
    """What `follow` reads of one append for each clock: the decisions pending `before` and
    `after` it by colour, whether the game is `over`, the acting seat's id (`acting_id`) and the
    same when a player (not a proxy: forced move, order, bot) acted (`acted_by_player`), the
    command's id, the time `now`, `public()`, the state's public view (built on first use), and
    whether the command answered a Triskel window privately (`answered_privately`)."""

    game: Game
    state: Any
    before: dict
    after: dict
    over: bool
    acting_id: int | None
    acted_by_player: int | None
    command_id: str | None
    now: datetime
    public: Callable[[], Any]
    answered_privately: bool = False


def _turn_of(  # noqa: PLR0913 - what `follow` was told, each read once
    game: Game, state, pending_before: list, seat, command_id: str | None, events: list | None
) -> _Turn:
    """The append `follow` was told of, as each clock reads it (`_Turn`)."""
    acting_id = seat.pk if seat is not None else None
    return _Turn(
        game=game,
        state=state,
        before=_decisions_by_seat(pending_before),
        after=_decisions_by_seat(rules.pending(state)),
        over=rules.is_over(state),
        acting_id=acting_id,
        acted_by_player=acting_id if not is_proxy(command_id) else None,
        command_id=command_id,
        now=timezone.now(),
        # The public view, on which forced moves are decided: built once, and only if a seat needs it.
        public=functools.cache(lambda: public_view(state)),
        # An answer to a Triskel window that asked only the holders of a card: who was asked is
        # hidden like a hand (docs/rulings.md, "Who is asked"), so it is no answer time.
        answered_privately=any(event.type == "ReactionAnsweredPrivately" for _seq, event in events or ()),
    )


def _advance(clock: SeatClock, turn: _Turn, table_answers: list) -> bool:
    """Open, close or keep `clock` after the append `turn`, setting its `change`; `table_answers`:
    the table's answer times, in seconds (`_hold_for_a_delayed_pass`). Returns whether the seat
    is played by its stand-in and has a decision waiting."""
    state, now = turn.state, turn.now
    colour = clock.seat.colour
    mine, before = turn.after.get(colour), turn.before.get(colour)
    _record_answer_time(clock, turn, mine != before, had_decision=bool(before))
    new = bool(mine) and mine != before
    if turn.over:
        _close(clock)
        clock.change = Change.OVER
    elif new and (
        forced_command(state, colour, turn.public()) is not None
        or (_hand_forced(state, clock, turn.public()) and _at_once(clock))
    ):
        # The command path plays it at once in this transaction: nobody is asked, and the
        # seat's next real prompt tells it among what happened.
        _close(clock)
        clock.change = Change.FORCED
    elif new and mine:
        clock.seq, clock.kind, clock.opened_at, clock.reminded = state.seq, mine[0].kind, now, False
        schedule(clock, turn.game, clock.player, now)
        clock.pass_at = None
        clock.change = Change.STOOD_IN if clock.stand_in else Change.OPENED
        if clock.change is Change.OPENED and _hand_forced(state, clock, turn.public()):
            _hold_for_a_delayed_pass(clock, table_answers, now)
        return bool(clock.stand_in)
    else:
        clock.change = Change.UNCHANGED
        if mine != before:  # its decision is gone
            _close(clock)
            clock.change = Change.CLOSED
        return bool(clock.stand_in and mine)
    return False


def _record_answer_time(clock: SeatClock, turn: _Turn, changed: bool, *, had_decision: bool) -> None:
    """Record the seat's answer time (`answer_times`) when its player answered its open decision
    (`changed`: its decisions differ after the append), or when its delayed pass was played."""
    if clock.seat_id == turn.acted_by_player:
        clock.missed_in_row = 0
        clock.stand_in = False
        if had_decision and changed and clock.seq is not None and not turn.answered_privately:
            answer_times.record(clock, command_id=turn.command_id, opened_at=clock.opened_at, now=turn.now)
    elif clock.seat_id == turn.acting_id and clock.pass_at is not None and changed:
        # The delayed pass: its time counts as the seat's answer (`answer_times`).
        answer_times.record(clock, command_id=turn.command_id, opened_at=clock.opened_at, now=turn.now)
