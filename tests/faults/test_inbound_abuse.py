"""Inbound abuse (issue 7): malformed, oversized, HTML-only, wrong-charset and forged messages
through `manage.py receive_email` and anymail's Postmark webhook leave the event log unchanged,
and the answers to one sender stay bounded (no reply storms with auto-responders).

The messages are made by hypothesis: forged or tampered reply tokens, no token at all, garbage
bytes, declared charsets that do not match the bytes, unknown charsets, HTML only, very long
bodies and header lines. None carries a valid token, so none may play anything.
"""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import CommandError, call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.models import Event
from notifications.models import InboundEmail, Outbox
from notifications.tokens import reply_address
from tests.notifications.email_positions import END, game_from
from tests.notifications.test_inbound import send_all
from tests.notifications.test_webhooks import BASIC_AUTH, _basic

pytestmark = [pytest.mark.postgres]

CHARSETS = ["utf-8", "iso-8859-1", "windows-1252", "x-unknown-charset", "utf-16", "ascii"]
WORDS = st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=400)
JUNK_BYTES = st.binary(max_size=2000)


def _forged_address(game, data) -> str:
    """A reply address that looks like ours but does not verify (or none of ours at all)."""
    seat = game.seats.order_by("id").first()
    real = reply_address(game_id=game.id, seat_id=seat.id, seq=5, seat_secret=seat.token)
    kind = data.draw(st.sampled_from(["tampered", "other-secret", "no-token", "garbage"]))
    if kind == "tampered":
        local, domain = real.split("@")
        return f"{local[:-3]}{data.draw(st.sampled_from(['aaa', '000', 'zzz']))}@{domain}"
    if kind == "other-secret":
        return reply_address(game_id=game.id, seat_id=seat.id, seq=5, seat_secret="forged")
    if kind == "no-token":
        return real.split("+")[0] + "@" + real.split("@")[1]
    return data.draw(st.from_regex(r"[a-z0-9.+_-]{1,60}@[a-z]{1,10}\.example", fullmatch=True))


def _raw_message(data, to: str) -> bytes:
    """A raw message, well or badly formed, addressed to `to`."""
    charset = data.draw(st.sampled_from(CHARSETS))
    body = data.draw(WORDS)
    if data.draw(st.booleans()):
        body = body * data.draw(st.integers(1, 300))  # oversized
    html_only = data.draw(st.booleans())
    subtype = "html" if html_only else "plain"
    if html_only:
        body = f"<html><body><div>{body}</div><blockquote>&gt; old</blockquote></body></html>"
    try:
        encoded = body.encode(charset if charset != "x-unknown-charset" else "utf-8", "replace")
    except LookupError:
        encoded = body.encode("utf-8", "replace")
    headers = [
        f"From: {data.draw(st.sampled_from(['player1@example.org', 'Mallory <mallory@example.net>', '', '<>', 'x' * 300]))}",
        f"To: {to}",
        f"Subject: {data.draw(st.sampled_from(['Re: Inis', '', '=?utf-8?b?invalid?=', 'Re: ' * 50]))}",
        f"Message-ID: <{data.draw(st.uuids())}@abuse.example>",
        f"Content-Type: text/{subtype}; charset={charset}",
        f"Content-Transfer-Encoding: {data.draw(st.sampled_from(['8bit', 'base64', 'quoted-printable', 'x-bogus']))}",
    ]
    if data.draw(st.booleans()):
        headers.append("X-Long: " + "h" * data.draw(st.integers(100, 5000)))
    raw = ("\r\n".join(headers) + "\r\n\r\n").encode("ascii", "replace") + encoded
    if data.draw(st.booleans()):
        raw = raw[: data.draw(st.integers(0, len(raw)))] + data.draw(JUNK_BYTES)  # truncated, garbled
    return raw


@pytest.fixture
def abuse_game(db, settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": ":".join(BASIC_AUTH)}
    settings.EMAIL_ANSWERS_PER_HOUR = 5
    game = game_from(END, seed="abuse")
    send_all()
    return game


@settings(
    deadline=None,
    max_examples=max(150, settings.default.max_examples),
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
    ],
)
@given(data=st.data())
def test_abusive_mail_never_changes_the_log(abuse_game, client, data):
    """Thousands (deep profile) of malformed and forged messages: the log never changes, nothing
    raises out of the pipe or the webhook, and every message is recorded once."""
    events_before = Event.objects.filter(game=abuse_game).count()
    raw = _raw_message(data, _forged_address(abuse_game, data))
    stored_before = InboundEmail.objects.count()
    if data.draw(st.booleans()):
        out = io.StringIO()
        if not raw.strip():
            with pytest.raises(CommandError):  # the pipe refuses an empty message, clearly
                call_command("receive_email", stdin=io.BytesIO(raw), stdout=out)
        else:
            call_command("receive_email", stdin=io.BytesIO(raw), stdout=out)
            assert out.getvalue().strip()
    else:
        payload = {
            "FromFull": {"Email": "mallory@example.net", "Name": ""},
            "ToFull": [{"Email": _forged_address(abuse_game, data), "Name": "", "MailboxHash": ""}],
            "CcFull": [],
            "BccFull": [],
            "Subject": "Re: Inis",
            "MessageID": str(data.draw(st.uuids())),
            "Date": "",
            "TextBody": raw.decode("utf-8", "replace"),
            "HtmlBody": "",
            "Headers": [],
            "Attachments": [],
        }
        response = client.post(
            "/anymail/postmark/inbound/",
            json.dumps(payload),
            content_type="application/json",
            HTTP_AUTHORIZATION=_basic(),
        )
        assert response.status_code == 200
    send_all()
    assert Event.objects.filter(game=abuse_game).count() == events_before
    assert InboundEmail.objects.count() <= stored_before + 1


def test_a_forged_sender_that_is_no_address_gets_no_answer(abuse_game):
    """A From header of 300 characters (no mailbox has such an address) is stored and dropped:
    no answer is queued to it, and nothing fails."""
    answers_before = Outbox.objects.filter(kind=Outbox.Kind.ANSWER).count()
    raw = (
        f"From: {'x' * 300}\r\nTo: nobody@example.org\r\nSubject: Re: Inis\r\n"
        "Message-ID: <long-from@example.net>\r\nContent-Type: text/plain\r\n\r\npass\r\n"
    ).encode()
    out = io.StringIO()
    call_command("receive_email", stdin=io.BytesIO(raw), stdout=out)
    send_all()
    assert Outbox.objects.filter(kind=Outbox.Kind.ANSWER).count() == answers_before
    assert InboundEmail.objects.filter(message_key="long-from@example.net").exists()


def test_a_sender_garbled_past_its_domain_gets_no_answer(abuse_game):
    """A message cut short in its From header and followed by junk bytes ("player1@example.o"
    then bytes that decode to replacement characters): stored, no answer queued to a domain no
    mail can reach, and nothing fails or retries (hypothesis found it)."""
    answers_before = Outbox.objects.filter(kind=Outbox.Kind.ANSWER).count()
    raw = (
        b"From: player1@example.o\xffj\xfe\r\nTo: nobody@example.org\r\nSubject: Re: Inis\r\n"
        b"Message-ID: <garbled-from@example.net>\r\nContent-Type: text/plain\r\n\r\npass\r\n"
    )
    call_command("receive_email", stdin=io.BytesIO(raw), stdout=io.StringIO())
    send_all()
    assert Outbox.objects.filter(kind=Outbox.Kind.ANSWER).count() == answers_before
    assert InboundEmail.objects.filter(message_key="garbled-from@example.net").exists()


def test_an_auto_responder_storm_gets_a_bounded_number_of_answers(abuse_game, settings):
    """An auto-responder that slips through the automatic-mail checks and answers every answer
    gets at most EMAIL_ANSWERS_PER_HOUR answers, however many messages it sends; its forged
    reply address is no seat's, so at most INBOUND_MAILS_PER_SENDER_PER_DAY of them are kept."""
    seat = abuse_game.seats.order_by("id").first()
    to = reply_address(game_id=abuse_game.id, seat_id=seat.id, seq=5, seat_secret="forged")
    answers_before = Outbox.objects.filter(kind=Outbox.Kind.ANSWER).count()
    stored_before = InboundEmail.objects.count()
    for i in range(40):
        raw = (
            f"From: responder@example.net\r\nTo: {to}\r\nSubject: Re: Inis\r\n"
            f"Message-ID: <storm-{i}@example.net>\r\nContent-Type: text/plain\r\n\r\n"
            f"I am away {i}.\r\n"
        ).encode()
        call_command("receive_email", stdin=io.BytesIO(raw), stdout=io.StringIO())
    send_all()
    answers = Outbox.objects.filter(kind=Outbox.Kind.ANSWER).count() - answers_before
    assert answers <= 5
    assert InboundEmail.objects.count() - stored_before == settings.INBOUND_MAILS_PER_SENDER_PER_DAY == 20
