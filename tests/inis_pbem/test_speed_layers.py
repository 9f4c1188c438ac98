"""One setting, SPEED_LAYERS, turns off every speed layer (docs/operations.md): the game pages'
caches, the pages rendered ahead by the worker, the table-talk lines kept per page, the island
drawn once per state, this process's recent states and events. Off, each layer does nothing, and a player sees the very
same page: a layer may make the service cheaper, never different."""

from __future__ import annotations

import re
from unittest import mock

import pytest
from django.conf import settings as django_settings
from django.core.cache import caches
from django.test import Client
from django.urls import reverse

from games import rules, store
from games.services import submit_command
from inis_pbem import relay
from inis_pbem.celery import app as celery_app
from players.models import Player
from press import selectors as press_selectors
from press.services import press_send
from web import board_svg, live_part, page_cache, page_readers, pages, prerender

pytestmark = pytest.mark.django_db


def _body(client: Client, game) -> str:
    """The game page as `client` sees it, without its per-request values (CSRF token, nonce)."""
    response = client.get(reverse("games:detail", args=[game.pk]))
    assert response.status_code == 200
    return re.sub(r'(?:value|data-live-viewer)="[^"]*"', "", response.content.decode())


def _move(game) -> None:
    """The first legal command of the seat whose decision is first."""
    state, seq = store.load(game)
    colour = str(rules.pending(state)[0].seat)
    seat = game.seats.get(colour=colour)
    command = dict(rules.legal_commands(state, colour)[0])
    assert submit_command(game=game, seat=seat, command=command, expected_seq=seq).accepted


def _readers(game, languages: tuple[str, ...] = ("en",)) -> dict[str, Client]:
    """A signed-in client per player seat, each having opened the page (web.page_readers); the
    seats in turn read `languages` (their preference, which the worker renders in, and the
    language cookie, which their views take)."""
    readers = {}
    for i, seat in enumerate(game.seats.filter(is_bot=False).order_by("position")):
        language = languages[i % len(languages)]
        Player.objects.update_or_create(email=seat.email, defaults={"language": language})
        client = Client()
        client.force_login(seat.user)
        client.cookies[django_settings.LANGUAGE_COOKIE_NAME] = language
        client.get(reverse("games:detail", args=[game.pk]))
        readers[seat.colour] = client
    return readers


@pytest.mark.parametrize("languages", [("en",), ("fr", "en")])
def test_every_player_sees_the_same_page_with_the_speed_layers_on_and_off(
    make_game, play, settings, languages
):
    """Three players and a bot mid-game, one with a message of table talk, the players reading
    one language or two: each one's page served from what the worker rendered ahead (layers on:
    for the players the move asks to decide) or from what their first view kept (the others) is
    byte for byte the page built from the log with every layer off, and so is a reload."""
    game = make_game(n_players=3, bots=1, seed="speed-layers-same")
    play(game, 12)
    press_send(game=game, seat=game.seats.get(position=1), to=None, text="The Moor is mine.")
    readers = _readers(game, languages)
    _move(game)
    ahead = prerender.render_live_parts(game.pk) // 2  # a live part and a page for each
    assert 0 < ahead < 3

    with mock.patch.object(pages, "game_page", wraps=pages.game_page) as built:
        on = {colour: _body(client, game) for colour, client in readers.items()}
        again = {colour: _body(client, game) for colour, client in readers.items()}
    assert built.call_count == 3 - ahead  # only the others' first views, then all from the layers
    settings.SPEED_LAYERS = False
    with mock.patch.object(pages, "game_page", wraps=pages.game_page) as built:
        off = {colour: _body(client, game) for colour, client in readers.items()}
        off_again = {colour: _body(client, game) for colour, client in readers.items()}
    assert built.call_count == 6  # every view built from the log
    assert on == off == again == off_again
    assert len(set(on.values())) == 3  # and each player's own page


def test_with_the_speed_layers_off_no_layer_keeps_or_serves_anything(make_game, play, settings):
    game = make_game(seed="speed-layers-off")
    play(game, 12)
    press_send(game=game, seat=game.seats.get(position=1), to=None, text="The Moor is mine.")
    readers = _readers(game)  # with the layers on: every player noted as a reader
    settings.SPEED_LAYERS = False
    page_cache.keep("some-key", {"html": "kept"})
    page_cache.keep_ahead("some-key-ahead", {"html": "kept"})
    assert page_cache.cached("some-key") is None and page_cache.cached("some-key-ahead") is None
    assert caches["prerendered"].get("some-key-ahead", version=page_cache.PRERENDERED_FORMAT) is None

    _move(game)
    assert store.recent_state(game) is None  # the next command loads its state from the log
    with mock.patch.object(live_part, "build", wraps=live_part.build) as built:
        assert prerender.render_live_parts(game.pk) == 0  # the worker renders nothing ahead
    assert built.call_count == 0
    with (
        mock.patch.object(press_selectors, "talk_for", wraps=press_selectors.talk_for) as talk,
        mock.patch.object(board_svg, "island_svg", wraps=board_svg.island_svg) as drawn,
    ):
        _body(readers["blue"], game)
        _body(readers["blue"], game)
    assert talk.call_count == 2  # the table talk read for each view
    assert drawn.call_count == 2  # and the island drawn for each


def test_with_the_speed_layers_off_the_relay_publishes_no_page_to_render_ahead(
    make_game, settings, monkeypatch
):
    celery_app.conf.task_always_eager = False  # restored by the autouse celery_in_process
    published: dict[str, list] = {"deliver_many": [], "render_live_parts": []}
    for name, calls in published.items():
        monkeypatch.setattr(
            relay, name, mock.Mock(apply_async=lambda args, producer, calls=calls: calls.append(args))
        )
    monkeypatch.setattr(relay, "play_bots", mock.Mock())
    game = make_game(seed="speed-layers-relay")
    # A player opened the page while the layers were on: with them off, nothing is rendered ahead.
    page_readers.note(game_id=game.pk, user_id=game.seats.order_by("position").first().user_id)
    settings.SPEED_LAYERS = False
    assert relay.publish_due().rows
    assert published["deliver_many"] and published["render_live_parts"] == []
