"""Celery tasks of the games app (they take ids, call a service, and may run more than once)."""
from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from games import store
from games.bots import games_waiting_for_bots, play_bots as play_bots_service
from games.models import Game
from games.services import bot_seats_pending

# Bot commands per task run: a long run of bot moves is cut into tasks of this size so that one
# task never holds a worker for a whole game.
BOT_COMMANDS_PER_TASK = 200


@shared_task(
    autoretry_for=(store.ConcurrencyConflict, OperationalError),
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def play_bots(game_id: int) -> int:
    """Play the pending decisions of the game's bot seats; returns the commands accepted.

    Enqueued after a commit that leaves a bot seat with a decision. Idempotent: a bot move is keyed
    `bot:<colour>:<seq>`, so two runs at once apply it once. Re-enqueues itself when it stops at
    BOT_COMMANDS_PER_TASK with bot decisions still pending.
    """
    game = Game.objects.get(pk=game_id)
    accepted = play_bots_service(game, max_commands=BOT_COMMANDS_PER_TASK)
    if accepted >= BOT_COMMANDS_PER_TASK:
        state, _seq = store.load(game)
        if bot_seats_pending(game, state):
            play_bots.delay(game_id)
    return accepted


def enqueue_waiting_bots(*, older_than_seconds: int) -> int:
    """Enqueue `play_bots` for every game whose bot seat has waited `older_than_seconds` (seconds)
    with a decision pending (`games.bots.games_waiting_for_bots`): the periodic sweep's rescue of
    bot moves lost with the broker. Returns how many games were enqueued."""
    game_ids = games_waiting_for_bots(older_than_seconds=older_than_seconds)
    for game_id in game_ids:
        play_bots.delay(game_id)
    return len(game_ids)
