"""Following public games (docs/spectators.md): the host's option, the "Games to watch" list,
follow and unfollow in one click (a POST with its CSRF token), and one-click unsubscribe."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.models import Event, Game, TableEvent
from games.record.options import table_options
from lobby.models import Proposal
from players.accounts import user_for_email
from tests.moments import in_words, machine_forms, text_of
from watching.links import unsubscribe_token
from watching.models import Follow

pytestmark = pytest.mark.django_db


@pytest.fixture
def host():
    return user_for_email("host@example.org")


@pytest.fixture
def public_game(make_game, host):
    return make_game(seed="watch-public", n_players=3, host=host, options={**table_options(), "public": True})


@pytest.fixture
def private_game(make_game, host):
    return make_game(seed="watch-private", n_players=3, host=host, options=table_options())


def _csrf_client(user=None) -> Client:
    client = Client(enforce_csrf_checks=True)
    if user is not None:
        client.force_login(user)
    return client


def _token(page: str) -> str:
    return re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]


def test_the_host_makes_a_game_public_and_private_again_each_recorded_in_the_history(
    client, private_game, host
):
    client.force_login(host)
    url = reverse("lobby:host", args=[private_game.pk])
    assert "Make it public" in client.get(url).content.decode()
    assert client.post(url, {"action": "public"}).status_code == 302
    private_game.refresh_from_db()
    assert private_game.options["public"] is True
    assert client.post(url, {"action": "private"}).status_code == 302
    private_game.refresh_from_db()
    assert private_game.options["public"] is False
    acts = list(TableEvent.objects.filter(game=private_game).order_by("seq").values_list("type", "payload"))
    assert acts == [("VisibilityChanged", {"public": True}), ("VisibilityChanged", {"public": False})]
    history = client.get(reverse("games:history", args=[private_game.pk])).content.decode()
    assert "The host made the game public: anyone may follow it." in history
    assert not Event.objects.filter(game=private_game, type="VisibilityChanged").exists()  # not a rules fact


def test_only_the_host_makes_a_game_public(client, private_game):
    client.force_login(private_game.seats.get(colour="blue").user)
    assert client.post(reverse("lobby:host", args=[private_game.pk]), {"action": "public"}).status_code == 403
    private_game.refresh_from_db()
    assert not private_game.options.get("public")


def test_the_new_game_form_makes_a_public_game(client, host):
    client.force_login(host)
    form = client.get(reverse("lobby:new")).content.decode()
    assert 'name="public"' in form
    response = client.post(
        reverse("lobby:new"),
        {
            "host_plays": "on",
            "player_1": "friend@example.org",
            "bots": "0",
            "setup": "random",
            "deadlines": "normal",
            "reaction_mode": "holders",
            "public": "on",
        },
    )
    assert response.status_code == 302
    assert Proposal.objects.get(host=host).options["public"] is True
    client.post(
        reverse("lobby:new"),
        {
            "host_plays": "on",
            "player_1": "other@example.org",
            "bots": "0",
            "setup": "random",
            "deadlines": "normal",
            "reaction_mode": "holders",
        },
    )
    assert Proposal.objects.filter(host=host).order_by("-pk").first().options["public"] is False


def _public_game_over(*, seed: str, followed_by=None):
    """A public 2-player game played to its end (green passes from a position one pass from the
    end: green is the High King), followed by the user `followed_by` while it was played."""
    from games.services import SeatSpec, create_game, submit_command
    from tests.games.record.test_verify import ENDGAME

    over = create_game(
        seats=[SeatSpec(email="g@example.org"), SeatSpec(email="b@example.org")],
        seed=seed,
        setup=ENDGAME,
        play_bots=False,
        options={"public": True},
    )
    if followed_by is not None:
        Follow.objects.create(user=followed_by, game=over)
    assert submit_command(
        game=over,
        seat=over.seats.get(colour="green"),
        command={"type": "pass"},
        expected_seq=Event.objects.filter(game=over).count(),
    ).accepted
    return over


def test_games_to_watch_lists_public_games_in_progress_and_recently_finished(
    client, make_game, public_game, private_game
):
    over = _public_game_over(seed="watch-over")
    page = client.get(reverse("watching:list")).content.decode()
    in_progress, finished = page.split("Recently finished")
    assert f"Game {public_game.pk}<" in in_progress and f"Game {private_game.pk}<" not in page
    assert f"Game {over.pk}<" in finished and "green is the High King" in finished
    assert "Sign in to follow" in in_progress
    from watching.selectors import games_to_watch

    # Two weeks after its end, a finished game leaves the list.
    later = games_to_watch(now=timezone.now() + timedelta(days=15))
    assert over not in later.finished and public_game in later.in_progress


def test_games_to_watch_name_the_players_as_the_game_pages_do():
    """docs/web.md, "Players by name": "Gil (green)", a bot by its level; the winner too, in the
    reader's language."""
    from players.preferences import set_display_name

    set_display_name("g@example.org", "Gil")
    over = _public_game_over(seed="watch-named")
    over.seats.filter(colour="blue").update(is_bot=True, bot_level="hard", email="", user=None)
    english = Client().get(reverse("watching:list")).content.decode()
    assert "Gil (green) is the High King" in english and "Hard bot (blue)" in english
    assert "(bot)" not in english
    french = Client(HTTP_ACCEPT_LANGUAGE="fr").get(reverse("watching:list")).content.decode()
    assert "Gil (vert)" in french and "Robot difficile (bleu)" in french


def test_a_finished_game_is_listed_with_no_button_even_for_its_follower():
    """docs/spectators.md: `/watch/` lists "those finished in the last 14 days, with no button"."""
    fan = user_for_email("fan@example.org")
    over = _public_game_over(seed="watch-followed-over", followed_by=fan)

    page = _csrf_client(fan).get(reverse("watching:list")).content.decode()

    _in_progress, finished = page.split("Recently finished")
    row = re.search(rf"<tr>\s*<td><a href=\"[^\"]*/{over.pk}/\">Game {over.pk}<.*?</tr>", finished, re.S)
    assert row is not None
    assert "<button" not in row[0] and "<form" not in row[0] and "Unfollow" not in row[0]


def test_following_and_unfollowing_are_one_click_each(public_game):
    fan = user_for_email("fan@example.org")
    client = _csrf_client(fan)
    page = client.get(reverse("watching:list")).content.decode()
    follow_url = reverse("watching:follow", args=[public_game.pk])
    assert f'action="{follow_url}"' in page
    assert client.post(follow_url).status_code == 403  # no CSRF token: refused, nothing written
    assert not Follow.objects.exists()
    response = client.post(follow_url, {"csrfmiddlewaretoken": _token(page)})
    assert response.status_code == 302 and response["Location"] == reverse("watching:list")
    assert Follow.objects.filter(user=fan, game=public_game).count() == 1
    page = client.get(reverse("watching:list")).content.decode()
    assert "You follow game" in page and "Unfollow" in page
    client.post(follow_url, {"csrfmiddlewaretoken": _token(page)})  # twice: still one follow
    assert Follow.objects.filter(user=fan, game=public_game).count() == 1
    game_page = client.get(reverse("games:detail", args=[public_game.pk])).content.decode()
    assert reverse("watching:unfollow", args=[public_game.pk]) in game_page
    response = client.post(
        reverse("watching:unfollow", args=[public_game.pk]),
        {"csrfmiddlewaretoken": _token(game_page), "next": reverse("games:detail", args=[public_game.pk])},
    )
    assert response["Location"] == reverse("games:detail", args=[public_game.pk])
    assert not Follow.objects.exists()


def test_a_visitor_is_sent_to_sign_in_before_following(client, public_game):
    game_page = client.get(reverse("games:detail", args=[public_game.pk])).content.decode()
    assert "Sign in by email link, then a daily digest" in game_page
    response = client.post(reverse("watching:follow", args=[public_game.pk]))
    assert response.status_code == 302 and response["Location"].startswith(reverse("lobby:sign_in"))
    assert not Follow.objects.exists()


def test_a_game_that_is_not_public_cannot_be_followed(client, private_game):
    client.force_login(user_for_email("fan@example.org"))
    assert client.post(reverse("watching:follow", args=[private_game.pk])).status_code == 404
    assert client.post(reverse("watching:follow", args=[999999])).status_code == 404
    assert not Follow.objects.exists()
    page = client.get(reverse("games:detail", args=[private_game.pk])).content.decode()
    assert reverse("watching:follow", args=[private_game.pk]) not in page
    # The public page itself stays what every visitor sees, as before.
    assert client.get(reverse("games:detail", args=[private_game.pk])).status_code == 200


def test_one_click_unsubscribe_needs_no_sign_in_nor_csrf(public_game, make_game):
    fan = user_for_email("fan@example.org")
    other = make_game(seed="watch-other", n_players=2, options={"public": True})
    Follow.objects.create(user=fan, game=public_game)
    Follow.objects.create(user=fan, game=other)
    one = reverse("watching:unsubscribe", args=[unsubscribe_token(user_id=fan.pk, game_id=public_game.pk)])
    stranger = Client(enforce_csrf_checks=True)
    assert "Stop following game" in stranger.get(one).content.decode()
    assert Follow.objects.count() == 2  # a GET (a link scanner) changes nothing
    response = stranger.post(one, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200 and "you no longer follow game" in response.content.decode()
    assert list(Follow.objects.values_list("game_id", flat=True)) == [other.pk]
    everything = reverse("watching:unsubscribe", args=[unsubscribe_token(user_id=fan.pk)])
    stranger.post(everything, {"List-Unsubscribe": "One-Click"})
    assert not Follow.objects.exists()
    forged = unsubscribe_token(user_id=fan.pk)[:-2] + "xx"
    assert stranger.post(reverse("watching:unsubscribe", args=[forged])).status_code == 404


@pytest.mark.parametrize("language", ["en", "fr"])
def test_games_to_watch_gives_the_day_a_game_started_in_words(client, public_game, language):
    """ "Started" ("Commencée le") reads "1 January 2026" ("1er janvier 2026") for a game begun on
    the first of January 2026, in the reader's language as the other pages write their dates,
    not "2026-01-01"; the ISO moment stays in the cell's <time datetime>."""
    moment = datetime(2026, 1, 1, 14, 3, tzinfo=UTC)
    Game.objects.filter(pk=public_game.pk).update(created_at=moment)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language

    page = client.get(reverse("watching:list")).content.decode()
    row = page.split(f'href="{reverse("games:detail", args=[public_game.pk])}"')[1].split("</tr>")[0]

    assert in_words(moment, language, time=False) in text_of(row)
    assert not any(form in text_of(row) for form in machine_forms(moment))
    assert f'datetime="{moment.isoformat()}"' in row
