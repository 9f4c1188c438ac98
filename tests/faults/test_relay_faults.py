"""After each fault the game moves on within 10 seconds of the fault's end (issue 30), with the
outbox relay (`manage.py relay_outbox`) publishing what commands committed: nothing lost, nothing
doubled.

Real PostgreSQL, a Redis server of the test's own, the relay and Celery worker processes, and a
recording provider (tests/faults/mailer.py). The relay runs as a deployment would, but polls
every second and publishes a lost task again after 1, 2, then 4 seconds (tests/faults/processes.py,
`Relay`). The faults:

- the worker killed (SIGKILL of the worker and its pool) in the middle of a send, and started
  again: its task is stuck unacknowledged in the broker for an hour, the relay publishes the rows
  again, and the new worker sends them (the one handed over once OUTBOX_HAND_OFF_WAIT passed);
- the same with a second worker already running (docs/scaling.md): it takes the work at once;
- Redis down while commands commit (player moves, and a move leaving bots to act), then back;
- a web process killed right after its command committed (the relay publishes what it wrote);
- every database connection of the relay and the worker terminated (pg_terminate_backend);
- a worker killed inside the send, just after the provider took the message: the provider's
  tracking report says it has it, and it is not sent again.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import uuid

import psycopg
import pytest
from django.db import connection

from games import store
from games.models import Command
from games.play.bot_seats import bot_seats_pending
from games.services import SeatSpec, create_game, submit_command
from notifications.models import Outbox
from tests.faults.mailer import read_log
from tests.faults.processes import REPO, assert_each_prompt_sent_once, database_url_for_processes, wait_until
from tests.notifications.email_positions import MIGRATION, game_from

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

PLAYERS = [SeatSpec(email=f"relay{i}@example.org") for i in range(1, 5)]
GOAL = 10.0  # seconds from the fault's end until the game has moved on


def settled(games) -> bool:
    return not Outbox.objects.filter(game__in=games, status=Outbox.Status.PENDING).exists()


def rows_of(games) -> list:
    return list(Outbox.objects.filter(game__in=games).order_by("pk"))


def moved_on_within_goal(predicate, what: str, since: float) -> float:
    """Wait for `predicate` (with room to fail clearly) and return the seconds since `since`."""
    wait_until(predicate, timeout=GOAL + 50, what=what)
    took = time.monotonic() - since
    assert took <= GOAL, f"{what}: {took:.1f} s after the fault's end (goal: {GOAL:.0f} s)"
    return took


@pytest.fixture
def service(own_redis, broker_at, start_worker, start_relay, tmp_path):
    """The relay and a worker on a queue of the test's own Redis; returns `(queue, mail log)`."""
    queue = f"relay-faults-{uuid.uuid4().hex}"
    broker_at(own_redis.url, queue)
    start_relay(own_redis.url, queue)
    return queue, tmp_path / "mail.log"


def new_games(count: int, prefix: str) -> list:
    return [create_game(seats=PLAYERS, seed=f"{prefix}-{i}") for i in range(count)]


def test_a_worker_killed_while_delivering_then_restarted(service, own_redis, start_worker):
    queue, log = service
    dying = start_worker(own_redis.url, queue, FAULT_MAIL_DELAY=3600)
    games = new_games(2, "worker-killed")
    wait_until(
        lambda: [e for e in read_log(log) if e["event"] == "start"], timeout=60, what="a send to start"
    )
    os.killpg(dying.process.pid, signal.SIGKILL)  # the worker and its pool, mid-send
    dying.process.wait(timeout=30)

    start_worker(own_redis.url, queue, OUTBOX_HAND_OFF_WAIT=2)
    restarted = time.monotonic()
    moved_on_within_goal(lambda: settled(games), "every prompt sent after the worker's restart", restarted)
    assert_each_prompt_sent_once(rows_of(games), log)


def test_a_worker_killed_while_a_second_one_runs_stalls_for_seconds(service, own_redis, start_worker):
    """docs/scaling.md: two worker processes (or nodes) on the queue. One is killed mid-send;
    the other, already running, takes its work as soon as the relay publishes it again, without
    waiting for a worker to boot (5-11 s on this machine)."""
    queue, log = service
    dying = start_worker(own_redis.url, queue, FAULT_MAIL_DELAY=3600)
    games = new_games(2, "second-worker")
    wait_until(
        lambda: any(e["event"] == "start" and e["pid"] in dying.children() for e in read_log(log)),
        timeout=60,
        what="the first worker to start a send",
    )
    second = start_worker(own_redis.url, queue, OUTBOX_HAND_OFF_WAIT=2)
    wait_until(lambda: second.children(), timeout=60, what="the second worker's pool")
    time.sleep(2)  # its consumer connected: it is running, as a second node would be
    os.killpg(dying.process.pid, signal.SIGKILL)  # the worker and its pool, mid-send
    killed = time.monotonic()
    dying.process.wait(timeout=30)
    moved_on_within_goal(lambda: settled(games), "every prompt sent by the second worker", killed)
    assert_each_prompt_sent_once(rows_of(games), log)


def test_redis_down_while_moves_commit(service, own_redis, start_worker):
    queue, log = service
    start_worker(own_redis.url, queue)
    own_redis.stop()
    games = new_games(2, "redis-down")  # committed; the relay cannot publish
    time.sleep(3)
    assert not settled(games)
    own_redis.start()
    back = time.monotonic()
    moved_on_within_goal(lambda: settled(games), "every prompt sent after Redis came back", back)
    assert_each_prompt_sent_once(rows_of(games), log)


def test_redis_down_when_a_move_leaves_the_bots_to_act(service, own_redis, start_worker, settings):
    # The fault's stall alone: the bots' take-back grace after a person's move (docs/rulings.md)
    # is a wait the player chose, measured in tests/games/play/test_take_backs.py.
    settings.BOT_TAKE_BACK_GRACE = 0
    queue, _log = service
    start_worker(own_redis.url, queue)
    game = game_from(MIGRATION, seed="relay-bots-redis-down", players=1, bots=3)
    state, seq = store.load(game)
    own_redis.stop()
    result = submit_command(
        game=game, seat=game.seats.get(colour="green"), command={"type": "pass"}, expected_seq=seq
    )
    assert result.accepted
    _state, after_pass = store.load(game)
    time.sleep(2)
    own_redis.start()
    back = time.monotonic()

    def bots_moved() -> bool:
        now, head = store.load(game)
        return head > after_pass and not bot_seats_pending(game, now)

    moved_on_within_goal(bots_moved, "the bots to play after Redis came back", back)
    bot_moves = Command.objects.filter(game=game, first_seq__gt=after_pass)
    assert not bot_moves.filter(seat__colour="green").exists()
    assert bot_moves.count() == len(set(bot_moves.values_list("first_seq", flat=True)))


def test_a_web_process_killed_right_after_its_commit(service, own_redis, start_worker):
    queue, log = service
    start_worker(own_redis.url, queue)
    code = (
        "import os, signal, django; django.setup()\n"
        "from games.services import SeatSpec, create_game\n"
        "create_game(seats=[SeatSpec(email=f'web{i}@example.org') for i in range(4)], seed='web-killed')\n"
        "os.kill(os.getpid(), signal.SIGKILL)\n"  # after the commit: nothing after it runs
    )
    env = dict(
        os.environ,
        DATABASE_URL=database_url_for_processes(),
        REDIS_URL=own_redis.url,
        CELERY_QUEUE=queue,
        DJANGO_SETTINGS_MODULE="inis_pbem.settings",
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, env=env, timeout=120)
    assert done.returncode == -signal.SIGKILL
    killed = time.monotonic()
    rows = list(Outbox.objects.filter(to_email__startswith="web"))
    assert rows
    moved_on_within_goal(
        lambda: not Outbox.objects.filter(pk__in=[r.pk for r in rows], status="pending").exists(),
        "the killed process's prompts to be sent",
        killed,
    )
    assert_each_prompt_sent_once(list(Outbox.objects.filter(pk__in=[r.pk for r in rows])), log)


def test_every_database_connection_terminated(service, own_redis, start_worker):
    queue, log = service
    start_worker(own_redis.url, queue)  # it keeps its connection (DB_CONN_MAX_AGE=60)
    first = new_games(1, "terminated-before")
    wait_until(lambda: settled(first), timeout=60, what="the first prompts to be sent")
    name = connection.settings_dict["NAME"]
    with psycopg.connect(
        host=connection.settings_dict["HOST"],
        port=connection.settings_dict["PORT"] or 5432,
        user=connection.settings_dict["USER"],
        dbname=name,
        autocommit=True,
    ) as admin:
        dropped = admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s AND pid <> %s "
            "AND pid <> pg_backend_pid()",
            (name, connection.connection.info.backend_pid),
        ).fetchall()
    assert len(dropped) >= 3, "the relay (two connections) and the worker had connections to drop"
    ended = time.monotonic()
    second = new_games(1, "terminated-after")
    moved_on_within_goal(lambda: settled(second), "the prompts after the connections were dropped", ended)
    assert_each_prompt_sent_once(rows_of(first + second), log)


def test_a_worker_killed_just_after_the_provider_took_a_message_does_not_send_it_again(
    service, own_redis, start_worker
):
    queue, log = service
    start_worker(
        own_redis.url,
        queue,
        FAULT_MAIL_DIE_AFTER_SEND=1,
        FAULT_MAIL_TRACKING=1,
        MAIL_TRACKING=1,
        OUTBOX_HAND_OFF_WAIT=2,
    )
    games = new_games(1, "handed-over")
    wait_until(lambda: settled(games), timeout=60, what="every prompt to be sent or found sent")
    rows = rows_of(games)
    first = [e for e in read_log(log) if e["event"] == "sent"][0]["message_id"]
    handed = next(r for r in rows if r.headers.get("Message-ID") == first)
    assert handed.status == "sent" and handed.provider_seen_at is not None
    assert_each_prompt_sent_once(rows, log)  # the first one too: once
