"""`manage.py receive_email` never bounces a message that arrived because of our own failure.

A mail server's pipe reads the exit status: 0 handled, 75 (EX_TEMPFAIL) keep it and try again
later; anything else (1 with a traceback) bounces the player's reply. Whatever fails once the
message is read gives 75, with the message kept (in its stored row, or in the mail server's queue
when it could not be stored), and the next delivery of the same message plays it.
"""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from notifications import inbound
from notifications.models import InboundEmail
from tests.notifications import mail_clients

pytestmark = pytest.mark.django_db(transaction=True)

RAW = mail_clients.plain(
    sender="player1@example.org", to="Inis <inis@localhost>", subject="Hello", words="Is this the game?"
)


def pipe(raw: bytes) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `receive_email` fed `raw` as the pipe would."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("receive_email", stdin=io.BytesIO(raw), stdout=out, stderr=err)
    except SystemExit as leaving:
        return leaving.code, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def test_a_failure_while_storing_the_message_asks_the_mail_server_to_retry(monkeypatch):
    def broken_parser(*args, **kwargs):
        raise RuntimeError("parser fault")

    monkeypatch.setattr(inbound, "receive", broken_parser)
    status, _out, err = pipe(RAW)
    assert status == 75
    assert "Traceback" not in err and "try again" in err
    assert not InboundEmail.objects.exists()  # kept by the mail server, which delivers it again

    monkeypatch.undo()
    assert pipe(RAW)[0] == 0
    assert InboundEmail.objects.get().status == InboundEmail.Status.NO_TOKEN


def test_a_failure_after_storing_keeps_the_message_and_the_next_delivery_handles_it(monkeypatch):
    process = inbound.process

    def lost_connection(inbound_id):
        raise ConnectionError("database went away")

    monkeypatch.setattr(inbound, "process", lost_connection)
    status, _out, err = pipe(RAW)
    assert status == 75 and "Traceback" not in err
    row = InboundEmail.objects.get()
    assert row.status == InboundEmail.Status.RECEIVED and bytes(row.raw) == RAW  # kept

    monkeypatch.setattr(inbound, "process", process)
    status, out, _err = pipe(RAW)  # the mail server's next try
    assert status == 0 and out.strip() == "no_token"
    assert InboundEmail.objects.get().status == InboundEmail.Status.NO_TOKEN


def test_a_failure_in_the_outcome_line_is_not_a_bounce(monkeypatch):
    monkeypatch.setattr(InboundEmail, "refresh_from_db", lambda self, *a, **k: 1 / 0)
    status, _out, err = pipe(RAW)
    assert status == 75 and "Traceback" not in err
    assert InboundEmail.objects.get().status == InboundEmail.Status.NO_TOKEN  # handled and answered
