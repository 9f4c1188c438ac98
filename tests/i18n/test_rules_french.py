"""The rules in French (issue 16, "The whole game in French"): decision prompts, option lines
(`describe_command`), the text board and refusals, as a French player reads them.

English is the source language and reads exactly as before; French comes from the rules'
catalog (games/rules/locale/fr), with the French rulebook's terms: conflit,
manœuvre, clans engagés, Citadelle, Quitter le territoire, Prétendant, Vol des corbeaux...
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.utils import translation

from games import rules
from games.rules import describe_command, legal_commands, pending, render_board, speaking
from games.rules.simulate import play_game
from tests.i18n.leftover_english import leftovers
from tests.rules.positions import Table

ROOT = Path(__file__).resolve().parents[2]
THREE = ("green", "blue", "orange")
ELISIONS = {"n", "s", "l", "d", "qu", "c", "j"}


def _clash_table() -> Table:
    """Green migrates 2 clans from the Valley to the Plains, where blue has 2 clans and a Citadel."""
    table = Table(
        """
        plains  0,0  blue 2  citadels 1
        valley  1,0  green 3
        cove    0,1  blue 1
    """,
        seats=THREE,
        capital="valley",
        brenn="green",
        hands={"green": ["act_migration"], "blue": ["act_sanctuary"]},
    )
    table.play("green", "act_migration", **{"from": "valley", "moves": {"plains": 2}})
    return table


def _options(table, seat) -> dict:
    return {describe_command(table.state, c): c for c in legal_commands(table.state, seat)}


def test_a_clash_reads_in_french_with_the_rulebook_terms():
    """Rulebook (fr), Conflits: "les clans peuvent se réfugier dans les Citadelles" then
    "chaque joueur ayant encore des clans engagés effectue une manœuvre"."""
    table = _clash_table()
    with translation.override("fr"):
        assert table.decision("blue").prompt == (
            "Conflit dans la Plaine : réfugiez 1 clan dans une Citadelle libre, ou non."
        )
        assert set(_options(table, "blue")) == {
            "Réfugier 1 clan dans une Citadelle",
            "Ne réfugier aucun clan",
        }
    table.do("blue", "no_citadel")
    with translation.override("fr"):
        assert table.decision("green").prompt == (
            "Conflit dans la Plaine : effectuez une manœuvre (attaquer, quitter le territoire "
            "ou proposer d'arrêter le conflit)."
        )
        options = _options(table, "green")
        assert "Attaquer le joueur bleu" in options
        assert "Quitter le territoire : 2 clans vers la Vallée" in options
        assert "Proposer d'arrêter le conflit" in options
    table.do("green", "attack", target="blue")
    with translation.override("fr"):
        assert table.decision("blue").prompt == (
            "Conflit dans la Plaine : le joueur vert vous attaque. Défaussez une carte Action, "
            "ou perdez 1 clan engagé."
        )


def test_a_clash_in_english_reads_as_before():
    table = _clash_table()
    with translation.override("en"):
        assert (
            table.decision("blue").prompt == "Clash in the Plains: shelter 1 clan in a free Citadel, or not."
        )
        table.do("blue", "no_citadel")
        assert table.decision("green").prompt == (
            "Clash in the Plains: perform a maneuver (attack, withdraw, or propose to end the clash)."
        )
        options = _options(table, "green")
        assert {"Attack blue", "Withdraw 2 clans to the Valley", "Propose to end the clash"} <= set(options)


def test_a_season_turn_and_its_card_plays_in_french():
    table = Table(
        """
        plains    0,0  blue 2
        valley    1,0  green 3
        highlands 0,1  orange 1
    """,
        seats=THREE,
        capital="valley",
        brenn="green",
        opened=True,
        hands={"green": ["act_migration", "act_new_clans"]},
    )
    with translation.override("fr"):
        # Green meets no victory condition: no Pretender token is offered.
        assert table.decision("green").prompt == (
            "Votre tour dans la Saison : jouer une carte Saison ou passer."
        )
        options = _options(table, "green")
        assert "Jouer Migration depuis la Vallée : 2 clans vers la Plaine" in options
        assert "Jouer Nouveaux Clans pour placer 2 clans dans la Vallée" in options
        assert "Passer" in options
        # French articles and their contractions come with the territory ("du Plateau").
        assert rules.territory_phrase("highlands", "of") == "du Plateau"
    with translation.override("en"):
        options = _options(table, "green")
        assert "Play Migration from the Valley: 2 clans to the Plains" in options
        assert "Play New Clans placing 2 clans in the Valley" in options
        assert "Pass" in options


def test_refusals_say_in_french_what_is_wrong_and_what_is_allowed():
    table = _clash_table()
    table.do("blue", "no_citadel")
    with translation.override("fr"):
        message = table.refuse("green", "withdraw", moves={"cove": 1})
        assert message == (
            "Vous ne pouvez quitter le territoire que vers des territoires voisins dont vous "
            "êtes chef : Vallée."
        )
        assert (
            table.refuse("blue", "pass") == "Vous n'avez rien à décider maintenant : la partie attend vert."
        )
    with translation.override("en"):
        assert table.refuse("green", "withdraw", moves={"cove": 1}) == (
            "You can withdraw only to adjacent territories where you are chieftain: Valley."
        )


def test_a_card_play_missing_its_destinations_gives_a_french_example():
    """A French player reads the examples of a refusal in the French command words
    (docs/email-commands.md: every refusal follows the player's language), never "2 to cove"."""
    table = Table(
        """
        valley 0,0 green 3
        cove   1,0 blue 1
        plains 0,1 orange 1
        """,
        seats=THREE,
        capital="valley",
        brenn="green",
        hands={"green": ["act_migration", "act_conquest"]},
    )
    with translation.override("fr"):
        migration = table.refuse(
            "green", {"type": "play", "card": "act_migration", "from": "valley"}, error=rules.CommandError
        )
        conquest = table.refuse("green", {"type": "play", "card": "act_conquest"}, error=rules.CommandError)
    assert "« 2 vers anse, 1 vers plaine »" in migration and " to " not in migration
    assert "« conquête plaine depuis vallée 2 »" in conquest and "from" not in conquest


def test_the_setup_and_the_text_board_in_french():
    events = rules.start_game(list(THREE), seed="fr-setup", setup="discovery")
    state = rules.fold(events)
    brenn = state.brenn
    with translation.override("fr"):
        (decision,) = pending(state)
        assert decision.prompt == "En tant que Brenn, choisissez le territoire qui sera la Capitale."
        assert "Faire de la Vallée la Capitale" in {
            describe_command(state, c) for c in legal_commands(state, brenn)
        }
        board = render_board(state, brenn)
        assert board.startswith("Mise en place, avant la manche 1. Brenn : ")
        assert "- Vallée [" in board and "Votre main (" in board and "clans en réserve" in board
    with translation.override("en"):
        assert render_board(state, brenn).startswith("Setup, before round 1. Brenn: ")


def test_the_triskel_prompt_keeps_the_shape_notifications_read():
    """notifications/wording.py reads the trigger out of "Triskel: <trigger>. Play a Triskel card";
    the French prompt keeps the shape "Triskel : <déclencheur>. Jouez une carte Triskel"."""
    table = Table(
        """
        plains  0,0  blue 2
        valley  1,0  green 3
    """,
        seats=THREE,
        capital="valley",
        brenn="green",
        decline=False,
        hands={"green": ["act_new_clans"], "blue": ["act_geis"]},
    )
    table.play("green", "act_new_clans", territories=["valley", "valley"])
    with translation.override("fr"):
        prompt = table.decision("blue").prompt
    assert re.match(r"^Triskel : (?P<trigger>.*?)\. Jouez une carte Triskel", prompt), prompt
    assert "le joueur vert a annoncé Nouveaux Clans" in prompt
    with translation.override("en"):
        prompt = table.decision("blue").prompt
    assert re.match(r"^Triskel: (?P<trigger>.*?)\. Play a Triskel card", prompt), prompt


@pytest.mark.slow  # whole bot games
def test_every_prompt_and_option_of_bot_games_reads_in_french():
    """Bot games of 2, 3 and 4 players: every decision kind met, its prompt and its first
    options, in French: no English word left (tests/i18n/leftover_english.py)."""
    found, kinds = {}, set()
    for players in (2, 3, 4):
        state, events = play_game(players, f"fr-{players}", max_rounds=4)
        state = None
        for event in events:
            state = rules.fold([event]) if state is None else rules.evolve(state, event)
            with translation.override("fr"):
                for decision in pending(state):
                    kinds.add(decision.kind)
                    texts = [decision.prompt] + [
                        describe_command(state, c) for c in legal_commands(state, decision.seat)[:6]
                    ]
                    for text in texts:
                        # "n'", "s'": French elisions, not the English "n" / "'s".
                        english = [w for w in leftovers(text) if w not in ELISIONS]
                        if english:
                            found.setdefault(" ".join(sorted(set(english))), text)
    assert {"season_turn", "maneuver", "citadel", "draft", "choose_capital", "place_clan"} <= kinds
    report = "\n".join(f"{words!r}: {text}" for words, text in sorted(found.items()))
    assert not found, f"English left in French prompts or options:\n{report}"


def test_the_rules_speak_french_without_django():
    """`python -c "import games.rules"` with no Django settings: `speaking("fr")` reads the
    compiled catalog with Python's own gettext."""
    code = (
        "from games.rules import speaking, colour_name, territory_phrase\n"
        "from games.rules.language import _\n"
        "import sys\n"
        "assert 'django' not in sys.modules\n"
        "with speaking('fr'):\n"
        "    print(_('Pass'), colour_name('green'), territory_phrase('highlands', 'to'))\n"
        "print(_('Pass'))\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "DJANGO_SETTINGS_MODULE"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    ).stdout
    assert out.splitlines() == ["Passer vert au Plateau", "Pass"]


def test_speaking_follows_django_inside_the_project():
    with speaking("fr"):
        assert rules.current_language() == "fr"
        assert rules.colour_name("white", capital=True) == "Blanc"
    assert rules.colour_name("white") == "white"


def test_a_described_position_is_refused_in_french():
    position = {"territories": {"valley": {"cell": [0, 0]}, "plains": {"cell": [1, 0]}}, "capital": "cove"}
    with translation.override("fr"):
        try:
            rules.start_game(list(THREE), seed="fr-position", setup=position)
        except rules.InvalidCommand as refused:
            # The field's path leads, as every refusal of a position (docs/positions.md).
            assert str(refused) == "capital doit être un territoire de l'île : valley, plains."
        else:
            raise AssertionError("the position was accepted")
