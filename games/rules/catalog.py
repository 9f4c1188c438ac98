"""The card and territory reference: names, type, timing and text.

Source: the rulebook and the printed cards (paraphrased effects keep every number and
condition); docs/cards.md is made from this module (`python -m games.rules.card_reference`).
This module is data only; the effects live in the card modules, which register themselves by
the same ids. Names and texts are English, marked for the rules' gettext catalog, whose French
holds the official French names (`card_name`, `territory_name`; docs/translation.md).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .language import gettext_noop, name_territories_by, translated

ACTION, ADVANTAGE, EPIC = "action", "advantage", "epic"
SEASON, TRISKEL = "season", "triskel"


@dataclass(frozen=True)
class CardInfo:
    """One card: `id` (`act_*`, `adv_*`, `ep_*`), English name (`card_name` for the reader's
    language), type, timings and text for players."""

    id: str
    name: str
    type: str
    timings: tuple[Any, ...]
    text: str
    four_player_only: bool = False
    as_maneuver: bool = False


@dataclass(frozen=True)
class TerritoryInfo:
    """One territory tile: `id`, English name (`territory_name` for the reader's language), its
    Advantage card id and its printed tile effect in English (`territory_text` for the
    reader's language; "" for a tile without one)."""

    id: str
    name: str
    advantage: str
    tile_text: str = ""


def _a(id: str, name: str, timings: tuple[str, ...], text: str, four: bool = False) -> CardInfo:
    return CardInfo(id, name, ACTION, timings, text, four)


ACTION_CARDS = [
    _a(
        "act_bard",
        gettext_noop("Bard"),
        (SEASON, TRISKEL),
        gettext_noop(
            "Season: draw 1 Epic Tale card. OR Triskel, right after one of your maneuvers "
            "removed 1 or more opposing clans: gain 1 Deed."
        ),
    ),
    _a(
        "act_citadel",
        gettext_noop("Citadel"),
        (SEASON,),
        gettext_noop(
            "Place 1 Citadel in a territory where you are present (not the Swamp). If that "
            "territory's Advantage card has not been played this round, take it into your hand."
        ),
    ),
    _a(
        "act_conquest",
        gettext_noop("Conquest"),
        (SEASON,),
        gettext_noop(
            "Choose a territory. Move any number of your clans into it from territories "
            "adjacent to it. Opposing clans there start a clash; you are the instigator."
        ),
    ),
    _a(
        "act_craftsmen_peasants",
        gettext_noop("Craftsmen & Peasants"),
        (SEASON,),
        gettext_noop(
            "In each territory where you are present, you may place 1 clan for each Citadel "
            "there (the Capital counts as a Citadel)."
        ),
    ),
    _a(
        "act_druid",
        gettext_noop("Druid"),
        (SEASON,),
        gettext_noop(
            "Look through the Action discard pile and take 1 card into your hand. Cannot be "
            "played if it is your only Action card."
        ),
    ),
    _a(
        "act_emissaries",
        gettext_noop("Emissaries"),
        (SEASON,),
        gettext_noop("Move 1 of your clans to an adjacent territory. This move does not start a clash."),
        True,
    ),
    _a(
        "act_exploration",
        gettext_noop("Exploration"),
        (SEASON,),
        gettext_noop(
            "The Brenn places the top territory tile on an empty place touching at least 2 "
            "territories; its Advantage card goes face up. Then place 1 clan on the new "
            "territory."
        ),
    ),
    _a(
        "act_festival",
        gettext_noop("Festival"),
        (SEASON,),
        gettext_noop(
            "In a territory where you are present with at least 1 Sanctuary, place 1 clan and "
            "the Festival marker. Whoever starts a clash there loses 1 clan there before the "
            "Citadels step. The marker leaves at the end of the Season."
        ),
    ),
    _a(
        "act_geis",
        gettext_noop("Geis"),
        (TRISKEL,),
        gettext_noop(
            "Triskel, when an opponent plays an Action card (after they have fully declared "
            "it): that card has no effect and is discarded."
        ),
    ),
    _a(
        "act_master_craftsman",
        gettext_noop("Master Craftsman"),
        (SEASON, TRISKEL),
        gettext_noop(
            "Season: discard 1 card of any type if you can, then draw 1 Epic Tale card. OR "
            "Triskel, right after you play an Epic Tale card: give it to another player instead"
            " of discarding it, and gain 1 Deed."
        ),
        True,
    ),
    _a(
        "act_migration",
        gettext_noop("Migration"),
        (SEASON,),
        gettext_noop(
            "Move 1 or more of your clans from 1 territory to 1 or more adjacent territories. "
            "Each destination with opposing clans starts a clash; you choose the order."
        ),
    ),
    _a(
        "act_new_alliance",
        gettext_noop("New Alliance"),
        (SEASON,),
        gettext_noop(
            "In a territory where you are present, place 1 clan; OR there, choose an opponent "
            "with 2 or more clans, return 1 of them to their reserve and place 1 of yours "
            "instead."
        ),
    ),
    _a(
        "act_new_clans",
        gettext_noop("New Clans"),
        (SEASON,),
        gettext_noop(
            "Place 2 clans in territories where you are present (both in one, or 1 in each of two)."
        ),
    ),
    _a(
        "act_raid",
        gettext_noop("Raid"),
        (TRISKEL,),
        gettext_noop(
            "Triskel, right after you performed an Attack maneuver: take 1 Action card at "
            "random from the attacked player's hand; if they have none, remove 1 of their "
            "exposed clans."
        ),
        True,
    ),
    _a(
        "act_sanctuary",
        gettext_noop("Sanctuary"),
        (SEASON,),
        gettext_noop("Place 1 Sanctuary in a territory where you are present, then draw 1 Epic Tale card."),
    ),
    _a(
        "act_scouts_spies",
        gettext_noop("Scouts & Spies"),
        (SEASON,),
        gettext_noop(
            "Look at the Action cards of 1 opponent. Then you may move 1 or more of your clans "
            "from 1 territory to 1 adjacent territory, which can start a clash."
        ),
        True,
    ),
    _a(
        "act_warlord",
        gettext_noop("Warlord"),
        (SEASON, TRISKEL),
        gettext_noop(
            "Season: start a clash in a territory where you are present; you are the "
            "instigator. OR Triskel, during a clash you are involved in, right after any "
            "maneuver: place 1 clan in the clashing territory (exposed), then choose who "
            "performs the next maneuver."
        ),
    ),
]

TERRITORIES = [
    TerritoryInfo("cove", gettext_noop("Cove"), "adv_cove"),
    TerritoryInfo("forest", gettext_noop("Forest"), "adv_forest"),
    TerritoryInfo(
        "gates",
        gettext_noop("Gates of Tír na nÓg"),
        "adv_gates",
        gettext_noop(
            "Enters play with 1 Sanctuary. Whenever the turn direction changes, each player "
            "present here loses 1 clan from here and draws 1 Epic Tale card."
        ),
    ),
    TerritoryInfo("highlands", gettext_noop("Highlands"), "adv_highlands"),
    TerritoryInfo("hills", gettext_noop("Hills"), "adv_hills"),
    TerritoryInfo("iron_mine", gettext_noop("Iron Mine"), "adv_iron_mine"),
    TerritoryInfo("lost_vale", gettext_noop("Lost Vale"), "adv_lost_vale"),
    TerritoryInfo("meadows", gettext_noop("Meadows"), "adv_meadows"),
    TerritoryInfo("misty_lands", gettext_noop("Misty Lands"), "adv_misty_lands"),
    TerritoryInfo("moor", gettext_noop("Moor"), "adv_moor"),
    TerritoryInfo(
        "mountains",
        gettext_noop("Mountains"),
        "adv_mountains",
        gettext_noop(
            "When 1 or more clans are moved here, their owner discards 1 Action card or loses 1 of those clans."
        ),
    ),
    TerritoryInfo("plains", gettext_noop("Plains"), "adv_plains"),
    TerritoryInfo("salt_mine", gettext_noop("Salt Mine"), "adv_salt_mine"),
    TerritoryInfo(
        "stone_circle",
        gettext_noop("Stone Circle"),
        "adv_stone_circle",
        gettext_noop("Enters play with 1 Sanctuary."),
    ),
    TerritoryInfo(
        "swamp",
        gettext_noop("Swamp"),
        "adv_swamp",
        gettext_noop("No Citadel can be placed here (so it cannot be the Capital)."),
    ),
    TerritoryInfo("valley", gettext_noop("Valley"), "adv_valley"),
]


def _adv(tid: str, name: str, timings: tuple[str, ...], text: str) -> CardInfo:
    return CardInfo(f"adv_{tid}", name, ADVANTAGE, timings, text)


ADVANTAGE_CARDS = [
    _adv(
        "cove",
        gettext_noop("Cove"),
        (TRISKEL,),
        gettext_noop(
            "Triskel, after you play a Season card: take the set-aside Action card into your "
            "hand, then set aside 1 Action card from your hand face down."
        ),
    ),
    _adv(
        "forest",
        gettext_noop("Forest"),
        (TRISKEL,),
        gettext_noop("Triskel, after you play an Epic Tale card: draw 1 Epic Tale card."),
    ),
    _adv(
        "gates",
        gettext_noop("Gates of Tír na nÓg"),
        (TRISKEL,),
        gettext_noop(
            "Triskel, when the Gates effect is resolved for you: draw 2 Epic Tale cards "
            "instead of 1, keep 1 and discard the other."
        ),
    ),
    _adv(
        "highlands",
        gettext_noop("Highlands"),
        (TRISKEL,),
        gettext_noop(
            "Triskel, at the start of the Resolution step of a clash in the Highlands: choose"
            " a player with exposed clans there; they become the instigator."
        ),
    ),
    _adv(
        "hills",
        gettext_noop("Hills"),
        (TRISKEL,),
        gettext_noop("Triskel, when an Attack targets you in the Hills: ignore it."),
    ),
    _adv(
        "iron_mine",
        gettext_noop("Iron Mine"),
        (TRISKEL,),
        gettext_noop(
            "Triskel, when you perform an Attack: the attacked player removes 1 exposed clan "
            "and discards 1 Action card (only the clan if they have no Action card)."
        ),
    ),
    _adv(
        "lost_vale",
        gettext_noop("Lost Vale"),
        (TRISKEL,),
        gettext_noop(
            "Triskel, after you play a Season card: move any 1 clan from a territory adjacent"
            " to the Lost Vale into the Lost Vale. This does not start a clash."
        ),
    ),
    _adv(
        "meadows",
        gettext_noop("Meadows"),
        (TRISKEL,),
        gettext_noop("Triskel, when you draw an Epic Tale card: draw 1 more, keep 1 and discard the other."),
    ),
    _adv(
        "misty_lands",
        gettext_noop("Misty Lands"),
        (SEASON,),
        gettext_noop(
            "Discard 1 or more Action cards, draw as many Epic Tale cards, keep 1 and discard the rest."
        ),
    ),
    _adv(
        "moor",
        gettext_noop("Moor"),
        (TRISKEL,),
        gettext_noop("Triskel, at any time: look at the Epic Tale cards in 1 opponent's hand."),
    ),
    _adv(
        "mountains",
        gettext_noop("Mountains"),
        (TRISKEL,),
        gettext_noop("Triskel, when you move clans into the Mountains: ignore the Mountains effect."),
    ),
    _adv(
        "plains",
        gettext_noop("Plains"),
        (SEASON,),
        gettext_noop(
            "Move 1 or more of your clans from the Plains to 1 or more adjacent territories. "
            "This can start clashes."
        ),
    ),
    _adv(
        "salt_mine",
        gettext_noop("Salt Mine"),
        (TRISKEL,),
        gettext_noop(
            "Triskel, after you play a Season card: take 1 Action card at random from an "
            "opponent, then give them 1 of your Action cards."
        ),
    ),
    _adv(
        "stone_circle",
        gettext_noop("Stone Circle"),
        (TRISKEL,),
        gettext_noop(
            "Triskel, after you play an Epic Tale card: remove 1 of your clans from the Stone"
            " Circle and take that Epic Tale card back into your hand."
        ),
    ),
    _adv(
        "swamp",
        gettext_noop("Swamp"),
        (SEASON,),
        gettext_noop("No effect. Play it instead of passing: it counts as playing a Season card."),
    ),
    _adv(
        "valley",
        gettext_noop("Valley"),
        (TRISKEL,),
        gettext_noop(
            "Triskel, after you play a Season card: place 1 clan in a territory where you are present."
        ),
    ),
]


def _e(id: str, name: str, timing: str, text: str, maneuver: bool = False) -> CardInfo:
    return CardInfo(id, name, EPIC, (timing,), text, False, maneuver)


EPIC_TALES = [
    _e(
        "ep_balors_eye",
        gettext_noop("Balor's Eye"),
        SEASON,
        gettext_noop("Remove any 1 clan from any territory."),
    ),
    _e(
        "ep_battle_frenzy",
        gettext_noop("Battle Frenzy"),
        TRISKEL,
        gettext_noop(
            "Triskel, at the end of the Citadels step: every clan in the Citadels of the "
            "clashing territory comes out and is exposed."
        ),
    ),
    _e(
        "ep_battle_of_moytura",
        gettext_noop("The Battle of Moytura"),
        TRISKEL,
        gettext_noop(
            "As your maneuver: move 1 or more of your clans from adjacent territories into the "
            "clashing territory, then place 1 clan there. All are exposed."
        ),
        True,
    ),
    _e(
        "ep_breas_tyranny",
        gettext_noop("Breas' Tyranny"),
        SEASON,
        gettext_noop(
            "In a territory where you are present, move 1 opposing clan to an adjacent "
            "territory. This does not start a clash."
        ),
    ),
    _e(
        "ep_cathbads_word",
        gettext_noop("Cathbad's Word"),
        TRISKEL,
        gettext_noop(
            "Triskel, at the start of the Assembly: you choose the set-aside Action card; after"
            " the draft take it into your hand and set aside 1 Action card of yours."
        ),
    ),
    _e(
        "ep_champions_share",
        gettext_noop("The Champion's Share"),
        SEASON,
        gettext_noop("Take the set-aside Action card into your hand."),
    ),
    _e(
        "ep_children_of_dana",
        gettext_noop("Children of Dana"),
        SEASON,
        gettext_noop("Place 1 clan in any territory."),
    ),
    _e(
        "ep_the_dagda",
        gettext_noop("The Dagda"),
        TRISKEL,
        gettext_noop(
            "Triskel, when any player plays an Epic Tale or Advantage card: ignore its effect "
            "and discard it; then shuffle the Epic Tale discard pile into the deck."
        ),
    ),
    _e(
        "ep_dagdas_cauldron",
        gettext_noop("Dagda's Cauldron"),
        TRISKEL,
        gettext_noop(
            "Triskel, during a clash when 1 of your clans is removed: put your clans removed in"
            " this clash on this card; at its end put up to 3 of them back in the clashing "
            "territory."
        ),
    ),
    _e(
        "ep_dagdas_club",
        gettext_noop("The Dagda's Club"),
        TRISKEL,
        gettext_noop(
            "Triskel, when 1 of your clans would be removed: it is not removed. OR when you "
            "Attack: you choose whether the attacked player removes a clan or discards an "
            "Action card."
        ),
    ),
    _e(
        "ep_dagdas_harp",
        gettext_noop("Dagda's Harp"),
        SEASON,
        gettext_noop(
            "For each other Epic Tale card in your hand, place 1 clan where you are present (max 3)."
        ),
    ),
    _e(
        "ep_deirdres_beauty",
        gettext_noop("Deirdre's Beauty"),
        SEASON,
        gettext_noop(
            "Each opponent reveals 1 random Epic Tale card from hand; take 1, the others are "
            "discarded. Then remove 1 of your clans."
        ),
    ),
    _e(
        "ep_diarmuid_grainne",
        gettext_noop("Diarmuid and Gráinne"),
        TRISKEL,
        gettext_noop(
            "Triskel, when 1 of your clans is removed: place it in another territory where you "
            "are present instead. This does not start a clash."
        ),
    ),
    _e(
        "ep_eriu",
        gettext_noop("Eriu"),
        SEASON,
        gettext_noop(
            "In each territory where you are present with at least 1 Sanctuary, you may place 1 clan (max 3)."
        ),
    ),
    _e(
        "ep_the_fianna",
        gettext_noop("The Fianna"),
        TRISKEL,
        gettext_noop(
            "As your maneuver: move 1 or more of your clans, exposed or in Citadels, from the "
            "clashing territory to 1 adjacent territory. This does not start a clash."
        ),
        True,
    ),
    _e(
        "ep_kernunos_sanctuary",
        gettext_noop("Kernunos' Sanctuary"),
        SEASON,
        gettext_noop(
            "In a territory where you are present without a Sanctuary, place 1 clan and 1 Sanctuary."
        ),
    ),
    _e(
        "ep_lug_samildanach",
        gettext_noop("Lug Samildanach"),
        TRISKEL,
        gettext_noop(
            "Triskel, after any Action card has been resolved: take it into your hand instead "
            "of the discard pile."
        ),
    ),
    _e(
        "ep_lugs_spear",
        gettext_noop("Lug's Spear"),
        TRISKEL,
        gettext_noop("Triskel, at the start of a clash: nobody may play Triskel cards during this clash."),
    ),
    _e(
        "ep_maeves_wealth",
        gettext_noop("Maeve's Wealth"),
        SEASON,
        gettext_noop(
            "Each other player with an Action card gives you 1 of their choice; then you give 1"
            " Action card to each of them."
        ),
    ),
    _e(
        "ep_manannans_horses",
        gettext_noop("Manannan's Horses"),
        SEASON,
        gettext_noop(
            "Move up to 3 of your clans from 1 territory to any other territory (no adjacency "
            "needed). This can start a clash."
        ),
    ),
    _e(
        "ep_the_morrigan",
        gettext_noop("The Morrigan"),
        SEASON,
        gettext_noop(
            "You may flip the Flock of Crows. Then you may start a clash in any territory, "
            "choosing 1 player present there as its instigator."
        ),
    ),
    _e(
        "ep_nuada_silverhand",
        gettext_noop("Nuada Silverhand"),
        SEASON,
        gettext_noop(
            "In each territory where you are chieftain, you may place 1 clan per opposing player present."
        ),
    ),
    _e(
        "ep_oengus_ploy",
        gettext_noop("Oengus's Ploy"),
        TRISKEL,
        gettext_noop(
            "Triskel, at the end of any player's turn: you take the next turn; a Season about to end goes on."
        ),
    ),
    _e(
        "ep_ogmas_eloquence",
        gettext_noop("Ogma's Eloquence"),
        TRISKEL,
        gettext_noop("As your maneuver: the clash ends at once."),
        True,
    ),
    _e(
        "ep_the_otherworld",
        gettext_noop("The Otherworld"),
        SEASON,
        gettext_noop(
            "In a territory where you are present, for each Sanctuary there place 1 clan or "
            "remove 1 opposing clan (max 3 in all)."
        ),
    ),
    _e(
        "ep_stone_of_fal",
        gettext_noop("The Stone of Fál"),
        SEASON,
        gettext_noop("Place 2 clans in the Capital."),
    ),
    _e(
        "ep_strengs_resolve",
        gettext_noop("Streng's Resolve"),
        TRISKEL,
        gettext_noop("Triskel, right after you perform an Attack: gain 1 Deed."),
    ),
    _e(
        "ep_tailtus_land",
        gettext_noop("Tailtu's Land"),
        SEASON,
        gettext_noop(
            "Draw 3 territory tiles, place 1 (touching at least 2 territories), put the others "
            "at the bottom of the stack; then you may move 1 of your clans from an adjacent "
            "territory onto it."
        ),
    ),
    _e(
        "ep_tale_of_cuchulain",
        gettext_noop("Tale of Cúchulain"),
        TRISKEL,
        gettext_noop("As your maneuver, if you have exactly 1 exposed clan: remove any 2 exposed clans."),
        True,
    ),
    _e(
        "ep_tuans_memory",
        gettext_noop("Tuan's Memory"),
        SEASON,
        gettext_noop("Draw 3 Epic Tale cards, keep 1 and discard the other 2."),
    ),
]

CARDS: dict[str, CardInfo] = {c.id: c for c in ACTION_CARDS + ADVANTAGE_CARDS + EPIC_TALES}
TERRITORY_INFO: dict[str, TerritoryInfo] = {t.id: t for t in TERRITORIES}
ADVANTAGE_OF = {t.id: t.advantage for t in TERRITORIES}
TERRITORY_OF_ADVANTAGE = {t.advantage: t.id for t in TERRITORIES}

DISCOVERY_START = {
    2: ["valley", "cove"],
    3: ["valley", "cove", "plains"],
    4: ["valley", "cove", "plains", "hills"],
}
DISCOVERY_BOTTOM = ["meadows", "misty_lands", "forest", "gates", "highlands", "mountains"]

# Building supply by print (the rulebook, Components, differs by print: ruling U16): the Capital
# is counted apart.
BUILDING_SUPPLIES = {
    "first_print": {"citadels": 8, "sanctuaries": 9},
    "later_print": {"citadels": 9, "sanctuaries": 10},
}
CLANS_PER_PLAYER = 12
COLOURS = ("green", "blue", "orange", "white")


def card_type(card_id: str) -> str:
    """`action`, `advantage` or `epic` for a card id; raises KeyError for an unknown id."""
    return CARDS[card_id].type


def card_name(card_id: str, language: str | None = None) -> str:
    """The card's printed name in English (`en`) or French (`fr`, the official French name,
    from the rules' catalog); by default in the language sentences are written in now
    (`language.current_language`). Raises KeyError for an unknown id."""
    return translated(CARDS[card_id].name, language)


def territory_name(tid: str, language: str | None = None) -> str:
    """The territory's name in English (`en`) or French (`fr`, the official French name, from
    the rules' catalog); by default in the language sentences are written in now
    (`language.current_language`). Raises KeyError for an unknown id."""
    return translated(TERRITORY_INFO[tid].name, language)


def territory_text(tid: str, language: str | None = None) -> str:
    """The territory tile's printed effect ("Enters play with 1 Sanctuary."), "" for a tile
    without one, in English (`en`) or French (`fr`, the rules' catalog); by default in the
    language sentences are written in now. Raises KeyError for an unknown id."""
    text = TERRITORY_INFO[tid].tile_text
    return translated(text, language) if text else ""


name_territories_by(territory_name)


def action_cards_for(players: int) -> list[str]:
    """Action card ids in use: all 17 with 4 players, 13 otherwise (rulebook, Setup)."""
    return [c.id for c in ACTION_CARDS if players == 4 or not c.four_player_only]
