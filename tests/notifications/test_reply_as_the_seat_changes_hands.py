"""A reply read in the instant its seat changes hands (docs/privacy.md, "Asking for it": the reply
"finds the seat left after (its reply address no longer acts)"; the host's hand-over retires the
seat's reply addresses too): its token was checked against the seat as it was, then the
hand-over committed before the game's row lock. The reply is not played for the newcomer, its
table talk is not sent, and its sender is told the seat is no longer theirs, in an answer that
names no game, seat or card."""

from __future__ import annotations

import pytest
from django.core import mail

from games import store
from games.models import Command, SeatClock
from games.play.table import seat_replace
from notifications import inbound
from press.models import PressMessage
from tests.notifications import mail_clients
from tests.notifications.email_positions import END, game_from
from tests.notifications.test_inbound import feed, log_length, prompt_for, send_all


@pytest.fixture
def end_game(db):
    game = game_from(END, seed="reply-changed-hands")
    send_all()
    return game


@pytest.fixture
def handed_over_as_it_is_read(monkeypatch, end_game):
    """Once the reply's token is checked against green's seat, the host gives green's seat to
    newcomer@example.org."""
    checking = inbound.check_reply_token

    def checks_then_the_host_hands_over(token, secret):
        checking(token, secret)
        seat_replace(game=end_game, colour="green", email="newcomer@example.org")

    monkeypatch.setattr(inbound, "check_reply_token", checks_then_the_host_hands_over)
    return end_game


def test_a_reply_read_as_the_host_hands_its_seat_over_is_not_played(end_game, handed_over_as_it_is_read):
    prompt = prompt_for(end_game, "green")
    before = log_length(end_game)
    clock_before = SeatClock.objects.filter(seat__colour="green", game=end_game).values().first()
    mail.outbox.clear()

    status = feed(mail_clients.gmail(prompt, "say: Good luck, all.\npretender"))

    assert status == "bad_token"
    assert log_length(end_game) == before and not Command.objects.filter(game=end_game).exists()
    assert "green" not in store.load(end_game)[0].pretenders
    assert not PressMessage.objects.filter(game=end_game).exists()
    to_green = [m for m in mail.outbox if "player1@example.org" in m.to]
    answers = [m for m in to_green if "was not read as a move" in m.body]
    assert len(answers) == 1, [m.subject for m in to_green]
    assert (
        "was not read as a move: the seat it answers is no longer yours (it changed hands just "
        "before your email arrived), and nothing was played." in " ".join(answers[0].body.split())
    )
    assert "green" not in answers[0].body.lower()
    # Besides it, only the host's news that the seat was given away (lobby.mail.send_seat_taken).
    assert [m for m in to_green if m not in answers and "gave the green seat you played" not in m.body] == []
    assert not [m for m in mail.outbox if "newcomer@example.org" in m.to and "pretender" in m.body.lower()]
    # The newcomer's clock is not touched by the previous player's reply.
    assert SeatClock.objects.filter(seat__colour="green", game=end_game).values().first() == clock_before
