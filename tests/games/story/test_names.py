"""games.story.names: a player's name joined with their seat's colour as a sentence says it. A
player who erased their account is "Player 2 (left)" ("Joueur 2 (parti)"): with the colour,
"Player 2 (left, blue)", never "Player 2 (left) (blue)"; and French says "contre Joueur 2
(parti, bleu)", never "le joueur Joueur 2" (docs/privacy.md, docs/web.md "Players by name")."""

from __future__ import annotations

import pytest
from django.utils import translation

from games import rules
from games.story.descriptions import describe_card_play
from games.story.event_text import describe_event
from games.story.names import player_name

LEFT = {"en": "Player 2 (left)", "fr": "Joueur 2 (parti)"}
LINES = {
    "en": [
        (("Passed", {"seat": "blue"}), "Player 2 (left, blue) passed."),
        (("TurnStarted", {"seat": "blue"}), "Player 2 (left, blue)'s turn began."),
        (
            ("CardGiven", {"from": "green", "to": "blue", "card": "act_bard"}),
            "Ann (green) gave Bard to Player 2 (left, blue).",
        ),
        (("GameWon", {"seat": "blue"}), "Player 2 (left, blue) is elected High King."),
    ],
    "fr": [
        (("Passed", {"seat": "blue"}), "Joueur 2 (parti, bleu) a passé."),
        (("TurnStarted", {"seat": "blue"}), "Au tour de Joueur 2 (parti, bleu)."),
        (
            ("CardGiven", {"from": "green", "to": "blue", "card": "act_bard"}),
            "Ann (vert) a donné Barde à Joueur 2 (parti, bleu).",
        ),
        (("GameWon", {"seat": "blue"}), "Joueur 2 (parti, bleu) est élu Haut-roi."),
    ],
}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_player_who_left_is_named_with_the_colour_inside_the_brackets(language):
    with translation.override(language), rules.players_named({"blue": LEFT[language], "green": "Ann"}):
        assert (
            player_name("blue") == {"en": "Player 2 (left, blue)", "fr": "Joueur 2 (parti, bleu)"}[language]
        )
        assert player_name("green") == {"en": "Ann (green)", "fr": "Ann (vert)"}[language]
        assert player_name("orange") == "orange"
        for (event, payload), line in LINES[language]:
            assert describe_event(event, payload) == line


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("en", "Raid looking at Player 2 (left, blue)'s hand"),
        ("fr", "Razzia en regardant la main de Joueur 2 (parti, bleu)"),
    ],
)
def test_the_rules_words_of_a_card_name_a_player_who_left_naturally(language, said):
    """The rules' own French says "la main du joueur {player}": before "Joueur 2 (parti)" the
    story says the name alone, without touching the rules."""
    with translation.override(language), rules.players_named({"blue": LEFT[language]}):
        assert describe_card_play("act_raid", {"opponent": "blue"}) == said
