"""Time and place on the game page: a countdown beside the deadline ("2 h 14 min left"), and the
victory track once on the game-over page (issue: it was shown twice)."""

from __future__ import annotations

import html
from datetime import UTC, datetime, timedelta

import pytest
from django.urls import reverse

from games.models import SeatClock
from web.pages import time_left

pytestmark = pytest.mark.django_db

NOW = datetime(2026, 3, 1, 12, 0, tzinfo=UTC)


def test_the_time_left_in_words():
    assert time_left(NOW + timedelta(hours=2, minutes=14, seconds=50), NOW) == "2 h 14 min left"
    assert time_left(NOW + timedelta(minutes=9), NOW) == "9 min left"
    assert time_left(NOW + timedelta(days=2, hours=3), NOW) == "2 d 3 h left"
    assert time_left(NOW - timedelta(minutes=1), NOW) == "the time is up"


def test_the_countdown_is_beside_the_deadline(client, make_game):
    from tests.games.play.test_take_backs import position

    game = make_game(n_players=2, seed="countdown", setup=position(), options={"reaction_mode": "quick"})
    seat = game.seats.get(colour="green")  # green's Season turn, with the default deadlines
    clock = SeatClock.objects.get(seat=seat)
    assert clock.deadline is not None
    client.force_login(seat.user)

    body = html.unescape(client.get(reverse("games:detail", args=[game.pk])).content.decode())

    decision = body[body.index('id="decision"') :]
    assert f'<time class="countdown" datetime="{clock.deadline.isoformat()}"' in decision
    assert " left</time>" in decision


def test_the_victory_track_once_on_the_game_over_page(client):
    """A game that ends at its first Assembly (green elected): the final track in the game-over
    panel, and no second one under the island."""
    from tests.web.test_game_page_panels import WON, two_players

    game, _green, blue = two_players(WON, seed="track-once")
    client.force_login(blue.user)

    body = client.get(reverse("games:detail", args=[game.pk])).content.decode()

    assert 'id="game-over"' in body and 'id="final-track"' in body
    assert body.count('<section class="panel track"') == 1


def test_the_deadline_date_is_in_the_pages_language(client, make_game):
    """A French page says the deadline's month in French ("1er mars": the first of a month is an
    ordinal in French), not the English "Mar"."""
    from tests.games.play.test_take_backs import position

    game = make_game(n_players=2, seed="countdown-fr", setup=position(), options={"reaction_mode": "quick"})
    seat = game.seats.get(colour="green")
    SeatClock.objects.filter(seat=seat).update(deadline=NOW)
    client.force_login(seat.user)
    client.cookies["django_language"] = "fr"
    body = html.unescape(client.get(reverse("games:detail", args=[game.pk])).content.decode())
    assert "1er mars, 12:00 UTC" in body
    client.cookies["django_language"] = "en"
    body = html.unescape(client.get(reverse("games:detail", args=[game.pk])).content.decode())
    assert "1 March, 12:00 UTC" in body
