"""Delivery through the real broker: the relay publishes the outbox rows a command wrote, and a
Celery worker consuming Redis sends them."""

from __future__ import annotations

import time
import uuid

import pytest
from celery.contrib.testing.worker import start_worker

from inis_pbem.celery import app as celery_app
from notifications.models import Outbox
from tests.relay import running_relay


@pytest.mark.redis
@pytest.mark.django_db(transaction=True)
def test_an_outbox_row_is_delivered_by_a_worker_through_redis(settings):
    from games.services import SeatSpec, create_game

    settings.EMAIL_BACKEND = "notifications.backends.DevMailboxBackend"
    queue = f"test-{uuid.uuid4().hex}"  # a queue of our own: nothing left by other runs
    conf = celery_app.conf
    saved = (conf.task_always_eager, conf.task_default_queue)
    conf.task_always_eager = False
    conf.task_default_queue = queue
    try:
        with (
            start_worker(
                celery_app, pool="solo", perform_ping_check=False, queues=[queue], shutdown_timeout=30
            ),
            running_relay(),
        ):
            create_game(
                seats=[SeatSpec(email="me@example.org"), SeatSpec(email="you@example.org")], seed="broker"
            )
            deadline = time.monotonic() + 30
            while time.monotonic() < deadline:
                if not Outbox.objects.exclude(status=Outbox.Status.SENT).exists():
                    break
                time.sleep(0.2)
    finally:
        conf.task_always_eager, conf.task_default_queue = saved
    rows = list(Outbox.objects.all())
    assert rows and all(r.status == Outbox.Status.SENT for r in rows), [
        (r.pk, r.status, r.last_error) for r in rows
    ]
