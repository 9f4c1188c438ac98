"""notifications.outbox and tasks: delivery once, retries, failures, the sweep."""

from __future__ import annotations

import threading
from datetime import timedelta

import pytest
from django.core import mail
from django.db import connection
from django.utils import timezone

from notifications import outbox, tasks
from notifications import sql as mail_sql
from notifications.models import Outbox


@pytest.fixture
def row(make_game):
    make_game()
    return Outbox.objects.first()


def test_deliver_sends_a_pending_row_once(row):
    assert outbox.deliver(row.pk) is True
    assert outbox.deliver(row.pk) is False
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    row.refresh_from_db()  # the row keeps the email as it was sent
    assert message.to == [row.to_email] and message.subject == row.subject and row.subject
    assert message.body == row.body_text
    assert message.alternatives[0] == (row.body_html, "text/html")
    assert message.extra_headers["Message-ID"] == row.headers["Message-ID"]
    assert row.status == Outbox.Status.SENT and row.sent_at and row.attempts == 1


def test_an_email_sent_again_after_a_stop_keeps_its_message_id(db, settings):
    """A worker stopped after the mail server took an email but before it was marked sent: the
    email is sent again (no tracking says otherwise), with the same Message-ID, so that mail
    programs show one message. Also an email written without one (a sign-in link)."""
    settings.MAIL_TRACKING, settings.SITE_URL = False, "https://inis.example.org"
    row = Outbox.objects.create(
        kind=Outbox.Kind.ANSWER, seq=0, to_email="p@example.org", subject="Hi", body_text="x"
    )
    assert outbox.deliver(row.pk) is True
    # The stop: the send went out, "sent" was never recorded.
    long_ago = timezone.now() - timedelta(seconds=settings.OUTBOX_HAND_OFF_WAIT + 1)
    Outbox.objects.filter(pk=row.pk).update(status=Outbox.Status.PENDING, sent_at=None, handed_at=long_ago)
    assert outbox.deliver(row.pk) is True
    first, again = (message.message()["Message-ID"] for message in mail.outbox)
    assert first == again and first.endswith("@inis.example.org>")


def test_the_task_running_twice_sends_once(row):
    tasks.deliver.apply(args=[row.pk])
    tasks.deliver.apply(args=[row.pk])
    assert len(mail.outbox) == 1


def test_a_failed_send_keeps_the_row_pending_and_records_the_error(row, monkeypatch):
    def broken(self, fail_silently=False):
        raise ConnectionError("provider down")

    monkeypatch.setattr("django.core.mail.EmailMultiAlternatives.send", broken)
    with pytest.raises(ConnectionError):
        outbox.deliver(row.pk)
    row.refresh_from_db()
    assert (row.status, row.attempts) == (Outbox.Status.PENDING, 1)
    assert "provider down" in row.last_error
    with pytest.raises(ConnectionError):
        outbox.deliver(row.pk, final_attempt=True)
    row.refresh_from_db()
    assert row.status == Outbox.Status.FAILED and row.attempts == 2


def test_the_task_retries_a_failure_then_gives_up(row, monkeypatch):
    """The task asks Celery for a retry (after the email's delay); the last allowed run marks FAILED."""
    from celery.exceptions import Retry

    def broken(self, fail_silently=False):
        raise ConnectionError("provider down")

    monkeypatch.setattr("django.core.mail.EmailMultiAlternatives.send", broken)
    with pytest.raises(Retry):
        tasks.deliver.apply(args=[row.pk], throw=True)
    row.refresh_from_db()
    assert row.status == Outbox.Status.PENDING
    with pytest.raises(ConnectionError):
        tasks.deliver.apply(args=[row.pk], retries=tasks.deliver.max_retries, throw=True)
    row.refresh_from_db()
    assert row.status == Outbox.Status.FAILED and row.attempts == 2
    assert tasks.deliver.max_retries >= 5


def test_the_sweep_enqueues_rows_left_pending(row):
    Outbox.objects.filter(pk=row.pk).update(created_at=timezone.now() - timedelta(minutes=10))
    assert tasks.deliver_pending.apply().result == 1
    row.refresh_from_db()
    assert row.status == Outbox.Status.SENT


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_workers_at_once_send_a_row_once(make_game):
    make_game()
    row = Outbox.objects.first()
    # The game's creation committed, so its rows were delivered at once: send this one again
    # (as if never handed over).
    Outbox.objects.filter(pk=row.pk).update(status=Outbox.Status.PENDING, handed_at=None)
    mail.outbox.clear()
    barrier = threading.Barrier(2)
    results, errors = [], []

    def work():
        try:
            barrier.wait(timeout=30)
            results.append(outbox.deliver(row.pk))
        except Exception as error:
            errors.append(repr(error))
        finally:
            connection.close()

    workers = [threading.Thread(target=work) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
    assert errors == [] and sorted(results) == [False, True]
    assert len([m for m in mail.outbox if m.subject == row.subject]) == 1


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_the_delivery_reads_its_row_seat_clock_and_player_as_the_orm_does(row):
    """The delivery reads the row with its game, seat, clock and player in one written-out
    query: every value must be what the ORM reads (a date left as SQLite's text, or a boolean
    left as 0/1, would change the deadline and the stand-in check of the email)."""
    from django.db import transaction

    from games.play.models import SeatClock
    from players.models import Player

    now = timezone.now().replace(microsecond=0)
    SeatClock.objects.filter(seat_id=row.seat_id).update(deadline=now + timedelta(days=2), reminded=True)
    Player.objects.update_or_create(
        email=row.to_email.lower(),
        defaults=dict(away_from=now + timedelta(days=5), away_until=now + timedelta(days=9), news=True),
    )
    with transaction.atomic():
        read, player = mail_sql.locked_for_delivery(row.pk)
    clock = SeatClock.objects.get(seat_id=row.seat_id)
    assert _fields(read) == _fields(Outbox.objects.get(pk=row.pk))
    assert _fields(read.game) == _fields(row.game) and _fields(read.seat) == _fields(row.seat)
    assert _fields(read.seat.clock) == _fields(clock) and read.seat.clock.deadline == now + timedelta(days=2)
    assert read.seat.clock.reminded is True and read.seat.clock.stand_in is False
    assert _fields(player) == _fields(Player.objects.get(email=row.to_email.lower()))


def test_the_delivery_read_of_a_row_without_seat_clock_or_player(row):
    """An address with no Player yet, a seat with no clock, an email about no seat: the one read
    leaves them as the ORM would (no player, `seat.clock` raising DoesNotExist, no seat)."""
    from django.db import transaction

    from games.play.models import SeatClock
    from players.models import Player

    Player.objects.filter(email=row.to_email.lower()).delete()
    SeatClock.objects.filter(seat_id=row.seat_id).delete()
    unseated = Outbox.objects.create(
        kind=Outbox.Kind.ANSWER, to_email="someone@example.org", seq=0, subject="s", body_text="b"
    )
    with transaction.atomic():
        read, player = mail_sql.locked_for_delivery(row.pk)
        alone, _nobody = mail_sql.locked_for_delivery(unseated.pk)
        with pytest.raises(Outbox.DoesNotExist):
            mail_sql.locked_for_delivery(unseated.pk + 1000)
    assert player is None and read.seat.pk == row.seat_id
    with pytest.raises(SeatClock.DoesNotExist):
        read.seat.clock  # noqa: B018 - the access is the check
    assert alone.seat is None and alone.game is None and alone.to_email == "someone@example.org"
