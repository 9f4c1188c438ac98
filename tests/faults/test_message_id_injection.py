"""A reply's Message-ID cannot add headers to our answer.

The inbound Message-ID is copied into the answer's In-Reply-To / References. An encoded word
(`=?utf-8?q?<a@b>=0D=0ABcc:_victim@...?=`) decodes to a line break followed by a header of the
sender's choosing, which an API mail backend would pass on in its payload. Only a Message-ID of
the form `<[^<>\\s]+>` threads the answer; any other leaves the answer unthreaded — for strangers'
mail and seats' replies alike.
"""

from __future__ import annotations

import io
import re

import pytest
from django.core import mail
from django.core.management import call_command

from notifications import tasks
from tests.notifications import mail_clients
from tests.notifications.email_positions import END, game_from

pytestmark = pytest.mark.django_db

INJECTED = b"=?utf-8?q?<a@b>=0D=0ABcc:_victim@example.net?="


def with_message_id(raw: bytes, value: bytes) -> bytes:
    """`raw` with its Message-ID header's value replaced by `value`, byte for byte."""
    return re.sub(rb"(?im)^Message-ID:[^\r\n]*", lambda _m: b"Message-ID: " + value, raw, count=1)


def feed(raw: bytes) -> str:
    out = io.StringIO()
    call_command("receive_email", stdin=io.BytesIO(raw), stdout=out)
    tasks.deliver_pending.apply(kwargs={"older_than_seconds": -1})
    return out.getvalue().strip()


def headers_of(message) -> str:
    """Every header of a sent email as the provider would get it."""
    return str(message.message())


def assert_clean(message) -> None:
    text = headers_of(message).split("\n\n", 1)[0]
    assert "victim@example.net" not in text and "Bcc" not in text
    threaded = " ".join(message.extra_headers.get(h, "") for h in ("In-Reply-To", "References"))
    assert "<a@b>" not in threaded  # our own thread headers may stay; the sender's never
    assert all("\r" not in v and "\n" not in v for v in message.extra_headers.values())


def test_a_strangers_encoded_message_id_adds_no_header():
    raw = with_message_id(
        mail_clients.plain(
            sender="someone@example.org", to="Inis <inis@localhost>", subject="Hi", words="hello"
        ),
        INJECTED,
    )
    assert feed(raw) == "no_token"
    answer = [m for m in mail.outbox if m.to == ["someone@example.org"]][-1]
    assert_clean(answer)
    assert answer.recipients() == ["someone@example.org"]


def test_a_seats_encoded_message_id_adds_no_header():
    game_from(END, seed="message-id-injection")
    tasks.deliver_pending.apply(kwargs={"older_than_seconds": -1})
    prompt = [m for m in mail.outbox if m.to == ["player1@example.org"]][-1]
    assert feed(with_message_id(mail_clients.gmail(prompt, "pretender"), INJECTED)).startswith("accepted")
    answer = [m for m in mail.outbox if m.to == ["player1@example.org"]][-1]
    assert_clean(answer)
    assert answer.recipients() == ["player1@example.org"]


def test_a_plain_message_id_still_threads_the_answer():
    raw = mail_clients.plain(
        sender="someone@example.org",
        to="Inis <inis@localhost>",
        subject="Hi",
        words="hello",
        message_id="<plain-123@mail.example.org>",
    )
    feed(raw)
    answer = [m for m in mail.outbox if m.to == ["someone@example.org"]][-1]
    assert answer.extra_headers["In-Reply-To"] == "<plain-123@mail.example.org>"
