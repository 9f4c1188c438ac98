"""Inbound webhooks of two providers anymail supports, Mailgun and Postmark, in their own payload
formats: anymail's views authenticate the post and normalise it; our signal handler stores the
message once and processes it. The same webhook delivered twice acts once."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from email import message_from_bytes
from email.policy import default as default_policy

import pytest
from django.core import mail

from games import store
from games.models import Command, Event
from notifications.models import InboundEmail, Outbox
from tests.notifications import mail_clients
from tests.notifications.email_positions import END, game_from
from tests.notifications.test_inbound import last_to, prompt_for, send_all

SIGNING_KEY = "mailgun-signing-key"
BASIC_AUTH = ("anymail", "webhook-secret")


@pytest.fixture(autouse=True)
def anymail_settings(settings):
    settings.ANYMAIL = {"WEBHOOK_SECRET": ":".join(BASIC_AUTH), "MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY}


@pytest.fixture
def game(db):
    game = game_from(END, seed="webhooks")
    send_all()
    return game


def _parts(raw: bytes) -> dict:
    message = message_from_bytes(raw, policy=default_policy)
    text = message.get_body(("plain",))
    html = message.get_body(("html",))
    return {
        "message": message,
        "text": text.get_content() if text else "",
        "html": html.get_content() if html else "",
        "headers": [(k, str(v)) for k, v in message.items()],
    }


def mailgun_payload(raw: bytes, *, timestamp: int | None = None) -> dict:
    """Mailgun's "forward()" route post (fully parsed fields), signed with the signing key."""
    p = _parts(raw)
    m = p["message"]
    timestamp = str(timestamp or int(time.time()))
    token = hashlib.sha256(raw).hexdigest()[:50]
    return {
        "recipient": str(m["To"]),
        "sender": str(m["From"]),
        "from": str(m["From"]),
        "subject": str(m["Subject"]),
        "body-plain": p["text"],
        "body-html": p["html"],
        "stripped-text": p["text"].split("\n\n")[0],
        "message-headers": json.dumps(p["headers"]),
        "timestamp": timestamp,
        "token": token,
        "signature": hmac.new(
            SIGNING_KEY.encode(), f"{timestamp}{token}".encode(), hashlib.sha256
        ).hexdigest(),
    }


def postmark_payload(raw: bytes) -> dict:
    """Postmark's inbound JSON (parsed fields, no RawEmail)."""
    p = _parts(raw)
    m = p["message"]
    return {
        "FromFull": {"Email": m["From"].addresses[0].addr_spec, "Name": m["From"].addresses[0].display_name},
        "ToFull": [
            {"Email": a.addr_spec, "Name": a.display_name, "MailboxHash": ""} for a in m["To"].addresses
        ],
        "CcFull": [],
        "BccFull": [],
        "OriginalRecipient": m["To"].addresses[0].addr_spec,
        "Subject": str(m["Subject"]),
        "MessageID": "22c74902-a0c1-4511-804f-341342852c90",
        "Date": str(m["Date"]),
        "TextBody": p["text"],
        "HtmlBody": p["html"],
        "StrippedTextReply": p["text"].split("\n\n")[0],
        "Headers": [
            {"Name": k, "Value": v}
            for k, v in p["headers"]
            if k.lower()
            not in (
                "from",
                "to",
                "subject",
                "date",
                "content-type",
                "content-transfer-encoding",
                "mime-version",
            )
        ],
        "Attachments": [],
    }


def post_mailgun(client, payload):
    return client.post("/anymail/mailgun/inbound/", payload, HTTP_AUTHORIZATION=_basic())


def post_postmark(client, payload, auth=True):
    extra = {"HTTP_AUTHORIZATION": _basic()} if auth else {}
    return client.post(
        "/anymail/postmark/inbound/", json.dumps(payload), content_type="application/json", **extra
    )


def _basic() -> str:
    import base64

    return "Basic " + base64.b64encode(":".join(BASIC_AUTH).encode()).decode()


def test_a_mailgun_inbound_post_plays_the_reply(client, game, django_capture_on_commit_callbacks):
    raw = mail_clients.gmail(prompt_for(game, "green"), "pretender")
    with django_capture_on_commit_callbacks(execute=True):
        response = post_mailgun(client, mailgun_payload(raw))
    send_all()

    assert response.status_code == 200
    assert "green" in store.load(game)[0].pretenders
    assert InboundEmail.objects.get().source == "mailgun"
    assert last_to("player1@example.org").body.startswith(
        "Done. I read your reply as: Take a Pretender token."
    )


def test_a_postmark_inbound_post_plays_the_reply(client, game, django_capture_on_commit_callbacks):
    raw = mail_clients.outlook(prompt_for(game, "green"), "pass", sender="player1@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        response = post_postmark(client, postmark_payload(raw))
    send_all()

    assert response.status_code == 200
    assert Command.objects.get(game=game).body == {"type": "pass"}
    assert last_to("player1@example.org").body.startswith("Done. I read your reply as: Pass.")


@pytest.mark.parametrize("provider", ["mailgun", "postmark"])
def test_the_same_webhook_twice_is_one_command(client, game, provider, django_capture_on_commit_callbacks):
    raw = mail_clients.gmail(prompt_for(game, "green"), "pretender")
    payload = mailgun_payload(raw) if provider == "mailgun" else postmark_payload(raw)
    post = post_mailgun if provider == "mailgun" else post_postmark
    for _ in range(2):
        with django_capture_on_commit_callbacks(execute=True):
            assert post(client, payload).status_code == 200
    send_all()

    assert Command.objects.filter(game=game).count() == 1
    assert InboundEmail.objects.count() == 1
    assert Outbox.objects.filter(kind=Outbox.Kind.ANSWER).count() == 1


def test_unauthenticated_webhooks_are_refused_and_store_nothing(client, game):
    raw = mail_clients.gmail(prompt_for(game, "green"), "pretender")
    before = Event.objects.filter(game=game).count()
    forged = mailgun_payload(raw)
    forged["signature"] = "0" * 64

    assert client.post("/anymail/mailgun/inbound/", forged, HTTP_AUTHORIZATION=_basic()).status_code == 400
    assert post_postmark(client, postmark_payload(raw), auth=False).status_code == 400

    assert InboundEmail.objects.count() == 0
    assert Event.objects.filter(game=game).count() == before
    assert not [m for m in mail.outbox if m.subject.startswith("Re:")]


def test_a_post_with_an_address_no_mailbox_can_have_is_dropped_not_retried(db, client):
    """Found by the abuse fuzz: a forged To of `.@a.example` made anymail raise while reading the
    post, a 500 that the provider would retry for days. It is answered 200 and stored nowhere."""
    before = InboundEmail.objects.count()
    payload = {
        "FromFull": {"Email": "mallory@example.net", "Name": ""},
        "ToFull": [{"Email": ".@a.example", "Name": "", "MailboxHash": ""}],
        "CcFull": [],
        "BccFull": [],
        "Subject": "Re: Inis",
        "MessageID": "x-1",
        "Date": "",
        "TextBody": "pass",
        "HtmlBody": "",
        "Headers": [],
        "Attachments": [],
    }
    response = client.post(
        "/anymail/postmark/inbound/",
        json.dumps(payload),
        content_type="application/json",
        HTTP_AUTHORIZATION="Basic " + base64.b64encode(":".join(BASIC_AUTH).encode()).decode(),
    )
    assert response.status_code == 200
    assert InboundEmail.objects.count() == before


def test_a_reply_with_a_phone_photo_is_played_answered_and_stored_without_it(
    client, game, django_capture_on_commit_callbacks
):
    """A 4 MB photo in Postmark's JSON (base64: 5.3 MB of post, over Django's 2.5 MB default):
    the post is accepted, the move played and answered; the photo is not kept."""
    import os

    raw = mail_clients.outlook(prompt_for(game, "green"), "pass", sender="player1@example.org")
    payload = postmark_payload(raw)
    photo = os.urandom(4 * 1024 * 1024)
    payload["Attachments"] = [
        {
            "Name": "IMG_2041.jpg",
            "Content": base64.b64encode(photo).decode(),
            "ContentType": "image/jpeg",
            "ContentLength": len(photo),
        }
    ]
    with django_capture_on_commit_callbacks(execute=True):
        response = post_postmark(client, payload)
    send_all()

    assert response.status_code == 200
    assert Command.objects.get(game=game).body == {"type": "pass"}
    assert last_to("player1@example.org").body.startswith("Done. I read your reply as: Pass.")
    stored = bytes(InboundEmail.objects.get().raw)
    assert len(stored) < 100_000 and b"IMG_2041.jpg" in stored  # named, not kept


def test_other_urls_refuse_a_post_over_django_default_size(client, db):
    response = client.post("/", data=b"x" * (2_621_440 + 1), content_type="application/octet-stream")
    assert response.status_code == 400
