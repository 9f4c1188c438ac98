"""The web pages fuzzed (hypothesis): whatever a decision form or an address holds, the answer
is a page (200, a redirect, 400, 403, 404, 413), never a server error. The Django test client
raises any exception a view lets through, so a 500 fails the test with its traceback.

Inputs: every field of the decision form (seat, expected_seq, nonce, choice, group, the
builder's f: fields) with text that includes NUL and other control characters, JSON of any shape
(deeply nested too), numbers out of range; every token in an address (seat links, the email
preference and unsubscribe links, ?as=, ?page=, event numbers, game numbers).
"""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from django.test import Client
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from games import rules, store

# Any text a browser (or a script) could send, NUL and control characters included; no lone
# surrogates, which no request can carry (UTF-8 cannot encode them).
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=60)
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=20,
)
CHOICES = st.one_of(
    TEXT,
    JSON_VALUES.map(json.dumps),
    st.dictionaries(
        st.sampled_from(["type", "card", "territory", "moves", "from", "cards"]), JSON_VALUES, max_size=4
    ).map(json.dumps),
    st.integers(1, 30_000).map(lambda n: "[" * n + "]" * n),
    st.integers(1, 30_000).map(lambda n: '{"type": "pass", "x": ' + "[" * n + "]" * n + "}"),
    st.sampled_from(
        [
            '{"type": "pass", "n": NaN}',
            '{"type": "pass", "n": 1e999}',
            '{"type": "pass", "n": ' + "9" * 5000 + "}",
        ]
    ),
)
NUMBERS = st.one_of(TEXT, st.integers().map(str), st.integers(-(2**80), 2**80).map(str))
FIELD_NAMES = st.one_of(TEXT, st.sampled_from(["f:from", "f:moves:cove", "f:territory", "f:cards", "f:keep"]))

SUPPRESS = [HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large]


@pytest.fixture
def table(make_game):
    """A game with a signed-in client for the seat to move, and one for nobody."""
    game = make_game(seed="web-fuzz")
    state, seq = store.load(game)
    seat = game.seats.get(colour=rules.pending(state)[0].seat)
    player = Client()
    player.force_login(seat.user)
    return game, seat, player, Client()


def _not_a_server_error(response) -> None:
    assert response.status_code in (200, 301, 302, 400, 403, 404, 405, 410, 413), response.status_code


@settings(suppress_health_check=SUPPRESS)
@given(
    seat=st.one_of(TEXT, st.sampled_from(["green", "blue", "orange", "white"])),
    expected_seq=NUMBERS,
    nonce=TEXT,
    choice=st.one_of(st.none(), CHOICES),
    group=st.one_of(st.none(), TEXT, st.sampled_from(["pass", "play:act_migration", "place_clan"])),
    extra=st.dictionaries(FIELD_NAMES, st.one_of(TEXT, JSON_VALUES.map(json.dumps)), max_size=4),
)
def test_the_decision_form_never_fails_with_a_server_error(
    table, seat, expected_seq, nonce, choice, group, extra
):
    game, mine, player, _stranger = table
    data = {"seat": seat, "expected_seq": expected_seq, "nonce": nonce, **extra}
    if choice is not None:
        data["choice"] = choice
    if group is not None:
        data["group"] = group
    url = f"/games/{game.pk}/"
    _not_a_server_error(player.post(url, data))
    _not_a_server_error(player.post(url, {**data, "seat": mine.colour}))


@settings(suppress_health_check=SUPPRESS)
@given(token=TEXT.filter(bool), query=TEXT, number=NUMBERS)
@example(token="0", query="", number=str(2**63))  # a game number beyond the database's ids
@example(token="999999999999." + "A" * 43, query="", number="1")  # an id beyond the database's
@example(token="999999999999.1a.AAAAAAAAAAAAAAAAAAAAAAAAA", query="", number="1")
def test_no_token_in_an_address_gives_a_server_error(table, token, query, number):
    game, _mine, player, stranger = table
    t, q, n = quote(token, safe=""), quote(query, safe=""), quote(number, safe="")
    addresses = [
        f"/games/{game.pk}/seat/{t}/",
        f"/games/{game.pk}/seat/{t}/history/",
        f"/email/unsubscribe/{t}/",
        f"/email/preferences/{t}/",
        f"/email/my-data/{t}/",
        f"/invitation/{t}/",
        f"/games/{game.pk}/?as={q}",
        f"/games/{game.pk}/history/?as={q}&page={n}&steps={q}",
        f"/games/{game.pk}/export.json?as={q}",
        f"/games/{game.pk}/at/{n}/?as={q}",
        f"/games/{n}/",
        f"/games/{n}/history/",
        f"/games/{n}/export.json",
        f"/games/{n}/host/",
        f"/games/{n}/head.json",
        f"/lobby/{n}/",
        f"/signin/?next={q}",
    ]
    for address in addresses:
        for client in (player, stranger):
            _not_a_server_error(client.get(address))
    _not_a_server_error(stranger.post(f"/email/unsubscribe/{t}/", {"List-Unsubscribe": "One-Click"}))
    _not_a_server_error(stranger.post(f"/invitation/{t}/", {"action": "accept"}))
