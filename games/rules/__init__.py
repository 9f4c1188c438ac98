"""Inis as pure Python: the rules engine behind every view of a game.

Public interface (docs/rules-api.md): `start_game`, `decide`, `evolve`, `fold`, `rng_for`,
`pending`, `pending_for`, `legal_commands`, `anytime_commands`, `describe_command`, `view_for`, `redact`, `render_board`, `upcast`,
`options_are_public`, `why_not_playable`,
`speaking`, `current_language`, `colour_name`, `territory_phrase` (the language sentences are written in),
`bot_command`, `is_over`, and the types `Event`, `GameState`, `Decision`, `CommandError`,
`InvalidCommand`, `IllegalCommand`, `AmbiguousCommand`. No Django here (a test enforces it).
"""
from . import (actions, advantage_cards, advantage_triskels, assembly, board, cards, clash,  # noqa: F401
               epic_maneuvers, epic_tales, epic_triskels, play, positions, reactions, removal,
               season, territory_effects)  # (registration)
from .bot import bot_command
from .catalog import CARDS, TERRITORY_INFO, card_name, territory_name
from .engine import (Decision, anytime_commands, apply_events, decide, evolve, fold, legal_commands, pending,
                     pending_for, rng_for)
from .errors import AmbiguousCommand, CommandError, IllegalCommand, InvalidCommand
from .events import Event, upcast
from .language import colour_name, current_language, speaking, territory_phrase
from .public_options import options_are_public
from .season import why_not_playable
from .setup import start_game
from .state import GameState
from .views import describe_command, redact, render_board, view_for


def is_over(state: GameState) -> bool:
    """True once the Assembly has elected a High King (`state.winner`)."""
    return state.phase == "over"


__all__ = [
    "AmbiguousCommand", "CARDS", "anytime_commands", "apply_events", "CommandError", "Decision", "Event", "GameState", "IllegalCommand",
    "InvalidCommand", "TERRITORY_INFO", "bot_command", "card_name", "colour_name", "current_language", "decide",
    "describe_command",
    "evolve", "fold", "is_over", "legal_commands", "options_are_public", "pending", "pending_for", "redact", "render_board", "rng_for",
    "speaking", "start_game", "territory_name", "territory_phrase", "upcast", "view_for", "why_not_playable",
]
