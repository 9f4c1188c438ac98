"""games.story.event_text.sentence: a line of the story is a sentence and begins with a capital
("Blue passed.", "Bleu a passé."), in every channel that reads it; a colour inside a sentence
stays in lower case, and a player's own name is written as they wrote it."""

from __future__ import annotations

import pytest
from django.utils import translation

from games import rules
from games.story.event_text import describe_event
from games.story.second_person import second_person

LINES = {
    "en": {
        ("Passed", "blue"): "Blue passed.",
        ("GameWon", "green"): "Green is elected High King.",
        ("TurnStarted", "orange"): "Orange's turn began.",
    },
    "fr": {
        ("Passed", "blue"): "Bleu a passé.",
        ("GameWon", "green"): "Vert est élu Haut-roi.",
        ("PretenderTaken", "orange"): "Orange a pris un marqueur Prétendant.",
    },
}


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_line_about_a_player_without_a_name_begins_with_a_capital(language):
    with translation.override(language):
        for (event, seat), line in LINES[language].items():
            assert describe_event(event, {"seat": seat}) == line


@pytest.mark.parametrize(
    ("language", "line"),
    [("en", "Ann (blue) gave Bard to orange."), ("fr", "Ann (bleu) a donné Barde à orange.")],
)
def test_a_colour_inside_a_sentence_and_a_players_own_name_keep_their_case(language, line):
    with translation.override(language), rules.players_named({"blue": "Ann", "green": "zoé"}):
        assert describe_event("CardGiven", {"from": "blue", "to": "orange", "card": "act_bard"}) == line
        won = describe_event("GameWon", {"seat": "green"})
    assert won.startswith("zoé (")  # the player wrote her name so


def test_a_line_told_to_you_still_begins_with_a_capital():
    """English lines are told to their reader afterwards (`second_person`)."""
    with translation.override("en"):
        line = describe_event("CardGiven", {"from": "green", "to": "blue", "card": "act_bard"})
    assert line.startswith("Green ")
    assert second_person(line, "blue").startswith("Green ") and "you" in second_person(line, "blue")
    assert second_person(line, "green").startswith("You ")
