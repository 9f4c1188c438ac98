"""Every card has every table a card needs, so a new card fails here until it has them all
(docs/architecture.md, "A new card"): its effect in the rules' registry, its worth for the hard
bot's draft (an Action card), its order shape by email or its place on the game page (a Season
Action card), and its French name and text in the rules' catalog.

Rulebook, "Components": 17 Action cards, 16 Advantage cards and 30 Epic Tale cards; only Action
cards are drafted ("Assembly": each player drafts Action cards), so only they need a draft worth.
"""

from __future__ import annotations

import re
from dataclasses import replace

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
    if not FRENCH.get(info.name):
        missing.append("its French name (games/rules/locale/fr)")
    if not FRENCH.get(info.text):
        missing.append("its French text (games/rules/locale/fr)")
    return missing


@pytest.mark.parametrize("card", sorted(CARDS))
def test_every_card_has_every_table_a_card_needs(card):
    assert missing_tables(card) == []


def test_a_new_action_card_is_refused_until_it_has_its_tables(monkeypatch):
    """A Season Action card added to the catalog alone lacks all five."""
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
    assert missing_tables("act_new_card") == []


def test_the_catalog_reader_joins_long_entries_and_skips_fuzzy_ones():
    po = (
        '#: catalog.py\nmsgid ""\n"Draw 1 Epic "\n"Tale card."\nmsgstr ""\n"Piochez 1 carte "\n"Récit épique."\n\n'
        '#, fuzzy\nmsgid "Bard"\nmsgstr "Barde"\n\nmsgid "Druid"\nmsgstr ""\n'
    )
    assert french_catalog(po) == {"Draw 1 Epic Tale card.": "Piochez 1 carte Récit épique.", "Druid": ""}
    assert FRENCH["Bard"] == "Barde"
