"""Territory names inside French sentences (issue 26: grammar, "Faire de le Cromlech la Capitale").

French puts an article before a territory's name (the French rulebook: "la Forêt", "le Plateau",
"les Collines", "l'Anse") and contracts "de le" into "du", "de les" into "des", "à le" into "au",
"à les" into "aux". `territory_phrase(tid, case)` writes the article and the contraction, and a
French sentence of the rules or of the history that says "de {the_territory}" is contracted when
it is filled in (`games.rules.language.FrenchSentence`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from games import rules
from games.rules import TERRITORY_INFO, describe_command, territory_name, territory_phrase
from games.rules.language import FrenchSentence, french_contractions
from games.story import event_text

ROOT = Path(__file__).resolve().parents[2]

# The article of each territory in the French rulebook (its tile names and its examples).
RULEBOOK_ARTICLES = {
    "cove": "l'",
    "forest": "la",
    "gates": "les",
    "highlands": "le",
    "hills": "les",
    "iron_mine": "la",
    "lost_vale": "le",
    "meadows": "la",
    "misty_lands": "la",
    "moor": "la",
    "mountains": "les",
    "plains": "la",
    "salt_mine": "la",
    "stone_circle": "le",
    "swamp": "le",
    "valley": "la",
}
# "the", "of" (de) and "to" (à) with each article.
FRENCH_CASES = {
    "l'": ("l'", "de l'", "à l'"),
    "la": ("la ", "de la ", "à la "),
    "le": ("le ", "du ", "au "),
    "les": ("les ", "des ", "aux "),
}


@pytest.mark.parametrize("tid", sorted(TERRITORY_INFO))
def test_every_territory_in_every_case_in_both_languages(tid):
    info = TERRITORY_INFO[tid]
    with translation.override("en"):
        assert [territory_phrase(tid, case) for case in ("the", "of", "to")] == [
            f"the {info.name}",
            f"of the {info.name}",
            f"to the {info.name}",
        ]
        assert territory_phrase(tid, capital=True) == f"The {info.name}"
    with translation.override("fr"):
        expected = [article + territory_name(tid, "fr") for article in FRENCH_CASES[RULEBOOK_ARTICLES[tid]]]
        assert [territory_phrase(tid, case) for case in ("the", "of", "to")] == expected
        assert territory_phrase(tid, capital=True) == expected[0][:1].upper() + expected[0][1:]
        # A sentence written "de {the_territory}" / "à {the_territory}" reads the same contraction.
        of, to = expected[1], expected[2]
        assert FrenchSentence("de {t}").format(t=territory_phrase(tid)) == of
        assert FrenchSentence("à {t}").format(t=territory_phrase(tid)) == to


@pytest.mark.parametrize("tid", sorted(TERRITORY_INFO))
def test_the_capital_and_a_clan_removed_read_in_french(tid):
    """The issue's "Faire de le Cromlech la Capitale": "Faire du Cromlech la Capitale"."""
    state = rules.fold(rules.start_game(["green", "blue"], seed="grammar"))
    of = FRENCH_CASES[RULEBOOK_ARTICLES[tid]][1] + territory_name(tid, "fr")
    with translation.override("fr"):
        assert (
            describe_command(state, {"type": "choose_capital", "territory": tid}) == f"Faire {of} la Capitale"
        )
        assert (
            describe_command(state, {"type": "remove_clan", "territory": tid})
            == f"Retirer 1 de vos clans {of}"
        )
        sheltered = event_text.describe_event("ClanSheltered", {"seat": "blue", "territory": tid})
        assert sheltered == f"Bleu a réfugié 1 clan dans une Citadelle {of}."


def test_the_examples_of_the_issue():
    state = rules.fold(rules.start_game(["green", "blue"], seed="grammar"))
    with translation.override("fr"):
        assert (
            describe_command(state, {"type": "choose_capital", "territory": "stone_circle"})
            == "Faire du Cromlech la Capitale"
        )
        assert (
            describe_command(state, {"type": "choose_capital", "territory": "valley"})
            == "Faire de la Vallée la Capitale"
        )
        assert (
            describe_command(state, {"type": "choose_capital", "territory": "hills"})
            == "Faire des Collines la Capitale"
        )
        assert territory_phrase("cove", "to") == "à l'Anse"


def test_only_an_article_before_a_territory_is_contracted():
    """ "de le défausser" (a pronoun) stays; "de le Marais" (an article) is "du Marais"."""
    assert french_contractions("au lieu de le défausser, à les voir") == "au lieu de le défausser, à les voir"
    assert (
        french_contractions("De le Marais à les Portes de Tír na nÓg") == "Du Marais aux Portes de Tír na nÓg"
    )


def _entries(po: Path):
    for block in po.read_text(encoding="utf-8").split("\n\n"):
        strs = [line for line in block.split("\n") if line.startswith("msgstr")]
        if strs:
            yield block, " ".join(strs)


TERRITORY_AFTER_DE = re.compile(
    r"\b(?:de|à|De|À) (?:\{[A-Za-z_]*territor[a-z_]*\}|%\([a-z_]*territor[a-z_]*\)s)"
)


def test_only_sentences_that_are_contracted_put_de_or_a_before_a_territory():
    """The rules (games/rules) and the history (games/story/event_text.py) fill their French sentences
    through `FrenchSentence`, which contracts; any other French text (a template, a notification)
    must not write "de {the_territory}", which would read "de le Plateau"."""
    found = []
    for po in sorted(ROOT.rglob("locale/fr/LC_MESSAGES/django.po")):
        area = po.parents[3].relative_to(ROOT).as_posix() if po.parents[3] != ROOT else "."
        if ".venv" in po.parts or area == "games/rules":
            continue
        for block, msgstr in _entries(po):
            sources = " ".join(line for line in block.split("\n") if line.startswith("#:"))
            if area == "games" and sources.split()[1:] == ["story/event_text.py"]:
                continue
            if TERRITORY_AFTER_DE.search(msgstr):
                found.append(f"{po.relative_to(ROOT)}: {msgstr}")
    assert not found, "\n".join(found)
