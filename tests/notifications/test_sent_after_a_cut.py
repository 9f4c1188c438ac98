"""An email the provider took is recorded as sent even when the database connection is cut right
after the hand-off (docs/operations.md, "Mail handed to the provider").

The case the bench found (faults | database connections terminated): the worker handed a prompt
to the provider, then its connection was terminated before the row was marked SENT. The failure
was counted as a failed attempt (so the email could go twice), or, with the database still out of
reach, the row was left handed over, and the prompt waited OUTBOX_HAND_OFF_WAIT (10 minutes)
before anyone looked at it again: the player waited that long for a message already sent.
"""

from __future__ import annotations

import psycopg
import pytest
from django.core import mail
from django.core.mail.backends.locmem import EmailBackend as MemoryBackend
from django.db import connection

from notifications import database_outage, outbox
from notifications.models import Outbox

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def terminate_this_connection() -> None:
    """End the test's own database connection from another one, as pg_terminate_backend does
    to every connection of the service in the bench's fault."""
    settings = connection.settings_dict
    with psycopg.connect(
        host=settings["HOST"],
        port=settings["PORT"] or 5432,
        user=settings["USER"],
        dbname=settings["NAME"],
        autocommit=True,
    ) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (connection.connection.info.backend_pid,))


class CutAfterTheHandOff(MemoryBackend):
    """The provider takes the message; then the database connection is terminated."""

    def send_messages(self, messages):
        sent = super().send_messages(messages)
        terminate_this_connection()
        return sent


def test_a_connection_cut_after_the_hand_off_still_records_the_email_sent_once(settings, monkeypatch):
    settings.EMAIL_BACKEND = f"{__name__}.CutAfterTheHandOff"
    monkeypatch.setattr(database_outage, "DATABASE_PAUSE", 0.05)
    row = Outbox.objects.create(
        kind=Outbox.Kind.ANSWER,
        seq=0,
        to_email="player1@example.org",
        subject="Accepted",
        body_text="Your move was played.",
    )

    assert outbox.deliver(row.pk) is True

    row.refresh_from_db()
    assert row.status == Outbox.Status.SENT
    assert row.attempts == 1 and row.last_error == ""
    assert len(mail.outbox) == 1
    # A later run (the relay's, the sweep's) finds nothing more to send.
    assert outbox.deliver(row.pk) is False
    assert len(mail.outbox) == 1
