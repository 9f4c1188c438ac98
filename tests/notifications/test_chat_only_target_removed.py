"""A "never: push only" player's last way of being reached first removed while a decision is open
(notifications.channels.reach): "no email for your decisions … as long as a device or your chat
address is left" (docs/notifications.md, "Push first, email after"). Once nothing is left, the
open decision comes by email, whether the chat address went or the last device, and only what
is turned on counts as left."""

from __future__ import annotations

from django.core import mail
from django.urls import reverse

from notifications import outbox
from notifications.models import Outbox
from players import preferences
from players.accounts import user_for_email
from players.chat_targets import remove_target
from players.models import ChatTarget, PushSubscription
from tests.notifications.test_chat import EMAILS, chatting
from tests.notifications.test_web_push import (
    push_on,  # noqa: F401
    push_service,  # noqa: F401
    rows,
    subscribe,
    the_deciding_seat,
)


def _push_only(address: str) -> None:
    player = preferences.player_for(address)
    player.email_after_push = None  # "never: push only"
    player.save()


def _chat_only_game(make_game, sink):
    """A game whose every player takes their decisions by chat alone ("never" by email), and
    `(game, seat deciding, its chat row)`."""
    for address in EMAILS:
        chatting(sink, address)
        _push_only(address)
    game = make_game()
    seat, _state = the_deciding_seat(game)
    (chatted,) = rows(game, Outbox.Channel.CHAT, seat=seat)
    return game, seat, chatted


def _emailed(row: Outbox) -> list:
    mail.outbox.clear()
    assert outbox.deliver(row.pk) is True
    return [(sent.to, sent.subject) for sent in mail.outbox]


def test_a_chat_only_player_who_removes_their_chat_address_gets_the_open_decision_by_email(
    make_game, sink, client
):
    game, seat, chatted = _chat_only_game(make_game, sink)
    assert outbox.deliver(chatted.pk) is True and len(sink.posts) == 1
    assert rows(game, Outbox.Channel.EMAIL, seat=seat) == []  # "never": the chat alone

    client.force_login(user_for_email(seat.email))
    client.post(reverse("push:chat"), {"remove": "1", "next": "/"})

    assert not ChatTarget.objects.filter(player__email=seat.email).exists()
    (email,) = rows(game, Outbox.Channel.EMAIL, seat=seat)
    assert email.decision_seq == chatted.decision_seq and email.not_before is None
    ((to, subject),) = _emailed(email)
    assert to == [seat.email] and subject.startswith("Your move: ")


def test_a_chat_address_removed_before_its_message_left_still_gets_the_email_once(make_game, sink):
    game, seat, chatted = _chat_only_game(make_game, sink)

    assert remove_target(preferences.player_for(seat.email)) is True

    (email,) = rows(game, Outbox.Channel.EMAIL, seat=seat)
    assert outbox.deliver(chatted.pk) is True and sink.posts == []  # nobody to post to any more
    assert [to for to, _subject in _emailed(email)] == [[seat.email]]
    # Set again and removed again: the decision has its email, no second one.
    chatting(sink, seat.email)
    remove_target(preferences.player_for(seat.email))
    assert len(rows(game, Outbox.Channel.EMAIL, seat=seat)) == 1


def test_with_push_and_chat_the_decision_is_emailed_once_nothing_is_left(
    make_game,
    sink,
    push_on,  # noqa: F811
    push_service,  # noqa: F811
):
    for address in EMAILS:
        subscribe(push_service, address)
        chatting(sink, address)
        _push_only(address)
    game = make_game()
    seat, _state = the_deciding_seat(game)
    player = preferences.player_for(seat.email)

    remove_target(player)
    assert rows(game, Outbox.Channel.EMAIL, seat=seat) == []  # the device is left

    PushSubscription.objects.filter(player=player).delete()
    (email,) = rows(game, Outbox.Channel.EMAIL, seat=seat)  # one, though both rows keep its spec
    assert email.not_before is None


def test_with_chat_targets_off_a_leftover_chat_address_does_not_count(
    make_game,
    sink,
    settings,
    push_on,  # noqa: F811
    push_service,  # noqa: F811
):
    """The operator turned chat off: a chat address kept from before reaches nobody, so the
    last device found gone leaves nothing, and the decision comes by email."""
    devices = {}
    for address in EMAILS:
        devices[address] = subscribe(push_service, address)
        chatting(sink, address)
        _push_only(address)
    settings.CHAT_TARGETS = False
    game = make_game()
    seat, _state = the_deciding_seat(game)
    assert rows(game, Outbox.Channel.CHAT, seat=seat) == []
    push_service.status[devices[seat.email].endpoint.removeprefix(push_service.base)] = 410
    (pushed,) = rows(game, Outbox.Channel.WEB_PUSH, seat=seat)

    assert outbox.deliver(pushed.pk) is True

    assert not PushSubscription.objects.filter(player__email=seat.email).exists()
    assert ChatTarget.objects.filter(player__email=seat.email).exists()
    (email,) = rows(game, Outbox.Channel.EMAIL, seat=seat)
    assert [to for to, _subject in _emailed(email)] == [[seat.email]]


def test_with_web_push_off_a_leftover_device_does_not_count(make_game, sink, settings, push_service):  # noqa: F811
    """Push off, chat on: a device kept from before reaches nobody, so the chat address removed
    leaves nothing, and the decision comes by email."""
    settings.WEB_PUSH = False
    for address in EMAILS:
        subscribe(push_service, address)
        chatting(sink, address)
        _push_only(address)
    game = make_game()
    seat, _state = the_deciding_seat(game)
    assert rows(game, Outbox.Channel.WEB_PUSH, seat=seat) == []

    remove_target(preferences.player_for(seat.email))

    assert PushSubscription.objects.filter(player__email=seat.email).exists()
    (email,) = rows(game, Outbox.Channel.EMAIL, seat=seat)
    assert email.not_before is None
