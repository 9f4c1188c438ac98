"""A game's options (`Game.options`, JSON): the rules' options and the table's, one object.

The keys are documented in docs/game-options.md. The rules read only RULES_KEYS: they are
given to `rules.start_game` (and recorded in its `GameStarted` event), so they never change
after the start. The table keys (deadlines, reaction mode, extensions, pauses) are read by the
service: the web pages, and the deadline sweeps of `notifications`; host tools change them and
record each change in the table log (`games.play.table`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

RULES_KEYS = ("buildings", "reactions", "take_backs", "rules_revision")

# The set-ups a new game is dealt with from a fresh seed (the lobby's tables, a rematch). A game
# begun on a described island (a position: docs/positions.md) cannot be dealt again.
DEALT_SETUPS = ("random", "discovery")


def can_be_dealt_again(setup: str) -> bool:
    """Whether a game of `setup` ("random", "discovery", or a described island's name) can be
    dealt again for the same players (a rematch, docs/rematch.md): `DEALT_SETUPS` only."""
    return setup in DEALT_SETUPS


# The rules every game created now starts with (docs/game-options.md): a take-back is judged on
# what its mover may see. A game without the key keeps the rule it started with (the rules'
# default, "private_events": its audit decides its take-backs again as they were decided).
NEW_GAME_RULES = {"take_backs": "mover_view"}

# How Triskel windows ask (docs/game-options.md, docs/rulings.md):
#   holders — only the seats holding a card that can answer now (rules option reactions=holders);
#   strict  — every seat that could answer on public facts (the rules' default);
#   quick   — as strict, but every player seat starts with the standing policy "never ask".
REACTION_MODES = ("holders", "strict", "quick")
DEFAULT_REACTION_MODE = "holders"
# Games made before the modes were renamed, or without the key, keep the rule they started with.
LEGACY_REACTION_MODES: dict[str | None, str] = {"ask": "strict", None: "strict"}

# Hours a seat has for one decision, by `rules.Decision.kind`, "default" for the others.
DEFAULT_DEADLINES = {"default": 48, "reaction": 12}
# The deadline presets offered when a game is created (hours).
DEADLINE_PRESETS = {
    "relaxed": {"default": 96, "reaction": 24},
    "normal": DEFAULT_DEADLINES,
    "brisk": {"default": 24, "reaction": 6},
    "none": {"default": 0},
}


def rules_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """The part of `options` that `rules.start_game` takes (may be empty)."""
    return {k: v for k, v in (options or {}).items() if k in RULES_KEYS}


def reaction_mode(options: dict[str, Any] | None) -> str:
    """The game's reaction mode, one of REACTION_MODES; a game made before the key existed, or
    with the old name "ask", is "strict" (it keeps the rule it started with)."""
    mode: str | None = (options or {}).get("reaction_mode")
    return LEGACY_REACTION_MODES.get(mode) or str(mode)


def reaction_options(mode: str) -> dict[str, Any]:
    """The option keys a new game in reaction `mode` gets: the table key, and the rules key
    `reactions` when windows ask only who can answer; the old name "ask" is "strict".
    Raises ValueError for an unknown mode."""
    mode = LEGACY_REACTION_MODES.get(mode, mode)
    if mode not in REACTION_MODES:
        raise ValueError(f"The reaction mode is one of {', '.join(REACTION_MODES)}, not {mode!r}.")
    return {"reaction_mode": mode, **({"reactions": "holders"} if mode == "holders" else {})}


def with_reaction_mode(options: dict[str, Any] | None) -> dict[str, Any]:
    """`options` of a game about to be created, with the default reaction mode when none is
    given and the rules key that goes with the mode. Raises ValueError for an unknown mode."""
    options = dict(options or {})
    mode = reaction_mode(options) if "reaction_mode" in options else DEFAULT_REACTION_MODE
    options.pop("reactions", None)
    return {**options, **reaction_options(mode)}


def for_new_game(options: dict[str, Any] | None) -> dict[str, Any]:
    """`options` of a game about to be created: `with_reaction_mode`, and the rules of
    NEW_GAME_RULES that `options` does not set itself. Raises ValueError for an unknown reaction
    mode (a bad rules value is refused by `rules.start_game`)."""
    return {**NEW_GAME_RULES, **with_reaction_mode(options)}


def table_options(
    *, deadlines: dict[str, Any] | None = None, reaction_mode: str = DEFAULT_REACTION_MODE
) -> dict[str, Any]:
    """The table keys of a new game's options (with the rules key of `reaction_mode`, see
    `reaction_options`). deadlines: hours by decision kind (see DEFAULT_DEADLINES; 0 means no
    deadline). Raises ValueError for an unknown reaction mode or a negative or non-integer number
    of hours."""
    reactions = reaction_options(reaction_mode)
    deadlines = dict(DEFAULT_DEADLINES if deadlines is None else deadlines)
    for kind, hours in deadlines.items():
        if not isinstance(hours, int) or isinstance(hours, bool) or hours < 0:
            raise ValueError(f"The deadline for {kind} must be a whole number of hours, not {hours!r}.")
    deadlines.setdefault("default", DEFAULT_DEADLINES["default"])
    return {"deadlines": deadlines, **reactions, "extensions": [], "pauses": []}


def deadline_hours(options: dict[str, Any], kind: str) -> int:
    """Hours allowed for a decision of `kind` (0: no deadline)."""
    deadlines = options.get("deadlines") or DEFAULT_DEADLINES
    return int(deadlines.get(kind, deadlines.get("default", DEFAULT_DEADLINES["default"])))


def extension_hours(options: dict[str, Any], seat: str, *, since_seq: int) -> int:
    """Hours granted by the host to `seat`'s decision pending since the rules log had
    `since_seq` events: the sum of the extensions granted to that seat (or to every seat) at
    `since_seq` or later, i.e. while that decision was waiting."""
    return sum(
        e["hours"]
        for e in options.get("extensions", [])
        if e["at_seq"] >= since_seq and e["seat"] in (seat, None)
    )


def is_paused(options: dict[str, Any]) -> bool:
    """True while the host has the game paused (the last pause has no end)."""
    pauses = options.get("pauses") or []
    return bool(pauses) and pauses[-1].get("until") is None


def paused_seconds(options: dict[str, Any], start: datetime, end: datetime) -> float:
    """Seconds of [start, end] during which the game was paused: deadline clocks stop then.

    Pause times are ISO 8601 strings with a time zone; an open pause lasts until `end`.
    """
    total = 0.0
    for pause in options.get("pauses") or []:
        since = datetime.fromisoformat(pause["from"])
        until = datetime.fromisoformat(pause["until"]) if pause.get("until") else end
        overlap = (min(until, end) - max(since, start)).total_seconds()
        total += max(0.0, overlap)
    return total
