"""A player's reply being processed while that player erases their account (real PostgreSQL, one
connection per thread). docs/privacy.md, "Asking for it": "An erasure and a reply of the person
being processed happen one after the other (the game's row lock, then the seat's): the reply is
played or refused whole before, or finds the seat left after"; and the erasure empties every
inbound email from them ("keep only their Message-ID and status").

The erasure locks the games of the person's seats, then empties their stored emails, the one
being processed among them; the reply takes the game's row lock before its stored email's, in
the same order, so neither waits for the other while holding what the other waits for (a
deadlock, which PostgreSQL breaks by failing one of them: the erasure, or the reply, retried)."""

from __future__ import annotations

import threading

import pytest

from games import store
from notifications import inbound
from notifications.models import InboundEmail
from players.erasure import erase_account, is_erased
from tests.lock_races import run_together, session, until_waiting
from tests.notifications import mail_clients
from tests.notifications.email_positions import END, game_from
from tests.notifications.test_inbound import prompt_for, send_all

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def processed_while_erased(monkeypatch, inbound_id: int, user_id: int) -> tuple[str | None, list[str]]:
    """Process the stored reply `inbound_id` and erase the account `user_id` at once, in two
    threads: the reply, its locks taken, goes on once the erasure waits for one of them (or, if
    it never does, after WAIT_SECONDS: the erasure then went through first). Returns the reply's
    final status (None if it failed) and the errors of either thread."""
    reading = threading.Event()  # the reply is being read: its locks are taken
    erasure: dict = {}
    errors: list[str] = []
    checking = inbound.check_reply_token

    def checked_once_the_erasure_waits(token, secret):
        checking(token, secret)
        reading.set()
        until_waiting(erasure, "erasure", errors, "the erasure never waited for the reply")

    monkeypatch.setattr(inbound, "check_reply_token", checked_once_the_erasure_waits)

    def reply() -> None:
        erasure["status"] = inbound.process(inbound_id)

    run_together(
        session("reply", errors, reply),
        session("erasure", errors, lambda: erase_account(user_id), pids=erasure, after=reading),
    )
    return erasure.get("status"), errors


def test_a_reply_processed_as_its_player_erases_their_account_is_done_whole_before(monkeypatch):
    game = game_from(END, seed="reply-and-erasure")
    send_all()
    green = game.seats.get(colour="green")
    raw = mail_clients.gmail(prompt_for(game, "green"), "pretender")
    row, _created = inbound.receive(raw, source="test", enqueue=False)

    status, errors = processed_while_erased(monkeypatch, row.pk, green.user_id)

    assert errors == []
    # The reply was played whole, then the erasure went through and emptied it.
    assert status == InboundEmail.Status.ACCEPTED
    assert "green" in store.load(game)[0].pretenders
    assert is_erased(green.user_id)
    stored = InboundEmail.objects.get(pk=row.pk)
    assert (bytes(stored.raw), stored.from_email, stored.status) == (b"", "", InboundEmail.Status.ACCEPTED)
