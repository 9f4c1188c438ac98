"""One outbox, several channels: each row goes to the sender of its channel, with the outbox's
once-only hand-off, retries and admin resend (notifications.channels.registry)."""

from __future__ import annotations

import importlib

import pytest
from django.core import mail

from notifications import outbox
from notifications.channels import registry
from notifications.models import Outbox
from notifications.prompts import RenderedEmail


@pytest.fixture
def chat_sender():
    """A stand-in sender for the chat channel that records what it sends, or fails on demand."""
    before = registry._SENDERS.get(Outbox.Channel.CHAT)
    sent: list[int] = []
    failing: list[Exception] = []

    def send(row: Outbox) -> None:
        if failing:
            raise failing[0]
        sent.append(row.pk)

    registry.register(Outbox.Channel.CHAT, send)
    yield sent, failing
    if before is None:
        registry._SENDERS.pop(Outbox.Channel.CHAT, None)
    else:
        registry.register(Outbox.Channel.CHAT, before)


def _chat_row(game) -> Outbox:
    seat = game.seats.order_by("id").first()
    email = RenderedEmail(subject="Inis: news", text="Blue moved.", html="", headers={})
    item = dict(kind=Outbox.Kind.NEWS, to_email=seat.email, email=email, seq=1, game=game, seat=seat)
    return outbox.enqueue_all([{**item, "channel": Outbox.Channel.CHAT}])[0]


def test_email_is_the_first_channel_registered():
    assert registry.registered()[0] == Outbox.Channel.EMAIL
    assert Outbox.Channel.WEB_PUSH in registry.registered()


@pytest.mark.parametrize("channel", Outbox.Channel.values)
def test_every_channel_has_its_module_and_its_sender_registered(channel):
    """docs/architecture.md, "A new channel": a value of `Outbox.Channel`, one module
    `notifications/channels/<name>.py` with `send(row)`, and its line in
    `NotificationsConfig.ready()`. A channel missing one of them fails here, not at its first
    delivery (`UnknownChannel`)."""
    module = importlib.import_module(f"notifications.channels.{channel}")
    assert callable(module.send), f"notifications/channels/{channel}.py has no send(row)"
    assert channel in registry.registered(), (
        f"NotificationsConfig.ready() registers no sender for {channel!r}"
    )
    assert registry.sender_for(channel) is module.send


def test_a_row_goes_to_its_channel_sender_once_and_not_by_email(make_game, chat_sender):
    sent, _failing = chat_sender
    row = _chat_row(make_game())
    mail.outbox.clear()
    assert outbox.deliver(row.pk) is True
    assert outbox.deliver(row.pk) is False
    assert sent == [row.pk] and mail.outbox == []
    row.refresh_from_db()
    assert row.status == Outbox.Status.SENT and row.channel == Outbox.Channel.CHAT


def test_a_channel_failure_is_retried_then_failed_then_sent_again_by_the_admin(make_game, chat_sender):
    sent, failing = chat_sender
    row = _chat_row(make_game())
    failing.append(TimeoutError("chat service timed out"))
    with pytest.raises(TimeoutError):
        outbox.deliver(row.pk)
    row.refresh_from_db()
    assert (row.status, row.attempts, row.retry_at is not None) == (Outbox.Status.PENDING, 1, True)
    assert "timed out" in row.last_error
    with pytest.raises(TimeoutError):
        outbox.deliver(row.pk, final_attempt=True)
    row.refresh_from_db()
    assert row.status == Outbox.Status.FAILED
    failing.clear()
    with pytest.MonkeyPatch.context() as patch:  # the resend's task runs at once, as a worker would
        patch.setattr("django.db.transaction.on_commit", lambda function, robust=False: function())
        assert outbox.send_again([row.pk]) == 1
    row.refresh_from_db()
    assert row.status == Outbox.Status.SENT and sent == [row.pk]


def test_a_row_of_a_channel_without_sender_fails_with_its_name(make_game, chat_sender):
    row = _chat_row(make_game())
    registry._SENDERS.pop(Outbox.Channel.CHAT)
    with pytest.raises(registry.UnknownChannel, match="chat"):
        outbox.deliver(row.pk)
    row.refresh_from_db()
    assert row.status == Outbox.Status.PENDING and "chat" in row.last_error
