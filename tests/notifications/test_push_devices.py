"""Turning web push on and off (notifications.push_views, players.push_devices): only the
signed-in player adds or removes their devices; a subscription that could never be pushed to is
refused saying why (an endpoint on this site or a private network, in any spelling of its
address or through a name, among them); the preferences page explains what push brings."""

from __future__ import annotations

import json
import re
from urllib.parse import urlsplit

import pytest
from django.core.cache import caches
from django.urls import reverse

from bench.push_service import Device, vapid_pair
from notifications.prompts import player_urls
from players.accounts import user_for_email
from players.models import Player, PushSubscription

PLAYER = "player1@example.org"


@pytest.fixture
def push_on(settings, dns):
    dns["push.example.net"] = "93.184.215.14"  # a push service on the internet
    dns["push.corp.example"] = "10.20.30.40"  # a name leading to a private network
    settings.WEB_PUSH = True
    settings.WEB_PUSH_VAPID_PRIVATE_KEY, settings.WEB_PUSH_VAPID_PUBLIC_KEY = vapid_pair()
    settings.SITE_URL = "https://inis.example.org"
    settings.ALLOWED_HOSTS = ["inis.example.org", "testserver"]


PRIVATE = "This address points at a private network: a push service's address is on the internet."


def subscription(endpoint: str = "https://push.example.net/send/abc123", **keys) -> dict:
    return {"endpoint": endpoint, "keys": {**Device(endpoint).keys, **keys}, "device": "Firefox on a phone"}


def post(client, body) -> tuple[int, dict]:
    response = client.post(reverse("push:add"), json.dumps(body), content_type="application/json")
    return response.status_code, response.json()


def test_the_signed_in_player_turns_push_on_and_off(client, db, push_on):
    client.force_login(user_for_email(PLAYER))
    status, answer = post(client, subscription())
    assert status == 201 and "Push is on" in answer["message"]
    (device,) = PushSubscription.objects.all()
    assert device.player.email == PLAYER and device.device == "Firefox on a phone"
    response = client.post(
        reverse("push:remove"), json.dumps({"endpoint": device.endpoint}), content_type="application/json"
    )
    assert response.status_code == 200 and not PushSubscription.objects.exists()


def test_nobody_signed_in_cannot_add_a_device(client, db, push_on):
    status, answer = post(client, subscription())
    assert status == 403 and "Sign in first" in answer["error"]
    assert not PushSubscription.objects.exists()


def test_another_player_cannot_remove_a_device(client, db, push_on):
    client.force_login(user_for_email(PLAYER))
    post(client, subscription())
    client.force_login(user_for_email("player2@example.org"))
    client.post(
        reverse("push:remove"),
        json.dumps({"endpoint": subscription()["endpoint"]}),
        content_type="application/json",
    )
    assert PushSubscription.objects.get().player.email == PLAYER


@pytest.mark.parametrize(
    "body, says",
    [
        (subscription(p256dh="BAAA"), "is not a P-256 public key"),
        (subscription(p256dh="not base64!"), "is not base64url"),
        (subscription(auth="c2hvcnQ"), "is not 16 bytes long"),
        (subscription("http://push.example.net/send/1"), "starts with https://"),
        (subscription("https://inis.example.org/push/devices/"), "cannot be this site's"),
        (subscription("https://INIS.example.org./push/devices/"), "cannot be this site's"),
        (subscription("https://127.0.0.1:8443/x"), PRIVATE),
        (subscription("https://10.1.2.3/x"), PRIVATE),
        # 127.0.0.1 as one number or in hexadecimal, 169.254.169.254 (a cloud's metadata) as one
        # number, 127.0.0.1 IPv4-mapped: the resolver reads them all.
        (subscription("https://2130706433:8443/x"), PRIVATE),
        (subscription("https://0x7f000001/x"), PRIVATE),
        (subscription("https://2852039166/latest"), PRIVATE),
        (subscription("https://[::ffff:7f00:1]/x"), PRIVATE),
        (subscription("https://push.corp.example/x"), PRIVATE),
        (subscription("https://nowhere.invalid/x"), "server cannot be found"),
        ({"endpoint": "https://push.example.net/x"}, "has no p256dh key"),
        (["not", "a", "subscription"], "is not what a browser sends"),
    ],
)
def test_a_subscription_that_could_never_be_pushed_to_is_refused_saying_why(client, db, push_on, body, says):
    client.force_login(user_for_email(PLAYER))
    status, answer = post(client, body)
    assert status == 400 and says in answer["error"]
    assert not PushSubscription.objects.exists()


def test_with_push_off_there_is_nothing_to_turn_on(client, db, settings):
    settings.WEB_PUSH = False
    client.force_login(user_for_email(PLAYER))
    response = client.post(reverse("push:add"), json.dumps(subscription()), content_type="application/json")
    assert response.status_code == 404
    assert client.get(reverse("push:worker")).status_code == 404


def test_the_service_worker_may_control_the_whole_site(client, db, push_on):
    response = client.get(reverse("push:worker"))
    assert response.status_code == 200 and response["Service-Worker-Allowed"] == "/"
    assert b"showNotification" in response.content and b"openWindow" in response.content


def _page(client) -> str:
    player, _ = Player.objects.get_or_create(email=PLAYER)
    return client.get(urlsplit(player_urls(player.pk)["preferences"]).path).content.decode()


def test_the_preferences_page_explains_push_and_offers_it_signed_in(client, db, push_on, settings):
    page = _page(client)
    assert "each decision of yours in any game comes to this device" in page
    assert "To turn push on, sign in first" in page and "data-push " not in page
    client.force_login(user_for_email(PLAYER))
    page = _page(client)
    assert f'data-key="{settings.WEB_PUSH_VAPID_PUBLIC_KEY}"' in page
    assert re.search(r'<option value="1800" selected>after 30 minutes if still open', page)


def test_the_email_delay_is_saved_for_the_signed_in_player(client, db, push_on):
    client.force_login(user_for_email(PLAYER))
    for posted, saved in (("never", None), ("0", 0), ("7200", 7200)):
        response = client.post(reverse("push:email_after_push"), {"email_after_push": posted, "next": "/"})
        assert response.status_code == 302
        assert Player.objects.get(email=PLAYER).email_after_push == saved
    client.post(reverse("push:email_after_push"), {"email_after_push": "5", "next": "/"})
    assert Player.objects.get(email=PLAYER).email_after_push == 7200  # not a delay offered: unchanged


def test_the_page_in_french(client, db, push_on):
    Player.objects.update_or_create(email=PLAYER, defaults={"language": "fr"})
    client.force_login(user_for_email(PLAYER))
    page = _page(client)
    assert "Activer les notifications sur cet appareil" in page


def test_the_game_page_offers_push_to_the_seats_own_player_signed_in(client, push_on, make_game, settings):
    game = make_game()
    seat = game.seats.order_by("id").first()
    page = f"/games/{game.pk}/"
    client.force_login(seat.user)
    shown = client.get(page, {"as": seat.colour}).content.decode()
    assert 'id="push-control"' in shown and "Turn on push on this device" in shown
    client.logout()
    assert 'id="push-control"' not in client.get(page).content.decode()  # a visitor
    other = game.seats.exclude(pk=seat.pk).first()
    client.force_login(other.user)
    theirs = client.get(page, {"as": other.colour}).content.decode()
    assert 'id="push-control"' in theirs and f'data-key="{settings.WEB_PUSH_VAPID_PUBLIC_KEY}"' in theirs
    settings.WEB_PUSH = False  # a deployment's setting: its pages cached before are of another run
    caches["pages"].clear()
    assert 'id="push-control"' not in client.get(page, {"as": other.colour}).content.decode()
