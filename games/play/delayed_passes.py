"""Delayed passes: a Season turn that the seat's own hand leaves only the pass is passed for it
later, at a time drawn like its player's answers (docs/rulings.md, "Forced moves").

Why: the others see when each seat moves. A seat holding only Geis (a Triskel card) can only pass
on its turn; holding Festival it could also play. Passing at once in the first case and waiting
for the player in the second would name the card by the timing; asking the player by email costs
an email and a day for a move with no choice in it. So the seat is not emailed, and its pass
comes when the player's own answer might have come: the delay is one of the seat's kept answer
times (`SeatClock.answer_seconds`, `games.play.answer_times`), or the table's for a seat that has
none yet, picked with the operating system's random source (`random.SystemRandom`: nobody can
predict it, and it is not the game's seed, which is revealed at the end), counted without the
player's vacation (a vacation saved later moves it: `moved_pass_time`, by
`games.play.schedule.reschedule`), and capped by the decision's deadline. What the draw reads is
public (the table sees every seat's answer times) and the same whichever card the seat holds.

The clock keeps the drawn time (`SeatClock.pass_at`, set by `games.play.clocks` when the decision
opens); the periodic sweep finds it due (`due_passes`) and enqueues `play_delayed_pass`, which
passes through `submit_command` as the seat's command, keyed `hand:<colour>:<seq>`, so a run
twice acts once. Meanwhile the seat's page shows the decision: a player who answers first (a
pass, or The Moor) wins, and the delayed pass then finds the clock moved on and does nothing.
"""

from __future__ import annotations

import random
from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone

from games import store
from games.play import answer_times
from games.play.commands import submit_command
from games.play.deadlines import counted_between, merged_spans, without_vacation
from games.play.forced_moves import hand_forced_command
from games.play.models import SeatClock
from games.record.options import is_paused
from games.store.models import Game

# Unpredictable by anybody at the table, unlike the game's seeded draws.
_RANDOM = random.SystemRandom()

# When nobody at the table has answered yet: a delay drawn uniformly up to this (seconds), a
# day's worth of an email game, still capped by the deadline.
NO_ANSWERS_SECONDS = 12 * 3600

KEY_PREFIX = answer_times.DELAYED_PASS


def pass_delay(own: list | None, table: list | None, rng: random.Random = _RANDOM) -> float:
    """Seconds to wait before the delayed pass: one of `own` (the seat's kept answer times,
    seconds) picked at random, or of `table` (every answer time kept at the game) when `own`
    is empty, or uniform in [0, NO_ANSWERS_SECONDS] when both are. rng: the random source
    (default: the operating system's)."""
    answers = list(own or []) or list(table or [])
    return float(rng.choice(answers)) if answers else rng.uniform(0, NO_ANSWERS_SECONDS)


def pass_time(
    *,
    own: list | None,
    table: list | None,
    opened_at: datetime,
    deadline: datetime | None,
    away: tuple | None,
    rng: random.Random = _RANDOM,
) -> datetime:
    """When to pass for a seat whose hand-forced decision opened at `opened_at`: `pass_delay`
    later, not counting the player's vacation `away` ((start, end) or None), at the latest at
    `deadline` (None: no cap)."""
    at = without_vacation(opened_at, timedelta(seconds=pass_delay(own, table, rng)), away)
    return min(at, deadline) if deadline is not None else at


def moved_pass_time(
    *,
    pass_at: datetime,
    opened_at: datetime,
    deadline: datetime | None,
    before: tuple | None,
    after: tuple | None,
) -> datetime:
    """When to pass, once the player's vacation changed from `before` to `after` ((start, end)
    or None), for a seat whose decision opened at `opened_at` and whose pass was due at
    `pass_at`: the same delay as drawn (`pass_at` counted from `opened_at` without the vacation
    `before`), now counted without the vacation `after`, at the latest at `deadline` (None: no
    cap) as the new vacation moved it. So the pass comes when the player's own answer might have
    come, never during their vacation."""
    delay = counted_between(opened_at, pass_at, merged_spans([before]))
    at = without_vacation(opened_at, delay, after)
    return min(at, deadline) if deadline is not None else at


def due_passes(now: datetime | None = None) -> list[tuple[int, int]]:
    """`[(clock id, seq)]` of the delayed passes due at `now`: their time or their decision's
    deadline has come, in an active game that is not paused. One query."""
    now = now or timezone.now()
    clocks = SeatClock.objects.select_related("game").filter(
        pass_at__isnull=False, seq__isnull=False, stand_in=False, game__status=Game.Status.ACTIVE
    )
    due = []
    for clock in clocks:
        time_come = clock.pass_at is not None and clock.pass_at <= now
        deadline_come = clock.deadline is not None and clock.deadline <= now
        if clock.seq is not None and (time_come or deadline_come) and not is_paused(clock.game.options or {}):
            due.append((clock.pk, clock.seq))
    return due


def play_delayed_pass(clock_id: int, seq: int) -> bool:
    """Pass for the seat of clock `clock_id` on its hand-forced decision `seq` when it is due,
    as the seat's command (`hand:<colour>:<seq>`), under the game's row lock. Returns True when
    the pass was played now; False when nothing was due: the clock moved on (the player
    answered, or the decision went), its time has not come, the game is over or paused, or the
    pass was played already."""
    clock = SeatClock.objects.filter(pk=clock_id).only("game_id").first()
    if clock is None:
        return False
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=clock.game_id)
        clock = SeatClock.objects.select_for_update().select_related("seat").get(pk=clock_id)
        now = timezone.now()
        due = clock.pass_at is not None and (
            clock.pass_at <= now or (clock.deadline is not None and clock.deadline <= now)
        )
        if clock.seq != seq or not due or clock.stand_in or game.is_over or is_paused(game.options or {}):
            return False
        state, head = store.load(game)
        if hand_forced_command(state, clock.seat.colour) is None:
            return False
        result = submit_command(
            game=game,
            seat=clock.seat,
            command={"type": "pass"},
            expected_seq=head,
            command_id=f"{KEY_PREFIX}{clock.seat.colour}:{seq}",
            by_holder=False,  # the seat's pass, whoever holds it now
        )
        return result.accepted and not result.duplicate
