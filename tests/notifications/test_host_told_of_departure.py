"""A player who erases their account during a game in progress leaves their seat to the
stand-in bot (docs/privacy.md); the host is told by email, in the host's language, naming the
seat as the table reads it now ("Player 2 (left)") and never the person who left."""

from __future__ import annotations

import pytest
from django.db import transaction

from games.models import Seat
from notifications.models import Outbox
from players.accounts import user_for_email
from players.erasure import erase_account
from players.models import Player
from players.preferences import set_display_name

pytestmark = pytest.mark.django_db(transaction=True)

LEAVER = "player2@example.org"  # blue (tests.conftest.players)


def _erase(address: str) -> None:
    with transaction.atomic():
        erase_account(user_for_email(address).pk)


def _notices_to(address: str) -> list[Outbox]:
    return list(Outbox.objects.filter(kind=Outbox.Kind.NOTICE, to_email=address).order_by("id"))


def _host_game(make_game, host_email: str, **kwargs):
    game = make_game(n_players=3, seed="host-told", host=user_for_email(host_email), **kwargs)
    set_display_name(LEAVER, "Bertrand Oakheart")
    Outbox.objects.all().delete()  # the game's start: not what this test reads
    return game


def test_the_host_reads_that_player_2_left_and_the_stand_in_bot_plays_their_seat(make_game):
    Player.objects.create(email="player1@example.org", language="fr")
    game = _host_game(make_game, "player1@example.org")

    _erase(LEAVER)

    assert Seat.objects.get(game=game, colour="blue").is_bot
    [notice] = _notices_to("player1@example.org")  # the host, green, reads French
    # The seat by its colour, then by the name the table gives it now: never "Joueur 2 (parti)
    # est parti", which says the leaving twice.
    assert notice.subject == (
        f"Le joueur qui jouait bleu est parti : le robot remplaçant prend sa place — Inis {game.pk}"
    )
    assert (
        f"Le joueur qui jouait bleu a quitté la partie d'Inis {game.pk}, dont vous êtes l'hôte : il a "
        "effacé son compte, et la table nomme désormais cette place Joueur 2 (parti)."
    ) in " ".join(notice.body_text.split()), notice.body_text
    assert "Le robot remplaçant joue désormais bleu" in notice.body_text, notice.body_text
    whole = notice.subject + notice.body_text + notice.body_html
    assert "Bertrand" not in whole and LEAVER not in whole
    # Only the host: the other player (orange) is not told by email.
    assert not _notices_to("player3@example.org")


def test_nobody_is_told_when_the_host_leaves_or_the_game_is_over(make_game):
    game = _host_game(make_game, LEAVER)
    _erase(LEAVER)
    assert not Outbox.objects.filter(kind=Outbox.Kind.NOTICE, game=game).exists()

    over = _host_game(make_game, "player1@example.org")
    over.status = "over"
    over.save(update_fields=["status"])
    _erase("player3@example.org")
    assert not Outbox.objects.filter(kind=Outbox.Kind.NOTICE, game=over).exists()
