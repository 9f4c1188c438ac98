"""The mail's background tasks running as a player they write to, or about, erases their
account (real PostgreSQL, one connection per thread). docs/privacy.md, "Asking for it": after
the erasure, no row holds the erased address or name, nothing is sent to it, and a task that
finds its seat erased does nothing; each task takes its locks in the erasure's order, so that
neither waits for the other while holding what the other waits for (a deadlock, which
PostgreSQL breaks by failing one of them)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games import rules
from notifications import acceptances, inbound, outbox
from notifications.models import Outbox
from players.erasure import erase_account, is_erased
from players.models import Player
from tests.conftest import drive
from tests.lock_races import WAIT_SECONDS, backend_pid, run_together, until_waiting
from tests.notifications import mail_clients
from tests.notifications.email_positions import MIGRATION, game_from
from tests.notifications.test_inbound import prompt_for

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def delivered_while_erased(monkeypatch, outbox_id: int, user_id: int) -> list[str]:
    """Deliver the row `outbox_id` and erase the account `user_id` at once, in two threads: the
    delivery, its row locked, goes on to the acceptances it says once the erasure waits for a
    lock (or, if it never does, after WAIT_SECONDS). Returns the errors of either thread."""
    locked = threading.Event()
    pids: dict = {}
    errors: list[str] = []
    folding = acceptances.fold_into

    def fold_once_the_erasure_waits(seat_id, to_email):
        locked.set()
        until_waiting(pids, "erasure", errors, "the erasure never waited for the delivery")
        return folding(seat_id, to_email)

    monkeypatch.setattr(acceptances, "fold_into", fold_once_the_erasure_waits)

    def deliver() -> None:
        try:
            outbox.deliver(outbox_id)
        except Exception as error:  # reported by the test
            errors.append(f"delivery: {error!r}")
        finally:
            connection.close()

    def erase() -> None:
        try:
            pids["erasure"] = backend_pid()
            assert locked.wait(WAIT_SECONDS)
            erase_account(user_id)
        except Exception as error:  # reported by the test
            errors.append(f"erasure: {error!r}")
        finally:
            connection.close()

    run_together(threading.Thread(target=deliver), threading.Thread(target=erase))
    return errors


def test_a_prompt_delivered_as_its_player_erases_their_account(monkeypatch):
    """Green replied "pass" by email (its acceptance held for green's next prompt); green's next
    prompt (blue's Bard asks green's answer) is being delivered, and says that acceptance, as
    green erases their account:
    the delivery goes through, then the erasure deletes both (before, the erasure held the
    acceptance and waited for the prompt, the delivery held the prompt and waited for the
    acceptance: a deadlock)."""
    monkeypatch.setattr(outbox, "through_relay", lambda: True)  # delivered by the test
    game = game_from(MIGRATION, seed="prompt-and-erasure")
    green = game.seats.get(colour="green")
    raw = mail_clients.gmail(prompt_for(game, "green"), "pass")
    row, _created = inbound.receive(raw, source="test", enqueue=False)
    inbound.process(row.pk)
    assert Outbox.objects.filter(seat=green, kind=Outbox.Kind.ANSWER, status=Outbox.Status.HELD).exists()
    drive(game, 10, until=lambda state: any(d.seat == "green" for d in rules.pending(state)))
    prompt = Outbox.objects.filter(seat=green, kind=Outbox.Kind.PROMPT, status=Outbox.Status.PENDING).get()

    errors = delivered_while_erased(monkeypatch, prompt.pk, green.user_id)

    assert errors == []
    assert is_erased(green.user_id)
    assert not Outbox.objects.filter(to_email__iexact=green.email).exists()
    assert not Player.objects.filter(email=green.email).exists()
