"""Signing out of a browser stops the pushes there (players.push_devices, players.signals): each
push is a link that acts for a seat, so a shared browser, signed out, must not keep getting
them (docs/notifications.md, "Signing out"; docs/security.md). The player's other browsers keep
theirs."""

from __future__ import annotations

import json

from django.test import Client
from django.urls import reverse

from notifications.models import Outbox
from players import preferences
from players.accounts import user_for_email
from players.models import PushSubscription
from tests.notifications.test_push_devices import PLAYER, post, push_on, subscription  # noqa: F401
from tests.notifications.test_web_push import rows, the_deciding_seat

SHARED = "https://push.example.net/send/shared-browser"
OWN = "https://push.example.net/send/own-phone"


def test_signing_out_removes_the_device_turned_on_in_that_browser_only(client, db, push_on):  # noqa: F811
    phone = Client()
    phone.force_login(user_for_email(PLAYER))
    assert post(phone, subscription(OWN))[0] == 201
    client.force_login(user_for_email(PLAYER))
    assert post(client, subscription(SHARED))[0] == 201

    assert client.post(reverse("lobby:sign_out")).status_code == 302

    assert list(PushSubscription.objects.values_list("endpoint", flat=True)) == [OWN]
    assert not client.session.get("_auth_user_id")


def _known(browser, endpoint: str) -> bool:
    response = browser.post(
        reverse("push:known"), json.dumps({"endpoint": endpoint}), content_type="application/json"
    )
    assert response.status_code == 200, response.content
    return response.json()["known"]


def test_signed_in_again_the_browser_is_told_its_subscription_gets_nothing(client, db, push_on):  # noqa: F811
    """The browser keeps its subscription after the sign-out: the page's script asks, and shows
    push off, so that the player (or whoever signs in next) turns it on again knowingly."""
    phone = Client()
    phone.force_login(user_for_email(PLAYER))
    post(phone, subscription(OWN))
    client.force_login(user_for_email(PLAYER))
    post(client, subscription(SHARED))
    assert _known(client, SHARED) and _known(client, OWN)

    client.post(reverse("lobby:sign_out"))
    client.force_login(user_for_email(PLAYER))

    assert not _known(client, SHARED)
    assert _known(phone, OWN)
    client.post(reverse("lobby:sign_out"))
    assert client.post(reverse("push:known"), "{}", content_type="application/json").status_code == 403


def test_a_device_since_taken_by_another_player_stays_theirs(client, db, push_on):  # noqa: F811
    """The browser signed in as somebody else since, and turned push on for them: signing the
    first player out of another session of it does not take the second player's device."""
    client.force_login(user_for_email(PLAYER))
    post(client, subscription(SHARED))
    other = Client()
    other.force_login(user_for_email("player2@example.org"))
    post(other, subscription(SHARED))  # the same endpoint: player2's now

    client.post(reverse("lobby:sign_out"))

    assert PushSubscription.objects.get().player.email == "player2@example.org"


def test_a_push_only_player_signing_out_of_their_only_device_gets_the_open_decision_by_email(
    make_game,
    push_on,  # noqa: F811
):
    browsers = {}
    for number in range(1, 5):
        address = f"player{number}@example.org"
        player = preferences.player_for(address)
        player.email_after_push = None  # "never: push only"
        player.save()
        browsers[address] = Client()
        browsers[address].force_login(user_for_email(address))
        assert post(browsers[address], subscription(f"{SHARED}-{number}"))[0] == 201
    game = make_game()
    seat, _state = the_deciding_seat(game)
    assert rows(game, Outbox.Channel.EMAIL, seat=seat) == []  # pushed only

    browsers[seat.email].post(reverse("lobby:sign_out"))

    assert not PushSubscription.objects.filter(player__email=seat.email).exists()
    (email,) = rows(game, Outbox.Channel.EMAIL, seat=seat)
    assert email.not_before is None
