"""Emails name only the moves legal now, and say why a usual move is not offered.

A maneuver prompt used to say "perform a maneuver (attack, withdraw, or propose to end the clash)"
and its help "withdraw 2 to plains" to a player who is chieftain of no territory next to the
clash — and never why. Now the prompt, its help and an answer that refuses a move name only the
moves offered, and a line says why the others are not, in the player's language.
"""

from __future__ import annotations

import pytest

from games import rules, store
from games.services import submit_command
from players.models import Player
from tests.notifications import mail_clients
from tests.notifications.email_positions import game_from
from tests.notifications.test_inbound import feed, last_to, prompt_for

# Green plays Warlord in the Valley, where blue has 2 clans; blue is chieftain of the Cove, the
# Valley's only neighbour: green may attack or propose to end the clash, never withdraw.
NO_WITHDRAW = {
    "territories": {
        "valley": {"cell": [0, 0], "clans": {"green": 3, "blue": 2}},
        "cove": {"cell": [1, 0], "clans": {"blue": 1}},
        "moor": {"cell": [1, -1], "clans": {"orange": 1}},
        "plains": {"cell": [0, -1], "clans": {"white": 1}},
    },
    "capital": "moor",
    "brenn": "green",
    "flock": "clockwise",
    "hands": {"green": ["act_warlord"], "blue": [], "orange": [], "white": []},
    "round": 1,
    "phase": "season",
    "turn": "green",
    "opened": True,
    "passes": 0,
}

WORDS = {
    "en": {
        "prompt": ">> Clash in the Valley: perform a maneuver (attack or propose to end the clash).\n",
        "why": "You cannot withdraw: you are chieftain of no neighbouring territory.",
        "help": 'Maneuver: "attack blue" or "propose peace".',
        "usual": ('"withdraw', "attack, withdraw", '"end the clash"'),
    },
    "fr": {
        "prompt": ">> Conflit dans la Vallée : effectuez une manœuvre (attaquer ou proposer d'arrêter "
        "le conflit).\n",
        "why": "Vous ne pouvez pas quitter le territoire : vous n'êtes chef d'aucun territoire voisin.",
        "help": "Manœuvre : « attaquer bleu » ou « proposer la paix ».",
        "usual": ("« retraite", "attaquer, quitter", "« finir le conflit »"),
    },
}


def maneuvering(language: str):
    Player.objects.create(email="player1@example.org", language=language)
    game = game_from(NO_WITHDRAW, seed=f"no-withdraw-{language}")
    green = game.seats.get(colour="green")
    state, seq = store.load(game)
    result = submit_command(
        game=game,
        seat=green,
        command={"type": "play", "card": "act_warlord", "territory": "valley"},
        expected_seq=seq,
    )
    assert result.accepted, result.message
    state, _seq = store.load(game)
    assert [d.kind for d in rules.pending(state) if d.seat == "green"] == ["maneuver"]
    assert not any(c["type"] == "withdraw" for c in rules.legal_commands(state, "green"))
    return game


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_maneuver_prompt_names_only_the_maneuvers_offered_and_says_why_not_withdraw(db, language):
    game = maneuvering(language)
    words = WORDS[language]
    text = prompt_for(game, "green").body
    decision = text.split("The board:" if language == "en" else "Le plateau :")[0]
    assert words["prompt"] in decision
    assert words["why"] in decision
    assert words["help"] in decision
    for usual in words["usual"]:
        assert usual not in decision, usual


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_refused_withdraw_is_answered_with_the_reason_and_the_moves_offered(db, language):
    game = maneuvering(language)
    prompt = prompt_for(game, "green")
    feed(mail_clients.gmail(prompt, "withdraw 2 to cove" if language == "en" else "retraite 2 vers anse"))
    answer = last_to("player1@example.org").body
    words = WORDS[language]
    assert words["prompt"] in answer and words["why"] in answer and words["help"] in answer
