"""Strangers cannot spend a player's answers: mail without a valid reply token "from" a player's
address is answered within its own hourly count, and the player's real reply is still answered."""

from __future__ import annotations

from notifications.models import InboundEmail, Outbox
from notifications.tokens import inbound_parts
from tests.notifications import mail_clients
from tests.notifications.test_inbound import end_game, feed, last_to, prompt_for  # noqa: F401 (fixtures)


def test_ten_forged_emails_from_a_player_leave_the_players_own_reply_answered(end_game, settings):  # noqa: F811 (the fixture imported above)
    settings.EMAIL_ANSWERS_PER_HOUR = 3
    prompt = prompt_for(end_game, "green")
    seat = end_game.seats.get(colour="green")
    inbound = "@".join(inbound_parts())
    for i in range(10):
        raw = (
            f"From: Alice Player <{seat.email}>\r\nTo: {inbound}\r\nSubject: Re: Inis\r\n"
            f"Message-ID: <forged-{i}@evil.example>\r\nContent-Type: text/plain\r\n\r\n"
            f"pass {i}\r\n"
        ).encode()
        feed(raw)
    to_stranger = Outbox.objects.filter(kind=Outbox.Kind.ANSWER, seat__isnull=True, to_email=seat.email)
    assert to_stranger.count() == 3  # the strangers' count, bounded
    status = feed(mail_clients.gmail(prompt, "nonsense from the real player"))
    assert status.startswith("rejected")
    assert not InboundEmail.objects.filter(detail__contains="not answered: rate limit", seat=seat).exists()
    assert Outbox.objects.filter(kind=Outbox.Kind.ANSWER, seat=seat).count() == 1
    assert "Inis" in last_to(seat.email).subject
