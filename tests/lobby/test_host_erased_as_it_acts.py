"""The host's tools posted in the instant the host erases their account (docs/privacy.md: "games
they hosted keep no host (nobody may use the host tools)"): the page read the host before the
erasure committed, then the act is written under the game's row lock, where the game is found
with no host. Every act is refused with the page's 403 for anybody but the host ("Only the host
of this game has these tools."), and nothing of it is written: no table event, no option, no
seat, no table channel. The service's own callers, which name no host, act as before."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from games.models import Game, Seat, TableChannel, TableEvent
from games.play import table
from games.record.options import table_options
from lobby import views
from players.accounts import user_for_email
from players.erasure import erase_account

NOT_THE_HOST = "Only the host of this game has these tools."
DISCORD = "discord://webhook-id/webhook-token"

# action: (what the page posts, what the host did before: None, "pause", "public" or "channel")
ACTS = {
    "extend": ({"action": "extend", "seat": "blue", "hours": "12"}, None),
    "extend every seat": ({"action": "extend", "seat": "", "hours": "12"}, None),
    "pause": ({"action": "pause"}, None),
    "resume": ({"action": "resume"}, "pause"),
    "public": ({"action": "public"}, None),
    "private": ({"action": "private"}, "public"),
    "table channel": ({"action": "table_channel", "url": DISCORD}, None),
    "table channel removed": ({"action": "table_channel_remove"}, "channel"),
    "seat to the bot": ({"action": "replace", "seat": "blue", "email": ""}, None),
    "seat to a newcomer": ({"action": "replace", "seat": "blue", "email": "newcomer@example.org"}, None),
}


def text_of(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def written(game: Game) -> tuple:
    """Everything a host's act writes: the table log, the options, the seats, the table channel."""
    return (
        list(TableEvent.objects.filter(game=game).order_by("seq").values_list("type", "payload", "actor")),
        Game.objects.get(pk=game.pk).options,
        list(Seat.objects.filter(game=game).order_by("position").values_list("email", "is_bot", "token")),
        list(TableChannel.objects.filter(game=game).values_list("url", flat=True)),
    )


@pytest.fixture
def game(make_game, settings):
    settings.CHAT_TARGETS = True
    return make_game(
        seed="host-erased", n_players=3, host=user_for_email("host@example.org"), options=table_options()
    )


def before(game: Game, done: str | None) -> None:
    """What the host did earlier, through the service (no host named)."""
    if done == "pause":
        table.game_pause(game=game)
    elif done == "public":
        table.game_set_public(game=game, public=True)
    elif done == "channel":
        table.table_channel_set(game=game, url=DISCORD)


@pytest.fixture
def erased_as_it_posts(monkeypatch, game):
    """Once the page has checked that the signed-in account hosts the game (and reads its seats
    for the forms), the host's erasure commits. Returns what was written then, filled in."""
    seen: dict = {}
    form = views.ExtendForm

    def host_read_then_erased(*args, **kwargs):
        if "written" not in seen:
            erase_account(game.host_id)
            seen["written"] = written(game)
        return form(*args, **kwargs)

    monkeypatch.setattr(views, "ExtendForm", host_read_then_erased)
    return seen


@pytest.mark.parametrize("act", ACTS)
def test_the_tools_of_a_host_erased_as_they_post_act_no_more(client, game, erased_as_it_posts, act):
    data, done = ACTS[act]
    before(game, done)
    client.force_login(game.host)

    response = client.post(reverse("lobby:host", args=[game.pk]), data)

    assert response.status_code == 403
    assert NOT_THE_HOST in text_of(response)
    assert Game.objects.get(pk=game.pk).host_id is None
    assert written(game) == erased_as_it_posts["written"]
    assert not Seat.objects.filter(email="newcomer@example.org").exists()


@pytest.mark.parametrize(
    "act",
    [
        lambda game, host: table.deadline_extend(game=game, colour=None, hours=6, host=host),
        lambda game, host: table.game_pause(game=game, host=host),
        lambda game, host: table.game_set_public(game=game, public=True, host=host),
        lambda game, host: table.table_channel_set(game=game, url=DISCORD, host=host),
        lambda game, host: table.seat_replace(game=game, colour="blue", email=None, host=host),
    ],
    ids=["extend", "pause", "public", "table channel", "seat"],
)
def test_a_host_named_to_the_service_is_checked_under_the_lock(game, act):
    host = game.host
    other = game.seats.get(colour="green").user
    with pytest.raises(table.NotTheHost, match=NOT_THE_HOST):
        act(game, other)
    erase_account(host.pk)
    erased = written(game)
    with pytest.raises(table.NotTheHost, match=NOT_THE_HOST):
        act(game, host)  # the account as it was read before its erasure
    assert written(game) == erased
    act(game, None)  # the service's own call names no host: it acts
    assert written(game) != erased


def test_a_host_erased_as_they_remove_the_channel_of_a_game_over_is_refused(game):
    host = game.host
    table.table_channel_set(game=game, url=DISCORD)
    Game.objects.filter(pk=game.pk).update(status=Game.Status.OVER)
    other = game.seats.get(colour="green").user
    with pytest.raises(table.NotTheHost):
        table.table_channel_remove(game=game, host=other)
    assert TableChannel.objects.filter(game=game).exists()
    table.table_channel_remove(game=game, host=host)
    assert not TableChannel.objects.filter(game=game).exists()
