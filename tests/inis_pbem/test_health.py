"""`/healthz` tells a monitor whether games can be played by email now: the database, Redis and
its queue, and mail that is not going out — and shows nothing secret (docs/operations.md)."""
from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import OperationalError
from django.utils import timezone

from notifications.models import Outbox

SECRET_LOOKING = ("password", "secret", "postgres://", "redis://", "127.0.0.1", "Error", "Traceback")


def get(client) -> tuple[int, dict, str]:
    response = client.get("/healthz")
    body = response.content.decode()
    return response.status_code, json.loads(body), body


def pending_mail(age_seconds: int) -> Outbox:
    row = Outbox.objects.create(kind=Outbox.Kind.PROMPT, seq=1, to_email="player1@example.org",
                                subject="Your move", body_text="...")
    Outbox.objects.filter(pk=row.pk).update(created_at=timezone.now() - timedelta(seconds=age_seconds))
    return row


def test_a_healthy_deployment_without_redis_answers_200(client, settings, db):
    settings.REDIS_URL = None

    status, report, _ = get(client)

    assert status == 200
    assert report == {"ok": True, "database": "ok", "redis": "not used", "queue_length": None,
                      "undelivered_mail": 0, "oldest_undelivered_mail_seconds": None,
                      "mail_delayed": False}


def test_mail_stuck_longer_than_three_resend_periods_is_unhealthy(client, settings, db):
    settings.REDIS_URL, settings.OUTBOX_RESEND_AFTER = None, 300
    pending_mail(age_seconds=60)
    assert get(client)[0] == 200  # young mail is mail on its way

    pending_mail(age_seconds=3600)
    status, report, _ = get(client)

    assert status == 503 and not report["ok"]
    assert report["undelivered_mail"] == 2 and report["mail_delayed"]
    assert 3590 <= report["oldest_undelivered_mail_seconds"] <= 3700


def test_sent_mail_is_not_undelivered(client, settings, db):
    settings.REDIS_URL = None
    Outbox.objects.filter(pk=pending_mail(age_seconds=3600).pk).update(status=Outbox.Status.SENT)

    assert get(client)[1]["undelivered_mail"] == 0


def test_a_database_that_does_not_answer_is_reported_without_its_error(client, settings, db,
                                                                        monkeypatch):
    settings.REDIS_URL = None

    def refuse(*args, **kwargs):
        raise OperationalError("could not connect to server: password authentication failed "
                               "for user inis at 127.0.0.1")

    with monkeypatch.context() as patched:  # undone before the test database is torn down
        patched.setattr("inis_pbem.health.connection.cursor", refuse)
        status, report, body = get(client)

    assert status == 503 and report["database"] == "failing"
    assert not any(word in body for word in SECRET_LOOKING)


def test_redis_that_does_not_answer_is_reported_without_its_address(client, settings, db):
    settings.REDIS_URL = "redis://:s3cret-password@127.0.0.1:1/0"  # nothing listens on port 1

    status, report, body = get(client)

    assert status == 503
    assert report["redis"] == "failing" and report["queue_length"] is None
    assert not any(word in body for word in SECRET_LOOKING)


@pytest.mark.redis
def test_the_queue_length_counts_the_tasks_waiting(client, settings, db):
    import os

    import redis

    settings.REDIS_URL = os.environ["REDIS_URL"]
    settings.CELERY_TASK_DEFAULT_QUEUE = queue = "healthz-test-queue"
    broker = redis.Redis.from_url(settings.REDIS_URL)
    broker.delete(queue, f"{queue}\x06\x163")
    try:
        broker.rpush(queue, "task-1", "task-2")
        broker.rpush(f"{queue}\x06\x163", "task-3")  # a task of another priority step

        status, report, _ = get(client)

        assert status == 200 and report["redis"] == "ok" and report["queue_length"] == 3
    finally:
        broker.delete(queue, f"{queue}\x06\x163")


def test_only_get_and_head(client, settings, db):
    settings.REDIS_URL = None
    assert client.post("/healthz").status_code == 405
    assert client.head("/healthz").status_code == 200
    assert "no-cache" in client.get("/healthz")["Cache-Control"]
