"""`/healthz` tells a monitor whether games can be played by email now: the database, Redis and
its queue, and mail that is not going out — and shows nothing secret (docs/operations.md). To
anybody it says only whether all is well; the report (queue length, mail waiting) is for a
signed-in staff user, or a monitor sending HEALTHZ_TOKEN."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.db import OperationalError
from django.utils import timezone

from notifications.models import Outbox

SECRET_LOOKING = ("password", "secret", "postgres://", "redis://", "127.0.0.1", "Error", "Traceback")
TOKEN = "monitor-" + "k7Qz" * 8


@pytest.fixture(autouse=True)
def monitor_token(settings):
    settings.HEALTHZ_TOKEN = TOKEN


def get(client, **headers) -> tuple[int, dict, str]:
    """The report, as the monitor holding the token reads it (unless other `headers` are given)."""
    response = client.get("/healthz", **(headers or {"HTTP_AUTHORIZATION": f"Bearer {TOKEN}"}))
    body = response.content.decode()
    return response.status_code, json.loads(body), body


def pending_mail(age_seconds: int) -> Outbox:
    row = Outbox.objects.create(
        kind=Outbox.Kind.PROMPT, seq=1, to_email="player1@example.org", subject="Your move", body_text="..."
    )
    Outbox.objects.filter(pk=row.pk).update(created_at=timezone.now() - timedelta(seconds=age_seconds))
    return row


def test_a_healthy_deployment_without_redis_answers_200(client, settings, db):
    settings.REDIS_URL = None

    status, report, _ = get(client)

    assert status == 200
    assert report == {
        "ok": True,
        "database": "ok",
        "redis": "not used",
        "queue_length": None,
        "undelivered_mail": 0,
        "failed_mail": 0,
        "oldest_undelivered_mail_seconds": None,
        "mail_delayed": False,
    }


def test_mail_stuck_longer_than_three_resend_periods_is_unhealthy(client, settings, db):
    settings.REDIS_URL, settings.OUTBOX_RESEND_AFTER = None, 300
    pending_mail(age_seconds=60)
    assert get(client)[0] == 200  # young mail is mail on its way

    pending_mail(age_seconds=3600)
    status, report, _ = get(client)

    assert status == 503 and not report["ok"]
    assert report["undelivered_mail"] == 2 and report["mail_delayed"]
    assert 3590 <= report["oldest_undelivered_mail_seconds"] <= 3700


def test_failed_mail_is_counted_and_unhealthy_once_old(client, settings, db):
    """The mail server was down long enough for the delivery task to give up: the email is not
    lost (the sweep tries again), and the monitor sees it waiting."""
    settings.REDIS_URL, settings.OUTBOX_RESEND_AFTER = None, 300
    Outbox.objects.filter(pk=pending_mail(age_seconds=600).pk).update(status=Outbox.Status.FAILED)
    status, report, _ = get(client)
    assert status == 200 and (report["undelivered_mail"], report["failed_mail"]) == (1, 1)

    Outbox.objects.update(created_at=timezone.now() - timedelta(seconds=3600))
    status, report, _ = get(client)
    assert status == 503 and report["mail_delayed"] and report["failed_mail"] == 1


def test_an_email_held_on_purpose_waits_from_when_it_is_due(client, settings, db):
    """docs/operations.md, "Watching it": a decision's email held after its push (`not_before`,
    "after 30 minutes if still open") is no stuck mail: written an hour ago and due in ten
    minutes, it keeps the site healthy; due an hour ago and still unsent, it does not."""
    settings.REDIS_URL, settings.OUTBOX_RESEND_AFTER = None, 300
    held = pending_mail(age_seconds=3600)
    Outbox.objects.filter(pk=held.pk).update(not_before=timezone.now() + timedelta(minutes=10))
    status, report, _ = get(client)
    assert status == 200 and report["undelivered_mail"] == 1
    assert report["oldest_undelivered_mail_seconds"] is None and not report["mail_delayed"]

    Outbox.objects.filter(pk=held.pk).update(not_before=timezone.now() - timedelta(minutes=2))
    assert get(client)[0] == 200 and 100 <= get(client)[1]["oldest_undelivered_mail_seconds"] <= 200

    Outbox.objects.filter(pk=held.pk).update(not_before=timezone.now() - timedelta(hours=1))
    status, report, _ = get(client)
    assert status == 503 and report["mail_delayed"]


def test_sent_mail_is_not_undelivered(client, settings, db):
    settings.REDIS_URL = None
    Outbox.objects.filter(pk=pending_mail(age_seconds=3600).pk).update(status=Outbox.Status.SENT)

    assert get(client)[1]["undelivered_mail"] == 0


def test_a_database_that_does_not_answer_is_reported_without_its_error(client, settings, db, monkeypatch):
    settings.REDIS_URL = None

    def refuse(*args, **kwargs):
        raise OperationalError(
            "could not connect to server: password authentication failed for user inis at 127.0.0.1"
        )

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


# --- Who reads the report -----------------------------------------------------------------------


def test_anybody_reads_only_whether_all_is_well(client, settings, db):
    settings.REDIS_URL, settings.OUTBOX_RESEND_AFTER = None, 300
    pending_mail(age_seconds=60)

    assert get(client, HTTP_ACCEPT="application/json")[1:] == ({"ok": True}, '{"ok": true}')
    pending_mail(age_seconds=3600)
    assert get(client, HTTP_ACCEPT="application/json")[:2] == (503, {"ok": False})


def test_a_wrong_token_or_a_signed_in_player_reads_only_whether_all_is_well(client, settings, db):
    from players.accounts import user_for_email

    settings.REDIS_URL = None
    for wrong in (f"Bearer {TOKEN}x", TOKEN, "Bearer ", f"Basic {TOKEN}"):
        assert get(client, HTTP_AUTHORIZATION=wrong)[1] == {"ok": True}, wrong
    client.force_login(user_for_email("player@example.org"))
    assert get(client, HTTP_ACCEPT="application/json")[1] == {"ok": True}


def test_without_a_token_setting_no_header_opens_the_report(client, settings, db):
    settings.REDIS_URL, settings.HEALTHZ_TOKEN = None, None
    assert get(client, HTTP_AUTHORIZATION="Bearer ")[1] == {"ok": True}
    assert get(client, HTTP_AUTHORIZATION="Bearer None")[1] == {"ok": True}


def test_a_signed_in_staff_user_reads_the_report(client, settings, db):
    from players.accounts import user_for_email

    settings.REDIS_URL = None
    staff = user_for_email("operator@example.org")
    staff.is_staff = True
    staff.save(update_fields=["is_staff"])
    client.force_login(staff)

    status, report, _ = get(client, HTTP_ACCEPT="application/json")

    assert status == 200 and report["undelivered_mail"] == 0 and report["redis"] == "not used"
