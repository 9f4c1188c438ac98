"""Names link to profiles (docs/profiles.md, "Links to profiles"): on a game page (the turn-order
strip and the seats' table), in the open tables' list and on a table's page in the lobby; never a
bot's, never the profile of a player who hides it from the viewer."""

from __future__ import annotations

import re
import time
from unittest.mock import patch

import pytest
from django.test import Client
from django.urls import reverse

from community import list_cache
from community.profiles import set_hidden
from players.accounts import user_for_email
from players.models import Player
from tests.community.test_open_tables import open_table

pytestmark = pytest.mark.django_db(transaction=True)


def profile_links(page: str) -> set[int]:
    return {int(n) for n in re.findall(r'href="/players/(\d+)/"', page)}


def game_page(client: Client, game) -> str:
    return client.get(reverse("games:detail", args=[game.pk])).content.decode()


def test_the_names_on_a_game_page_link_to_profiles_but_hidden_ones_for_strangers(make_game):
    game = make_game(2, bots=1, seed="links", options={"public": True})
    people = [seat for seat in game.seats.order_by("position") if not seat.is_bot]
    for number, seat in enumerate(people):
        Player.objects.update_or_create(email=seat.email, defaults={"display_name": f"Player {number}"})
    shown, hidden = people
    set_hidden(hidden.user_id, True)

    seated = Client()
    seated.force_login(shown.user)
    page = game_page(seated, game)
    assert profile_links(page) == {shown.user_id, hidden.user_id}  # they sat together
    strip = page[page.index('id="turn-order"') :]
    assert f'href="/players/{hidden.user_id}/">Player 1</a>' in strip[: strip.index("</nav>")]

    spectator = Client()
    spectator.force_login(user_for_email("watcher@example.org"))
    for viewer in (spectator, Client()):
        page = game_page(viewer, game)
        assert profile_links(page) == {shown.user_id}
        assert "Player 1" in page  # named, without a link


def test_the_open_tables_list_and_the_lobby_link_names_but_hidden_ones(transactional_db):
    host = user_for_email("host@example.org")
    table = open_table(host, open_seats=2)
    listing = Client().get(reverse("community:open_tables")).content.decode()
    assert host.pk in profile_links(listing)
    set_hidden(host.pk, True)
    # The list is kept a minute while no table moves (community.list_cache): a minute later.
    with patch("time.time", return_value=time.time() + list_cache.PAGE_SECONDS + 1):
        listing = Client().get(reverse("community:open_tables")).content.decode()
    assert host.pk not in profile_links(listing)

    ana = Client()
    ana.force_login(user_for_email("ana@example.org"))
    ana.post(reverse("community:join", args=[table.pk]))
    own = Client()
    own.force_login(host)
    page = own.get(reverse("lobby:proposal", args=[table.pk])).content.decode()
    ana_id = user_for_email("ana@example.org").pk
    assert profile_links(page) >= {host.pk, ana_id}  # one's own profile, hidden or not
    set_hidden(ana_id, True)
    page = own.get(reverse("lobby:proposal", args=[table.pk])).content.decode()
    assert ana_id not in profile_links(page)
