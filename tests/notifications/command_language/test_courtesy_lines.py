"""Courtesy lines around a command, and the "did you mean" hints (docs/email-commands.md,
"Several commands in one reply" and "When a reply is not accepted").

A greeting, thanks or closing line is no part of a reply's command: "pass" then "Thanks a lot!"
passes. Alone, or beside a misspelt command, it is no command and the reply is refused, the
misspelt word shown with a hint in the player's language. No database: the position is the
parser tests' Season turn.
"""

from __future__ import annotations

import pytest

from games.rules import IllegalCommand, InvalidCommand
from tests.notifications.command_language.test_parser import refusal, reply, season_table

CLOSINGS = [
    "Thanks a lot!",
    "Have a nice day,\nAlice",
    "Thanks in advance",
    "Take care",
    "Good luck to all",
    "À bientôt",
    "Merci et à bientôt",
    "Bonne journée à tous",
    "Bonne chance à tous",
    "Bonne partie à tous",
]


@pytest.mark.parametrize("closing", CLOSINGS)
@pytest.mark.parametrize("language, move", [("en", "pass"), ("fr", "passer")])
def test_a_closing_line_beside_a_command_is_ignored(closing, language, move):
    for text in (f"{move}\n\n{closing}", f"{closing}\n\n{move}"):
        assert reply(season_table(), "green", text, language=language) == [{"type": "pass"}], text


def test_a_closing_line_alone_is_refused():
    message = refusal(InvalidCommand, season_table(), "green", "Thanks a lot")
    assert message.startswith("I did not understand “lot”")
    message = refusal(InvalidCommand, season_table(), "green", "À bientôt", language="fr")
    assert message.startswith("Je n'ai pas compris « bientôt » dans « À bientôt ».")


@pytest.mark.parametrize("closing", ["Thanks a lot!", "Take care", "Bonne partie à tous"])
def test_a_misspelt_command_beside_a_closing_line_is_refused_with_a_hint(closing):
    table = season_table()
    message = refusal(InvalidCommand, table, "green", f"pss\n\n{closing}")
    assert "I did not understand “pss” (did you mean “pass”?)" in message
    message = refusal(InvalidCommand, table, "green", f"play migraton from valley: 2 to cove\n\n{closing}")
    assert "I did not understand “migraton” (did you mean “migration”?)" in message
    message = refusal(InvalidCommand, table, "green", f"pss\n\n{closing}", language="fr")
    assert "Je n'ai pas compris « pss » (vouliez-vous dire « passe » ?)" in message
    refusal(IllegalCommand, table, "green", f"pas\n\n{closing}")


def test_a_misspelt_command_beside_a_command_is_not_taken_for_a_closing_line():
    message = refusal(InvalidCommand, season_table(), "green", "pass\nplay migraton from valley: 2 to cove")
    assert message.startswith(
        "Line 2 (“play migraton from valley: 2 to cove”): I did not understand “migraton”"
    )


def test_french_hints_show_the_word_as_typed_and_the_suggestion_with_its_accents():
    table = season_table()
    message = refusal(
        InvalidCommand, table, "green", "jouer migration depuis Valée : 2 vers anse", language="fr"
    )
    assert message.startswith(
        "Je n'ai pas compris « Valée » (vouliez-vous dire « vallée » ?) dans « jouer migration depuis"
    )
    message = refusal(InvalidCommand, table, "green", "prétendnt", language="fr")
    assert message.startswith("Je n'ai pas compris « prétendnt » (vouliez-vous dire « prétendant » ?)")


def test_english_hints_are_as_they_were():
    message = refusal(InvalidCommand, season_table(), "green", "play migration from Valey: 2 to cove")
    assert message.startswith("I did not understand “valey” (did you mean “valley”?) in “play migration")
