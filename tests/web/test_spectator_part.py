"""The game page's public part (web/spectator_part.py): a spectator's page fetches its live part
from one address that every spectator shares, the same bytes for each of them, read without a
session; it holds what a spectator sees and nothing of a player's own (their hand, their private
lines), and an address of no game or of a moment never reached shows nothing of any game."""

from __future__ import annotations

import re
from html import escape

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse

from games import rules, store
from games.models import Event
from games.services import submit_command
from web import pages

pytestmark = pytest.mark.django_db

HINT = "Players: sign in with the link in your latest email"


def _page(client: Client, game) -> str:
    response = client.get(reverse("games:detail", args=[game.pk]))
    assert response.status_code == 200
    return response.content.decode()


def _attribute(page: str, name: str) -> str:
    found = re.search(rf'{name}="([^"]*)"', page)
    assert found is not None, name
    return found.group(1)


def _public(page: str) -> str:
    """The address a spectator's page fetches its live part from, at the page's own version."""
    return f"{_attribute(page, 'data-live-public')}?v={_attribute(page, 'data-live-version')}"


def _live(document: str) -> str:
    return document.split("<body>", 1)[1].rsplit("</body>", 1)[0]


@pytest.mark.speed_layer
def test_every_spectator_fetches_the_same_live_part_without_a_session(
    make_game, play, django_assert_num_queries
):
    game = make_game(seed="spectator-part")
    play(game, 20)
    page = _page(Client(), game)
    address = _public(page)
    first = Client().get(address)
    assert first.status_code == 200 and first["Cache-Control"].startswith("public")
    assert not first.cookies  # nothing set for its reader: no session, no CSRF cookie
    document = first.content.decode()
    assert _live(document) in page  # the live part the visitor's whole page shows
    assert f"{store.head(game)[0]} events" in document

    # Asked with a signed-in player's cookies (their session, their language): the same bytes,
    # one query (the game's versions), the session not even read.
    player = Client()
    player.force_login(game.seats.first().user)
    player.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    with django_assert_num_queries(1):
        again = player.get(address)
    assert again.content == first.content and not again.cookies

    # After a move, the address at the new version: the new live part.
    state, seq = store.load(game)
    mover = game.seats.get(colour=rules.pending(state)[0].seat)
    moved = submit_command(
        game=game, seat=mover, command=rules.legal_commands(state, mover.colour)[0], expected_seq=seq
    )
    assert moved.accepted, moved.message
    later = _page(Client(), game)
    assert _public(later) != address
    assert _live(Client().get(_public(later)).content.decode()) in later


def test_a_signed_in_spectator_is_not_asked_to_sign_in(make_game):
    game = make_game(seed="spectator-member")
    visitor = _page(Client(), game)
    member = Client()
    member.force_login(get_user_model().objects.create_user("watcher", "watcher@example.org"))
    theirs = _page(member, game)
    assert HINT in visitor and HINT not in theirs
    assert "/visitor/" in _public(visitor) and "/member/" in _public(theirs)
    assert HINT in Client().get(_public(visitor)).content.decode()
    assert HINT not in Client().get(_public(theirs)).content.decode()
    player = Client()
    player.force_login(game.seats.first().user)
    assert "data-live-public" not in _page(player, game)  # a player's page asks for their own part


def _hidden_shown(game) -> tuple[int, int]:
    """(hands, private lines) of the players that their own pages show and the spectators' part
    does not; fails on any it shows."""
    state, seq = store.load(game)
    public = Client().get(_public(_page(Client(), game))).content.decode()
    # The island's symbols and their legend name what may be on any island (a Festival token),
    # whoever holds the card of that name.
    public = re.sub(r'<title>[^<]*</title>|<use href="#i-[a-z-]+"/></svg> <span>[^<]*</span>', "", public)
    territories = str(rules.TERRITORY_INFO)  # a card named as a territory is on any island
    hands = lines = 0
    for seat in game.seats.all():
        client = Client()
        client.force_login(seat.user)
        own = _page(client, game)
        hand = {pages.card_ref(card)["name"] for card in rules.view_for(state, seat.colour)["hand"]}
        hand = {escape(name) for name in hand if name not in territories}
        assert all(name in own for name in hand), seat.colour
        assert not {name for name in hand if name in public}, seat.colour
        hands += bool(hand)
        for row in Event.objects.filter(game=game, seq__gt=seq - 4 * pages.RECENT_EVENTS).exclude(
            visibility=None
        ):
            text = escape(pages._line_told(row, seat.colour, False).text)
            if seat.colour in row.visibility and text in own:  # among the seat's recent lines
                assert text not in public, (seat.colour, text)
                lines += 1
    return hands, lines


def test_the_public_part_holds_no_hand_and_no_private_line_of_a_player(make_game, play):
    game = make_game(seed="spectator-hidden")
    play(game, 10)  # in the draft: cards dealt, kept and passed privately
    _hands, lines = _hidden_shown(game)
    assert lines, "the players' pages show their private lines of the draft"
    play(game, 30)  # into the Season: hands held
    hands, _lines = _hidden_shown(game)
    assert hands == game.seats.count()


def test_no_game_and_no_moment_never_reached_show_nothing(make_game):
    game = make_game(seed="spectator-none")
    address = _public(_page(Client(), game))
    assert Client().get(address).status_code == 200
    base, version = address.split("?v=")
    seq = int(version.split(".")[0])
    refused = [
        base + f"?v={seq + 5}.0",  # a moment the game has not reached
        base + "?v=x",
        base,
        base.replace(f"/games/{game.pk}/", f"/games/{game.pk + 1000}/") + f"?v={version}",
        base.replace("/visitor/", "/host/") + f"?v={version}",
        base.replace("/en/", "/xx/") + f"?v={version}",
    ]
    for wrong in refused:
        response = Client().get(wrong)
        assert response.status_code == 404, wrong
        assert 'id="live"' not in response.content.decode() and "events" not in response.content.decode()
