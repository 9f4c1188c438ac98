"""docs/privacy.md, erasure: "a kept page could show their name". Each web process keeps game
pages, their live parts and their table-talk lines in its own memory, which an erasure made in
another process (another gunicorn worker, the operator's shell) cannot empty. A finished game
changes nothing else on an erasure (no event is recorded in it), so only the site's latest
erasure, part of every such key, keeps a page kept before it from being served after it."""

from __future__ import annotations

import html
import re

import pytest
from django.test import Client
from django.urls import reverse

from players import erasure
from players.erasure import erase_account
from players.preferences import set_display_name
from press.services import press_send
from tests.community.test_ratings import play_to_the_end, rated_table

pytestmark = pytest.mark.django_db(transaction=True)

NAME = "Annwyn Quillfeather"
WORDS = "Meet me in the Marigoldcove tonight"


def page_text(client: Client, game) -> str:
    return html.unescape(
        re.sub(r"<[^>]+>", " ", client.get(reverse("games:detail", args=[game.pk])).content.decode())
    )


def test_a_page_kept_by_this_process_before_an_erasure_elsewhere_no_longer_shows_the_erased_player(
    monkeypatch,
):
    game = rated_table("erased-elsewhere")
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    set_display_name(green.email, NAME)
    press_send(game=game, seat=green, to="all", text=WORDS)
    play_to_the_end(game)
    reader = Client()
    reader.force_login(blue.user)
    before = page_text(reader, game)
    assert NAME in before and WORDS in before
    assert page_text(reader, game) == before  # served again, from this process's memory

    # Erased by another process: the caches it shares with this one (Redis) are emptied, this
    # process's memory ("pages") is not.
    monkeypatch.setattr(erasure, "PAGE_CACHES", tuple(c for c in erasure.PAGE_CACHES if c != "pages"))
    erase_account(green.user_id)

    after = page_text(reader, game)
    assert NAME not in after and WORDS not in after
    assert "Player 1 (left)" in after


def test_the_part_every_spectator_shares_kept_before_an_erasure_no_longer_shows_the_erased_player(
    monkeypatch,
):
    game = rated_table("erased-spectators")
    green = game.seats.get(colour="green")
    set_display_name(green.email, NAME)
    play_to_the_end(game)
    page = Client().get(reverse("games:detail", args=[game.pk])).content.decode()
    address = re.search(r'data-live-public="([^"]+)"', page).group(1)
    address += "?v=" + re.search(r'data-live-version="([^"]+)"', page).group(1)
    assert NAME in html.unescape(Client().get(address).content.decode())  # kept, in this process too

    monkeypatch.setattr(erasure, "PAGE_CACHES", tuple(c for c in erasure.PAGE_CACHES if c != "pages"))
    erase_account(green.user_id)

    after = html.unescape(Client().get(address).content.decode())
    assert NAME not in after and "Player 1 (left)" in after
