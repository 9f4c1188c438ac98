"""The game page's live part is rendered once per game version, viewer and language
(web/page_cache.py): a reload serves it again, yet every request gets its own form nonce and a
CSRF token that works, a move or a host action shows at once, and no viewer is ever served
another viewer's part (their hand) or another language's."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from games import rules, store
from games.record.hashchain import canonical_json
from tests.web.test_views import seat_to_move, signed_in


def page(client, game, **headers):
    response = client.get(reverse("games:detail", args=[game.pk]), **headers)
    assert response.status_code == 200
    return response.content.decode()


def served_again_queries() -> int:
    """The queries of a page served again: the game's one query, the signed-in user's (Django's
    authentication, `request.user`), and the session's read unless the sessions are read through
    the cache (`cached_db`, with REDIS_URL: inis_pbem/settings/signin.py)."""
    from django.conf import settings

    return 2 if settings.SESSION_ENGINE.endswith("cached_db") else 3


def nonces(body: str) -> set[str]:
    return set(re.findall(r'name="nonce" value="([^"]+)"', body))


def test_a_reload_is_the_same_page_with_a_fresh_nonce_and_a_form_that_still_works(make_game, play):
    game = make_game(seed="cache-reload")
    play(game, 12)
    seat, state, seq = seat_to_move(game)
    client = signed_in(Client(enforce_csrf_checks=True), seat)
    first, second = page(client, game), page(client, game)
    assert nonces(first) and nonces(first).isdisjoint(nonces(second))
    strip = lambda body: re.sub(r'(?:value|data-live-viewer)="[^"]*"', "", body)  # noqa: E731 (tokens and nonces apart)
    assert strip(first) == strip(second)
    assert "__inis_" not in second  # no placeholder left
    # The cached page's form, posted as a browser would: its CSRF token and nonce are accepted.
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', second).group(1)
    nonce = sorted(nonces(second))[0]
    command = rules.legal_commands(state, seat.colour)[0]
    response = client.post(
        reverse("games:detail", args=[game.pk]),
        {
            "seat": seat.colour,
            "expected_seq": seq,
            "nonce": nonce,
            "choice": canonical_json(command),
            "confirmed": "1",
            "csrfmiddlewaretoken": token,
        },
    )
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


# The whole page (web.page_cache.page_key): served again before the viewer's seats are even
# read, so everything around the live part that can change must change its key.


@pytest.mark.speed_layer
def test_a_page_served_again_costs_only_the_session_and_the_game(make_game, play, client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game = make_game(seed="cache-queries")
    play(game, 12)
    seat, _state, _seq = seat_to_move(game)
    signed_in(client, seat)
    first = page(client, game)
    with CaptureQueriesContext(connection) as queries:
        again = page(client, game)
    # The session (unless read through the cache), and the game with its versions, its talk, the
    # follow, the seats and the signed-in user.
    assert len(queries.captured_queries) == served_again_queries(), [
        q["sql"][:80] for q in queries.captured_queries
    ]
    assert "auth_user" in queries.captured_queries[-1]["sql"]
    strip = lambda body: re.sub(r'(?:value|data-live-viewer)="[^"]*"', "", body)  # noqa: E731 (tokens and nonces apart)
    assert strip(first) == strip(again) and "__inis_" not in again


def test_a_table_talk_message_shows_on_the_next_load(make_game, play, client):
    from press.services import press_send

    game = make_game(seed="cache-talk")
    play(game, 8)
    seat, _state, _seq = seat_to_move(game)
    other = game.seats.exclude(pk=seat.pk).first()
    signed_in(client, seat)
    page(client, game)
    press_send(game=game, seat=other, to=None, text="Shall we leave the Moor to each other?")
    assert "Shall we leave the Moor to each other?" in page(client, game)


def test_following_a_game_shows_at_once(make_game, play, client):
    from django.contrib.auth import get_user_model

    from watching.services import follow

    game = make_game(seed="cache-follow", options={"public": True})
    play(game, 8)
    watcher = get_user_model().objects.create_user(username="watcher", email="watcher@example.org")
    client.force_login(watcher)
    before = page(client, game)
    assert "watcher@example.org" in before and ">Unfollow<" not in before
    follow(user=watcher, game=game)
    assert ">Unfollow<" in page(client, game)


def test_each_person_is_served_their_own_header_never_anothers(make_game, play):
    from django.contrib.auth import get_user_model

    game = make_game(seed="cache-people", options={"public": True})
    play(game, 8)
    for name in ("ailbhe", "brigid"):
        get_user_model().objects.create_user(username=name, email=f"{name}@example.org")
    bodies = {}
    for name in ("ailbhe", "brigid", "ailbhe", "brigid"):
        client = Client()
        client.force_login(get_user_model().objects.get(username=name))
        bodies[name] = page(client, game)
    assert "ailbhe@example.org" in bodies["ailbhe"] and "brigid@example.org" not in bodies["ailbhe"]
    assert "brigid@example.org" in bodies["brigid"] and "ailbhe@example.org" not in bodies["brigid"]


def test_a_seat_given_to_a_watcher_is_their_turn_at_once(make_game, play, client):
    """A seat that changes hands outside the table log (the lobby gives it to its player): the
    page served from the cache to the same person as a spectator is not served again."""
    from django.contrib.auth import get_user_model

    from games.models import Seat

    game = make_game(seed="cache-seat-given", options={"public": True})
    play(game, 8)
    seat, _state, _seq = seat_to_move(game)
    watcher = get_user_model().objects.create_user(username="newcomer", email="newcomer@example.org")
    client.force_login(watcher)
    page(client, game)
    assert "<title>Your turn" not in page(client, game)  # a spectator, served again
    Seat.objects.filter(pk=seat.pk).update(user=watcher)
    assert "<title>Your turn" in page(client, game)


def test_the_message_after_a_move_is_shown_once(make_game, play):
    game = make_game(seed="cache-message")
    play(game, 12)
    seat, state, seq = seat_to_move(game)
    client = signed_in(Client(), seat)
    page(client, game)  # kept in the cache
    command = rules.legal_commands(state, seat.colour)[0]
    response = client.post(
        reverse("games:detail", args=[game.pk]),
        {
            "seat": seat.colour,
            "expected_seq": seq,
            "nonce": "once",
            "choice": canonical_json(command),
            "confirmed": "1",
        },
        follow=True,
    )
    assert response.status_code == 200
    shown = response.content.decode()
    assert 'class="messages"' in shown
    assert 'class="messages"' not in page(client, game)  # shown once, and that page not kept


@pytest.mark.speed_layer
def test_the_history_served_again_shows_a_new_move_at_once(make_game, play, client):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    game = make_game(seed="cache-history")
    play(game, 12)
    seat, _state, seq = seat_to_move(game)
    signed_in(client, seat)
    url = reverse("games:history", args=[game.pk])
    client.get(url)
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url).content.decode()
    assert len(queries.captured_queries) == served_again_queries() and f"after #{seq}</a>" in again
    play(game, 3)
    new_seq = store.head(game)[0]
    assert new_seq > seq and f"after #{new_seq}</a>" in client.get(url).content.decode()
