"""A push device goes when the browser session it was turned on from stops being its player's,
not only at a sign-out (players.push_devices; docs/notifications.md, "Signing out";
docs/security.md): another account signing in over it in the same browser, the session expiring
or deleted, the endpoint taken by another account. Each push is a link that acts for a seat for
days: a browser that is no longer the player's must not keep getting them, and a "never: push
only" player whose last device goes gets their open decisions by email."""

from __future__ import annotations

import json
from datetime import timedelta
from urllib.parse import urlsplit

from django.contrib.sessions.models import Session
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from inis_pbem.tasks import sweep
from notifications.models import Outbox
from players import preferences
from players.accounts import user_for_email
from players.models import PushSubscription
from players.seat_links import seat_link_url
from players.signed_tokens import sign_in_query
from tests.notifications.test_push_devices import PLAYER, post, push_on, subscription  # noqa: F401
from tests.notifications.test_web_push import rows, the_deciding_seat

SHARED = "https://push.example.net/send/shared-browser"
OWN = "https://push.example.net/send/own-phone"
OTHER = "player2@example.org"


def _sign_in_by_link(browser: Client, email: str) -> None:
    """Open the sign-in email's link of `email` in `browser`, as its reader does."""
    response = browser.get("/" + sign_in_query(user_for_email(email)))
    assert response.status_code == 302, response.content
    assert browser.session["_auth_user_id"] == str(user_for_email(email).pk)


def _known(browser: Client, endpoint: str) -> bool:
    response = browser.post(
        reverse("push:known"), json.dumps({"endpoint": endpoint}), content_type="application/json"
    )
    assert response.status_code == 200, response.content
    return response.json()["known"]


def _endpoints_of(email: str) -> list[str]:
    return sorted(PushSubscription.objects.filter(player__email=email).values_list("endpoint", flat=True))


def test_another_account_signing_in_over_a_browser_removes_the_device_turned_on_there(
    client,
    db,
    push_on,  # noqa: F811
):
    phone = Client()
    _sign_in_by_link(phone, PLAYER)
    assert post(phone, subscription(OWN))[0] == 201
    _sign_in_by_link(client, PLAYER)
    assert post(client, subscription(SHARED))[0] == 201

    _sign_in_by_link(client, OTHER)  # without signing the first player out

    assert _endpoints_of(PLAYER) == [OWN]
    assert not _known(client, SHARED)  # the page shows push off to the player signed in now
    client.post(reverse("lobby:sign_out"))
    assert _endpoints_of(PLAYER) == [OWN]
    assert not PushSubscription.objects.filter(endpoint=SHARED).exists()


def test_a_seat_link_followed_while_signed_in_keeps_the_device_past_the_old_session_key(
    client,
    make_game,
    push_on,  # noqa: F811
):
    """Following a seat link gives the session a new key, its data kept: the device follows it,
    so that the sweep does not take the old key's end for the session's."""
    _sign_in_by_link(client, PLAYER)
    assert post(client, subscription(SHARED))[0] == 201
    first_key = client.session.session_key
    game = make_game()
    seat = game.seats.get(email=PLAYER)
    link = urlsplit(seat_link_url(game_id=game.pk, seat_id=seat.pk, seat_secret=seat.token)).path

    assert client.get(link).status_code == 302
    sweep.apply()

    assert client.session.session_key != first_key
    assert _endpoints_of(PLAYER) == [SHARED] and _known(client, SHARED)


def test_a_device_goes_when_its_session_expires_or_is_deleted_without_a_sign_out(db, push_on):  # noqa: F811
    browsers = {}
    for endpoint in ("expired", "deleted", "live"):
        browsers[endpoint] = Client()
        _sign_in_by_link(browsers[endpoint], PLAYER)
        assert post(browsers[endpoint], subscription(f"{SHARED}-{endpoint}"))[0] == 201
    Session.objects.filter(pk=browsers["expired"].session.session_key).update(
        expire_date=timezone.now() - timedelta(seconds=1)
    )
    Session.objects.filter(pk=browsers["deleted"].session.session_key).delete()

    assert sweep.apply().get()["devices_of_ended_sessions"] == 2

    assert _endpoints_of(PLAYER) == [f"{SHARED}-live"]


def _push_only_players_on_their_own_browsers() -> dict[str, Client]:
    """Players 1 to 4, each "never: push only" with one device turned on from their browser."""
    browsers = {}
    for number in range(1, 5):
        address = f"player{number}@example.org"
        player = preferences.player_for(address)
        player.email_after_push = None
        player.save()
        browsers[address] = Client()
        _sign_in_by_link(browsers[address], address)
        assert post(browsers[address], subscription(f"{SHARED}-{number}"))[0] == 201
    return browsers


def test_a_push_only_player_whose_browser_another_account_signs_in_on_gets_the_decision_by_email(
    make_game,
    push_on,  # noqa: F811
):
    browsers = _push_only_players_on_their_own_browsers()
    game = make_game()
    seat, _state = the_deciding_seat(game)
    assert rows(game, Outbox.Channel.EMAIL, seat=seat) == []  # pushed only

    _sign_in_by_link(browsers[seat.email], "stranger@example.org")

    assert _endpoints_of(seat.email) == []
    (email,) = rows(game, Outbox.Channel.EMAIL, seat=seat)
    assert email.not_before is None


def test_a_push_only_player_whose_endpoint_another_account_takes_gets_the_decision_by_email(
    make_game,
    push_on,  # noqa: F811
):
    """The same browser, its cookies cleared (no session to sign out of), turned on for another
    account: the endpoint is the other account's now, a device removed for the player."""
    browsers = _push_only_players_on_their_own_browsers()
    game = make_game()
    seat, _state = the_deciding_seat(game)
    endpoint = PushSubscription.objects.get(player__email=seat.email).endpoint
    assert rows(game, Outbox.Channel.EMAIL, seat=seat) == []

    cleared = Client()
    _sign_in_by_link(cleared, "stranger@example.org")
    assert post(cleared, subscription(endpoint))[0] == 201

    assert _endpoints_of(seat.email) == [] and _endpoints_of("stranger@example.org") == [endpoint]
    (email,) = rows(game, Outbox.Channel.EMAIL, seat=seat)
    assert email.not_before is None
    assert _known(browsers[seat.email], endpoint) is False


def test_a_push_only_player_whose_session_expires_gets_the_decision_by_email(make_game, push_on):  # noqa: F811
    browsers = _push_only_players_on_their_own_browsers()
    game = make_game()
    seat, _state = the_deciding_seat(game)

    Session.objects.filter(pk=browsers[seat.email].session.session_key).delete()
    sweep.apply()

    assert _endpoints_of(seat.email) == []
    (email,) = rows(game, Outbox.Channel.EMAIL, seat=seat)
    assert email.not_before is None
