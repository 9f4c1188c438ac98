"""The mail's background tasks running as a player they write to, or about, erases their
account (real PostgreSQL, one connection per thread). docs/privacy.md, "Asking for it": after
the erasure, no row holds the erased address or name, nothing is sent to it, and a task that
finds its seat erased does nothing; each task takes its locks in the erasure's order, so that
neither waits for the other while holding what the other waits for (a deadlock, which
PostgreSQL breaks by failing one of them)."""

from __future__ import annotations

import threading

import pytest
from django.core import mail
from django.db import connection

from games import rules, store
from games.play.models import SeatClock
from games.services import submit_command
from notifications import acceptances, digests, inbound, news, outbox, reminders
from notifications.models import NewsItem, Outbox
from players.erasure import erase_account, is_erased
from players.models import Player
from tests.conftest import drive
from tests.lock_races import JOIN_SECONDS, run_together, session, until_waiting
from tests.notifications import mail_clients
from tests.notifications.email_positions import END, MIGRATION, game_from
from tests.notifications.test_inbound import prompt_for, send_all
from tests.notifications.test_web_push import (
    every_player_has_a_device,
    push_on,  # noqa: F401
    push_service,  # noqa: F401
    rows,
    the_deciding_seat,
)
from tests.players.test_devices_and_erasure_at_once import at_once

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def erased_once_returned(monkeypatch, owner, name: str, user_id: int) -> None:
    """Erase the account `user_id` (on its own connection, committed) as soon as the next call
    of `owner.<name>` returns: what the caller does next, it does after the erasure."""
    real = getattr(owner, name)

    def then_erased(*args, **kwargs):
        monkeypatch.setattr(owner, name, real)
        result = real(*args, **kwargs)
        erasing = threading.Thread(target=lambda: (erase_account(user_id), connection.close()))
        erasing.start()
        erasing.join(timeout=JOIN_SECONDS)
        assert is_erased(user_id)
        return result

    monkeypatch.setattr(owner, name, then_erased)


def test_a_push_handed_over_as_its_player_erases_their_account_writes_no_preferences_back(
    make_game,
    monkeypatch,
    push_on,  # noqa: F811
    push_service,  # noqa: F811
):
    """Push only. The push of the player's decision is handed over (its row's lock released),
    then its player's erasure commits, then the push is written and sent: nothing reaches the
    erased player's device, and no preferences come back with their address (before, the push's
    words looked the player up and made their row again)."""
    monkeypatch.setattr(outbox, "through_relay", lambda: True)  # delivered by the test
    devices = every_player_has_a_device(push_service, email_after_push=None)
    game = make_game()
    seat, _state = the_deciding_seat(game)
    (pushed,) = rows(game, Outbox.Channel.WEB_PUSH, seat=seat)
    erased_once_returned(monkeypatch, outbox, "_hand_over", seat.user_id)

    outbox.deliver(pushed.pk)

    assert not Player.objects.filter(email=seat.email).exists()
    assert push_service.to(devices[seat.email]) == []
    assert not Outbox.objects.filter(to_email__iexact=seat.email).exists()


def news_waiting(monkeypatch, game, *, reader: str) -> NewsItem:
    """Green (Ann, player1) takes a Pretender token: `reader`, who takes news emails, has a line
    waiting for its news email (its task waits for its minute: the test runs it)."""
    for address, name in (("player1@example.org", "Ann"), (reader, "")):
        Player.objects.update_or_create(email=address, defaults={"display_name": name})
    Player.objects.filter(email=reader).update(delivery=Player.Delivery.EVERY)
    send_all()
    _state, seq = store.load(game)
    green = game.seats.get(colour="green")
    with monkeypatch.context() as waiting:
        waiting.setattr(news, "schedule", lambda seat_id: None)
        assert submit_command(game=game, seat=green, command={"type": "pretender"}, expected_seq=seq).accepted
    return NewsItem.objects.get(seat__email=reader, mailed_at__isnull=True)


def test_a_news_email_written_as_its_reader_erases_their_account_goes_nowhere(monkeypatch):
    """Player 4 takes news emails; their news email is being written as they erase their account:
    the erasure goes through and no email is written to, or sent to, the erased address (before,
    the news email read the seat before the erasure and wrote its email after it)."""
    game = game_from(END, seed="news-and-erasure")
    line = news_waiting(monkeypatch, game, reader="player4@example.org")
    seat = line.seat
    mail.outbox.clear()

    errors = at_once(monkeypatch, lambda: news.send_news(seat.pk), seat.user_id)
    send_all()

    assert errors == []
    assert is_erased(seat.user_id)
    assert not Player.objects.filter(email=seat.email).exists()
    assert not Outbox.objects.filter(to_email__iexact=seat.email).exists()
    assert not [m for m in mail.outbox if seat.email in m.to]


def test_a_news_email_naming_a_player_who_erases_their_account_meanwhile(monkeypatch):
    """Player 4's news email tells what Ann (green) did, as Ann erases her account: neither waits
    for the other (before, the news email held its lines and waited for the game, the erasure
    held the game and waited for the lines: a deadlock), and the email says "Player 1 (left,
    green)", never Ann."""
    game = game_from(END, seed="news-naming-the-erased")
    line = news_waiting(monkeypatch, game, reader="player4@example.org")
    assert "Ann (green)" in line.text, line.text
    ann = game.seats.get(colour="green")
    mail.outbox.clear()

    errors = at_once(monkeypatch, lambda: news.send_news(line.seat_id), ann.user_id)
    send_all()

    assert errors == []
    assert is_erased(ann.user_id)
    (sent,) = [m for m in mail.outbox if "player4@example.org" in m.to]
    assert "Player 1 (left, green) took a Pretender token" in sent.body, sent.body
    assert "Ann" not in sent.body


def test_a_reminder_due_as_its_player_erases_their_account_is_not_written(make_game, monkeypatch):
    """The sweep found the player's reminder due; the player erases their account before its
    task runs: the seat is the stand-in's now, and nothing is written (before, a reminder went
    to an empty address, and preferences were made for it)."""
    game = make_game()
    seat, _state = the_deciding_seat(game)
    clock = SeatClock.objects.get(seat=seat)
    sent: list[bool] = []

    errors = at_once(
        monkeypatch, lambda: sent.append(reminders.send_reminder(clock.pk, clock.seq)), seat.user_id
    )

    assert errors == []
    assert not Player.objects.filter(email="").exists()
    assert sent == [False]
    assert not Outbox.objects.filter(seat=seat, kind=Outbox.Kind.REMINDER).exists()


def test_a_digest_due_as_its_player_erases_their_account_sends_nothing(monkeypatch):
    """The sweep found the player's digest due; the player erases their account as its task
    runs: the task ends having sent nothing, without an error (before, it failed on the
    preferences the erasure had deleted)."""
    game = game_from(END, seed="digest-and-erasure")
    line = news_waiting(monkeypatch, game, reader="player4@example.org")
    Player.objects.filter(email="player4@example.org").update(delivery=Player.Delivery.DIGEST)
    player = Player.objects.get(email="player4@example.org")
    sent: list[int] = []

    errors = at_once(monkeypatch, lambda: sent.append(digests.send_digest(player.pk)), line.seat.user_id)

    assert errors == []
    assert sent == [0]
    assert is_erased(line.seat.user_id)
    assert not Outbox.objects.filter(to_email__iexact="player4@example.org").exists()


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

    run_together(
        session("delivery", errors, lambda: outbox.deliver(outbox_id)),
        session("erasure", errors, lambda: erase_account(user_id), pids=pids, after=locked),
    )
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
