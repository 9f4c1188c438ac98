"""A header Python's mail parser cannot read never jams the pipe or a webhook, and never costs a
real reply its answer (docs/email-commands.md, "Every reply is answered"; docs/security.md).

Python's header parser raises on some malformed values (`Message-ID: <>`, an address with an
unclosed domain literal, `bob@[10.0.0.1`). Anybody can send such an email to the reply address:
the mail server's pipe used to exit 75 ("pipe it again") on it for days, and the webhooks to
answer 500; a genuine reply carrying a mangled Cc was stored, failed, and never answered.
"""

from __future__ import annotations

import io

import pytest
from django.core import mail
from django.core.management import call_command

from notifications.models import InboundEmail
from tests.notifications import mail_clients
from tests.notifications.email_positions import END, game_from
from tests.notifications.test_inbound import log_length, prompt_for, send_all
from tests.notifications.test_webhooks import anymail_settings, post_postmark, postmark_payload  # noqa: F401

GREEN = "player1@example.org"


@pytest.fixture
def game(db):
    made = game_from(END, seed="malformed-headers")
    send_all()
    return made


def _pipe(raw: bytes) -> tuple[int, str]:
    """Feed `raw` to `manage.py receive_email` as the mail server does: (exit code, stdout)."""
    out = io.StringIO()
    try:
        call_command("receive_email", stdin=io.BytesIO(raw), stdout=out, stderr=io.StringIO())
    except SystemExit as stop:
        return int(stop.code or 0), out.getvalue()
    return 0, out.getvalue()


@pytest.mark.parametrize("message_id", ["<>", "<@mail.example.org>", "<a@[10.0.0.1>"])
def test_an_unreadable_message_id_is_kept_by_its_bytes_and_the_reply_played_once(game, message_id):
    raw = mail_clients.gmail(prompt_for(game, "green"), "pretender", message_id="<placeholder@x>")
    raw = raw.replace(b"<placeholder@x>", message_id.encode())
    before = log_length(game)

    assert _pipe(raw) == (0, f"accepted (game {game.pk}, green)\n")
    assert _pipe(raw)[0] == 0  # delivered again by the mail server: a duplicate, not a retry

    assert InboundEmail.objects.count() == 1 and log_length(game) > before
    send_all()
    assert [m.subject for m in mail.outbox if m.to == [GREEN] and m.subject.startswith("Accepted")] == [
        f"Accepted: Take a Pretender token — Inis {game.pk}"
    ]


def test_a_reply_with_a_mangled_cc_is_played_and_answered(game):
    raw = mail_clients.gmail(prompt_for(game, "green"), "pretender", message_id="<cc-mangled@x>")
    raw = raw.replace(b"Subject:", b"Cc: bob@[10.0.0.1\nSubject:", 1)

    assert _pipe(raw) == (0, f"accepted (game {game.pk}, green)\n")


@pytest.mark.usefixtures("anymail_settings")
def test_the_webhook_answers_200_to_a_message_id_no_parser_reads(client, game):
    payload = postmark_payload(mail_clients.gmail(prompt_for(game, "green"), "pretender"))
    for header in payload["Headers"]:
        if header["Name"].lower() == "message-id":
            header["Value"] = "<@mail.example.org>"

    assert post_postmark(client, payload).status_code == 200


@pytest.mark.usefixtures("anymail_settings")
def test_a_bounce_whose_null_sender_the_provider_took_out_is_dropped_unanswered(
    client, game, django_capture_on_commit_callbacks
):
    """docs/email-commands.md, "Not read": null senders. Postmark reports the envelope sender as
    the first of its headers, `Return-Path: <>` for a bounce, which anymail takes out of the
    message; the bounce used to be answered "Rejected"."""
    raw = mail_clients.plain(
        sender="player1@example.org",
        to=prompt_for(game, "green").reply_to[0],
        subject="Away: Inis",
        words="I am away from my mail until Monday 3.",
    )
    payload = postmark_payload(raw)
    payload["Headers"].insert(0, {"Name": "Return-Path", "Value": "<>"})
    sent = len(mail.outbox)

    with django_capture_on_commit_callbacks(execute=True):
        assert post_postmark(client, payload).status_code == 200
    send_all()

    assert InboundEmail.objects.get().status == InboundEmail.Status.DROPPED
    assert len(mail.outbox) == sent
