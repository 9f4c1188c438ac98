"""The preferences link in every email never expires and needs no sign-in, so whoever holds one
forwarded email holds it too, and mail providers follow it (List-Unsubscribe). With the link
alone one may read the preferences (not the player's address), stop the news and change how
news comes, the time zone and the language; everything else needs a real sign-in as that
player: a vacation, which stops the player's deadlines in every game, the name the other players
read at the table, acceptances, move confirmation, and forced moves at once (which may tell the
table the player's hand). A vacation lasts at most VACATION_MAX_DAYS (docs/email-commands.md,
"Email preferences"; docs/deadlines.md; docs/security.md)."""

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
SIGN_IN_FIRST = (
    "changes only how your emails come, your time zone and your language. To change the rest, sign in first"
)


@pytest.fixture
def game(db):
    return game_from(END, seed="preferences-sign-in")


def preferences_path(email: str = PLAYER) -> str:
    player, _ = Player.objects.get_or_create(email=email)
    return urlsplit(player_urls(player.pk)["preferences"]).path


def text(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def sign_in_button(page) -> dict:
    """What the page's "Email me a sign-in link" form posts: its hidden fields."""
    form = re.search(r'<form method="post" action="/signin/">(.*?)</form>', page.content.decode(), re.S)
    assert form, "the page has no sign-in button"
    return dict(re.findall(r'<input type="hidden" name="(\w+)" value="([^"]*)"', form.group(1)))


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
    assert "Email me a sign-in link" in page and "It goes to the address of these preferences" in page

    # The button asks /signin/ for a link to the player's own address, leading back here.
    sent = client.post(reverse("lobby:sign_in"), sign_in_button(client.get(url)))
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
    assert "Le lien d'un email ne change que la façon dont vos emails arrivent" in page
    assert "Pour changer le reste, connectez-vous d'abord" in page
    assert "M'envoyer un lien de connexion" in page


def test_a_longer_vacation_saved_before_the_cap_stops_the_deadlines_for_the_maximum_only(game, settings):
    settings.VACATION_MAX_DAYS = 30
    now = timezone.now()
    Player.objects.filter(email=PLAYER).update(away_from=now, away_until=now.replace(year=2099))

    reschedule(Player.objects.get(email=PLAYER))

    # Green's decision waits out the 30 days, then its 48 hours: not until 2099.
    wait = green_deadline(game) - now
    assert timedelta(days=32) - timedelta(minutes=5) < wait < timedelta(days=32, minutes=5)


# The audit's post: the footer link's token (also in List-Unsubscribe, which mail providers
# follow), not signed in, switching on forced moves at once and leaving move confirmation out.
LEAKING_POST = {**FORM, "forced_moves_at_once": "on"}


@pytest.mark.parametrize(
    "posted, field, stays",
    [
        (LEAKING_POST, "forced_moves_at_once", False),
        ({**FORM, "confirm_moves": ""}, "confirm_moves", True),
        ({**FORM, "confirm_moves": "false"}, "confirm_moves", True),
        ({**FORM, "acceptances": "0"}, "acceptances", True),
    ],
)
def test_the_link_alone_changes_neither_forced_moves_nor_move_confirmation_nor_acceptances(
    client, game, posted, field, stays
):
    refused = client.post(preferences_path(), posted)

    assert refused.status_code == 403
    assert "Nothing was saved" in text(refused) and SIGN_IN_FIRST in text(refused)
    assert "Your email preferences are saved" not in text(client.get(preferences_path()))
    player = Player.objects.get(email=PLAYER)
    assert getattr(player, field) is stays
    assert (player.forced_moves_at_once, player.confirm_moves, player.acceptances) == (False, True, True)


def test_a_box_left_out_by_the_link_alone_keeps_its_value_and_the_rest_is_saved(client, game):
    """A browser posts no disabled box: left out, move confirmation and acceptances stay on."""
    saved = client.post(preferences_path(), {**FORM, "time_zone": "Europe/Paris"})

    assert saved.status_code == 302
    player = Player.objects.get(email=PLAYER)
    assert player.time_zone == "Europe/Paris"
    assert (player.forced_moves_at_once, player.confirm_moves, player.acceptances) == (False, True, True)


def test_the_page_shows_every_setting_but_delivery_news_time_zone_and_language_locked(client, game):
    page = client.get(preferences_path()).content.decode()

    for name in (
        "display_name",
        "acceptances",
        "confirm_moves",
        "forced_moves_at_once",
        "away_from",
        "away_until",
    ):
        assert re.search(rf'<input type="\w+" name="{name}"[^>]* disabled', page), name
    for name in ("news", "time_zone"):
        assert not re.search(rf'<input type="\w+" name="{name}"[^>]* disabled', page), name
    assert text(client.get(preferences_path())).count("To change it, sign in (above).") == 6


def test_signed_in_as_the_player_every_setting_changes(client, game):
    client.force_login(user_for_email(PLAYER))
    page = client.get(preferences_path()).content.decode()
    assert " disabled" not in page and "To change it, sign in" not in page

    saved = client.post(preferences_path(), {**FORM, "forced_moves_at_once": "on"})

    assert saved.status_code == 302
    player = Player.objects.get(email=PLAYER)
    assert (player.forced_moves_at_once, player.confirm_moves, player.acceptances) == (True, False, False)


def test_the_page_shows_the_players_address_to_nobody_but_the_player_signed_in(client, game):
    assert PLAYER not in client.get(preferences_path()).content.decode()
    client.force_login(user_for_email("player2@example.org"))
    assert PLAYER not in client.get(preferences_path()).content.decode()
    refused = client.post(preferences_path(), LEAKING_POST)
    assert PLAYER not in refused.content.decode()

    client.force_login(user_for_email(PLAYER))
    assert f"Email preferences for {PLAYER}" in text(client.get(preferences_path()))


def test_the_unsubscribe_page_of_the_same_link_names_the_address_to_the_player_signed_in_only(client, game):
    player = Player.objects.get(email=PLAYER)
    url = urlsplit(player_urls(player.pk)["unsubscribe"]).path
    assert PLAYER not in client.get(url).content.decode()
    assert PLAYER not in client.post(url).content.decode()  # the one-click unsubscribe's answer
    assert "News emails" in text(client.get(url))

    client.force_login(user_for_email(PLAYER))
    assert f"News emails for {PLAYER}" in text(client.get(url))


def test_the_sign_in_button_mails_the_players_address_without_naming_it_to_the_visitor(client, game):
    sent = client.post(reverse("lobby:sign_in"), sign_in_button(client.get(preferences_path())))

    assert sent.status_code == 200
    assert PLAYER not in sent.content.decode()
    assert "A sign-in link is on its way to the address of those preferences" in text(sent)
    send_all()
    assert [m.to for m in mail.outbox if "sign-in link" in m.subject] == [[PLAYER]]


def test_a_forged_preferences_link_on_the_sign_in_button_sends_nothing(client, game):
    button = sign_in_button(client.get(preferences_path()))
    forged = {**button, "preferences_link": button["preferences_link"][:-3] + "AAA"}

    answer = client.post(reverse("lobby:sign_in"), forged)

    send_all()
    assert answer.status_code == 200 and not [m for m in mail.outbox if "sign-in link" in m.subject]
