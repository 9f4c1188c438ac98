"""The island and the table's facts rendered once for every reader of a move (web.shared_board),
and the public lines worded once (web.pages.PageReads.lines): each reader's page built from the
shared parts is the page the view renders whole on its own, for every seat and a spectator, in
English and French; and the shared board names no seat and shows nobody's hand."""

from __future__ import annotations

from unittest import mock

import pytest
from django.template import loader
from django.utils import translation
from django.utils.html import escape

from games import rules, store
from games.store import selectors
from web import live, live_part, pages, shared_board

pytestmark = pytest.mark.django_db


def _viewers(game):
    """(seat, its player's seats, the game as read for them) for each seat, then a spectator."""
    for seat in game.seats.order_by("position"):
        read = live.game_for_page(game_id=game.pk, user=seat.user)
        yield seat, selectors.seats_of(game=read, user=seat.user), read
    yield None, [], live.game_for_page(game_id=game.pk, user=None)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_each_readers_page_from_the_shared_board_is_the_page_rendered_whole(make_game, play, language):
    game = make_game(seed="shared-board")
    play(game, 40)  # the Season: the players hold their Action cards
    reads = pages.page_reads(game)
    fragments: dict = {}
    rendered = loader.render_to_string
    with translation.override(language):
        # The last seat's page first: every other reader's board comes from a part it did not render.
        viewers = list(_viewers(game))[::-1]
        with mock.patch.object(shared_board, "render_to_string", wraps=rendered) as shared_renders:
            shared = {
                (seat.colour if seat else None): live_part.build(
                    read, seat, mine, is_host=False, reads=reads, fragments=fragments
                )["html"]
                for seat, mine, read in viewers
            }
        whole = {
            (seat.colour if seat else None): live_part.build(read, seat, mine, is_host=False)["html"]
            for seat, mine, read in viewers
        }
    assert reads.lines  # the public lines were worded once for the five pages
    for viewer, html in whole.items():
        assert shared[viewer] == html, viewer
        assert ("(you)" in html or "(vous)" in html) is (viewer is not None)
    # The four players share one rendering; the spectator's differs only in profile links.
    assert shared_renders.call_count <= 2 and len(fragments) == shared_renders.call_count
    state, _seq = store.load(game)
    for part in fragments.values():
        assert "inis-viewer:" in part and "(you)" not in part and "(vous)" not in part
        for seat in game.seats.all():
            hand = {pages.card_ref(card)["name"] for card in rules.view_for(state, seat.colour)["hand"]}
            actions = {n for n in hand if n not in str(rules.TERRITORY_INFO) and escape(n) not in part}
            assert actions == {n for n in hand if n not in str(rules.TERRITORY_INFO)}


def test_a_game_over_is_not_shared_each_page_shows_the_other_hands(make_game, play):
    """Once the game is over the board shows the other players' hands: each page renders its own."""
    game = make_game(seed="shared-board")
    play(game, 10)
    board = pages.game_page(game=game, seat=game.seats.first(), my_seats=[]).board
    fragments: dict = {}
    assert shared_board.board_html(board, fragments) is not None
    board.winner = board.seats[0].colour
    assert shared_board.board_html(board, fragments) is None
