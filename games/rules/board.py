"""Clans and buildings on the island: the events that change them and the effects that emit them.

Rulebook: Components (Clans, Buildings), Reminder "Place one clan" (clans come from the player's
own reserve; with all 12 on the board no more can be placed), Removing a clan (back to reserve).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .catalog import TERRITORY_INFO, territory_name
from .engine import Context, evolver
from .errors import IllegalCommand, InvalidCommand
from .event_payloads import (
    BuildingPlaced,
    CapitalChosen,
    ClansMoved,
    ClansPlaced,
    ClansRemoved,
    FestivalPlaced,
    FestivalRemoved,
    TerritoryPlaced,
    TileStackFormed,
)
from .language import _, territory_phrase
from .removal import removal_may_be_answered
from .state import GameState

PLURAL = {"sanctuary": "sanctuaries", "citadel": "citadels"}


@evolver(TerritoryPlaced)
def _territory_placed(state: GameState, p: TerritoryPlaced) -> None:
    tid = p["territory"]
    state.territories[tid] = {"cell": list(p["cell"]), "clans": {}, "sanctuaries": 0, "citadels": 0}
    if tid in state.tile_stack:
        state.tile_stack.remove(tid)
    card = state.advantage_of(tid)
    if card not in state.advantage_display:
        state.advantage_display.append(card)


@evolver(TileStackFormed)
def _tile_stack_formed(state: GameState, p: TileStackFormed) -> None:
    state.tile_stack = list(p["tiles"])


@evolver(ClansPlaced)
def _clans_placed(state: GameState, p: ClansPlaced) -> None:
    seat = p["seat"]
    for tid, n in p["placements"].items():
        clans = state.territories[tid]["clans"]
        clans[seat] = clans.get(seat, 0) + n
        state.reserve[seat] -= n


@evolver(ClansMoved)
def _clans_moved(state: GameState, p: ClansMoved) -> None:
    seat = p["seat"]
    for origin, destination, n in p["moves"]:
        src = state.territories[origin]["clans"]
        src[seat] -= n
        if not src[seat]:
            del src[seat]
        dst = state.territories[destination]["clans"]
        dst[seat] = dst.get(seat, 0) + n


@evolver(ClansRemoved)
def _clans_removed(state: GameState, p: ClansRemoved) -> None:
    seat, tid, n = p["seat"], p["territory"], p["count"]
    clans = state.territories[tid]["clans"]
    clans[seat] -= n
    if not clans[seat]:
        del clans[seat]
    clash = next((f for f in reversed(state.stack) if f["kind"] == "clash"), None)
    if clash is not None and clash["territory"] == tid:
        removed = clash.setdefault("removed_now", {})
        removed[seat] = removed.get(seat, 0) + n
        sheltered = clash["sheltered"].get(seat, 0)
        if sheltered > clans.get(seat, 0):
            clash["sheltered"][seat] = clans.get(seat, 0)
        cauldron = clash.get("cauldron", {})
        if seat in cauldron:
            # Dagda's Cauldron: removed clans wait on the card until the clash ends.
            cauldron[seat] += n
            return
    state.reserve[seat] += n


@evolver(BuildingPlaced)
def _building_placed(state: GameState, p: BuildingPlaced) -> None:
    key = PLURAL[p["building"]]
    state.territories[p["territory"]][key] += 1  # type: ignore[literal-required]  # "sanctuaries" or "citadels"
    state.supply[key] -= 1


@evolver(CapitalChosen)
def _capital_chosen(state: GameState, p: CapitalChosen) -> None:
    state.capital = p["territory"]


@evolver(FestivalPlaced)
def _festival_placed(state: GameState, p: FestivalPlaced) -> None:
    state.festival = p["territory"]


@evolver(FestivalRemoved)
def _festival_removed(state: GameState, p: FestivalRemoved) -> None:
    state.festival = None


# -- effects -----------------------------------------------------------------------------------


def place_clans(ctx: Context, seat: str, placements: dict[str, Any], cause: str) -> None:
    """Place clans from `seat`'s reserve: `placements` territory -> count.

    Placing never starts a clash (rulebook, Clashes). Raises IllegalCommand when the reserve is
    short: with all 12 clans on the board none can be placed.
    """
    placements = {t: n for t, n in placements.items() if n > 0}
    total = sum(placements.values())
    if not total:
        return
    if total > ctx.state.reserve[seat]:
        raise IllegalCommand(
            _("You have {count} clan(s) in reserve; you cannot place {total}.").format(
                count=ctx.state.reserve[seat], total=total
            )
        )
    ctx.emit("ClansPlaced", seat=seat, placements=placements, cause=cause)


def move_clans(ctx: Context, seat: str, moves: list[Any], cause: str) -> None:
    """Move `seat`'s clans: `moves` is a list of `[origin, destination, count]`.

    Moving alone starts no clash: the caller decides whether the move initiates clashes. A move
    into the Mountains starts the Mountains toll (territory effect), which resolves before any
    clash the same move starts (see `clash.start_clashes`).
    """
    moves = [list(m) for m in moves if m[2] > 0]
    if moves:
        ctx.emit("ClansMoved", seat=seat, moves=moves, cause=cause)
        if any(m[1] == "mountains" for m in moves):
            mountains_toll(ctx, seat, sum(m[2] for m in moves if m[1] == "mountains"))


def mountains_toll(ctx: Context, seat: str, moved: int) -> None:
    """Start the Mountains toll (the procedure is `territory_effects.MountainsToll`) for `seat`, who just moved `moved` clans into the Mountains."""
    ctx.push({"kind": "mountains_toll", "seat": seat, "paid": False})


def remove_clans(ctx: Context, seat: str, tid: str, count: int, cause: str) -> int:
    """Remove up to `count` of `seat`'s clans in `tid` (back to the reserve).

    When the owner could answer with a Triskel card (Diarmuid and Gráinne, The Dagda's Club,
    Dagda's Cauldron: anyone holding an Epic Tale), the removal becomes a procedure that asks
    first, and this returns 0; otherwise the clans go at once and this returns how many went.
    """
    n = min(count, ctx.state.clans(tid, seat))
    if not n:
        return 0
    if removal_may_be_answered(ctx.state, seat):
        ctx.push(
            {
                "kind": "removal",
                "seat": seat,
                "territory": tid,
                "left": n,
                "cause": cause,
                "stage": "offer",
                "spared": False,
                "relocate": None,
            }
        )
        return 0
    ctx.emit("ClansRemoved", seat=seat, territory=tid, count=n, cause=cause)
    return n


def place_building(ctx: Context, tid: str, building: str) -> bool:
    """Place a Sanctuary or Citadel from the supply in `tid`; False if none is left.

    Rulebook, Buildings: with none of the type left in the reserve, it cannot be placed.
    """
    if ctx.state.supply[PLURAL[building]] <= 0:
        return False
    ctx.emit("BuildingPlaced", territory=tid, building=building)
    return True


def territory_list(state: GameState, tids: Iterable[Any]) -> list[str]:
    """`tids` checked against the island. Raises InvalidCommand for a name that is no territory
    of the game (an unknown name, docs/rules-api.md "Errors"), IllegalCommand for a territory not
    on the island or a missing one (None: `decide` then names the missing field); both messages
    name the territories in play."""
    for tid in tids:
        if tid not in state.territories:
            known = ", ".join(sorted(territory_name(t) for t in state.territories))
            if tid in TERRITORY_INFO:
                raise IllegalCommand(
                    _("{The_territory} is not on the island. In play: {territories}.").format(
                        The_territory=territory_phrase(tid, capital=True), territories=known
                    )
                )
            error = InvalidCommand if isinstance(tid, str) else IllegalCommand
            raise error(
                _("Unknown territory {name}. In play: {territories}.").format(
                    name=repr(tid), territories=known
                )
            )
    return list(tids)  # every one checked: a territory id of the island
