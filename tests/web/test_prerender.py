"""The first view after a move: the worker renders each player's live part after the commit
(web.prerender), so the view finds it in the page cache instead of building it."""

from __future__ import annotations

from unittest import mock

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import rules, store
from games.services import submit_command
from tests.games.play.test_take_backs import NEW_CLANS, position
from web import pages, prerender

pytestmark = pytest.mark.django_db


def test_after_a_move_the_next_players_page_is_ready(client, make_game):
    game = make_game(n_players=2, seed="prerender", setup=position(), options={"reaction_mode": "quick"})
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    client.force_login(blue.user)
    client.get(reverse("games:detail", args=[game.pk]))  # blue looked before the move
    assert submit_command(game=game, seat=green, command=NEW_CLANS, expected_seq=store.head(game)[0]).accepted
    state, _seq = store.load(game)
    assert rules.pending(state)[0].seat == "blue"

    assert prerender.render_live_parts(game.pk) == 4  # green's and blue's live parts and pages
    assert prerender.render_live_parts(game.pk) == 0  # already kept

    with mock.patch.object(pages, "game_page", wraps=pages.game_page) as built:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(reverse("games:detail", args=[game.pk]))
    assert response.status_code == 200 and "Your turn." in response.content.decode()
    assert built.call_count == 0  # the live part came from the worker's render
    # The session, the user, the game with its seats and blue's standing orders, the table talk.
    assert len(queries) <= 4, "\n".join(q["sql"][:150] for q in queries)
