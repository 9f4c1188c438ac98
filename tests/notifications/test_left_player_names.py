"""A player who erased their account is "Player 2 (left)" ("Joueur 2 (parti)") at every table
(docs/privacy.md). Joined with their seat's colour, wherever a channel names them, it reads
"Player 2 (left, blue)" ("Joueur 2 (parti, bleu)"), never "Player 2 (left) (blue)" nor the
French "le joueur Joueur 2": the game page, the emails of the other players, the table's chat."""

from __future__ import annotations

import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from games import rules, store
from games.models import TableChannel
from notifications.models import Outbox
from players.erasure import erase_account
from players.preferences import player_for
from tests.conftest import drive
from tests.notifications.test_inbound import send_all
from tests.notifications.test_table_channel import news_rows

NATURAL = {"en": "Player {n} (left, {colour})", "fr": "Joueur {n} (parti, {colour})"}
AWKWARD = re.compile(r"\((?:left|parti)\) \(|joueur Joueur")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_player_who_left_is_named_naturally_on_the_page_in_emails_and_in_the_table_chat(
    make_game, sink, language, django_capture_on_commit_callbacks
):
    game = make_game(n_players=3, seed="left-names")
    TableChannel.objects.create(game=game, url=sink.url, language=language)
    for seat in game.seats.all():
        player = player_for(seat.email)
        player.language = language
        player.save()
    state, _seq = store.load(game)
    deciding = rules.pending(state)[0].seat
    gone = game.seats.exclude(colour=deciding).order_by("position").first()
    erase_account(gone.user_id)
    gone.refresh_from_db()
    with rules.speaking(language):
        natural = NATURAL[language].format(n=gone.position + 1, colour=rules.colour_name(gone.colour))

    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        drive(game, 8)  # the seat of the player who left played by the bot, the others as usual
    send_all()

    reader = game.seats.exclude(pk=gone.pk).exclude(colour=deciding).first() or game.seats.get(
        colour=deciding
    )
    client = Client()
    client.force_login(reader.user)
    for page in ("games:detail", "games:history"):
        body = client.get(reverse(page, args=[game.pk]), HTTP_ACCEPT_LANGUAGE=language).content.decode()
        assert natural in body, page
        assert not AWKWARD.search(body), AWKWARD.search(body)
    emails = [m.body for m in mail.outbox]
    assert any(natural in body for body in emails), emails
    assert not any(AWKWARD.search(body) for body in emails)
    # The table's news of the moves, delivered with the rest (`send_all`).
    assert {row.status for row in news_rows(game)} == {Outbox.Status.SENT}
    posted = "\n".join(post["message"] for post in sink.healthy)
    assert natural in posted and not AWKWARD.search(posted), posted
