"""The seat's player does not answer: the deadline default, and the stand-in bot.

The periodic sweep (`notifications.tasks.sweep`, run by Celery beat) finds what is due
(`games.play.schedule.due_work`) and enqueues one small task per item; each function here is
such a task's body and is idempotent: it checks again, under the game's row lock, that the item
is still due, and the commands it sends carry an idempotency key (`deadline:<colour>:<seq>`,
`standin:<colour>:<seq>`), so a task run twice acts once. The tasks keep the names they had in
`notifications.tasks`: queued tasks and beat carry them.

Lock order, as in `games.store.append`: the game's row first, then seat clocks, so these never
deadlock with a command being appended.
"""

from __future__ import annotations

import logging
import random

from celery import shared_task
from django.conf import settings
from django.db import OperationalError, transaction
from django.db.models import F
from django.utils import timezone

from games import rules, store
from games.bots.ratings import strongest_level
from games.play import deadlines, standing_orders
from games.play.bot_seats import bot_command
from games.play.commands import submit_command
from games.play.models import SeatClock
from games.play.schedule import schedule
from games.play.signals import stand_in_started
from games.record.options import is_paused
from games.store.models import Game, Seat
from players import preferences

logger = logging.getLogger(__name__)

# The most CPU seconds a stand-in's (and the demo's) bot may think a decision, at the 99th
# percentile (issue's goal for the strong bot).
STAND_IN_CPU_SECONDS = 2.5


def stand_in_level() -> str:
    """How the stand-in for an absent player plays (`games.bots.LEVELS`): as well as the bots can
    within `STAND_IN_CPU_SECONDS` a decision (`games.bots.ratings.strongest_level`, the strong
    bot at the `BOT_STRONG_MS` setting), so that the players still in the game keep a real
    opponent."""
    return strongest_level(STAND_IN_CPU_SECONDS, strong_seconds=settings.BOT_STRONG_MS / 1000)


# Stand-in commands per task run (a long run is cut into several tasks, as the bot seats' is).
STANDIN_COMMANDS_PER_TASK = 200

# Errors worth another try a little later: a lost race with a concurrent command, a database blip.
TRANSIENT = (store.ConcurrencyConflict, OperationalError)


def _lock_game(game_id: int) -> Game:
    return Game.objects.select_for_update().get(pk=game_id)


def apply_deadline(clock_id: int, seq: int) -> str | None:
    """Play what the seat's standing orders answer (`games.play.standing_orders`), else the
    documented default (docs/deadlines.md), for the clock's decision `seq` when its deadline has
    passed, through `submit_command`; when the default was played (no order answered), count the
    miss, and hand the seat to the bot after `deadlines.MISSES_BEFORE_STAND_IN` misses in a row.
    Returns the description of what was played, or None when nothing was due (the decision moved
    on, the deadline moved, twice run)."""
    clock = SeatClock.objects.select_related("seat", "game").filter(pk=clock_id).first()
    if clock is None:
        return None
    thought, thought_head = _think_ahead(clock)
    with transaction.atomic():
        game = _lock_game(clock.game_id)
        clock = SeatClock.objects.select_for_update().select_related("seat").get(pk=clock_id)
        now = timezone.now()
        seat = clock.seat
        if clock.seq != seq or clock.stand_in or seat.is_bot or game.is_over:
            return None
        schedule(clock, game, preferences.player_for(seat.email), now)
        if clock.deadline is None or clock.deadline > now:  # moved meanwhile (host, vacation)
            clock.save(update_fields=["deadline", "remind_at"])
            return None
        state, head = store.load(game)
        if not any(d.seat == seat.colour for d in rules.pending(state)):
            return None
        # The seat's standing orders first (docs/deadlines.md), then the documented default.
        command = standing_orders.answer_at_deadline(game, seat, state)
        prefix = "order" if command is not None else "deadline"
        if command is None:
            command = deadlines.default_command(
                state,
                seat.colour,
                clock.kind,
                rules.rng_for(f"{game.seed}:deadline:{seat.colour}", head),
                stand_in=lambda: thought if head == thought_head else None,
            )
        if command is None:
            return None  # the stand-in thought on an older state (or not at all): the next sweep thinks again
        result = submit_command(
            game=game,
            seat=seat,
            command=command,
            expected_seq=head,
            command_id=f"{prefix}:{seat.colour}:{seq}",
            by_holder=False,  # the seat's default, whoever holds it now
        )
        if not result.accepted or result.duplicate:
            logger.warning(
                "%s: the deadline default for %s was not played: %s", game, seat.colour, result.message
            )
            return None
        if prefix == "deadline":
            _count_the_miss(game, clock, state)
        return result.message


def _count_the_miss(game: Game, clock: SeatClock, state: rules.GameState) -> None:
    """The default played at `clock`'s deadline (`state`: before it) is a missed deadline: one
    more in a row, and after `deadlines.MISSES_BEFORE_STAND_IN` the stand-in takes the seat. Not
    so for the player's own standing order (no sign that they are here now, nor a miss:
    `clocks.PROXY_PREFIXES`, docs/deadlines.md: the caller counts only defaults), nor for a
    Triskel window that asked only the holders of an answer: who was asked, and so who let it
    pass, is hidden like a hand (docs/rulings.md, "Who is asked"); counted, it would show as a
    stand-in or an absence on the host's tools."""
    if not any(d.seat == clock.seat.colour for d in rules.pending_for(state, None)):
        return
    SeatClock.objects.filter(pk=clock.pk).update(missed_in_row=F("missed_in_row") + 1)
    clock.refresh_from_db()
    if clock.missed_in_row >= deadlines.MISSES_BEFORE_STAND_IN and not clock.stand_in:
        _stand_in(game, clock)


def _think_ahead(clock: SeatClock) -> tuple[dict | None, int]:
    """The stand-in bot's command for the clock's decision, where no template answers it, and the
    head it was thought at (None: a template answers, or the seat has nothing to decide).

    It thinks here, on a loaded state, outside the game's row lock; under the lock its command
    is used only if the game has not moved on meanwhile (else the next sweep comes back to it)."""
    thought_state, thought_head = store.load(clock.game)
    if any(d.seat == clock.seat.colour for d in rules.pending(thought_state)) and (
        deadlines.template_command(thought_state, clock.seat.colour, clock.kind, random.Random(0)) is None
    ):
        return stand_in_command(clock.game, clock.seat, thought_state, thought_head), thought_head
    return None, thought_head


def _stand_in(game: Game, clock: SeatClock) -> None:
    """Hand the seat to the bot (inside the caller's transaction), announce it (the mail tells
    the player: `stand_in_started`), and start the bot after the commit."""
    clock.stand_in = True
    clock.deadline = clock.remind_at = None
    clock.save(update_fields=["stand_in", "deadline", "remind_at"])
    stand_in_started.send(sender=SeatClock, game=game, clock=clock)
    enqueue_after_commit(game.pk)


def enqueue_after_commit(game_id: int) -> None:
    """Enqueue `play_standins_task` for the game once the current transaction commits (robust:
    a broker that is down must not fail what committed; the sweep starts the stand-ins later)."""
    transaction.on_commit(lambda: play_standins_task.delay(game_id), robust=True)


def come_back(clock: SeatClock) -> bool:
    """The player of a stood-in seat is back (a reply of theirs arrived): the bot stops, missed
    deadlines are forgotten, and an open decision gets a fresh deadline. Call inside a transaction
    holding the game's lock; returns True when the seat was stood in."""
    was = clock.stand_in
    clock.stand_in = False
    clock.missed_in_row = 0
    if was and clock.seq is not None:
        clock.opened_at = timezone.now()
        clock.reminded = False
        schedule(clock, clock.game, preferences.player_for(clock.seat.email))
    clock.save()
    return was


def stand_in_command(game: Game, seat: Seat, state, seq: int) -> dict:
    """What the stand-in plays for `seat` on `state` (the game's state at `seq`): the bot of
    `stand_in_level()`, which reads only what the seat may see (`games.play.bot_seats.bot_command`).
    The one place that decides for an absent player: whatever must come before the bot (the
    seat's own standing orders) come first, in `play_standins`, under the lock. Called outside
    the game's row lock."""
    return bot_command(game, seat.colour, stand_in_level(), state, seq)


def play_standins(game_id: int) -> int:
    """Play the pending decisions of the game's stood-in seats with the stand-in
    (`stand_in_command`) until none waits, at most STANDIN_COMMANDS_PER_TASK commands (then it
    enqueues itself again). Returns the commands accepted.

    The stand-in thinks on a loaded state without the game's row lock, then submits under the
    lock after checking that the seat is still stood in (its player may have come back while it
    thought) and that the game has not moved on; if it has, it thinks again on the new state.
    Nothing is played while the host has the game paused (docs/deadlines.md): `game_resume`
    enqueues it again."""
    accepted = 0
    while accepted < STANDIN_COMMANDS_PER_TASK:
        game = Game.objects.get(pk=game_id)
        if game.is_over or is_paused(game.options or {}):
            return accepted
        state, head = store.load(game)
        clock = _stood_in_clock(game, state)
        if clock is None:
            return accepted
        seat: Seat = clock.seat
        command = stand_in_command(game, seat, state, head)
        with transaction.atomic():
            game = _lock_game(game_id)
            if is_paused(game.options or {}):
                return accepted  # paused while the stand-in thought: `game_resume` starts it again
            if game.is_over or store.head(game)[0] != head:
                continue  # moved on while the stand-in thought: think again
            if not SeatClock.objects.filter(pk=clock.pk, stand_in=True).exists():
                continue  # the player came back meanwhile
            # The seat's standing orders before the bot (docs/deadlines.md), settled in this
            # transaction with the move they give.
            command = standing_orders.answer_at_deadline(game, seat, state) or command
            result = submit_command(
                game=game,
                seat=seat,
                command=command,
                expected_seq=head,
                command_id=f"standin:{seat.colour}:{head}",
                # For the seat as it is: read before the lock, it may have been left to the bot
                # meanwhile (an erasure), whose move this is as well.
                by_holder=False,
            )
            if not result.accepted:
                logger.error(
                    "%s: the stand-in's command for %s was refused: %s", game, seat.colour, result.message
                )
                return accepted
            accepted += 0 if result.duplicate else 1
    play_standins_task.delay(game_id)
    return accepted


def _stood_in_clock(game: Game, state) -> SeatClock | None:
    """The clock of the first stood-in seat (in seating order) with a decision pending in `state`."""
    waiting = {d.seat for d in rules.pending(state)}
    return (
        SeatClock.objects.select_related("seat")
        .filter(game=game, stand_in=True, seat__colour__in=waiting)
        .order_by("seat__position")
        .first()
    )


@shared_task(
    name="notifications.tasks.apply_deadline",
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def apply_deadline_task(clock_id: int, seq: int) -> str:
    """The default of a decision whose deadline passed (`apply_deadline`): "played" or "nothing
    due". Never the move itself: Celery logs a task's result (`CELERY_TRACE_LOG_LEVEL`), and a
    default's words may name a card of the seat's hand (a draft pick: "Keep Geis.")."""
    return "played" if apply_deadline(clock_id, seq) is not None else "nothing due"


@shared_task(
    name="notifications.tasks.play_standins",
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def play_standins_task(game_id: int) -> int:
    """The bot's moves for seats whose player is away (`play_standins`)."""
    return play_standins(game_id)
