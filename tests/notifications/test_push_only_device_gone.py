"""A player's last push device found gone (notifications.channels.reach): "your emails come at
once again once you have no device left" (docs/notifications.md, "When a device stops"), for
the decision being pushed too, so that no decision reaches its player by no channel."""

from __future__ import annotations

from django.core import mail

from notifications import outbox
from notifications.models import Outbox
from players.models import PushSubscription
from tests.notifications.test_web_push import (
    every_player_has_a_device,
    push_on,  # noqa: F401
    push_service,  # noqa: F401
    rows,
    subscribe,
    the_deciding_seat,
)


def _gone(service, device) -> None:
    service.status[device.endpoint.removeprefix(service.base)] = 410


def test_push_only_and_the_only_device_gone_at_the_push_the_decision_comes_by_email(
    make_game,
    push_on,  # noqa: F811
    push_service,  # noqa: F811
):
    devices = every_player_has_a_device(push_service, email_after_push=None)  # "never: push only"
    game = make_game()
    seat, _state = the_deciding_seat(game)
    assert rows(game, Outbox.Channel.EMAIL, seat=seat) == []
    _gone(push_service, devices[seat.email])
    (pushed,) = rows(game, Outbox.Channel.WEB_PUSH, seat=seat)

    assert outbox.deliver(pushed.pk) is True

    assert not PushSubscription.objects.filter(player__email=seat.email).exists()
    (email,) = rows(game, Outbox.Channel.EMAIL, seat=seat)
    assert email.decision_seq == pushed.decision_seq and email.not_before is None
    mail.outbox.clear()
    assert outbox.deliver(email.pk) is True
    (sent,) = mail.outbox
    assert sent.to == [seat.email] and sent.subject.startswith("Your move: ")
    # Once: another removal (the same player's next device, added and removed) writes no second one.
    PushSubscription.objects.filter(endpoint=subscribe(push_service, seat.email).endpoint).delete()
    assert len(rows(game, Outbox.Channel.EMAIL, seat=seat)) == 1


def test_push_only_with_a_device_left_still_writes_no_email(
    make_game,
    push_on,  # noqa: F811
    push_service,  # noqa: F811
):
    devices = every_player_has_a_device(push_service, email_after_push=None)
    game = make_game()
    seat, _state = the_deciding_seat(game)
    kept = subscribe(push_service, seat.email)
    _gone(push_service, devices[seat.email])
    (pushed,) = rows(game, Outbox.Channel.WEB_PUSH, seat=seat)

    assert outbox.deliver(pushed.pk) is True

    assert len(push_service.to(kept)) == 1
    assert rows(game, Outbox.Channel.EMAIL, seat=seat) == []


def test_the_email_waiting_after_a_push_comes_at_once_when_the_last_device_is_gone(
    make_game,
    push_on,  # noqa: F811
    push_service,  # noqa: F811
):
    devices = every_player_has_a_device(push_service, email_after_push=30 * 60)
    game = make_game()
    seat, _state = the_deciding_seat(game)
    (waiting,) = rows(game, Outbox.Channel.EMAIL, seat=seat)
    assert waiting.not_before is not None
    _gone(push_service, devices[seat.email])
    (pushed,) = rows(game, Outbox.Channel.WEB_PUSH, seat=seat)

    assert outbox.deliver(pushed.pk) is True

    (email,) = rows(game, Outbox.Channel.EMAIL, seat=seat)
    assert email.pk == waiting.pk and email.not_before is None
    mail.outbox.clear()
    assert outbox.deliver(email.pk) is True
    assert [m.to for m in mail.outbox] == [[seat.email]]
