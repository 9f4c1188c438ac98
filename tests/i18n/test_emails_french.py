"""Emails in the player's language (issue 16, "The whole game in French"): a French player's
prompt, answers (accepted, and rejected with the reason), reminder, news and game-over emails read
in French, subject included; an English player's read as before. Positions: tests/notifications/
email_positions.py (END: green's Season turn, blue holds the Bard; a Pretender then passes end it).
"""

from __future__ import annotations

from datetime import timedelta

from django.utils import dateformat, timezone, translation

from games import store
from games.play.models import SeatClock
from games.services import submit_command
from inis_pbem.tasks import sweep
from notifications import happenings, wording
from notifications.models import Outbox
from players.models import Player
from tests.i18n.leftover_english import leftovers
from tests.notifications import mail_clients
from tests.notifications.email_positions import CLASH, END, MIGRATE_TO_COVE, game_from
from tests.notifications.test_inbound import feed, last_to, prompt_for, send_all

GREEN, BLUE, ORANGE, WHITE = (f"player{i}@example.org" for i in range(1, 5))


def french(*emails: str) -> None:
    for email in emails:
        Player.objects.update_or_create(email=email, defaults={"language": "fr"})


def _take_pretender(game):
    state, seq = store.load(game)
    assert submit_command(
        game=game, seat=game.seats.get(colour="green"), command={"type": "pretender"}, expected_seq=seq
    ).accepted
    send_all()


def test_a_french_players_prompt_is_in_french_and_an_english_players_is_as_before(db):
    french(GREEN)
    game = game_from(END, seed="fr-prompt")
    send_all()

    prompt = prompt_for(game, "green")
    assert prompt.subject == f"Votre coup : votre tour de Saison — Inis {game.pk}"
    body = prompt.body
    assert body.startswith(f"Partie d'Inis {game.pk} — vous jouez vert. Votre coup : votre tour de Saison.")
    assert "Ce que vous pouvez faire maintenant (répondez par le numéro, ou en toutes lettres) :" in body
    assert "Votre main :" in body and "Le plateau :" in body
    assert "Vol des corbeaux : sens horaire." in body and "Territoires :" in body
    assert "- Vallée : bleu 1, vert (vous) 2 ; chef : vert (vous) ; Capitale. Voisins : Anse," in body
    assert "Préférences d'envoi (fuseau horaire, résumé, vacances, langue) :" in body
    # French dates: Django's names of days and months ("mercredi 25 novembre 2026, 18:00 (UTC)").
    clock = SeatClock.objects.get(seat__game=game, seat__colour="green")
    with translation.override("fr"):
        assert f"Échéance : {dateformat.format(clock.deadline, 'l j F Y, H:i')} (UTC)." in body


def test_an_english_players_prompt_is_unchanged(db):
    game = game_from(END, seed="en-prompt")
    prompt = prompt_for(game, "green")
    assert prompt.subject == f"Your move: your Season turn — Inis {game.pk}"
    assert prompt.body.startswith(f"Inis game {game.pk} — you play green. Your move: your Season turn.")
    assert "What you may do now (reply with the number, or in words):" in prompt.body
    assert "- Valley: blue 1, green (you) 2; chieftain green (you); Capital. Neighbours: Cove," in prompt.body


def test_a_french_reply_is_accepted_in_french(db):
    french(GREEN)
    game = game_from(END, seed="fr-accepted")
    prompt = prompt_for(game, "green")

    assert feed(mail_clients.gmail(prompt, "prétendant")).startswith("accepted")

    answer = last_to(GREEN)
    assert answer.subject.startswith("Accepté : ")
    assert answer.subject.endswith(f"— Inis {game.pk}")
    assert answer.body.startswith("C'est fait. J'ai lu votre réponse ainsi : ")
    assert "Rien d'autre ne vous est demandé pour l'instant" in answer.body


def test_a_french_reply_the_rules_refuse_is_rejected_in_french(db):
    french(GREEN)
    game = game_from(END, seed="fr-rejected")
    prompt = prompt_for(game, "green")

    assert feed(mail_clients.gmail(prompt, "attaquer bleu")).startswith("rejected")

    answer = last_to(GREEN)
    assert answer.subject.startswith("Refusé : ")
    body = answer.body
    assert body.startswith("Votre réponse n'a pas été jouée : rien n'a changé.")
    assert "n'est pas permis maintenant" in body  # the reason, in French
    assert "Où en est la partie :" in body and "Votre tour :" in body  # the decision again
    assert "Your reply" not in body and "nothing changed" not in body


def test_a_reply_to_an_old_email_is_stale_in_french(db):
    french(GREEN)
    game = game_from(END, seed="fr-stale")
    prompt = prompt_for(game, "green")
    _take_pretender(game)  # from the page: the prompt's decision is gone

    feed(mail_clients.gmail(prompt, "passer"))

    answer = last_to(GREEN)
    assert answer.subject == f"Refusé : trop tard pour cette décision — Inis {game.pk}"
    assert "Votre réponse est arrivée trop tard pour cette décision" in answer.body
    # The game moved on: said once, not again in the sentence after it.
    assert answer.body.count("la partie a avancé") == 1
    assert "Votre réponse répondait à un message plus ancien." in answer.body


def test_english_answers_are_unchanged(db):
    game = game_from(END, seed="en-answers")
    prompt = prompt_for(game, "green")
    feed(mail_clients.gmail(prompt, "attack blue"))
    answer = last_to(GREEN)
    assert answer.subject.startswith("Rejected: ")
    assert answer.body.startswith("Your reply was not played: nothing changed.")


def test_a_french_reminder(db):

    french(GREEN)
    game = game_from(END, seed="fr-reminder")
    send_all()
    clock = SeatClock.objects.get(seat__game=game, seat__colour="green")
    SeatClock.objects.filter(pk=clock.pk).update(opened_at=timezone.now() - timedelta(hours=40))

    sweep.apply()

    reminder = Outbox.objects.get(seat=clock.seat, kind=Outbox.Kind.REMINDER)
    assert reminder.subject.startswith("Rappel : votre tour de Saison (échéance ")
    assert reminder.subject.endswith(f"UTC) — Inis {game.pk}")
    assert reminder.body_text.startswith(
        f"Rappel : la partie d'Inis {game.pk} attend votre coup (vert) : votre tour de Saison.\n"
        "Votre décision arrive à échéance le "
    )
    assert reminder.headers["Auto-Submitted"] == "auto-generated"


def test_french_news(db, django_capture_on_commit_callbacks):
    Player.objects.create(email=WHITE, delivery=Player.Delivery.EVERY, language="fr")
    game = game_from(END, seed="fr-news")
    send_all()

    with django_capture_on_commit_callbacks(execute=True):
        _take_pretender(game)

    first = last_to(WHITE)
    assert first.subject == f"Nouvelles — Inis {game.pk}"
    assert first.body.startswith(f"Nouvelles de la partie d'Inis {game.pk} (vous jouez blanc) :")
    assert "La partie attend bleu." in first.body
    assert "Inutile de répondre à ce message." in first.body


def test_the_game_over_email_in_french_and_in_english(db):
    french(ORANGE)
    game = game_from(END, seed="fr-over")
    send_all()
    _take_pretender(game)
    state, seq = store.load(game)
    assert submit_command(
        game=game, seat=game.seats.get(colour="blue"), command={"type": "pass"}, expected_seq=seq
    ).accepted
    send_all()

    over = last_to(ORANGE)
    assert over.subject == f"Partie terminée : vert est le Haut-roi — Inis {game.pk}"
    assert over.body.startswith(f"La partie d'Inis {game.pk} est terminée : vert est le Haut-roi.")
    assert "Ce qui s'est passé depuis votre dernier coup :" in over.body
    assert "La graine était " in over.body
    assert last_to(WHITE).subject == f"Game over: green is the High King — Inis {game.pk}"
    assert last_to(GREEN).subject == f"Game over: you are the High King — Inis {game.pk}"


def test_clash_facts_and_titles_speak_french_to_the_seat(db):
    """Rulebook, Clash: the instigator, the turn order, exposed and sheltered clans; told to the
    seat ("vous") in French, and the decision's title names the territory with its article."""
    french(BLUE)
    game = game_from(CLASH, seed="fr-clash")
    state, seq = store.load(game)
    assert submit_command(
        game=game, seat=game.seats.get(colour="green"), command=MIGRATE_TO_COVE, expected_seq=seq
    ).accepted
    prompt = prompt_for(game, "blue")
    assert prompt.subject == f"Votre coup : Citadelle dans l'Anse — Inis {game.pk}"
    assert "Conflit dans l'Anse (envahisseur : vert)." in prompt.body
    assert "Ordre du tour : vert, vous." in prompt.body  # orange and white have no clan there
    assert "Clans engagés : vert 1, vous 1." in prompt.body
    assert "Clans réfugiés dans une Citadelle : aucun." in prompt.body


def test_lines_worded_by_the_emails_themselves_are_french():
    from games.rules import Event

    passed = Event(
        "DraftCardsPassed",
        {"from": "green", "to": "blue", "cards": ["act_bard", "act_druid"]},
        visibility=("green", "blue"),
    )
    assert happenings.describe_event(passed, "green", language="fr") == "Vous avez passé 2 cartes à bleu."
    assert happenings.describe_event(passed, "green") == "You passed 2 cards to blue."


def test_decision_titles_in_french_have_no_english_word():
    from games.rules import Decision

    titles = []
    with translation.override("fr"):
        for kind in list(wording.KIND_WORDS) + list(wording.OTHER_KIND_WORDS):
            titles.append(wording.decision_title(Decision("green", kind, "", {})))
        titles.append(wording.decision_title(Decision("green", "draft", "", {"keep": 1, "of": 4})))
        titles.append(wording.decision_title(Decision("green", "maneuver", "", {"territory": "plains"})))
    assert "manœuvre du conflit dans la Plaine" in titles
    assert "draft (garder 1 sur 4)" in titles
    assert [t for t in titles if leftovers(t)] == []
