"""A failed email is not lost: the sweep tries it again with backoff, /healthz counts it, and an
operator can send it again from the admin (notifications.outbox: `retry_failed`, `send_again`).

The case the operator fears: the outgoing mail server is down for an hour. The delivery task
retries on its own and gives up (the row FAILED); the sweep, every minute, tries it again when
its delay has passed, doubling the delay up to OUTBOX_RETRY_MAX_DELAY; once the server is back the email
goes out, once.
"""

from __future__ import annotations

import smtplib
from datetime import timedelta

import pytest
from django.core.mail.backends.locmem import EmailBackend as MemoryBackend
from django.utils import timezone

from inis_pbem.celery import app as celery_app
from inis_pbem.tasks import sweep
from notifications import outbox
from notifications.models import Outbox

pytestmark = pytest.mark.django_db


class MailServer(MemoryBackend):
    """The outgoing mail server: refuses every connection while `down`, else accepts the message
    (kept in `django.core.mail.outbox`, as the test backend does)."""

    down = False
    refused = 0

    def send_messages(self, messages):
        if MailServer.down:
            MailServer.refused += 1
            raise smtplib.SMTPConnectError(421, "Service not available")
        return super().send_messages(messages)


@pytest.fixture
def mail_server(settings):
    settings.EMAIL_BACKEND = f"{__name__}.MailServer"
    MailServer.down, MailServer.refused = False, 0
    yield MailServer
    MailServer.down = False


@pytest.fixture
def clock(monkeypatch):
    """A settable now: `clock.advance(seconds)`; every `timezone.now()` reads it."""

    class Clock:
        now = timezone.now()

        def advance(self, seconds: float) -> None:
            Clock.now += timedelta(seconds=seconds)

    monkeypatch.setattr(timezone, "now", lambda: Clock.now)
    return Clock()


def answer(to: str = "player1@example.org") -> Outbox:
    return Outbox.objects.create(
        kind=Outbox.Kind.ANSWER, seq=0, to_email=to, subject="Accepted", body_text="Your move was played."
    )


def test_a_mail_server_down_for_an_hour_loses_no_email(
    mail_server, clock, celery_in_process, settings, django_capture_on_commit_callbacks
):
    from django.core import mail

    settings.OUTBOX_RESEND_AFTER = 300
    # As in a worker: a task retries on its own (here at once), and its failure stays in it
    # (the sweep only queues tasks). celery_in_process restores the setting.
    celery_app.conf.task_eager_propagates = False
    mail_server.down = True
    row = answer()
    with django_capture_on_commit_callbacks(execute=True):
        outbox.schedule([row.pk])  # as a command does, after its commit: refused, retries spent
    row.refresh_from_db()
    assert row.status == Outbox.Status.FAILED
    assert row.retry_at == clock.now + timedelta(seconds=outbox.retry_delay(row.attempts))

    retries = []
    for minute in range(1, 91):  # the sweep, every minute, for an hour and a half
        clock.advance(60)
        if minute == 60:
            mail_server.down = False
        with django_capture_on_commit_callbacks(execute=True):
            counts = sweep()
        retries.append(counts["outbox"] + counts["outbox_retried"])
        if mail.outbox:
            break
    row.refresh_from_db()
    assert row.status == Outbox.Status.SENT and len(mail.outbox) == 1  # once, not once per try
    assert minute <= 60 + settings.OUTBOX_RETRY_MAX_DELAY // 60 + 1, "sent too long after the server returned"
    # Backoff: the sweep tried it again a few times in the hour (each a task with its own
    # retries), not every minute.
    assert 3 <= sum(retries) <= 3600 // settings.OUTBOX_RETRY_MAX_DELAY + 2, retries


def test_a_mail_server_down_three_minutes_delays_the_email_by_less_than_that_again(
    mail_server, clock, monkeypatch
):
    """The delay doubles from 30 s, counted from this email's first failure: the worker's tasks
    try again 30 s, then 60 s, then 120 s after each failure, so the email goes out at the first
    try after the server's return (not at a delay already at its ten-minute cap)."""
    from celery.exceptions import Retry
    from django.core import mail

    from notifications import tasks

    queued = []
    monkeypatch.setattr(
        tasks.deliver, "apply_async", lambda args, countdown, **options: queued.append(countdown)
    )
    mail_server.down = True
    row = answer()
    tasks.deliver_many.apply(args=[[row.pk]])  # as the relay publishes it: refused once
    delays, elapsed, retries = [queued[0]], 0, 0
    while not mail.outbox:
        clock.advance(delays[-1])
        elapsed += delays[-1]
        mail_server.down = elapsed < 180
        try:
            tasks.deliver.apply(args=[row.pk], retries=retries, throw=True)
        except Retry as retry:
            delays.append(retry.when)
            retries += 1
    assert delays == [30, 60, 120]
    assert elapsed - 180 <= 30, "sent too long after the server returned"
    row.refresh_from_db()
    assert row.status == Outbox.Status.SENT and len(mail.outbox) == 1


def test_the_delay_doubles_up_to_its_most(settings):
    delays = [outbox.retry_delay(n) for n in range(1, 9)]
    assert delays[0] == settings.OUTBOX_RETRY_FIRST_DELAY == 30
    assert all(b == min(2 * a, settings.OUTBOX_RETRY_MAX_DELAY) for a, b in zip(delays, delays[1:]))
    assert delays[-1] == settings.OUTBOX_RETRY_MAX_DELAY == outbox.retry_delay(10_000) == 600
    # The operator's settings (a test deployment's short delays, tests/faults/test_real_mail_server.py).
    settings.OUTBOX_RETRY_FIRST_DELAY, settings.OUTBOX_RETRY_MAX_DELAY = 1, 4
    assert [outbox.retry_delay(n) for n in range(1, 6)] == [1, 2, 4, 4, 4]


def test_a_row_whose_last_attempt_just_failed_is_not_sent_again_before_its_delay(clock, settings):
    settings.OUTBOX_RESEND_AFTER = 300
    row = answer()
    clock.advance(600)
    Outbox.objects.filter(pk=row.pk).update(attempts=3, retry_at=clock.now + timedelta(seconds=120))
    assert outbox.pending_ids(older_than_seconds=300) == []  # its task retries it itself
    clock.advance(121)
    assert outbox.pending_ids(older_than_seconds=300) == [row.pk]


def test_failed_mail_older_than_the_retry_days_waits_for_the_operator(mail_server, clock, settings):
    settings.OUTBOX_RETRY_DAYS = 3
    row = answer()
    Outbox.objects.filter(pk=row.pk).update(status=Outbox.Status.FAILED, retry_at=clock.now)
    clock.advance(3 * 24 * 3600 + 60)
    assert outbox.retry_failed() == 0
    row.refresh_from_db()
    assert row.status == Outbox.Status.FAILED


def test_the_admin_sends_failed_emails_again_and_leaves_the_others(
    admin_client, mail_server, celery_in_process, django_capture_on_commit_callbacks
):
    from django.core import mail

    failed, sent = answer("failed@example.org"), answer("sent@example.org")
    Outbox.objects.filter(pk=failed.pk).update(status=Outbox.Status.FAILED, attempts=9, last_error="421")
    Outbox.objects.filter(pk=sent.pk).update(status=Outbox.Status.SENT)

    with django_capture_on_commit_callbacks(execute=True):
        page = admin_client.post(
            "/admin/notifications/outbox/",
            {"action": "send_again", "_selected_action": [failed.pk, sent.pk]},
            follow=True,
        )

    assert page.status_code == 200
    words = [str(m) for m in page.context["messages"]]
    assert words == [
        "1 failed message(s) will be sent again.",
        "1 selected message(s) had not failed and were left as they are.",
    ]
    failed.refresh_from_db()
    assert failed.status == Outbox.Status.SENT and failed.last_error == ""
    assert [m.to for m in mail.outbox] == [["failed@example.org"]]


@pytest.mark.parametrize("fault", ["database", "redis"])
def test_a_database_or_redis_fault_before_the_hand_off_is_no_failed_attempt(mail_server, monkeypatch, fault):
    """A connection ended (the database restarted) or Redis down while the email is read and
    written: nothing reached the mail server, so the email has not failed: no attempt counted,
    no 30 s retry delay; it stays due for the relay, which publishes it again within seconds."""
    from django.core import mail
    from django.db import OperationalError
    from redis.exceptions import ConnectionError as RedisDown

    row = answer()
    error = OperationalError("terminating connection") if fault == "database" else RedisDown("refused")

    def failing(outbox_id):
        raise error

    monkeypatch.setattr(outbox.sql, "locked_for_delivery", failing)
    with pytest.raises(outbox.NotHandedOver):
        outbox.deliver(row.pk)
    assert outbox.deliver_many.run([row.pk]) == 0  # no retry task of its own either
    row.refresh_from_db()
    assert (row.status, row.attempts, row.last_error, row.retry_at) == ("pending", 0, "", None)
    assert not mail.outbox
    monkeypatch.undo()
    assert outbox.deliver(row.pk) and len(mail.outbox) == 1
