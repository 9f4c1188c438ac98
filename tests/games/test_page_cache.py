"""The game page's live part is rendered once per game version, viewer and language
(games/page_cache.py): a reload serves it again, yet every request gets its own form nonce and a
CSRF token that works, a move or a host action shows at once, and no viewer is ever served
another viewer's part (their hand) or another language's."""
from __future__ import annotations

import re

from django.test import Client
from django.urls import reverse

from games import rules, store
from games.hashchain import canonical_json
from tests.games.test_views import seat_to_move, signed_in


def page(client, game, **headers):
    response = client.get(reverse("games:detail", args=[game.pk]), **headers)
    assert response.status_code == 200
    return response.content.decode()


def nonces(body: str) -> set[str]:
    return set(re.findall(r'name="nonce" value="([^"]+)"', body))


def test_a_reload_is_the_same_page_with_a_fresh_nonce_and_a_form_that_still_works(make_game, play):
    game = make_game(seed="cache-reload")
    play(game, 12)
    seat, state, seq = seat_to_move(game)
    client = signed_in(Client(enforce_csrf_checks=True), seat)
    first, second = page(client, game), page(client, game)
    assert nonces(first) and nonces(first).isdisjoint(nonces(second))
    strip = lambda body: re.sub(r'value="[^"]*"', "", body)  # noqa: E731 (tokens and nonces apart)
    assert strip(first) == strip(second)
    assert "__inis_" not in second  # no placeholder left
    # The cached page's form, posted as a browser would: its CSRF token and nonce are accepted.
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', second).group(1)
    nonce = sorted(nonces(second))[0]
    command = rules.legal_commands(state, seat.colour)[0]
    response = client.post(reverse("games:detail", args=[game.pk]),
                           {"seat": seat.colour, "expected_seq": seq, "nonce": nonce,
                            "choice": canonical_json(command), "csrfmiddlewaretoken": token})
    assert response.status_code == 302
    assert store.head(game)[0] > seq


def test_the_page_after_a_move_shows_the_move(make_game, play, client):
    game = make_game(seed="cache-move")
    play(game, 12)
    seat, _state, seq = seat_to_move(game)
    signed_in(client, seat)
    before = page(client, game)
    assert f'data-live-version="{seq}.' in before
    play(game, 3)
    after = page(client, game)
    new_seq = store.head(game)[0]
    assert new_seq > seq and f'data-live-version="{new_seq}.' in after


def test_each_seat_is_served_its_own_hand_never_another_seats(make_game, play):
    game = make_game(seed="cache-hands")
    play(game, 40)
    state, _ = store.load(game)
    bodies = {}
    for seat in game.seats.all():
        client = signed_in(Client(), seat)
        page(client, game)  # rendered and kept
        bodies[seat.colour] = page(client, game)  # served from the cache
    for colour, body in bodies.items():
        hand_section = body.split('id="hand"', 1)[1].split("</section>", 1)[0]
        for other in state.seats:
            if other == colour:
                continue
            for card in state.hands[other]:
                if card not in state.hands[colour] and rules.CARDS[card].type == "action":
                    assert f'data-card="{card}"' not in hand_section, (colour, other, card)
        assert all(f'data-card="{card}"' in hand_section for card in state.hands[colour])


def test_a_french_reader_is_not_served_the_english_page(make_game, play, client):
    game = make_game(seed="cache-language")
    play(game, 12)
    english = page(client, game, HTTP_ACCEPT_LANGUAGE="en")
    french = page(client, game, HTTP_ACCEPT_LANGUAGE="fr")
    assert "History" in english and "Historique" not in english
    assert "Historique" in french
