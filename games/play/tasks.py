"""Celery tasks of the play room (they take ids, call a service, and may run more than once).

The tasks keep the names they had before the play room had its package (`games.tasks.*`,
`notifications.tasks.*`): queued tasks and beat carry them. The stand-in's and the deadline
default's tasks are defined beside their bodies (`games.play.standins`) and named here so that
the worker's discovery finds every task of the room in this module.
"""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError, transaction

from games import store
from games.play import delayed_passes
from games.play.bot_seats import bot_seats_pending, games_waiting_for_bots
from games.play.bot_seats import play_bots as play_bots_service
from games.play.relay import mark_bots_due, through_relay
from games.play.sql import bots_turn
from games.play.standins import apply_deadline_task as apply_deadline
from games.play.standins import play_standins_task as play_standins
from games.play.take_backs import take_back_grace
from games.store.models import Game

__all__ = [
    "BOT_COMMANDS_PER_TASK",
    "apply_deadline",
    "bots_after_append",
    "enqueue_due_passes",
    "enqueue_waiting_bots",
    "play_bots",
    "play_delayed_pass",
    "play_standins",
]

# Bot commands per task run: a long run of bot moves is cut into tasks of this size so that one
# task never holds a worker for a whole game.
BOT_COMMANDS_PER_TASK = 200


@shared_task(
    name="games.tasks.play_bots",
    autoretry_for=(store.ConcurrencyConflict, OperationalError),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def play_bots(game_id: int) -> int:
    """Play the pending decisions of the game's bot seats; returns the commands accepted.

    Published by the relay (`Game.bots_due_at`), or run at the commit without a broker, after a
    commit that leaves a bot seat with a decision. Idempotent: a bot move is keyed
    `bot:<colour>:<seq>`, so two runs at once apply it once. When it stops at
    BOT_COMMANDS_PER_TASK with bot decisions still pending, the moves stay due (the relay
    publishes it again; without a broker it runs again at once); when none is left, the game's
    `bots_due_at` is emptied, unless a command made them due again meanwhile. While it runs it
    holds the game's bots' turn (`games.play.sql.bots_turn`): the relay does not publish it
    again meanwhile, and a second run (the sweep's) returns 0 at once.
    """
    with bots_turn(game_id) as ours:
        if not ours:  # another run plays this game's bots now, and leaves them due if it must
            return 0
        return _play_bots(game_id)


def _play_bots(game_id: int) -> int:
    """`play_bots`, holding the game's bots' turn."""
    game = Game.objects.get(pk=game_id)
    due = game.bots_due_at
    accepted = play_bots_service(game, max_commands=BOT_COMMANDS_PER_TASK)
    state, _seq = store.load(game)
    if bot_seats_pending(game, state):
        if accepted >= BOT_COMMANDS_PER_TASK:
            if through_relay():
                mark_bots_due(game_id)
            else:
                play_bots.delay(game_id)
    elif due is not None:
        _bots_done(game_id, due)
    return accepted


@shared_task(
    name="games.tasks.play_delayed_pass",
    autoretry_for=(store.ConcurrencyConflict, OperationalError),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def play_delayed_pass(clock_id: int, seq: int) -> bool:
    """Pass for a seat whose Season turn its hand leaves only the pass, once its drawn time has
    come (`games.play.delayed_passes.play_delayed_pass`); True when it played. Enqueued by the
    sweep (`enqueue_due_passes`); run twice, it acts once (the pass's key, the clock's seq)."""
    return delayed_passes.play_delayed_pass(clock_id, seq)


def enqueue_due_passes(now=None) -> int:
    """Enqueue `play_delayed_pass` for every delayed pass due (`delayed_passes.due_passes`): the
    periodic sweep's part. A task lost with the broker is enqueued again by the next sweep, the
    pass being still due. Returns how many were enqueued."""
    due = delayed_passes.due_passes(now)
    for clock_id, seq in due:
        play_delayed_pass.delay(clock_id, seq)
    return len(due)


def _bots_done(game_id: int, due) -> None:
    """Empty the game's `bots_due_at` if it is still `due` (the value the task started with): a
    command that made the bots' moves due again meanwhile wrote a new time, which stays."""
    Game.objects.filter(pk=game_id, bots_due_at=due).update(bots_due_at=None)


def enqueue_waiting_bots(*, older_than_seconds: int) -> int:
    """Enqueue `play_bots` for every game whose bot seat has waited `older_than_seconds` (seconds)
    with a decision pending (`games.play.bot_seats.games_waiting_for_bots`): the periodic sweep's rescue of
    bot moves lost with the broker. Returns how many games were enqueued."""
    game_ids = games_waiting_for_bots(older_than_seconds=older_than_seconds)
    for game_id in game_ids:
        play_bots.delay(game_id)
    return len(game_ids)


def bots_after_append(game: Game, state, *, play_bots: bool, acting=None) -> None:
    """After an append (registered with `games.play.commands.register_after_append` in
    GamesConfig.ready()): when a bot seat must decide and the command was submitted with
    play_bots, have `play_bots` run after the commit (`enqueue_after_commit`), after the acting
    player's take-back grace (`take_backs.take_back_grace`, seconds; 0 for a bot's or the
    system's command). acting: `(Seat, command_id)` of the command, None for the set-up."""
    if play_bots and bot_seats_pending(game, state):
        grace = take_back_grace(*acting) if acting else 0
        enqueue_after_commit(game.pk, grace=grace)


def enqueue_after_commit(game_id: int, *, grace: int = 0) -> None:
    """Have `play_bots` run for the game once the current transaction commits, `grace` seconds
    later (a player's time to take their move back, docs/rulings.md "Taking back a move").

    With a broker the game's bot moves are marked due in the transaction, `grace` seconds after
    the commit (`games.play.relay.mark_bots_due`), and the relay publishes the task when they are
    due: a command never talks to the broker, and a broker that is down delays the bots without
    failing the command. Without one (development, most tests: Celery runs tasks in-process),
    the task runs at the commit and there is no grace (robust: its error is logged; the sweep
    plays the bots later, `enqueue_waiting_bots`)."""
    if through_relay():
        mark_bots_due(game_id, after_seconds=grace)
    else:
        transaction.on_commit(lambda: play_bots.delay(game_id), robust=True)
