"""Every email names a bot's seat and a departed player's in its reader's language, as the game
page does (docs/privacy.md: the seat reads "Player N (left)" for every reader; docs/translation.md):
a French player reads "Joueur 1 (parti, vert)" and "Robot au hasard (blanc)" in their prompts,
news, reminders and game-over email, and an English player at the same table still reads
"Player 1 (left, green)" and "Random bot (white)" in theirs, written by the same command."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from games import store
from games.play.models import SeatClock
from games.services import submit_command
from inis_pbem.tasks import sweep
from notifications.models import Outbox
from players.accounts import user_for_email
from players.erasure import erase_account
from players.models import Player
from tests.notifications.email_positions import END, game_from
from tests.notifications.test_inbound import send_all

pytestmark = pytest.mark.django_db(transaction=True)

# {language: (green's seat once its player erased their account, white's random bot)}
NAMES = {
    "en": ("Player 1 (left, green)", "Random bot (white)"),
    "fr": ("Joueur 1 (parti, vert)", "Robot au hasard (blanc)"),
}
BLUE, ORANGE = "player2@example.org", "player3@example.org"


def _email(kind: str, address: str) -> str:
    """The subject and text of the last email of `kind` sent to `address`."""
    row = Outbox.objects.filter(kind=kind, to_email=address).latest("id")
    return row.subject + "\n" + row.body_text


def _reads(email: str, language: str, *, bot: bool = True) -> None:
    """`email` names green's departed seat (and, with `bot`, white's bot) in `language` only."""
    departed, bot_name = NAMES[language]
    assert departed in email, email
    assert not bot or bot_name in email, email
    for other, (other_departed, other_bot) in NAMES.items():
        if other != language:
            assert other_departed.split(" (")[0] not in email, email
            assert other_bot.split(" (")[0] not in email, email


@pytest.mark.parametrize("blue, orange", [("fr", "en"), ("en", "fr")])
def test_each_reader_reads_the_bot_and_the_player_who_left_named_in_their_language(blue, orange):
    # Blue gets prompts and reminders; orange takes news emails too; both get the game over.
    Player.objects.create(email=BLUE, language=blue)
    Player.objects.create(email=ORANGE, language=orange, delivery=Player.Delivery.EVERY)
    game = game_from(END, seed="names-in-readers-language", players=3, bots=1)  # white: Random bot
    send_all()

    # Green's player erases their account: the stand-in takes a Pretender token for the seat.
    erase_account(user_for_email("player1@example.org").pk)
    send_all()
    prompt = _email(Outbox.Kind.PROMPT, BLUE)
    _reads(prompt, blue)  # "The game started: Player 1 (left, green), you, orange, Random bot (white)"
    news = _email(Outbox.Kind.NEWS, ORANGE)
    _reads(news, orange, bot=False)  # "Player 1 (left, green) took a Pretender token."

    clock = SeatClock.objects.get(seat__game=game, seat__colour="blue")
    SeatClock.objects.filter(pk=clock.pk).update(opened_at=timezone.now() - timedelta(hours=40))
    sweep.apply()
    _reads(_email(Outbox.Kind.REMINDER, BLUE), blue)  # the board's players

    _state, seq = store.load(game)
    blue_seat = game.seats.get(colour="blue")
    assert submit_command(game=game, seat=blue_seat, command={"type": "pass"}, expected_seq=seq).accepted
    send_all()
    game.refresh_from_db()
    assert game.is_over and game.winner == "green"
    for address, language in ((BLUE, blue), (ORANGE, orange)):
        _reads(_email(Outbox.Kind.GAME_OVER, address), language)  # "... is the High King"


# END where only white, the bot (not played here), holds a card: once green takes a Pretender
# token, blue and orange pass (nothing to play) and the game waits for white's Season turn.
WAITS_FOR_THE_BOT = {**END, "hands": {"green": [], "blue": [], "orange": [], "white": ["act_bard"]}}


@pytest.mark.parametrize("orange", ["fr", "en"])
def test_a_news_email_names_the_bot_it_waits_for_in_the_readers_language(orange):
    Player.objects.create(email=ORANGE, language=orange, delivery=Player.Delivery.EVERY)
    game = game_from(WAITS_FOR_THE_BOT, seed="bot-waited-for", players=3, bots=1)
    send_all()
    _state, seq = store.load(game)
    green = game.seats.get(colour="green")
    assert submit_command(game=game, seat=green, command={"type": "pretender"}, expected_seq=seq).accepted
    send_all()
    waits_for = {
        "en": "The game waits for Random bot (white).",
        "fr": "La partie attend Robot au hasard (blanc).",
    }
    news = _email(Outbox.Kind.NEWS, ORANGE)
    assert waits_for[orange] in news, news
