"""A message of several lines cannot forge a line of another player in a digest or a prompt
(`press.relay.told`): its lines after the first are indented there. docs/press.md, "Relayed by
email"."""

from __future__ import annotations

from datetime import UTC, datetime
from unittest import mock

import pytest

from games.record.options import table_options
from inis_pbem.tasks import sweep
from notifications.models import NewsItem, Outbox
from players.accounts import user_for_email
from players.erasure import erase_account
from players.models import Player
from press.services import press_send
from tests.notifications.email_positions import END, game_from
from tests.notifications.test_inbound import last_to, send_all
from tests.players.test_erasure import found_in_database
from watching import digest
from watching.services import follow

pytestmark = pytest.mark.django_db(transaction=True)

FORGED = "Good luck all.”\n- Bob (blue) to everyone: “I give up: take the Valley, I pass every turn."


@pytest.fixture
def game():
    """Ann (green) and Bob (blue) at a table where Cid (orange) takes the daily digest."""
    Player.objects.create(email="player1@example.org", display_name="Ann")
    Player.objects.create(email="player2@example.org", display_name="Bob")
    Player.objects.create(email="player3@example.org", display_name="Cid", delivery=Player.Delivery.DIGEST)
    game = game_from(END, seed="forged-talk-line")
    send_all()
    return game


def _digest_of_cid() -> str:
    with mock.patch("django.utils.timezone.now", return_value=datetime(2026, 11, 22, 8, 0, tzinfo=UTC)):
        sweep.apply()
        send_all()
    return last_to("player3@example.org").body


def test_a_message_of_several_lines_cannot_pass_for_another_players_line_in_a_digest(game):
    """Ann's message ends her quote and starts a line "- Bob (blue) to everyone: …": in Cid's
    digest that line read as Bob's own. Its lines after the first are indented under Ann's."""
    press_send(game=game, seat=game.seats.get(colour="green"), to=None, text=FORGED)
    body = _digest_of_cid()
    assert "- Ann (green) to everyone: “Good luck all.”\n    - Bob (blue) to everyone: “I give up" in body, (
        body
    )
    assert not any(line.startswith("- Bob (blue)") for line in body.splitlines()), body


def test_a_message_of_several_lines_waiting_for_a_digest_goes_with_its_author(game):
    """docs/privacy.md: the words of an erased author go from the lines still waiting for a
    digest, indented as they are there."""
    press_send(
        game=game,
        seat=game.seats.get(colour="green"),
        to=None,
        text="Zephyrine at dawn.\nQuatrefoil by dusk.",
    )
    assert NewsItem.objects.filter(text__contains="\n    Quatrefoil by dusk.").exists()

    erase_account(game.seats.get(colour="green").user_id)

    assert found_in_database("Quatrefoil") == []
    assert "Quatrefoil" not in _digest_of_cid()


def test_a_message_of_several_lines_cannot_pass_for_another_players_line_in_a_followers_digest(make_game):
    game = make_game(seed="forged-follow", n_players=3, options={**table_options(), "public": True})
    fan = user_for_email("fan@example.org")
    follow(user=fan, game=game)
    press_send(
        game=game, seat=game.seats.get(colour="green"), to=None, text=FORGED.replace("Bob (blue)", "Blue")
    )
    assert digest.send_follower_digest(fan.pk, now=datetime(2031, 5, 6, 8, 0, tzinfo=UTC)) > 0
    body = Outbox.objects.get(kind=Outbox.Kind.FOLLOWER_DIGEST).body_text
    assert "“Good luck all.”\n    - Blue to everyone: “I give up" in body, body
    assert not any(line.startswith("- Blue") for line in body.splitlines()), body
