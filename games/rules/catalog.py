"""The card and territory reference: names (English and French), type, timing and text.

Source: the rulebook and the printed cards (paraphrased effects keep every number and
condition); docs/cards.md is made from this module (`python -m games.rules.card_reference`).
This module is data only; the effects live in the card modules, which register themselves by
the same ids.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .language import current_language, gettext_noop

ACTION, ADVANTAGE, EPIC = "action", "advantage", "epic"
SEASON, TRISKEL = "season", "triskel"


@dataclass(frozen=True)
class CardInfo:
    """One card: `id` (`act_*`, `adv_*`, `ep_*`), names, type, timings and text for players."""

    id: str
    name: str
    name_fr: str
    type: str
    timings: tuple[Any, ...]
    text: str
    four_player_only: bool = False
    as_maneuver: bool = False


@dataclass(frozen=True)
class TerritoryInfo:
    """One territory tile: `id`, names, its Advantage card id and its printed tile effect."""

    id: str
    name: str
    name_fr: str
    advantage: str
    tile_text: str = ""


def _a(id: str, name: str, fr: str, timings: tuple[str, ...], text: str, four: bool = False) -> CardInfo:
    return CardInfo(id, name, fr, ACTION, timings, text, four)


ACTION_CARDS = [
    _a(
        "act_bard",
        "Bard",
        "Barde",
        (SEASON, TRISKEL),
        gettext_noop(
            "Season: draw 1 Epic Tale card. OR Triskel, right after one of your maneuvers "
            "removed 1 or more opposing clans: gain 1 Deed."
        ),
    ),
    _a(
        "act_citadel",
        "Citadel",
        "Citadelle",
        (SEASON,),
        gettext_noop(
            "Place 1 Citadel in a territory where you are present (not the Swamp). If that "
            "territory's Advantage card has not been played this round, take it into your hand."
        ),
    ),
    _a(
        "act_conquest",
        "Conquest",
        "Conquête",
        (SEASON,),
        gettext_noop(
            "Choose a territory. Move any number of your clans into it from territories "
            "adjacent to it. Opposing clans there start a clash; you are the instigator."
        ),
    ),
    _a(
        "act_craftsmen_peasants",
        "Craftsmen & Peasants",
        "Artisans et Paysans",
        (SEASON,),
        gettext_noop(
            "In each territory where you are present, you may place 1 clan for each Citadel "
            "there (the Capital counts as a Citadel)."
        ),
    ),
    _a(
        "act_druid",
        "Druid",
        "Druide",
        (SEASON,),
        gettext_noop(
            "Look through the Action discard pile and take 1 card into your hand. Cannot be "
            "played if it is your only Action card."
        ),
    ),
    _a(
        "act_emissaries",
        "Emissaries",
        "Émissaires",
        (SEASON,),
        gettext_noop("Move 1 of your clans to an adjacent territory. This move does not start a clash."),
        True,
    ),
    _a(
        "act_exploration",
        "Exploration",
        "Exploration",
        (SEASON,),
        gettext_noop(
            "The Brenn places the top territory tile on an empty place touching at least 2 "
            "territories; its Advantage card goes face up. Then place 1 clan on the new "
            "territory."
        ),
    ),
    _a(
        "act_festival",
        "Festival",
        "Festivités",
        (SEASON,),
        gettext_noop(
            "In a territory where you are present with at least 1 Sanctuary, place 1 clan and "
            "the Festival marker. Whoever starts a clash there loses 1 clan there before the "
            "Citadels step. The marker leaves at the end of the Season."
        ),
    ),
    _a(
        "act_geis",
        "Geis",
        "Geis",
        (TRISKEL,),
        gettext_noop(
            "Triskel, when an opponent plays an Action card (after they have fully declared "
            "it): that card has no effect and is discarded."
        ),
    ),
    _a(
        "act_master_craftsman",
        "Master Craftsman",
        "Maître Artisan",
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
        "Migration",
        "Migration",
        (SEASON,),
        gettext_noop(
            "Move 1 or more of your clans from 1 territory to 1 or more adjacent territories. "
            "Each destination with opposing clans starts a clash; you choose the order."
        ),
    ),
    _a(
        "act_new_alliance",
        "New Alliance",
        "Nouvelle Alliance",
        (SEASON,),
        gettext_noop(
            "In a territory where you are present, place 1 clan; OR there, choose an opponent "
            "with 2 or more clans, return 1 of them to their reserve and place 1 of yours "
            "instead."
        ),
    ),
    _a(
        "act_new_clans",
        "New Clans",
        "Nouveaux Clans",
        (SEASON,),
        gettext_noop(
            "Place 2 clans in territories where you are present (both in one, or 1 in each of two)."
        ),
    ),
    _a(
        "act_raid",
        "Raid",
        "Razzia",
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
        "Sanctuary",
        "Sanctuaire",
        (SEASON,),
        gettext_noop("Place 1 Sanctuary in a territory where you are present, then draw 1 Epic Tale card."),
    ),
    _a(
        "act_scouts_spies",
        "Scouts & Spies",
        "Espions et Éclaireurs",
        (SEASON,),
        gettext_noop(
            "Look at the Action cards of 1 opponent. Then you may move 1 or more of your clans "
            "from 1 territory to 1 adjacent territory, which can start a clash."
        ),
        True,
    ),
    _a(
        "act_warlord",
        "Warlord",
        "Chef de Guerre",
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
    TerritoryInfo("cove", "Cove", "Anse", "adv_cove"),
    TerritoryInfo("forest", "Forest", "Forêt", "adv_forest"),
    TerritoryInfo(
        "gates",
        "Gates of Tír na nÓg",
        "Portes de Tír na nÓg",
        "adv_gates",
        "Enters play with 1 Sanctuary. Whenever the turn direction changes, each player "
        "present here loses 1 clan from here and draws 1 Epic Tale card.",
    ),
    TerritoryInfo("highlands", "Highlands", "Plateau", "adv_highlands"),
    TerritoryInfo("hills", "Hills", "Collines", "adv_hills"),
    TerritoryInfo("iron_mine", "Iron Mine", "Mine de fer", "adv_iron_mine"),
    TerritoryInfo("lost_vale", "Lost Vale", "Val perdu", "adv_lost_vale"),
    TerritoryInfo("meadows", "Meadows", "Prairie", "adv_meadows"),
    TerritoryInfo("misty_lands", "Misty Lands", "Terre des Brumes", "adv_misty_lands"),
    TerritoryInfo("moor", "Moor", "Lande", "adv_moor"),
    TerritoryInfo(
        "mountains",
        "Mountains",
        "Montagnes",
        "adv_mountains",
        "When 1 or more clans are moved here, their owner discards 1 Action card or loses 1 of those clans.",
    ),
    TerritoryInfo("plains", "Plains", "Plaine", "adv_plains"),
    TerritoryInfo("salt_mine", "Salt Mine", "Mine de sel", "adv_salt_mine"),
    TerritoryInfo(
        "stone_circle", "Stone Circle", "Cromlech", "adv_stone_circle", "Enters play with 1 Sanctuary."
    ),
    TerritoryInfo(
        "swamp",
        "Swamp",
        "Marais",
        "adv_swamp",
        "No Citadel can be placed here (so it cannot be the Capital).",
    ),
    TerritoryInfo("valley", "Valley", "Vallée", "adv_valley"),
]


def _adv(tid: str, name: str, fr: str, timings: tuple[str, ...], text: str) -> CardInfo:
    return CardInfo(f"adv_{tid}", name, fr, ADVANTAGE, timings, text)


ADVANTAGE_CARDS = [
    _adv(
        "cove",
        "Cove",
        "Anse",
        (TRISKEL,),
        gettext_noop(
            "Triskel, after you play a Season card: take the set-aside Action card into your "
            "hand, then set aside 1 Action card from your hand face down."
        ),
    ),
    _adv(
        "forest",
        "Forest",
        "Forêt",
        (TRISKEL,),
        gettext_noop("Triskel, after you play an Epic Tale card: draw 1 Epic Tale card."),
    ),
    _adv(
        "gates",
        "Gates of Tír na nÓg",
        "Portes de Tír na nÓg",
        (TRISKEL,),
        gettext_noop(
            "Triskel, when the Gates effect is resolved for you: draw 2 Epic Tale cards "
            "instead of 1, keep 1 and discard the other."
        ),
    ),
    _adv(
        "highlands",
        "Highlands",
        "Plateau",
        (TRISKEL,),
        gettext_noop(
            "Triskel, at the start of the Resolution step of a clash in the Highlands: choose"
            " a player with exposed clans there; they become the instigator."
        ),
    ),
    _adv(
        "hills",
        "Hills",
        "Collines",
        (TRISKEL,),
        gettext_noop("Triskel, when an Attack targets you in the Hills: ignore it."),
    ),
    _adv(
        "iron_mine",
        "Iron Mine",
        "Mine de fer",
        (TRISKEL,),
        gettext_noop(
            "Triskel, when you perform an Attack: the attacked player removes 1 exposed clan "
            "and discards 1 Action card (only the clan if they have no Action card)."
        ),
    ),
    _adv(
        "lost_vale",
        "Lost Vale",
        "Val perdu",
        (TRISKEL,),
        gettext_noop(
            "Triskel, after you play a Season card: move any 1 clan from a territory adjacent"
            " to the Lost Vale into the Lost Vale. This does not start a clash."
        ),
    ),
    _adv(
        "meadows",
        "Meadows",
        "Prairie",
        (TRISKEL,),
        gettext_noop("Triskel, when you draw an Epic Tale card: draw 1 more, keep 1 and discard the other."),
    ),
    _adv(
        "misty_lands",
        "Misty Lands",
        "Terre des Brumes",
        (SEASON,),
        gettext_noop(
            "Discard 1 or more Action cards, draw as many Epic Tale cards, keep 1 and discard the rest."
        ),
    ),
    _adv(
        "moor",
        "Moor",
        "Lande",
        (TRISKEL,),
        gettext_noop("Triskel, at any time: look at the Epic Tale cards in 1 opponent's hand."),
    ),
    _adv(
        "mountains",
        "Mountains",
        "Montagnes",
        (TRISKEL,),
        gettext_noop("Triskel, when you move clans into the Mountains: ignore the Mountains effect."),
    ),
    _adv(
        "plains",
        "Plains",
        "Plaine",
        (SEASON,),
        gettext_noop(
            "Move 1 or more of your clans from the Plains to 1 or more adjacent territories. "
            "This can start clashes."
        ),
    ),
    _adv(
        "salt_mine",
        "Salt Mine",
        "Mine de sel",
        (TRISKEL,),
        gettext_noop(
            "Triskel, after you play a Season card: take 1 Action card at random from an "
            "opponent, then give them 1 of your Action cards."
        ),
    ),
    _adv(
        "stone_circle",
        "Stone Circle",
        "Cromlech",
        (TRISKEL,),
        gettext_noop(
            "Triskel, after you play an Epic Tale card: remove 1 of your clans from the Stone"
            " Circle and take that Epic Tale card back into your hand."
        ),
    ),
    _adv(
        "swamp",
        "Swamp",
        "Marais",
        (SEASON,),
        gettext_noop("No effect. Play it instead of passing: it counts as playing a Season card."),
    ),
    _adv(
        "valley",
        "Valley",
        "Vallée",
        (TRISKEL,),
        gettext_noop(
            "Triskel, after you play a Season card: place 1 clan in a territory where you are present."
        ),
    ),
]


def _e(id: str, name: str, fr: str, timing: str, text: str, maneuver: bool = False) -> CardInfo:
    return CardInfo(id, name, fr, EPIC, (timing,), text, False, maneuver)


EPIC_TALES = [
    _e(
        "ep_balors_eye",
        "Balor's Eye",
        "L'Œil de Balor",
        SEASON,
        gettext_noop("Remove any 1 clan from any territory."),
    ),
    _e(
        "ep_battle_frenzy",
        "Battle Frenzy",
        "Furie Guerrière",
        TRISKEL,
        gettext_noop(
            "Triskel, at the end of the Citadels step: every clan in the Citadels of the "
            "clashing territory comes out and is exposed."
        ),
    ),
    _e(
        "ep_battle_of_moytura",
        "The Battle of Moytura",
        "La Bataille de Moytura",
        TRISKEL,
        gettext_noop(
            "As your maneuver: move 1 or more of your clans from adjacent territories into the "
            "clashing territory, then place 1 clan there. All are exposed."
        ),
        True,
    ),
    _e(
        "ep_breas_tyranny",
        "Breas' Tyranny",
        "La Tyrannie de Breas",
        SEASON,
        gettext_noop(
            "In a territory where you are present, move 1 opposing clan to an adjacent "
            "territory. This does not start a clash."
        ),
    ),
    _e(
        "ep_cathbads_word",
        "Cathbad's Word",
        "La Parole de Cathbad",
        TRISKEL,
        gettext_noop(
            "Triskel, at the start of the Assembly: you choose the set-aside Action card; after"
            " the draft take it into your hand and set aside 1 Action card of yours."
        ),
    ),
    _e(
        "ep_champions_share",
        "The Champion's Share",
        "La Part du Champion",
        SEASON,
        gettext_noop("Take the set-aside Action card into your hand."),
    ),
    _e(
        "ep_children_of_dana",
        "Children of Dana",
        "Les Enfants de Dana",
        SEASON,
        gettext_noop("Place 1 clan in any territory."),
    ),
    _e(
        "ep_the_dagda",
        "The Dagda",
        "Le Dagda",
        TRISKEL,
        gettext_noop(
            "Triskel, when any player plays an Epic Tale or Advantage card: ignore its effect "
            "and discard it; then shuffle the Epic Tale discard pile into the deck."
        ),
    ),
    _e(
        "ep_dagdas_cauldron",
        "Dagda's Cauldron",
        "Le Chaudron du Dagda",
        TRISKEL,
        gettext_noop(
            "Triskel, during a clash when 1 of your clans is removed: put your clans removed in"
            " this clash on this card; at its end put up to 3 of them back in the clashing "
            "territory."
        ),
    ),
    _e(
        "ep_dagdas_club",
        "The Dagda's Club",
        "La Massue du Dagda",
        TRISKEL,
        gettext_noop(
            "Triskel, when 1 of your clans would be removed: it is not removed. OR when you "
            "Attack: you choose whether the attacked player removes a clan or discards an "
            "Action card."
        ),
    ),
    _e(
        "ep_dagdas_harp",
        "Dagda's Harp",
        "La Harpe du Dagda",
        SEASON,
        gettext_noop(
            "For each other Epic Tale card in your hand, place 1 clan where you are present (max 3)."
        ),
    ),
    _e(
        "ep_deirdres_beauty",
        "Deirdre's Beauty",
        "La Beauté de Deirdre",
        SEASON,
        gettext_noop(
            "Each opponent reveals 1 random Epic Tale card from hand; take 1, the others are "
            "discarded. Then remove 1 of your clans."
        ),
    ),
    _e(
        "ep_diarmuid_grainne",
        "Diarmuid and Gráinne",
        "Diarmuid et Gráinne",
        TRISKEL,
        gettext_noop(
            "Triskel, when 1 of your clans is removed: place it in another territory where you "
            "are present instead. This does not start a clash."
        ),
    ),
    _e(
        "ep_eriu",
        "Eriu",
        "Eriu",
        SEASON,
        gettext_noop(
            "In each territory where you are present with at least 1 Sanctuary, you may place 1 clan (max 3)."
        ),
    ),
    _e(
        "ep_the_fianna",
        "The Fianna",
        "Les Fianna",
        TRISKEL,
        gettext_noop(
            "As your maneuver: move 1 or more of your clans, exposed or in Citadels, from the "
            "clashing territory to 1 adjacent territory. This does not start a clash."
        ),
        True,
    ),
    _e(
        "ep_kernunos_sanctuary",
        "Kernunos' Sanctuary",
        "Sanctuaire de Kernunos",
        SEASON,
        gettext_noop(
            "In a territory where you are present without a Sanctuary, place 1 clan and 1 Sanctuary."
        ),
    ),
    _e(
        "ep_lug_samildanach",
        "Lug Samildanach",
        "Lug Samildanach",
        TRISKEL,
        gettext_noop(
            "Triskel, after any Action card has been resolved: take it into your hand instead "
            "of the discard pile."
        ),
    ),
    _e(
        "ep_lugs_spear",
        "Lug's Spear",
        "La Lance de Lug",
        TRISKEL,
        gettext_noop("Triskel, at the start of a clash: nobody may play Triskel cards during this clash."),
    ),
    _e(
        "ep_maeves_wealth",
        "Maeve's Wealth",
        "Les Richesses de Maeve",
        SEASON,
        gettext_noop(
            "Each other player with an Action card gives you 1 of their choice; then you give 1"
            " Action card to each of them."
        ),
    ),
    _e(
        "ep_manannans_horses",
        "Manannan's Horses",
        "Les Chevaux de Manannan",
        SEASON,
        gettext_noop(
            "Move up to 3 of your clans from 1 territory to any other territory (no adjacency "
            "needed). This can start a clash."
        ),
    ),
    _e(
        "ep_the_morrigan",
        "The Morrigan",
        "La Morrigane",
        SEASON,
        gettext_noop(
            "You may flip the Flock of Crows. Then you may start a clash in any territory, "
            "choosing 1 player present there as its instigator."
        ),
    ),
    _e(
        "ep_nuada_silverhand",
        "Nuada Silverhand",
        "Nuada Main d'Argent",
        SEASON,
        gettext_noop(
            "In each territory where you are chieftain, you may place 1 clan per opposing player present."
        ),
    ),
    _e(
        "ep_oengus_ploy",
        "Oengus's Ploy",
        "La Ruse d'Oengus",
        TRISKEL,
        gettext_noop(
            "Triskel, at the end of any player's turn: you take the next turn; a Season about to end goes on."
        ),
    ),
    _e(
        "ep_ogmas_eloquence",
        "Ogma's Eloquence",
        "La Voix d'Ogma",
        TRISKEL,
        gettext_noop("As your maneuver: the clash ends at once."),
        True,
    ),
    _e(
        "ep_the_otherworld",
        "The Otherworld",
        "L'Autre Monde",
        SEASON,
        gettext_noop(
            "In a territory where you are present, for each Sanctuary there place 1 clan or "
            "remove 1 opposing clan (max 3 in all)."
        ),
    ),
    _e(
        "ep_stone_of_fal",
        "The Stone of Fál",
        "La Pierre de Fal",
        SEASON,
        gettext_noop("Place 2 clans in the Capital."),
    ),
    _e(
        "ep_strengs_resolve",
        "Streng's Resolve",
        "La Volonté de Streng",
        TRISKEL,
        gettext_noop("Triskel, right after you perform an Attack: gain 1 Deed."),
    ),
    _e(
        "ep_tailtus_land",
        "Tailtu's Land",
        "La Terre de Tailtu",
        SEASON,
        gettext_noop(
            "Draw 3 territory tiles, place 1 (touching at least 2 territories), put the others "
            "at the bottom of the stack; then you may move 1 of your clans from an adjacent "
            "territory onto it."
        ),
    ),
    _e(
        "ep_tale_of_cuchulain",
        "Tale of Cúchulain",
        "Le Geste de Cuchulain",
        TRISKEL,
        gettext_noop("As your maneuver, if you have exactly 1 exposed clan: remove any 2 exposed clans."),
        True,
    ),
    _e(
        "ep_tuans_memory",
        "Tuan's Memory",
        "La Mémoire de Tuan",
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
    """The card's printed name in English (`en`) or French (`fr`); by default in the language
    sentences are written in now (`language.current_language`)."""
    info = CARDS[card_id]
    return info.name_fr if (language or current_language()) == "fr" else info.name


def territory_name(tid: str, language: str | None = None) -> str:
    """The territory's name in English (`en`) or French (`fr`); by default in the language
    sentences are written in now (`language.current_language`)."""
    info = TERRITORY_INFO[tid]
    return info.name_fr if (language or current_language()) == "fr" else info.name


def action_cards_for(players: int) -> list[str]:
    """Action card ids in use: all 17 with 4 players, 13 otherwise (rulebook, Setup)."""
    return [c.id for c in ACTION_CARDS if players == 4 or not c.four_player_only]
