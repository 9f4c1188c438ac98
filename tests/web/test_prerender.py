"""The first view after a move: the worker renders the live part and whole page of each player the
move asks to decide after the commit (web.prerender), so their view finds the page in the cache
instead of building it; the other readers' first view builds their page, the same page; and each
player gets their own page, never another seat's."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games import rules, store
from games.services import submit_command
from tests.games.play.test_take_backs import NEW_CLANS, position
from web import live_part, page_cache, pages, prerender

pytestmark = pytest.mark.django_db


@pytest.mark.speed_layer
def test_after_a_move_the_next_players_page_is_ready(client, make_game):
    game = make_game(n_players=2, seed="prerender", setup=position(), options={"reaction_mode": "quick"})
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    client.force_login(blue.user)
    client.get(reverse("games:detail", args=[game.pk]))  # blue looked before the move
    _client(green.user).get(reverse("games:detail", args=[game.pk]))  # so did green
    assert submit_command(game=game, seat=green, command=NEW_CLANS, expected_seq=store.head(game)[0]).accepted
    state, _seq = store.load(game)
    assert rules.pending(state)[0].seat == "blue"

    assert prerender.render_live_parts(game.pk) == 2  # blue's live part and page: blue must move
    assert prerender.render_live_parts(game.pk) == 0  # already kept

    with (
        mock.patch.object(pages, "game_page", wraps=pages.game_page) as built,
        mock.patch.object(live_part, "page_html", wraps=live_part.page_html) as rendered,
        CaptureQueriesContext(connection) as queries,
    ):
        response = client.get(reverse("games:detail", args=[game.pk]))
    assert response.status_code == 200 and "Your turn." in response.content.decode()
    # The whole page came from the worker's render: neither its live part nor the page around it
    # was rendered by the view.
    assert built.call_count == 0 and rendered.call_count == 0
    # The session (unless read through the cache), blue's user (Django's authentication), the
    # game with its seats and blue's standing orders.
    cached_sessions = settings.SESSION_ENGINE.endswith("cached_db")
    assert len(queries) == (2 if cached_sessions else 3), "\n".join(q["sql"][:150] for q in queries)


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _body(response) -> str:
    """The page without its per-request values (the CSRF token, the form nonce)."""
    assert response.status_code == 200
    return re.sub(r'(?:value|data-live-viewer)="[^"]*"', "", response.content.decode())


@pytest.mark.speed_layer
def test_the_player_the_move_asks_to_decide_gets_their_page_ahead_the_other_reader_builds_it(make_game):
    """Both players read the page. Green moves and blue must answer: blue's page is rendered ahead
    (blue is told, and looks soon), green's is not (green looks later, if at all). Green's first
    view builds green's page, and each page is the one the view renders whole; each player sees
    their own seat, never the other's."""
    game = make_game(n_players=2, seed="prerender-own", setup=position(), options={"reaction_mode": "quick"})
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    url = reverse("games:detail", args=[game.pk])
    for seat in (green, blue):
        _client(seat.user).get(url)  # both players use the page (web.page_readers)
    assert submit_command(game=game, seat=green, command=NEW_CLANS, expected_seq=store.head(game)[0]).accepted
    with mock.patch.object(live_part, "build", wraps=live_part.build) as ahead:
        assert prerender.render_live_parts(game.pk) == 2
    assert {call.args[1].colour for call in ahead.call_args_list} == {"blue"}

    seen = {}
    for seat in (blue, green):
        with mock.patch.object(pages, "game_page", wraps=pages.game_page) as built:
            seen[seat.colour] = _body(_client(seat.user).get(url))
        assert built.call_count == (0 if seat is blue else 1), seat.colour  # green's built on demand
    # Blue (asked to move) and green (waiting) each see their own seat, their own address and hand.
    assert "Your turn." in seen["blue"] and "Your turn." not in seen["green"]
    assert f'<span class="who">{blue.user.email}</span>' in seen["blue"]
    assert f'<span class="who">{green.user.email}</span>' in seen["green"]
    assert f'<span class="who">{blue.user.email}</span>' not in seen["green"]
    assert seen["blue"] != seen["green"]

    # What each got is the page the view renders whole by itself (the caches emptied).
    for name in ("pages", "prerendered"):
        caches[name].clear()
    with mock.patch.object(pages, "game_page", wraps=pages.game_page) as built:
        for seat in (blue, green):
            assert _body(_client(seat.user).get(url)) == seen[seat.colour]
    assert built.call_count == 2


@pytest.mark.speed_layer
def test_a_reader_still_holding_an_earlier_decision_gets_no_page_ahead(make_game, play):
    """The draft asks every player at once. A pick that opens no decision renders no page ahead,
    not even for the players still to pick: they were asked by the move that opened their
    decision, and their page was rendered ahead then."""
    game = make_game(seed="prerender-draft")
    readers = {seat.colour: _client(seat.user) for seat in game.seats.all()}
    url = reverse("games:detail", args=[game.pk])
    for client in readers.values():
        client.get(url)
    for _step in range(20):  # to the move that opens every player's draft
        state, seq = store.load(game)
        if len(rules.pending(state)) > 1:
            break
        prerender.render_live_parts(game.pk)
        play(game, 1)
    state, seq = store.load(game)
    deciding = [d.seat for d in rules.pending(state)]
    assert len(deciding) == 4
    with mock.patch.object(live_part, "build", wraps=live_part.build) as ahead:
        assert prerender.render_live_parts(game.pk) == 8
    assert {call.args[1].colour for call in ahead.call_args_list} == set(deciding)

    seat = game.seats.get(colour=deciding[0])
    command = rules.legal_commands(state, deciding[0])[0]
    assert submit_command(game=game, seat=seat, command=command, expected_seq=seq).accepted
    state, _seq = store.load(game)
    assert {d.seat for d in rules.pending(state)} == set(deciding[1:])  # the others still pick
    with mock.patch.object(live_part, "build", wraps=live_part.build) as ahead:
        assert prerender.render_live_parts(game.pk) == 0
    assert ahead.call_count == 0


@pytest.mark.speed_layer
def test_what_was_rendered_ahead_for_an_earlier_version_is_deleted_at_the_next_move(make_game):
    """Every key names the game's versions: once the game moved on, what was kept for the earlier
    ones is never read again, and is deleted by the next run rather than kept for a day."""
    game = make_game(
        n_players=2, seed="prerender-forget", setup=position(), options={"reaction_mode": "quick"}
    )
    green = game.seats.get(colour="green")
    for seat in game.seats.all():
        _client(seat.user).get(reverse("games:detail", args=[game.pk]))  # both use the page

    def kept_by_a_run() -> list[str]:
        with mock.patch.object(page_cache, "keep_ahead_many", wraps=page_cache.keep_ahead_many) as keep:
            prerender.render_live_parts(game.pk)
        return [key for call in keep.call_args_list for key in call.args[0]]

    def present(key: str) -> bool:
        return caches["prerendered"].get(key, version=page_cache.PRERENDERED_FORMAT) is not None

    assert submit_command(game=game, seat=green, command=NEW_CLANS, expected_seq=store.head(game)[0]).accepted
    first = kept_by_a_run()
    assert len(first) == 2 and all(present(key) for key in first)  # blue's: blue must answer
    assert kept_by_a_run() == [] and all(present(key) for key in first)  # the same versions: all kept

    state, seq = store.load(game)
    (decision,) = rules.pending(state)
    seat = game.seats.get(colour=decision.seat)
    command = rules.legal_commands(state, decision.seat)[0]
    assert submit_command(game=game, seat=seat, command=command, expected_seq=seq).accepted
    second = kept_by_a_run()
    assert second and all(present(key) for key in second)
    assert not any(present(key) for key in first)


@pytest.mark.speed_layer
def test_a_player_who_never_opens_the_page_costs_the_worker_nothing_after_a_move(make_game):
    """Most players play by email: the worker renders ahead only for those who opened the game's
    page (web.page_readers). Green never looked: nothing of green's is rendered after a move;
    once green opened the page (built by the view), green's pages are rendered at the next move
    that asks green to decide."""
    game = make_game(
        n_players=2, seed="prerender-readers", setup=position(), options={"reaction_mode": "quick"}
    )
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    url = reverse("games:detail", args=[game.pk])
    _client(blue.user).get(url)
    assert submit_command(game=game, seat=green, command=NEW_CLANS, expected_seq=store.head(game)[0]).accepted
    with mock.patch.object(live_part, "build", wraps=live_part.build) as built:
        assert prerender.render_live_parts(game.pk) == 2  # blue's live part and page: blue must move
    assert {call.args[1].colour for call in built.call_args_list} == {"blue"}

    with mock.patch.object(pages, "game_page", wraps=pages.game_page) as views_built:
        assert _client(green.user).get(url).status_code == 200
    assert views_built.call_count == 1  # green's first look: built by the view, and noted
    state, seq = store.load(game)
    (decision,) = rules.pending(state)
    command = rules.legal_commands(state, decision.seat)[0]
    seat = game.seats.get(colour=decision.seat)
    assert submit_command(game=game, seat=seat, command=command, expected_seq=seq).accepted
    with mock.patch.object(live_part, "build", wraps=live_part.build) as built:
        assert prerender.render_live_parts(game.pk) == 2
    assert {call.args[1].colour for call in built.call_args_list} == {"green"}


@pytest.mark.speed_layer
def test_the_island_is_drawn_once_a_move_for_every_reader_and_shows_nobodys_hand(make_game, play):
    """Four players read the game on the web, and a move asks each to draft: the worker builds each one's page, yet
    loads the state once and draws the island once (it is the same for all: rulebook, "Components": clans, buildings and
    tokens on the island are public). The one picture they share is the spectator's island: no
    player's hand is in it, and each player's own hand is in their page only."""
    from django.utils.html import escape

    from web import board_svg

    game = make_game(seed="prerender-island")
    seats = list(game.seats.order_by("position"))
    for seat in seats:
        _client(seat.user).get(reverse("games:detail", args=[game.pk]))  # all four read the page
    for _step in range(20):  # to the move that deals the Action cards: every player must draft
        play(game, 1)
        if len(rules.pending(store.load(game)[0])) == 4:
            break
    board_svg._islands.clear()  # as in a worker that has not drawn this state yet

    with (
        mock.patch.object(board_svg, "island_svg", wraps=board_svg.island_svg) as drawn,
        mock.patch.object(store, "load", wraps=store.load) as loaded,
    ):
        assert prerender.render_live_parts(game.pk) == 8
    assert drawn.call_count == 1
    assert loaded.call_count == 1  # and the state loaded once for the four pages
    state, _seq = store.load(game)
    (shared,) = board_svg._islands.values()
    assert shared == board_svg.island_svg(rules.view_for(state, None), **drawn.call_args.kwargs)
    hidden = 0
    for seat in seats:
        view = rules.view_for(state, seat.colour)
        cards = view["hand"] + view.get("draft", {}).get("choices", [])  # the cards they draft from
        hand = {pages.card_ref(card)["name"] for card in cards}
        # Not the names every island shows: territories, and its glyphs (Sanctuary, Citadel...).
        actions = {n for n in hand if n not in str(rules.TERRITORY_INFO) and n not in board_svg._defs()}
        assert not any(name in shared for name in actions), seat.colour
        own = _body(_client(seat.user).get(reverse("games:detail", args=[game.pk])))
        assert all(escape(name) in own for name in actions)  # as HTML writes it
        hidden += len(actions)
    assert hidden  # the players hold Action cards the island might have shown
