"""Every card and territory of the base game maps to exactly one implementation, and the
repository's card reference (docs/cards.md) is what the catalog says."""

import pathlib

import pytest

from games.rules.card_effects import CARD_EFFECTS
from games.rules.card_reference import markdown
from games.rules.catalog import ACTION_CARDS, ADVANTAGE_CARDS, CARDS, EPIC_TALES, TERRITORIES, TRISKEL
from games.rules.reactions import TRISKELS

CARD_REFERENCE = pathlib.Path(__file__).resolve().parents[2] / "docs" / "cards.md"

# The base game's cards and territory tiles by their printed English names (the rulebook,
# "Components": 17 Action cards, 16 Advantage cards, 30 Epic Tale cards, 16 territory tiles);
# each territory has the Advantage card of its name.
RULEBOOK_ACTION_CARDS = {
    "act_bard": "Bard",
    "act_citadel": "Citadel",
    "act_conquest": "Conquest",
    "act_craftsmen_peasants": "Craftsmen & Peasants",
    "act_druid": "Druid",
    "act_emissaries": "Emissaries",
    "act_exploration": "Exploration",
    "act_festival": "Festival",
    "act_geis": "Geis",
    "act_master_craftsman": "Master Craftsman",
    "act_migration": "Migration",
    "act_new_alliance": "New Alliance",
    "act_new_clans": "New Clans",
    "act_raid": "Raid",
    "act_sanctuary": "Sanctuary",
    "act_scouts_spies": "Scouts & Spies",
    "act_warlord": "Warlord",
}
RULEBOOK_EPIC_TALES = {
    "ep_balors_eye": "Balor's Eye",
    "ep_battle_frenzy": "Battle Frenzy",
    "ep_battle_of_moytura": "The Battle of Moytura",
    "ep_breas_tyranny": "Breas' Tyranny",
    "ep_cathbads_word": "Cathbad's Word",
    "ep_champions_share": "The Champion's Share",
    "ep_children_of_dana": "Children of Dana",
    "ep_the_dagda": "The Dagda",
    "ep_dagdas_cauldron": "Dagda's Cauldron",
    "ep_dagdas_club": "The Dagda's Club",
    "ep_dagdas_harp": "Dagda's Harp",
    "ep_deirdres_beauty": "Deirdre's Beauty",
    "ep_diarmuid_grainne": "Diarmuid and Gráinne",
    "ep_eriu": "Eriu",
    "ep_the_fianna": "The Fianna",
    "ep_kernunos_sanctuary": "Kernunos' Sanctuary",
    "ep_lug_samildanach": "Lug Samildanach",
    "ep_lugs_spear": "Lug's Spear",
    "ep_maeves_wealth": "Maeve's Wealth",
    "ep_manannans_horses": "Manannan's Horses",
    "ep_the_morrigan": "The Morrigan",
    "ep_nuada_silverhand": "Nuada Silverhand",
    "ep_oengus_ploy": "Oengus's Ploy",
    "ep_ogmas_eloquence": "Ogma's Eloquence",
    "ep_the_otherworld": "The Otherworld",
    "ep_stone_of_fal": "The Stone of Fál",
    "ep_strengs_resolve": "Streng's Resolve",
    "ep_tailtus_land": "Tailtu's Land",
    "ep_tale_of_cuchulain": "Tale of Cúchulain",
    "ep_tuans_memory": "Tuan's Memory",
}
RULEBOOK_TERRITORIES = {
    "cove": "Cove",
    "forest": "Forest",
    "gates": "Gates of Tír na nÓg",
    "highlands": "Highlands",
    "hills": "Hills",
    "iron_mine": "Iron Mine",
    "lost_vale": "Lost Vale",
    "meadows": "Meadows",
    "misty_lands": "Misty Lands",
    "moor": "Moor",
    "mountains": "Mountains",
    "plains": "Plains",
    "salt_mine": "Salt Mine",
    "stone_circle": "Stone Circle",
    "swamp": "Swamp",
    "valley": "Valley",
}


def test_the_catalog_has_the_63_cards_and_16_territories_of_the_rulebook():
    """The rulebook, "Components": '16 Territory Tiles, 17 Action Cards, 16 Advantage Cards,
    30 Epic Tale Cards', each under its printed name."""
    assert {c.id: c.name for c in ACTION_CARDS} == RULEBOOK_ACTION_CARDS
    assert {c.id: c.name for c in EPIC_TALES} == RULEBOOK_EPIC_TALES
    assert {t.id: t.name for t in TERRITORIES} == RULEBOOK_TERRITORIES
    advantage_cards = {f"adv_{t}": name for t, name in RULEBOOK_TERRITORIES.items()}
    assert {c.id: c.name for c in ADVANTAGE_CARDS} == advantage_cards
    assert [len(ACTION_CARDS), len(ADVANTAGE_CARDS), len(EPIC_TALES), len(TERRITORIES)] == [17, 16, 30, 16]
    assert len(CARDS) == 63


def test_the_card_reference_is_what_the_catalog_says():
    """docs/cards.md, the card reference players and rulings cite, lists every card and
    territory as the catalog has them: `python -m games.rules.card_reference > docs/cards.md`
    after a change of the catalog."""
    assert CARD_REFERENCE.read_text() == markdown()


def test_every_card_has_exactly_one_effect_and_every_triskel_half_a_trigger():
    """Each card id is registered once, with a trigger for each Triskel half (the four
    maneuver Epic Tales are played as a maneuver instead, and Moor as a command at any time;
    the Mountains card answers the Mountains toll itself)."""
    assert sorted(CARD_EFFECTS) == sorted(CARDS)
    triggered = {t.card for responses in TRISKELS.values() for t in responses}
    by_other_means = {
        "ep_battle_of_moytura",
        "ep_the_fianna",
        "ep_ogmas_eloquence",
        "ep_tale_of_cuchulain",
        "adv_moor",
        "adv_mountains",
    }
    for card, info in CARDS.items():
        if TRISKEL in info.timings:
            assert (card in triggered) != (card in by_other_means), card
        else:
            assert card not in triggered, card


@pytest.mark.slow  # bot games until every card was played
def test_the_bot_plays_every_card_of_the_game():
    """Issue 4: 'no card is ever unplayable by the bot when it is legal' — over random 2-, 3-
    and 4-player games the random-legal-move bot plays each of the 63 cards at least once."""
    from games.rules.simulate import play_game

    played = set()
    for players in (4, 3, 2, 4):
        for i in range(12):
            _, events = play_game(players, f"coverage-{players}-{i}", max_rounds=30)
            played |= {e.payload["card"] for e in events if e.type == "CardPlayed"}
        if played == set(CARDS):
            break
    assert sorted(set(CARDS) - played) == []
