"""A bot's move lost with the broker is played by the next sweep, once.

With the fixtures of this directory (a Redis server of the test's own, real worker processes
against the test database): a player's move commits while the broker is down and leaves only bot
seats to act. The bots' task, enqueued after the commit, is lost; the broker comes back empty.
The one periodic task, `notifications.tasks.sweep`, sent through the broker as beat sends it, must
find the game and have its bots play, and a second sweep at the same time must not play any bot
move twice.
"""

from __future__ import annotations

import uuid
from collections import Counter

import pytest

from games import rules, store
from games.models import Command
from games.play.bot_seats import bot_seats_pending
from games.services import submit_command
from games.store.verification import verify_game
from inis_pbem.tasks import sweep
from tests.faults.processes import wait_until
from tests.notifications.email_positions import MIGRATION, game_from

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def test_bot_moves_lost_with_the_broker_are_played_by_one_sweep_once(own_redis, broker_at, start_worker):
    queue = f"bots-{uuid.uuid4().hex}"
    broker_at(own_redis.url, queue)
    # Green (a player) to play in the Season; blue, orange and white are bots.
    game = game_from(MIGRATION, seed="bots-broker-down", players=1, bots=3)
    state, seq = store.load(game)
    assert [d.seat for d in rules.pending(state)] == ["green"]

    own_redis.stop()
    green = game.seats.get(colour="green")
    result = submit_command(game=game, seat=green, command={"type": "pass"}, expected_seq=seq)
    assert result.accepted  # a broker outage never refuses a move
    state, after_pass = store.load(game)
    assert bot_seats_pending(game, state)  # only bots are to act now...
    assert "green" not in {d.seat for d in rules.pending(state)}
    own_redis.start()  # ...and the task that would have played them is gone
    assert store.head(game)[0] == after_pass

    start_worker(own_redis.url, queue, OUTBOX_RESEND_AFTER=0, CELERY_QUEUE=queue)
    sweep.delay()
    sweep.delay()  # a second sweep at once: each bot move is still played once

    def moved_on() -> bool:
        now, head = store.load(game)
        return head > after_pass and not bot_seats_pending(game, now)

    wait_until(moved_on, timeout=120, what="the sweep to have the bots play")
    bot_moves = Command.objects.filter(game=game, first_seq__gt=after_pass)
    assert bot_moves.exists() and not bot_moves.filter(seat__colour="green").exists()
    assert max(Counter(bot_moves.values_list("first_seq", flat=True)).values()) == 1
    report = verify_game(game)
    assert report.ok, report.lines()
