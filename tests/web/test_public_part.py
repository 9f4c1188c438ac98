"""The public part of a game page (web.public_part): after a move, the first reader's view reads
the page's reads and renders the island once, and keeps them; every other reader's first view at
that version takes them and builds only what is theirs (fewer queries), and each page is the one
the view builds on its own with the speed layers off, in English, in French, and for readers
of both at one version. What is kept holds
no line of an event worded for one viewer only (a card drawn, a hand), and no hand on the island."""

from __future__ import annotations

import html
import re

import pytest
from django.conf import settings
from django.core.cache import caches
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext, override_settings
from django.urls import reverse

from games import rules, store
from web import pages, public_part

pytestmark = pytest.mark.django_db


def _client(user, language: str = "en") -> Client:
    """`user` signed in, reading in `language` (the language cookie, as the sign-in sets it)."""
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    return client


def _body(response) -> str:
    """The page without its per-request values (the CSRF token, the form nonce)."""
    assert response.status_code == 200
    return re.sub(r'(?:value|data-live-viewer)="[^"]*"', "", response.content.decode())


def _kept(game) -> public_part.PublicPart | None:
    seq, table_seq = store.head(game)[0], 0
    found = caches["prerendered"].get(
        public_part._key(game, (seq, table_seq)), version=public_part.PUBLIC_FORMAT
    )
    return public_part.PublicPart(*found) if found is not None else None


@pytest.mark.speed_layer
@pytest.mark.parametrize("languages", [("en",), ("fr",), ("fr", "en"), ("en", "fr")])
def test_the_other_readers_take_the_public_part_and_see_their_own_page(make_game, play, languages):
    """Four players read the page; after the Season's moves, each one's first view (the worker
    rendered none ahead) is the page the view builds alone with the speed layers off, whether
    they all read one language or the first reader's is not the others'."""
    game = make_game(n_players=3, bots=1, seed="public-part")
    play(game, 40)  # into the Season: hands held, private draws in the log
    url = reverse("games:detail", args=[game.pk])
    seats = list(game.seats.filter(is_bot=False).order_by("position"))
    language = {seat.colour: languages[i % len(languages)] for i, seat in enumerate(seats)}
    first, *others = seats
    assert _kept(game) is None
    _client(first.user, language[first.colour]).get(url)
    kept = _kept(game)
    assert kept is not None and kept.reads.lines and kept.fragments  # read once, worded, rendered
    shared = []
    for seat in others:
        with CaptureQueriesContext(connection) as queries:
            _client(seat.user, language[seat.colour]).get(url)
        shared.append(len(queries))  # counted now: Django keeps only the last 9,000 queries
    with override_settings(SPEED_LAYERS=False):
        caches["pages"].clear()
        alone = {seat.colour: _body(_client(seat.user, language[seat.colour]).get(url)) for seat in seats}
        with CaptureQueriesContext(connection) as queries:
            _client(others[-1].user, language[others[-1].colour]).get(url)
        unshared = len(queries)
    caches["pages"].clear()
    for seat in seats:
        # The speed layers on: each page from the kept public part, as the view builds it alone.
        assert _body(_client(seat.user, language[seat.colour]).get(url)) == alone[seat.colour], seat.colour
    # The page's reads (the table log, the state, the recent events, the names, the answer times,
    # the profiles, the recent commands) came from the public part.
    assert unshared - shared[-1] >= 5, (shared, unshared)


@pytest.mark.speed_layer
def test_what_is_kept_holds_no_private_line_and_no_hand(make_game, play):
    game = make_game(seed="public-part-private")
    play(game, 40)
    seat = game.seats.order_by("position").first()
    _client(seat.user).get(reverse("games:detail", args=[game.pk]))
    kept = _kept(game)
    assert kept is not None
    private = {row.seq for row in kept.reads.rows if row.visibility is not None}
    assert private, "the Season's log holds private events (cards drawn)"
    worded = {seq for seq, _language, _complete in kept.reads.lines}
    assert worded and not worded & private
    state, _seq = store.load(game)
    territories = str(rules.TERRITORY_INFO)
    for fragment in kept.fragments.values():
        # The legend and the island's symbols name what may be on any island (a Festival token).
        html = re.sub(r'<section class="legend".*?</section>|<title>[^<]*</title>', "", fragment, flags=re.S)
        for other in game.seats.all():
            hand = {pages.card_ref(card)["name"] for card in rules.view_for(state, other.colour)["hand"]}
            assert not {name for name in hand if name not in territories and name in html}


def test_nothing_is_kept_with_the_speed_layers_off(make_game, play):
    game = make_game(seed="public-part-off")
    play(game, 12)
    with override_settings(SPEED_LAYERS=False):
        _client(game.seats.first().user).get(reverse("games:detail", args=[game.pk]))
    assert _kept(game) is None


def test_a_reader_of_another_language_sees_the_bots_named_in_theirs(make_game, play):
    """The public part is shared by readers of every language: a French player reading after an
    English one sees "Robot au hasard (orange)", not the English reader's "Random bot", in the turn
    order and in the lines telling the bot's moves; and the other way round."""
    game = make_game(n_players=3, bots=1, seed="public-part-languages")
    play(game, 12)  # the bot's moves are in the recent lines
    url = reverse("games:detail", args=[game.pk])
    green, blue = (game.seats.get(colour=colour) for colour in ("green", "blue"))
    english = html.unescape(_body(_client(green.user, "en").get(url)))
    french = html.unescape(_body(_client(blue.user, "fr").get(url)))
    assert "Random bot" in english and "Robot au hasard" not in english
    assert "Robot au hasard" in french and "Random bot" not in french
    assert re.search(r"Robot au hasard \((?:orange|blanc)\) a ", french), "a line tells the bot's move"
    # A French reader first, then an English one, at the next version.
    play(game, 1)
    french = html.unescape(_body(_client(blue.user, "fr").get(url)))
    english = html.unescape(_body(_client(green.user, "en").get(url)))
    assert "Robot au hasard" in french and "Random bot" not in french
    assert "Random bot" in english and "Robot au hasard" not in english
