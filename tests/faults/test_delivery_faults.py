"""Delivery survives what goes wrong between a committed command and the player's inbox.

Real PostgreSQL, a Redis server, the outbox relay and a Celery worker process started by each
test (never the shared Redis on 6379), and a recording provider (tests/faults/mailer.py). In
every case the events are all in the log and every prompt row reaches the provider exactly once:

- the broker stopped while commands commit, then restarted: the commands stand, and their rows,
  re-enqueued by hand as well as published by the relay, are each sent once;
- the worker process running a send killed (SIGKILL) in the middle of it, before the provider
  took it: the task, acknowledged only after it ran, is run again by a new pool process, which
  finds the row handed over and leaves it for OUTBOX_HAND_OFF_WAIT; then it is sent once;
- the provider timing out on the first two attempts of every message: the task retries (backoff)
  and each message is sent once;
- the worker's database connection dropped between two tasks (pg_terminate_backend): the next
  delivery checks the connection before its first query (CONN_HEALTH_CHECKS), opens a new one
  and sends the row once.
"""

from __future__ import annotations

import os
import signal
import uuid

import psycopg
import pytest
from django.db import connection

from games import store
from games.models import Event
from games.services import SeatSpec, create_game
from notifications.models import Outbox
from notifications.tasks import deliver
from tests.faults.mailer import read_log
from tests.faults.processes import assert_each_prompt_sent_once, wait_until

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]

PLAYERS = [SeatSpec(email=f"fault{i}@example.org") for i in range(1, 5)]


def new_games(count: int, prefix: str) -> list:
    return [create_game(seats=PLAYERS, seed=f"{prefix}-{i}") for i in range(count)]


def on_own_redis(own_redis, broker_at, start_worker, start_relay, **env):
    """Send tasks to a fresh queue on the test's own Redis, and start the relay and a worker on it
    (`env`: the recording provider's faults, tests/faults/mailer.py)."""
    queue = f"faults-{uuid.uuid4().hex}"
    broker_at(own_redis.url, queue)
    start_relay(own_redis.url, queue)
    return start_worker(own_redis.url, queue, **env)


def settled(rows) -> bool:
    return not Outbox.objects.filter(pk__in=[r.pk for r in rows], status="pending").exists()


def outbox_of(games) -> list:
    return list(Outbox.objects.filter(game__in=games).order_by("pk"))


def test_broker_stopped_and_restarted_loses_no_event_and_no_prompt(
    own_redis, broker_at, start_worker, start_relay, tmp_path
):
    on_own_redis(own_redis, broker_at, start_worker, start_relay)
    before = new_games(2, "broker-up")
    wait_until(lambda: settled(outbox_of(before)), timeout=60, what="the first prompts to be sent")

    own_redis.stop()
    during = new_games(2, "broker-down")  # commits; their on-commit enqueue fails (logged)
    assert all(store.head(g)[0] > 0 for g in during)
    rows = outbox_of(during)
    assert rows and all(r.status == "pending" for r in rows)

    own_redis.start()  # an empty broker: the tasks sent while it was down are gone
    for row in rows:  # what the outbox sweep does for rows left pending
        deliver.delay(row.pk)
    wait_until(lambda: settled(rows), timeout=90, what="the prompts written while the broker was down")
    assert_each_prompt_sent_once(outbox_of(before + during), tmp_path / "mail.log")
    for game in before + during:
        assert Event.objects.filter(game=game).count() == store.head(game)[0]


def test_a_worker_killed_during_a_send_sends_the_prompt_once(
    own_redis, broker_at, start_worker, start_relay, tmp_path
):
    # The send was handed over when the kill came: sent again once OUTBOX_HAND_OFF_WAIT passed.
    worker = on_own_redis(
        own_redis, broker_at, start_worker, start_relay, FAULT_MAIL_DELAY=2, OUTBOX_HAND_OFF_WAIT=3
    )
    games = new_games(1, "killed")
    log = tmp_path / "mail.log"
    started = wait_until(
        lambda: [e for e in read_log(log) if e["event"] == "start"], timeout=60, what="a send to start"
    )
    os.kill(started[0]["pid"], signal.SIGKILL)  # the pool process, in the middle of the send
    rows = outbox_of(games)
    wait_until(lambda: settled(rows), timeout=90, what="the prompt to be sent after the kill")
    assert worker.process.poll() is None, "the worker itself must survive the loss of a pool process"
    assert_each_prompt_sent_once(outbox_of(games), log)


def test_the_provider_timing_out_is_retried_until_each_prompt_is_sent_once(
    own_redis, broker_at, start_worker, start_relay, tmp_path
):
    # Retries 2 s, then 4 s apart (docs/operations.md's doubling from OUTBOX_RETRY_FIRST_DELAY),
    # not 30 s and 60 s: the same behaviour, in seconds.
    on_own_redis(
        own_redis, broker_at, start_worker, start_relay, FAULT_MAIL_TIMEOUTS=2, OUTBOX_RETRY_FIRST_DELAY=2
    )
    games = new_games(2, "timeouts")
    rows = outbox_of(games)
    wait_until(lambda: settled(rows), timeout=120, what="the prompts to be sent after time-outs")
    log = read_log(tmp_path / "mail.log")
    assert sum(e["event"] == "timeout" for e in log) == 2 * len(rows)
    assert_each_prompt_sent_once(outbox_of(games), tmp_path / "mail.log")
    assert all(r.attempts >= 1 for r in outbox_of(games))


def test_a_dropped_database_connection_in_the_worker_loses_no_prompt(
    own_redis, broker_at, start_worker, start_relay, tmp_path
):
    on_own_redis(own_redis, broker_at, start_worker, start_relay)
    first = new_games(1, "drop-first")
    wait_until(lambda: settled(outbox_of(first)), timeout=60, what="the first prompt to be sent")

    # The worker keeps its connection between tasks (CELERY_DB_REUSE_MAX): drop it there.
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
    assert dropped, "the worker had no open connection to drop"
    second = new_games(1, "drop-second")
    wait_until(lambda: settled(outbox_of(second)), timeout=90, what="the prompt after the drop")
    assert_each_prompt_sent_once(outbox_of(first + second), tmp_path / "mail.log")
