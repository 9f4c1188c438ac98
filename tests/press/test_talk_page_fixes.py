"""Table talk on the game page, as a new player met it: a bot is never offered (nor accepted) as
an addressee; a blank message refused keeps the whole talk in view; a seated player is not
offered to "Follow" their own game."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from press.services import PressRefused, press_send

pytestmark = pytest.mark.django_db


def test_no_message_to_a_bot(client, make_game):
    game = make_game(n_players=2, bots=1, seed="talk-bot")
    green = game.seats.get(colour="green")
    bot = game.seats.get(is_bot=True)
    client.force_login(green.user)

    body = client.get(reverse("games:detail", args=[game.pk])).content.decode()

    form = body[body.index('class="talk-form"') :]
    form = form[: form.index("</form>")]
    assert f'value="{bot.colour}"' not in form and 'value="blue"' in form
    with pytest.raises(PressRefused, match="bot"):
        press_send(game=game, seat=green, to=bot.colour, text="hello")


def test_a_blank_message_refused_keeps_the_talk_in_view(client, make_game):
    game = make_game(n_players=2, seed="talk-blank")
    green = game.seats.get(colour="green")
    press_send(game=game, seat=green, to=None, text="Good luck, blue!")
    client.force_login(green.user)

    refused = client.post(
        reverse("press:send", args=[game.pk]), {"seat": "green", "to": "blue", "text": "   "}
    )

    body = html.unescape(refused.content.decode())
    assert refused.status_code == 400
    assert "Good luck, blue!" in body  # the talk so far is still there
    assert re.search(r'<option value="blue" selected>', body)  # the addressee chosen is kept


def test_a_seated_player_is_not_offered_to_follow(client, make_game):
    game = make_game(n_players=2, seed="talk-follow", options={"public": True})
    url = reverse("games:detail", args=[game.pk])
    assert ">Follow</button>" in client.get(url).content.decode()  # a visitor may follow a public game

    client.force_login(game.seats.get(colour="green").user)

    assert ">Follow</button>" not in client.get(url).content.decode()
