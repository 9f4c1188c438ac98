"""Push or chat turned off by the operator after rows were written for it
(notifications.channels.turned_off): "If the operator turned push or chat off, a device or a
chat address kept from before reaches nobody and does not count as left" (docs/notifications.md,
"When a device stops"). A push, a chat message or a table's news written before is posted
nowhere, is not tried again, and the decision it carried comes by email."""

from __future__ import annotations

import pytest
from django.core import mail

from games.models import TableChannel
from notifications import outbox
from notifications.models import Outbox
from players import preferences
from tests.notifications.test_chat import EMAILS, chatting
from tests.notifications.test_table_channel import play_one
from tests.notifications.test_web_push import (
    push_on,  # noqa: F401
    push_service,  # noqa: F401
    rows,
    subscribe,
    the_deciding_seat,
)


def _everyone_waits(*, email_after_push: int | None) -> None:
    for address in EMAILS:
        player = preferences.player_for(address)
        player.email_after_push = email_after_push
        player.save()


def _emailed(row: Outbox) -> list[list[str]]:
    mail.outbox.clear()
    assert outbox.deliver(row.pk) is True
    return [sent.to for sent in mail.outbox if sent.subject.startswith("Your move: ")]


def _closed(row: Outbox) -> None:
    row.refresh_from_db()
    assert row.status == Outbox.Status.SKIPPED, "not tried again"


def test_a_push_written_before_push_was_turned_off_reaches_nobody_and_the_email_comes(
    make_game,
    push_on,  # noqa: F811
    push_service,  # noqa: F811
    settings,
):
    for address in EMAILS:
        subscribe(push_service, address)
    _everyone_waits(email_after_push=None)  # "never: push only"
    game = make_game()
    seat, _state = the_deciding_seat(game)
    (pushed,) = rows(game, Outbox.Channel.WEB_PUSH, seat=seat)
    assert rows(game, Outbox.Channel.EMAIL, seat=seat) == []

    settings.WEB_PUSH = False
    assert outbox.deliver(pushed.pk) is False, "nothing was sent"

    assert push_service.pushes == []
    _closed(pushed)
    (email,) = rows(game, Outbox.Channel.EMAIL, seat=seat)
    assert email.decision_seq == pushed.decision_seq and email.not_before is None
    assert _emailed(email) == [[seat.email]]


def test_a_chat_message_written_before_chat_was_turned_off_reaches_nobody_and_the_waiting_email_comes_at_once(
    make_game, sink, settings
):
    for address in EMAILS:
        chatting(sink, address)
    _everyone_waits(email_after_push=30 * 60)
    game = make_game()
    seat, _state = the_deciding_seat(game)
    (chatted,) = rows(game, Outbox.Channel.CHAT, seat=seat)
    (waiting,) = rows(game, Outbox.Channel.EMAIL, seat=seat)
    assert waiting.not_before is not None

    settings.CHAT_TARGETS = False
    assert outbox.deliver(chatted.pk) is False, "nothing was posted"

    assert sink.posts == []
    _closed(chatted)
    waiting.refresh_from_db()
    assert waiting.not_before is None
    assert _emailed(waiting) == [[seat.email]]


def test_a_failed_chat_message_sent_again_after_chat_was_turned_off_is_not_posted(make_game, sink, settings):
    """A message FAILED while chat was on is not posted by the sweep's retries once it is off."""
    for address in EMAILS:
        chatting(sink, address)
    game = make_game()
    seat, _state = the_deciding_seat(game)
    (chatted,) = rows(game, Outbox.Channel.CHAT, seat=seat)
    sink.status = 500
    with pytest.raises(Exception, match="did not take"):
        outbox.deliver(chatted.pk, final_attempt=True)
    sink.status, sink.posts = 200, []

    settings.CHAT_TARGETS = False
    with pytest.MonkeyPatch.context() as patch:  # the admin's resend, its task run at once
        patch.setattr("django.db.transaction.on_commit", lambda function, robust=False: function())
        outbox.send_again([chatted.pk])

    assert sink.posts == []
    _closed(chatted)
    assert chatted.pk not in outbox.pending_ids(older_than_seconds=0)


def test_with_push_turned_off_a_chat_still_on_keeps_the_email_waiting(
    make_game,
    push_on,  # noqa: F811
    push_service,  # noqa: F811
    sink,
    settings,
):
    """Only what is off reaches nobody: the chat still takes the decision, the email waits."""
    for address in EMAILS:
        subscribe(push_service, address)
        chatting(sink, address)
    _everyone_waits(email_after_push=None)
    game = make_game()
    seat, _state = the_deciding_seat(game)
    (pushed,) = rows(game, Outbox.Channel.WEB_PUSH, seat=seat)
    (chatted,) = rows(game, Outbox.Channel.CHAT, seat=seat)

    settings.WEB_PUSH = False
    outbox.deliver(pushed.pk)
    outbox.deliver(chatted.pk)

    _closed(pushed)
    assert push_service.pushes == [] and len(sink.posts) == 1
    assert rows(game, Outbox.Channel.EMAIL, seat=seat) == []


def test_the_table_news_written_before_chat_was_turned_off_reach_no_chat(make_game, sink, settings):
    game = make_game(n_players=3, seed="table-off")
    TableChannel.objects.create(game=game, url=sink.url)
    play_one(game)
    (row,) = Outbox.objects.filter(game=game, kind=Outbox.Kind.TABLE_NEWS)

    settings.CHAT_TARGETS = False
    outbox.deliver(row.pk)

    assert sink.posts == []
    _closed(row)
