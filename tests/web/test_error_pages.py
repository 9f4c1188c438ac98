"""A refusal (403) and an address that leads nowhere (404) are pages in the reader's language that
say why in words (docs/web.md, "Refusals"), never Django's bare "403 Forbidden" or a Python
class name."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from players.models import Player
from press.models import PressMessage
from tests.community.test_open_tables import signed_in

pytestmark = pytest.mark.django_db


def text(response) -> str:
    return html.unescape(response.content.decode())


def test_a_seat_asked_for_by_a_stranger_is_refused_in_words(make_game):
    game = make_game(n_players=2)
    url = reverse("games:detail", args=[game.pk]) + "?as=green"
    english = signed_in("stranger@example.org").get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert english.status_code == 403
    assert "You do not play green in this game." in text(english) and "Not for you" in text(english)
    french = signed_in("stranger@example.org").get(url, HTTP_ACCEPT_LANGUAGE="fr")
    assert french.status_code == 403
    assert "Pas pour vous" in text(french) and "Forbidden" not in text(french)
    assert "Vous ne jouez pas" in text(french)


def test_a_game_or_table_that_does_not_exist_says_so(make_game):
    missing = Client().get(reverse("games:detail", args=[999_999]), HTTP_ACCEPT_LANGUAGE="fr")
    assert missing.status_code == 404
    assert "Rien ici" in text(missing) and "Not Found" not in text(missing)
    table = signed_in("host@example.org").get(reverse("lobby:proposal", args=[999_999]))
    assert table.status_code == 404 and "There is no table 999999." in text(table)
    assert "matches the given query" not in text(table)


def test_an_address_that_matches_no_page_reads_as_a_sentence():
    nowhere = Client().get("/no/such/page/", HTTP_ACCEPT_LANGUAGE="en")
    assert nowhere.status_code == 404
    page = text(nowhere)
    assert "There is no page at this address." in page
    assert "Resolver404" not in page and "tried" not in page


@pytest.mark.parametrize(
    ("language", "heading", "sentence"),
    [
        ("en", "This form is out of date", "Reload the page, then send it again."),
        ("fr", "Ce formulaire n'est plus à jour", "Rechargez la page, puis envoyez de nouveau."),
    ],
)
def test_a_form_sent_with_a_stale_token_reads_as_the_sites_page_saying_what_to_do(
    make_game, language, heading, sentence
):
    """docs/web.md: a form that fails Django's CSRF check "gets that page too, "This form is out
    of date", saying that nothing was sent and to reload the page and send again (403 ...), never
    Django's bare "403 Forbidden"."""
    game = make_game(n_players=2)
    green = game.seats.get(colour="green")
    Player.objects.filter(email=green.user.email).update(language=language)  # the reader's language
    client = Client(enforce_csrf_checks=True)  # a browser's form without its token
    client.force_login(green.user)
    talk = client.post(
        reverse("press:send", args=[game.pk]),
        {"seat": "green", "to": "all", "text": "Hello"},
    )
    assert talk.status_code == 403
    page = text(talk)
    assert heading in page and sentence in page
    assert "Forbidden" not in page and "Interdit" not in page and "CSRF" not in page
    assert not PressMessage.objects.filter(game=game).exists()


def test_every_page_names_its_tab_icon_so_no_browser_asks_for_a_missing_one(make_game):
    """A browser asks for /favicon.ico unless the page names an icon: that would be a 404 on every
    first visit, in the visitor's console and the server's log."""
    game = make_game(n_players=2)
    for url in ("/", reverse("games:detail", args=[game.pk]), "/no/such/page/"):
        page = Client().get(url)
        assert '<link rel="icon" type="image/svg+xml" href="data:image/svg+xml,' in page.content.decode(), url


@pytest.mark.parametrize(
    "language, words", [("en", "Go back to the page and use its button."), ("fr", "utilisez son bouton")]
)
def test_a_buttons_address_opened_as_a_page_says_what_to_do(db, language, words):
    """docs/web.md: an address asked the wrong way (405) is a page of the site saying to use the
    page's button, in the reader's language; never an empty answer."""
    from players.accounts import user_for_email

    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user_for_email("conn@example.org"))
    player = Player.objects.create(email="brigid@example.org", display_name="Brigid")
    response = client.get(f"/players/{player.pk}/block/")
    assert response.status_code == 405 and response["Allow"] == "POST"
    assert words in html.unescape(response.content.decode())


def test_a_page_posted_to_says_it_takes_no_form(db):
    response = Client().post(reverse("community:open_tables"))
    assert response.status_code == 405
    assert "This page takes no form: nothing was sent." in html.unescape(response.content.decode())
