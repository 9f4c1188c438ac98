"""Bots that play to win play a whole game through the real worker (issue 28).

A game of bot seats only, one `easy` and one `random` (two players: fewer decisions), is created
through the service with its bots' task sent through Redis; a Celery worker process of its own
plays every move (`games.tasks.play_bots`, re-enqueued every `BOT_COMMANDS_PER_TASK` commands),
each decided outside the game's row lock and submitted with its expected seq, until the High King
is elected; with a broker, a command leaves the bots' task to the outbox relay. The log verifies, and every command is a bot's, keyed `bot:<colour>:<seq>`. The
worker's path is the same for every level (`games.play.bot_seats.bot_command`); `hard` thinks up
to a second a decision, so a whole game of it through a worker takes a quarter of an hour on this
machine: its decisions are checked in tests/bots/, its cost in the bench (`python -m bench.bots`).
"""

from __future__ import annotations

import uuid

import pytest

from games import services
from games.models import Command, Game
from games.store.verification import verify_game
from tests.faults.processes import wait_until

pytestmark = [
    pytest.mark.slow,
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
]


def test_bots_that_play_to_win_play_a_whole_game_through_the_worker(
    own_redis, broker_at, start_worker, start_relay
):
    queue = f"bots-{uuid.uuid4().hex}"
    broker_at(own_redis.url, queue)
    start_worker(own_redis.url, queue, CELERY_QUEUE=queue)
    start_relay(own_redis.url, queue)  # a command leaves its bots' task to the relay
    game = services.create_game(
        seats=[
            services.SeatSpec(is_bot=True, bot_level="easy"),
            services.SeatSpec(is_bot=True, bot_level="random"),
        ],
        seed="bots-through-the-worker",
    )

    def over() -> bool:
        game.refresh_from_db()
        return game.status == Game.Status.OVER

    wait_until(over, timeout=600, what="the worker's bots to finish the game", interval=1.0)
    assert game.winner in {"green", "blue"}
    commands = Command.objects.filter(game=game)
    assert commands.exists()
    assert all(c.command_id == f"bot:{c.seat.colour}:{c.first_seq - 1}" for c in commands)
    assert {c.seat.bot_level for c in commands} == {"easy", "random"}
    report = verify_game(game)
    assert report.ok, report.lines()
