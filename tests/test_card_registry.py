"""Every card has every table a card needs, so a new card fails here until it has them all
(docs/architecture.md, "A new card"): its effect in the rules' registry, its worth for the hard
bot's draft (an Action card), its order shape by email or its place on the game page (a Season
Action card) and that line of docs/email-commands.md, and its French name and text in the rules'
catalog.

Rulebook, "Components": 17 Action cards, 16 Advantage cards and 30 Epic Tale cards; only Action
cards are drafted ("Assembly": each player drafts Action cards), so only they need a draft worth.
"""

from __future__ import annotations

import re
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from games.bots.card_worth import CARD_VALUES
from games.play.queued_plays import NOT_QUEUED, QUEUE_SHAPES
from games.rules import CARDS
from games.rules.card_effects import CARD_EFFECTS
from games.rules.catalog import ACTION, SEASON
from games.rules.language import LOCALE_DIR


def french_catalog(text: str) -> dict[str, str]:
    """A .po catalog's text as msgid -> msgstr, for the entries translated and not marked fuzzy."""
    entries = {}
    for block in text.split("\n\n"):
        if "#, fuzzy" in block or "msgid_plural" in block:
            continue
        found = re.search(r'^msgid ((?:".*"\n?)+)msgstr ((?:".*"\n?)+)', block, re.MULTILINE)
        if found:
            msgid, msgstr = ("".join(re.findall(r'"(.*)"', part)) for part in found.groups())
            entries[msgid.replace('\\"', '"')] = msgstr.replace('\\"', '"')
    return entries


FRENCH = french_catalog((LOCALE_DIR / "fr" / "LC_MESSAGES" / "django.po").read_text())


def queued_plays_line(text: str) -> tuple[set[str], set[str]]:
    """docs/email-commands.md's line on queued plays, "A queued play by email names Bard, ...
    Conquest, ... cannot be queued": the names of the cards an order may queue, and of those it
    may not."""
    line = " ".join(
        text.split("A queued play by email names ", 1)[1].split(" cannot be queued", 1)[0].split()
    )
    queued, not_queued = re.sub(r" \([^)]*\)", "", line).split(". ", 1)
    return set(re.split(r", | or | and ", queued)), set(re.split(r", | or | and ", not_queued))


EMAIL_COMMANDS = Path(__file__).resolve().parents[1] / "docs" / "email-commands.md"
QUEUED_IN_DOC, NOT_QUEUED_IN_DOC = queued_plays_line(EMAIL_COMMANDS.read_text())


def missing_tables(card: str) -> list[str]:
    """What `card` (an id of `rules.CARDS`) lacks of the tables a card needs, in words."""
    info = CARDS[card]
    missing = []
    if card not in CARD_EFFECTS:
        missing.append("its effect (games/rules/card_effects.py: a CardEffect registered with @card_effect)")
    if info.type == ACTION and card not in CARD_VALUES:
        missing.append("its worth for the hard bot's draft (games/bots/card_worth.py: CARD_VALUES)")
    if info.type == ACTION and SEASON in info.timings and (card in QUEUE_SHAPES) == (card in NOT_QUEUED):
        missing.append("its order shape (games/play/queued_plays.py: QUEUE_SHAPES, or NOT_QUEUED; not both)")
    if info.type == ACTION and SEASON in info.timings:
        doc_says = info.name in QUEUED_IN_DOC, info.name in NOT_QUEUED_IN_DOC
        if doc_says != (card in QUEUE_SHAPES, card in NOT_QUEUED):
            missing.append(
                'its line in docs/email-commands.md ("A queued play by email names ...": among the cards '
                "queued or those that cannot be, as queued_plays.py has it)"
            )
    if not FRENCH.get(info.name):
        missing.append("its French name (games/rules/locale/fr)")
    if not FRENCH.get(info.text):
        missing.append("its French text (games/rules/locale/fr)")
    return missing


@pytest.mark.parametrize("card", sorted(CARDS))
def test_every_card_has_every_table_a_card_needs(card):
    assert missing_tables(card) == []


def test_a_new_action_card_is_refused_until_it_has_its_tables(monkeypatch):
    """A Season Action card added to the catalog alone lacks all five; with them, the line of
    docs/email-commands.md that names the cards an order may queue still lacks it."""
    new = replace(CARDS["act_citadel"], id="act_new_card", name="New Card", text="Do something new.")
    monkeypatch.setitem(CARDS, "act_new_card", new)
    assert [need.split(" (")[0] for need in missing_tables("act_new_card")] == [
        "its effect",
        "its worth for the hard bot's draft",
        "its order shape",
        "its French name",
        "its French text",
    ]
    monkeypatch.setitem(CARD_EFFECTS, "act_new_card", CARD_EFFECTS["act_citadel"])
    monkeypatch.setitem(CARD_VALUES, "act_new_card", 0.1)
    monkeypatch.setitem(QUEUE_SHAPES, "act_new_card", ("territory",))
    monkeypatch.setitem(FRENCH, "New Card", "Nouvelle carte")
    monkeypatch.setitem(FRENCH, "Do something new.", "Faites quelque chose de nouveau.")
    assert [need.split(" (")[0] for need in missing_tables("act_new_card")] == [
        "its line in docs/email-commands.md"
    ]
    monkeypatch.setattr(sys.modules[__name__], "QUEUED_IN_DOC", QUEUED_IN_DOC | {"New Card"})
    assert missing_tables("act_new_card") == []


def test_the_queued_plays_line_is_read_as_two_lists_of_whole_names():
    """The names of docs/email-commands.md's line, their targets in brackets left out."""
    queued, not_queued = queued_plays_line(
        "A queued play by email names Bard, Emissaries (from, to) or Scouts & Spies (a colour).\n"
        "Conquest, Craftsmen & Peasants and New Alliance cannot be queued, by email"
    )
    assert queued == {"Bard", "Emissaries", "Scouts & Spies"}
    assert not_queued == {"Conquest", "Craftsmen & Peasants", "New Alliance"}
