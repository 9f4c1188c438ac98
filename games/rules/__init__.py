"""Inis as pure Python: the rules engine behind every view of a game.

Public interface (docs/rules-api.md): `start_game`, `decide`, `evolve`, `fold`, `rng_for`,
`pending`, `pending_for`, `legal_commands`, `only_pass`, `anytime_commands`, `describe_command`,
`view_for`, `redact`, `render_board`, `upcast`,
`options_are_public`, `why_not_playable`,
`speaking`, `current_language`, `colour_name`, `territory_phrase` (the language sentences are written in),
`players_named`, `player_name` (the players' names sentences say),
`bot_command`, `deal_hidden`, `is_over`, `take_back_events` (and `TAKE_BACK`, `NO_MOVE_COMMANDS`), and the types `Event`, `GameState`, `Decision`, `CommandError`,
`InvalidCommand`, `IllegalCommand`, `AmbiguousCommand`, the commands as types (`Command`, one
TypedDict per command type: `Play`, `Attack`...); and the names the service's views, mail and
store read (docs/rules-api.md, "Other names for the service"). Nothing outside the rules imports
their modules (import-linter's contract, `.importlinter`). No Django here (a test enforces it).
"""

from . import (  # noqa: F401
    actions,
    advantage_cards,
    advantage_triskels,
    assembly,
    board,
    cards,
    clash,
    epic_maneuvers,
    epic_tales,
    epic_triskels,
    play,
    positions,
    reactions,
    removal,
    season,  # (registration)
    take_back,
    territory_effects,
)
from .bot import bot_command
from .card_effects import describe_args
from .card_reference import card_line, card_reference
from .catalog import CARDS, COLOURS, TERRITORY_INFO, TRISKEL, card_name, territory_name, territory_text
from .command_types import (
    COMMAND_TYPES,
    Attack,
    AttackChoice,
    AttackResponse,
    CardArgs,
    Choose,
    ChooseCapital,
    Citadel,
    ClanMap,
    ClashOrder,
    Command,
    Decline,
    Draft,
    EndClash,
    Give,
    Keep,
    Moor,
    MountainsToll,
    NoCitadel,
    Pass,
    PeaceVote,
    PlaceClan,
    PlaceClans,
    PlaceTerritory,
    Play,
    Pretender,
    ProposePeace,
    React,
    RemoveClan,
    ScoutsMove,
    SetAside,
    SetPolicy,
    TailtuMove,
    TakeBack,
    TerritoryCell,
    Withdraw,
)
from .engine import (
    EVOLVERS,
    Decision,
    anytime_commands,
    apply_events,
    decide,
    evolve,
    fold,
    legal_commands,
    only_pass,
    pending,
    pending_for,
    rng_for,
)
from .errors import AmbiguousCommand, CommandError, IllegalCommand, InvalidCommand
from .events import CURRENT_VERSIONS, Event, upcast
from .information_sets import deal_hidden
from .language import (
    COLOUR_WORDS,
    clan_letter,
    clans_from,
    clans_to,
    colour_clans,
    colour_name,
    current_language,
    gettext,
    ngettext,
    player_name,
    players_named,
    speaking,
    territory_phrase,
)
from .language import install as install_translation
from .places import place_phrase
from .public_options import options_are_public
from .reactions import asks_triskel
from .season import why_not_playable
from .setup import start_game
from .state import GameState, current_clash, exposed
from .take_back import NO_MOVE_COMMANDS, TAKE_BACK
from .take_back import take_back as take_back_events
from .usual_moves import UsualMoves, own_prompt, usual_moves
from .victory import TARGET as VICTORY_TARGET
from .victory import condition_values, conditions_completed, conditions_met, victory_check
from .views import describe_command, flock_name, phase_name, redact, render_board, view_for


def is_over(state: GameState) -> bool:
    """True once the Assembly has elected a High King (`state.winner`)."""
    return state.phase == "over"


__all__ = [
    "AmbiguousCommand",
    "CARDS",
    "anytime_commands",
    "asks_triskel",
    "apply_events",
    "CommandError",
    "Decision",
    "Event",
    "GameState",
    "IllegalCommand",
    "InvalidCommand",
    "TERRITORY_INFO",
    "bot_command",
    "card_name",
    "colour_name",
    "current_language",
    "deal_hidden",
    "decide",
    "describe_command",
    "evolve",
    "fold",
    "is_over",
    "legal_commands",
    "only_pass",
    "options_are_public",
    "pending",
    "pending_for",
    "redact",
    "render_board",
    "phase_name",
    "place_phrase",
    "flock_name",
    "rng_for",
    "speaking",
    "player_name",
    "players_named",
    "start_game",
    "take_back_events",
    "TAKE_BACK",
    "NO_MOVE_COMMANDS",
    "territory_name",
    "territory_text",
    "territory_phrase",
    "upcast",
    "view_for",
    "why_not_playable",
    # For the service's views, mail and store (docs/rules-api.md, "Other names for the service").
    "COLOURS",
    "COLOUR_WORDS",
    "CURRENT_VERSIONS",
    "EVOLVERS",
    "TRISKEL",
    "VICTORY_TARGET",
    "card_line",
    "card_reference",
    "clan_letter",
    "clans_from",
    "clans_to",
    "colour_clans",
    "condition_values",
    "conditions_completed",
    "conditions_met",
    "current_clash",
    "describe_args",
    "exposed",
    "gettext",
    "install_translation",
    "ngettext",
    "UsualMoves",
    "own_prompt",
    "usual_moves",
    "victory_check",
    # The commands as types (docs/rules-api.md, "Commands"; docs/commands.md).
    "Command",
    "COMMAND_TYPES",
    "CardArgs",
    "ClanMap",
    "ChooseCapital",
    "PlaceClan",
    "Draft",
    "Play",
    "Pass",
    "Pretender",
    "PlaceClans",
    "Citadel",
    "NoCitadel",
    "Attack",
    "Withdraw",
    "ProposePeace",
    "EndClash",
    "PeaceVote",
    "AttackResponse",
    "AttackChoice",
    "ClashOrder",
    "TerritoryCell",
    "ScoutsMove",
    "Choose",
    "SetAside",
    "React",
    "Decline",
    "SetPolicy",
    "TakeBack",
    "Moor",
    "RemoveClan",
    "Give",
    "Keep",
    "PlaceTerritory",
    "TailtuMove",
    "MountainsToll",
]
