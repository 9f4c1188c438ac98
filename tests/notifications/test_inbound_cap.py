"""Mail without a valid reply address is stored under caps a day: per sender, and for all
strangers together (docs/security.md, "Input"); a seat's reply and a player's own mail are never
refused for strangers' mail. Beyond a cap the webhook still answers 200, the pipe exits 0, and
the log line names neither the sender nor a word of the message."""

from __future__ import annotations

import logging

import pytest

from notifications.models import InboundEmail
from notifications.tokens import inbound_parts
from tests.notifications import mail_clients
from tests.notifications.test_inbound import end_game, feed, prompt_for  # noqa: F401 (fixtures)
from tests.notifications.test_webhooks import anymail_settings, mailgun_payload, post_mailgun  # noqa: F401

pytestmark = pytest.mark.django_db
KIB = 1024


def stranger_mail(sender: str, n: int, *, words: str = "hello there", size: int = 0) -> bytes:
    """A mail from `sender` to the plain inbound address (no reply token), of about `size`
    bytes of text when given."""
    body = words + "\r\n" + ("lorem ipsum " * (size // 12) if size else "")
    return (
        f"From: {sender}\r\nTo: {'@'.join(inbound_parts())}\r\nSubject: Spam {n}\r\n"
        f"Message-ID: <cap-{n}-{len(sender)}@evil.example>\r\nContent-Type: text/plain\r\n\r\n{body}\r\n"
    ).encode()


def test_a_stranger_writing_again_and_again_is_stored_up_to_the_cap_and_the_provider_told_200(
    client, settings, caplog
):
    settings.INBOUND_MAILS_PER_SENDER_PER_DAY = 3
    spellings = ["spammer@evil.example", "Spammer+1@EVIL.example", "spammer+2@evil.example"]
    caplog.set_level(logging.WARNING)
    for n in range(9):
        raw = stranger_mail(spellings[n % 3], n, words="Buy cheap watches")
        assert post_mailgun(client, mailgun_payload(raw)).status_code == 200
    assert InboundEmail.objects.count() == 3  # one sender, whatever the spelling
    refused = [r.getMessage() for r in caplog.records if "not stored" in r.getMessage()]
    assert len(refused) == 6
    assert all("INBOUND_MAILS_PER_SENDER_PER_DAY" in line for line in refused)
    assert not any("spammer" in line.lower() or "watches" in line.lower() for line in refused)
    # Another stranger still writes.
    assert (
        post_mailgun(client, mailgun_payload(stranger_mail("other@elsewhere.example", 99))).status_code == 200
    )
    assert InboundEmail.objects.filter(from_email="other@elsewhere.example").exists()


def test_a_seats_reply_from_a_capped_address_is_still_stored_and_played(end_game, settings):  # noqa: F811
    settings.INBOUND_MAILS_PER_SENDER_PER_DAY = 1
    alias = "alice.alias@elsewhere.example"  # a mailbox of the player's with no account
    assert feed(stranger_mail(alias, 1)) == "no_token"
    assert feed(stranger_mail(alias, 2)).startswith("not stored: over its sender's messages of the day")
    assert InboundEmail.objects.count() == 1
    reply = mail_clients.gmail(prompt_for(end_game, "green"), "pretender", sender=f"Alice <{alias}>")
    assert feed(reply) == f"accepted (game {end_game.pk}, green)"


def test_strangers_bytes_of_the_day_stop_at_the_budget_never_a_players_mail(end_game, settings):  # noqa: F811
    settings.INBOUND_STRANGERS_MIB_PER_DAY = 1
    for n in range(5):  # five strangers, each far under their own cap
        feed(stranger_mail(f"stranger{n}@evil.example", n, size=400 * KIB))
    assert InboundEmail.objects.count() == 2  # 800 KiB; the third would pass the MiB
    # A player writing the plain address (an account's address) is not a stranger.
    assert not feed(stranger_mail("player1@example.org", 10, words="list", size=400 * KIB)).startswith("not")
    assert InboundEmail.objects.filter(from_email="player1@example.org").exists()


def test_a_senders_bytes_of_the_day_are_capped(settings):
    settings.INBOUND_MIB_PER_SENDER_PER_DAY = 1
    outcomes = [feed(stranger_mail("big@evil.example", n, size=400 * KIB)) for n in range(4)]
    assert outcomes[:2] == ["no_token", "no_token"]
    assert all("INBOUND_MIB_PER_SENDER_PER_DAY" in line for line in outcomes[2:])
    assert InboundEmail.objects.count() == 2
