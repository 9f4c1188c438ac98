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
import time

import pytest
from django.db import connection

from games import store
from notifications import inbound
from notifications.models import InboundEmail
from players.erasure import erase_account, is_erased
from tests.notifications import mail_clients
from tests.notifications.email_positions import END, game_from
from tests.notifications.test_inbound import prompt_for, send_all

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

WAIT_SECONDS = 20


def waits_for_a_lock(pid: int) -> bool:
    """Whether the database session `pid` waits for a lock (pg_locks is read live, unlike the
    activity statistics, which a transaction reads once)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT EXISTS (SELECT 1 FROM pg_locks WHERE pid = %s AND NOT granted)", [pid])
        return bool(cursor.fetchone()[0])


def test_a_reply_processed_as_its_player_erases_their_account_is_done_whole_before(monkeypatch):
    game = game_from(END, seed="reply-and-erasure")
    send_all()
    green = game.seats.get(colour="green")
    raw = mail_clients.gmail(prompt_for(game, "green"), "pretender")
    row, _created = inbound.receive(raw, source="test", enqueue=False)

    reading = threading.Event()  # the reply is being read: its locks are taken
    erasure: dict = {}
    errors: list[str] = []
    checking = inbound.check_reply_token

    def checked_once_the_erasure_waits(token, secret):
        """The reply, its locks taken, goes on once the erasure waits for one of them (or, if it
        never does, after WAIT_SECONDS: the erasure then went through first)."""
        checking(token, secret)
        reading.set()
        deadline = time.monotonic() + WAIT_SECONDS
        while "pid" not in erasure or not waits_for_a_lock(erasure["pid"]):
            if time.monotonic() > deadline:
                errors.append("the erasure never waited for the reply")
                return
            time.sleep(0.05)

    monkeypatch.setattr(inbound, "check_reply_token", checked_once_the_erasure_waits)

    def reply() -> None:
        try:
            erasure["status"] = inbound.process(row.pk)
        except Exception as error:  # reported by the test
            errors.append(f"reply: {error!r}")
        finally:
            connection.close()

    def erase() -> None:
        try:
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_backend_pid()")
                erasure["pid"] = cursor.fetchone()[0]
            assert reading.wait(WAIT_SECONDS)
            erase_account(green.user_id)
        except Exception as error:  # reported by the test
            errors.append(f"erasure: {error!r}")
        finally:
            connection.close()

    threads = [threading.Thread(target=reply), threading.Thread(target=erase)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not any(thread.is_alive() for thread in threads)

    assert errors == []
    # The reply was played whole, then the erasure went through and emptied it.
    assert erasure["status"] == InboundEmail.Status.ACCEPTED
    assert "green" in store.load(game)[0].pretenders
    assert is_erased(green.user_id)
    stored = InboundEmail.objects.get(pk=row.pk)
    assert (bytes(stored.raw), stored.from_email, stored.status) == (b"", "", InboundEmail.Status.ACCEPTED)
