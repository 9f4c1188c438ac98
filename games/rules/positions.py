"""Starting a game from a described position (tests, teaching, games moved from a table).

The format is documented in docs/positions.md. The whole position is one event,
`PositionDescribed`, visible to the server only; `public_position` is what each seat sees of it.
"""

from __future__ import annotations

from typing import Any, cast

from .catalog import (
    ACTION,
    ADVANTAGE_OF,
    CARDS,
    CLANS_PER_PLAYER,
    EPIC_TALES,
    TERRITORY_INFO,
    action_cards_for,
)
from .engine import Context, evolver
from .errors import InvalidCommand
from .event_payloads import PositionDescribed
from .island import neighbour_cells
from .language import _
from .state import GameState, Territory


def apply_position(ctx: Context, position: dict[str, Any]) -> None:
    """Check `position`, record it as one event and start the round loop from it.

    Raises InvalidCommand naming the first inconsistency (unknown territory or card, clans over
    12, a card in two places, two territories on one cell...).
    """
    state = ctx.state
    seats = state.seats
    if not isinstance(position, dict) or not isinstance(position.get("territories"), dict):
        raise InvalidCommand(_("A position needs a territories object."))
    territories: dict[str, Territory] = {}
    cells = set()
    for tid, d in position["territories"].items():
        if tid not in TERRITORY_INFO:
            raise InvalidCommand(_("Unknown territory {name}.").format(name=repr(tid)))
        cell = tuple(d.get("cell", ()))
        if len(cell) != 2 or cell in cells:
            raise InvalidCommand(
                _("{territory}: each territory needs its own cell [q, r].").format(territory=tid)
            )
        cells.add(cell)
        clans = {s: int(n) for s, n in (d.get("clans") or {}).items() if int(n) > 0}
        if any(s not in seats for s in clans):
            raise InvalidCommand(_("{territory}: clans of a colour not seated.").format(territory=tid))
        territories[tid] = {
            "cell": list(cell),
            "clans": clans,
            "sanctuaries": int(d.get("sanctuaries", 0)),
            "citadels": int(d.get("citadels", 0)),
        }
    if len(territories) > 1:
        for tid, d in territories.items():
            if not any(tuple(n) in cells for n in neighbour_cells(tuple(d["cell"]))):
                raise InvalidCommand(_("{territory} touches no other territory.").format(territory=tid))
    for s in seats:
        if sum(d["clans"].get(s, 0) for d in territories.values()) > CLANS_PER_PLAYER:
            raise InvalidCommand(
                _("{colour} has more than {count} clans on the island.").format(
                    colour=s, count=CLANS_PER_PLAYER
                )
            )
    capital = position.get("capital")
    if capital not in territories:
        raise InvalidCommand(_("The capital must be one of the territories."))
    if capital == "swamp" or ("swamp" in territories and territories["swamp"]["citadels"]):
        raise InvalidCommand(
            _(
                "No Citadel can be placed in the Swamp, so it holds no Citadel and "
                "cannot be the capital (ruling U15)."
            )
        )
    hands = {s: list((position.get("hands") or {}).get(s, [])) for s in seats}
    in_use = set(action_cards_for(len(seats)))
    seen: dict[str, str] = {}
    places = [("hand of " + s, c) for s, h in hands.items() for c in h]
    places += [("action discard", c) for c in position.get("action_discard", [])]
    places += [("epic discard", c) for c in position.get("epic_discard", [])]
    if position.get("set_aside"):
        places.append(("set aside", position["set_aside"]))
    for where, c in places:
        if c not in CARDS:
            raise InvalidCommand(_("Unknown card {name} ({where}).").format(name=repr(c), where=where))
        if CARDS[c].type == ACTION and c not in in_use:
            raise InvalidCommand(_("{card} is used only with 4 players.").format(card=c))
        if c in seen:
            raise InvalidCommand(
                _("{card} is both in {where} and in {other_where}.").format(
                    card=c, where=seen[c], other_where=where
                )
            )
        seen[c] = where
    epic_deck = position.get("epic_deck")
    if epic_deck is None:
        epic_deck = [c.id for c in EPIC_TALES if c.id not in seen]
        ctx.rng.shuffle(epic_deck)
    tiles = position.get("tile_stack")
    if tiles is None:
        tiles = [t for t in TERRITORY_INFO if t not in territories]
        ctx.rng.shuffle(tiles)
    phase = position.get("phase", "season")
    if phase not in ("season", "assembly"):
        raise InvalidCommand(_("phase must be season or assembly."))
    if phase == "assembly" and any(CARDS[c].type == ACTION for h in hands.values() for c in h):
        raise InvalidCommand(
            _(
                "At the start of an Assembly no Action card is in a hand: they were "
                "discarded at the end of the Season."
            )
        )
    brenn = position.get("brenn", seats[0])
    turn = position.get("turn", brenn)
    if brenn not in seats or turn not in seats:
        raise InvalidCommand(_("brenn and turn must be seated colours."))
    advantage = {}
    for tid in territories:
        card = ADVANTAGE_OF[tid]
        holder = next((s for s, h in hands.items() if card in h), None)
        advantage[card] = holder or (position.get("advantage") or {}).get(card, "display")
    payload: PositionDescribed = {
        "territories": territories,
        "capital": capital,
        "brenn": brenn,
        "flock": position.get("flock", "clockwise"),
        "festival": position.get("festival"),
        "hands": hands,
        "deeds": {s: int((position.get("deeds") or {}).get(s, 0)) for s in seats},
        "pretenders": list(position.get("pretenders", [])),
        "tile_stack": list(tiles),
        "epic_deck": list(epic_deck),
        "epic_discard": list(position.get("epic_discard", [])),
        "action_discard": list(position.get("action_discard", [])),
        "set_aside": position.get("set_aside"),
        "round": int(position.get("round", 1)),
        "phase": phase,
        "advantage": advantage,
        "supply_used": {
            "citadels": sum(d["citadels"] for d in territories.values()),
            "sanctuaries": sum(d["sanctuaries"] for d in territories.values()),
        },
    }
    if (
        payload["supply_used"]["citadels"] > state.supply["citadels"]
        or payload["supply_used"]["sanctuaries"] > state.supply["sanctuaries"]
    ):
        raise InvalidCommand(_("More buildings on the island than the supply holds."))
    ctx.emit("PositionDescribed", visibility=(), **payload)
    if phase == "season":
        ctx.push({"kind": "game", "next": "assembly"})
        ctx.push(
            {
                "kind": "season",
                "turn": turn,
                "passes": int(position.get("passes", 0)),
                "opened": bool(position.get("opened", True)),
                "status": "start",
            }
        )
    else:
        ctx.push({"kind": "game", "next": "assembly"})


@evolver(PositionDescribed)
def _position_described(state: GameState, p: PositionDescribed) -> None:
    state.territories = {
        t: cast(Territory, {**d, "clans": dict(d["clans"])}) for t, d in p["territories"].items()
    }
    state.capital = p["capital"]
    state.brenn = p["brenn"]
    state.flock = p["flock"]
    state.festival = p["festival"]
    state.hands = {s: list(h) for s, h in p["hands"].items()}
    state.deeds = dict(p["deeds"])
    state.pretenders = list(p["pretenders"])
    state.tile_stack = list(p["tile_stack"])
    state.epic_deck = list(p["epic_deck"])
    state.epic_discard = list(p["epic_discard"])
    state.action_discard = list(p["action_discard"])
    state.set_aside = p["set_aside"]
    placed = {c for h in state.hands.values() for c in h} | set(state.action_discard) | {state.set_aside}
    state.action_deck = [c for c in action_cards_for(len(state.seats)) if c not in placed]
    state.advantage_display = [c for c, w in p["advantage"].items() if w == "display"]
    state.advantage_played = [c for c, w in p["advantage"].items() if w == "played"]
    for s in state.seats:
        state.reserve[s] = CLANS_PER_PLAYER - sum(d["clans"].get(s, 0) for d in state.territories.values())
    for kind in ("citadels", "sanctuaries"):
        state.supply[kind] -= p["supply_used"][kind]
    if p["phase"] == "season":
        state.round = p["round"]
        state.phase = "season"
    else:
        state.round = p["round"] - 1
        state.phase = "assembly"


def public_position(payload: dict[str, Any], seat: str | None) -> dict[str, Any]:
    """The described position as `seat` sees it: own hand only, deck orders as counts."""
    out = {
        k: v
        for k, v in payload.items()
        if k not in ("hands", "tile_stack", "epic_deck", "action_discard", "set_aside")
    }
    out["hands"] = {s: (list(h) if s == seat else {"count": len(h)}) for s, h in payload["hands"].items()}
    out["counts"] = {
        "tile_stack": len(payload["tile_stack"]),
        "epic_deck": len(payload["epic_deck"]),
        "action_discard": len(payload["action_discard"]),
    }
    out["redacted"] = True
    return out
