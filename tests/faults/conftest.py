"""Fault-test fixtures: a Redis server of the test's own (`own_redis`), the Celery producer
pointed at it (`broker_at`), worker processes (`start_worker`), relay processes (`start_relay`);
see tests/faults/processes.py."""

from __future__ import annotations

import shutil

import pytest

from inis_pbem.celery import app as celery_app
from tests.faults.processes import RedisServer, Relay, Worker


@pytest.fixture
def own_redis(tmp_path):
    if shutil.which("redis-server") is None:
        pytest.skip("redis-server is not installed")
    server = RedisServer(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def broker_at():
    """broker_at(url, queue): point this process's Celery producer at `url`/`queue`, tasks sent
    for real (not in-process); restored afterwards."""
    conf = celery_app.conf
    saved = (conf.broker_url, conf.task_always_eager, conf.task_default_queue)

    def reset_pools():
        celery_app._pool = None
        celery_app.amqp._producer_pool = None

    def point(url: str, queue: str) -> None:
        conf.broker_url = url
        conf.task_always_eager = False
        conf.task_default_queue = queue
        reset_pools()

    yield point
    conf.broker_url, conf.task_always_eager, conf.task_default_queue = saved
    reset_pools()


@pytest.fixture
def start_worker(tmp_path):
    """start_worker(broker_url, queue, **env) -> Worker (started; stopped at the end of the test)."""
    workers = []

    def start(broker_url: str, queue: str, **env) -> Worker:
        worker = Worker(
            broker_url=broker_url,
            queue=queue,
            mail_log=tmp_path / "mail.log",
            env={k: str(v) for k, v in env.items()},
        )
        worker.start()
        workers.append(worker)
        return worker

    yield start
    for worker in workers:
        worker.stop()


@pytest.fixture
def start_relay():
    """start_relay(broker_url, queue, **env) -> Relay (started; stopped at the end of the test)."""
    relays = []

    def start(broker_url: str, queue: str, **env) -> Relay:
        relay = Relay(broker_url=broker_url, queue=queue, env={k: str(v) for k, v in env.items()})
        relay.start()
        relays.append(relay)
        return relay

    yield start
    for relay in relays:
        relay.stop()
