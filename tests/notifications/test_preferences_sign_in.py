"""The preferences link in every email never expires and needs no sign-in, so whoever holds one
forwarded email holds it too. With the link alone one may read the preferences, stop the news
(List-Unsubscribe) and change how news comes, the time zone and the language; a vacation, which
stops the player's deadlines in every game, and the name the other players read at the table
need a real sign-in as that player. A vacation lasts at most VACATION_MAX_DAYS
(docs/email-commands.md, "Email preferences"; docs/deadlines.md)."""

from __future__ import annotations

import html
import re
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.play.models import SeatClock
from games.play.schedule import reschedule
from notifications.prompts import player_urls
from players import preferences as players
from players.accounts import user_for_email
from players.models import Player
from tests.notifications.email_positions import END, game_from
from tests.notifications.test_inbound import prompt_for, send_all

PLAYER = "player1@example.org"  # green in END
FORM = {"delivery": "prompt", "news": "on", "time_zone": "UTC", "language": "en"}
SIGN_IN_FIRST = "To set a vacation or change your name at the table, sign in first"


@pytest.fixture
def game(db):
    return game_from(END, seed="preferences-sign-in")


def preferences_path(email: str = PLAYER) -> str:
    player, _ = Player.objects.get_or_create(email=email)
    return urlsplit(player_urls(player.pk)["preferences"]).path


def text(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def days(first: int, last: int) -> dict:
    today = timezone.now().date()
    return {
        "away_from": (today + timedelta(days=first)).isoformat(),
        "away_until": (today + timedelta(days=last)).isoformat(),
    }


def green_deadline(game):
    return SeatClock.objects.get(seat__game=game, seat__colour="green").deadline


def test_a_stranger_holding_a_forwarded_email_can_neither_set_a_vacation_nor_rename_the_player(client, game):
    url = preferences_path()
    before = green_deadline(game)

    refused = client.post(
        url,
        {
            **FORM,
            "away_from": timezone.now().date().isoformat(),
            "away_until": "2099-12-31",
            "display_name": "Not the player",
        },
    )

    assert refused.status_code == 403
    assert SIGN_IN_FIRST in text(refused)
    player = Player.objects.get(email=PLAYER)
    assert (player.away_from, player.away_until, player.display_name) == (None, None, "")
    assert green_deadline(game) == before


def test_a_stranger_cannot_end_the_players_vacation_either(client, game):
    player = Player.objects.get(email=PLAYER)
    start = timezone.now()
    players.update_preferences(
        player,
        delivery="prompt",
        news=True,
        time_zone="UTC",
        language="en",
        away_from=start,
        away_until=start + timedelta(days=5),
    )

    refused = client.post(preferences_path(), {**FORM, "away_from": "", "away_until": ""})

    assert refused.status_code == 403
    player.refresh_from_db()
    assert player.away_until == start + timedelta(days=5)


def test_with_the_link_alone_news_time_zone_and_language_still_change_and_a_vacation_stays(client, game):
    player = Player.objects.get(email=PLAYER)
    start = timezone.now()
    players.update_preferences(
        player,
        delivery="prompt",
        news=True,
        time_zone="UTC",
        language="en",
        away_from=start,
        away_until=start + timedelta(days=5),
    )
    url = preferences_path()
    page = client.get(url)
    # The vacation and the name are shown, not editable: a browser posts no disabled field.
    assert re.search(
        r'<input type="date" name="away_until" value="[^"]+"[^>]* disabled', page.content.decode()
    )
    assert re.search(r'<input type="text" name="display_name"[^>]* disabled', page.content.decode())

    saved = client.post(url, {"delivery": "digest", "time_zone": "Europe/Paris", "language": "fr"})

    assert saved.status_code == 302
    player.refresh_from_db()
    assert (player.delivery, player.news, player.time_zone, player.language) == (
        "digest",
        False,
        "Europe/Paris",
        "fr",
    )
    assert (player.away_from, player.away_until) == (start, start + timedelta(days=5))


def test_the_page_tells_a_visitor_how_to_sign_in_and_its_button_brings_the_player_back_signed_in(
    client, game
):
    url = preferences_path()
    page = text(client.get(url))
    assert SIGN_IN_FIRST in page
    assert "Email me a sign-in link" in page and f"It goes to {PLAYER}" in page

    # The button asks /signin/ for a link to the player's own address, leading back here.
    sent = client.post(reverse("lobby:sign_in"), {"email": PLAYER, "next": url})
    assert sent.status_code == 200
    send_all()
    email = [m for m in mail.outbox if "sign-in link" in m.subject][-1]
    link = re.search(r"https?://\S+", email.body).group(0)
    assert email.to == [PLAYER] and urlsplit(link).path == url

    player_browser = Client()
    landed = player_browser.get(urlsplit(link).path + "?" + urlsplit(link).query, follow=True)
    assert landed.redirect_chain[-1][0] == url
    assert SIGN_IN_FIRST not in text(landed)
    before = green_deadline(game)
    assert player_browser.post(url, {**FORM, **days(0, 6), "display_name": "Ana"}).status_code == 302
    player = Player.objects.get(email=PLAYER)
    assert player.display_name == "Ana" and player.away_until is not None
    assert green_deadline(game) - before > timedelta(days=5)


def test_signed_in_as_somebody_else_is_not_enough(client, game):
    client.force_login(user_for_email("player2@example.org"))

    refused = client.post(preferences_path(), {**FORM, **days(0, 3)})

    assert refused.status_code == 403
    assert Player.objects.get(email=PLAYER).away_until is None


def test_the_seat_link_of_a_forwarded_prompt_is_not_enough(client, game):
    prompt = prompt_for(game, "green")
    seat_link = re.search(r"https?://\S+/games/\d+/seat/\S+/", prompt.body).group(0)
    assert client.get(urlsplit(seat_link).path, follow=True).status_code == 200  # it acts for its seat

    refused = client.post(preferences_path(), {**FORM, **days(0, 3), "display_name": "Not the player"})

    assert refused.status_code == 403
    player = Player.objects.get(email=PLAYER)
    assert (player.away_until, player.display_name) == (None, "")


def test_a_vacation_longer_than_the_maximum_is_refused_saying_the_maximum(client, game, settings):
    settings.VACATION_MAX_DAYS = 30
    client.force_login(user_for_email(PLAYER))
    url = preferences_path()

    refused = client.post(url, {**FORM, **days(0, 30)})  # 31 days
    assert refused.status_code == 400
    assert "A vacation lasts at most 30 days" in text(refused)
    assert Player.objects.get(email=PLAYER).away_until is None

    assert client.post(url, {**FORM, **days(0, 29)}).status_code == 302  # 30 days
    assert Player.objects.get(email=PLAYER).away_until is not None


def test_the_maximum_in_french(client, game, settings):
    settings.VACATION_MAX_DAYS = 14
    Player.objects.filter(email=PLAYER).update(language="fr")  # a signed-in player's pages are in theirs
    client.force_login(user_for_email(PLAYER))

    refused = client.post(preferences_path(), {**FORM, "language": "fr", **days(2, 20)})

    assert refused.status_code == 400
    assert "Des vacances durent au plus 14 jours" in text(refused)


def test_the_service_refuses_a_vacation_over_the_maximum_whatever_calls_it(game, settings):
    settings.VACATION_MAX_DAYS = 30
    player = Player.objects.get(email=PLAYER)
    start = timezone.now()

    with pytest.raises(players.PreferenceError, match="at most 30 days"):
        players.update_preferences(
            player,
            delivery="prompt",
            news=True,
            time_zone="UTC",
            language="en",
            away_from=start,
            away_until=start.replace(year=2099),
        )

    player.refresh_from_db()
    assert player.away_until is None


def test_the_french_page_tells_a_visitor_how_to_sign_in(client, game):
    page = text(client.get(preferences_path(), HTTP_ACCEPT_LANGUAGE="fr"))
    assert "Pour prendre des vacances ou changer votre nom à la table, connectez-vous d'abord" in page
    assert "M'envoyer un lien de connexion" in page


def test_a_longer_vacation_saved_before_the_cap_stops_the_deadlines_for_the_maximum_only(game, settings):
    settings.VACATION_MAX_DAYS = 30
    now = timezone.now()
    Player.objects.filter(email=PLAYER).update(away_from=now, away_until=now.replace(year=2099))

    reschedule(Player.objects.get(email=PLAYER))

    # Green's decision waits out the 30 days, then its 48 hours: not until 2099.
    wait = green_deadline(game) - now
    assert timedelta(days=32) - timedelta(minutes=5) < wait < timedelta(days=32, minutes=5)
