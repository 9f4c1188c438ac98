"""A French player plays a whole decision cycle in French, by email, through a real Celery worker
on the real Redis broker and PostgreSQL (the pattern of tests/notifications/test_email_game.py).

Green, whose player chose French, receives a French prompt for its Season turn (email_positions
.END), replies in French words ("passer", docs/email-commands.md) and, after the other seats'
replies (in English, from their English prompts), gets one French email: its next prompt, which
says first what was accepted ("Accepté : Passer — Votre coup : …"); the English seats' emails
stay English.
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from games import rules, store
from games.play.models import SeatClock
from notifications.tokens import token_in_address
from players.models import Player
from players.signed_tokens import read_reply_token
from tests.faults.processes import wait_until
from tests.notifications import mail_clients
from tests.notifications.email_positions import EMAILS, END, game_from
from tests.notifications.test_email_game import deliver_reply, quiet, worker_thread

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SEATS = ["green", "blue", "orange", "white"]


def current_prompt(game, colour: str, *, words: str):
    """The prompt delivered to `colour` for its open decision (by the seq of its reply address),
    whose subject holds `words` (the seat's language)."""
    clock = SeatClock.objects.get(seat__game=game, seat__colour=colour)
    for message in reversed(mail.outbox):
        if not message.reply_to or EMAILS[SEATS.index(colour)] not in message.to:
            continue
        token = token_in_address(message.reply_to[0])
        if token and read_reply_token(token).seq == clock.seq and words in message.subject:
            return message
    raise AssertionError(
        f"no prompt for {colour}'s decision at #{clock.seq}: {[(m.to, m.subject) for m in mail.outbox]}"
    )


def test_a_french_player_plays_a_decision_cycle_in_french(settings):
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    Player.objects.create(email=EMAILS[0], language="fr")
    client = Client()
    with worker_thread():
        game = game_from(END, seed="joué-par-courriel")
        wait_until(quiet, timeout=30, what="the worker to deliver the first prompts")

        prompt = current_prompt(game, "green", words="Votre coup : ")
        assert prompt.subject == f"Votre coup : votre tour de Saison — Inis {game.pk}"
        assert "Ce que vous pouvez faire maintenant" in prompt.body

        before = len([m for m in mail.outbox if m.to == [EMAILS[0]]])
        deliver_reply(client, "pipe", mail_clients.gmail(prompt, "passer", sender=EMAILS[0]))
        wait_until(quiet, timeout=30, what="the worker to play the reply")

        # The English seats answer their English prompts until green is asked again.
        for _turn in range(20):
            state, _seq = store.load(game)
            pending = rules.pending(state)
            assert pending and not rules.is_over(state)
            if any(d.seat == "green" for d in pending):
                break
            decision = pending[0]
            other = current_prompt(game, decision.seat, words="Your move: ")
            words = (
                "decline"
                if decision.kind == "reaction"
                else "pass"
                if decision.kind == "season_turn"
                else "1"
            )
            deliver_reply(
                client, "pipe", mail_clients.outlook(other, words, sender=EMAILS[SEATS.index(decision.seat)])
            )
            wait_until(quiet, timeout=30, what="the worker to play the other seats' replies")
        else:
            raise AssertionError("green was never asked again")

        again = current_prompt(game, "green", words="Votre coup : ")
        # One email for the reply and the next decision, in French.
        assert [m for m in mail.outbox if m.to == [EMAILS[0]]][before:] == [again]
        assert again.subject.startswith("Accepté : Passer — Votre coup : ")
        assert "\n\nAccepté : J'ai lu votre réponse ainsi : Passer." in again.body
        assert again.body.startswith(f"Partie d'Inis {game.pk} — vous jouez vert. Votre coup : ")
        assert "Ce qui s'est passé depuis votre dernier coup :" in again.body
        assert "Ce que vous pouvez faire maintenant" in again.body
    english = [m for m in mail.outbox if m.to != [EMAILS[0]]]
    assert english and all(
        not m.subject.startswith(("Votre", "Accepté", "Refusé", "Partie")) for m in english
    )
