"""Victory conditions, Deeds as wild cards, and the victory check of the Assembly.

Rulebook, Victory Conditions / Deeds / End of the Game.
"""

from __future__ import annotations

from typing import Any

from .state import GameState

TARGET = 6


def condition_values(state: GameState, seat: str) -> dict[str, Any]:
    """`{"territories": n, "sanctuaries": n, "opposing_clans": n}` for `seat`, without Deeds.

    territories: territories where `seat` is present; sanctuaries: Sanctuaries in those;
    opposing_clans: opposing clans in the territories where `seat` is chieftain.
    """
    present = state.present(seat)
    opposing = 0
    for tid in state.territories:
        if state.chieftain(tid) == seat:
            opposing += sum(n for s, n in state.territories[tid]["clans"].items() if s != seat)
    return {
        "territories": len(present),
        "sanctuaries": sum(state.territories[t]["sanctuaries"] for t in present),
        "opposing_clans": opposing,
    }


def conditions_completed(state: GameState, seat: str) -> list[str]:
    """The conditions `seat` meets, as keys of `condition_values` ("territories", "sanctuaries",
    "opposing_clans"), spending Deeds where they help most: the nearest conditions first.

    Each Deed adds 1 towards one condition and completes only that one (rulebook, Deeds: with
    4 territories, 5 Sanctuaries and 2 Deeds, one condition; with 3 Deeds, both). Of two
    conditions equally near, the one first in `condition_values`' order is named.
    """
    deeds = state.deeds.get(seat, 0)
    met = []
    values = condition_values(state, seat)
    for name in sorted(values, key=lambda k: max(0, TARGET - values[k])):
        shortfall = max(0, TARGET - values[name])
        if shortfall <= deeds:
            deeds -= shortfall
            met.append(name)
    return met


def conditions_met(state: GameState, seat: str) -> int:
    """How many of the three conditions `seat` meets, spending Deeds where they help most
    (`conditions_completed`)."""
    return len(conditions_completed(state, seat))


def victory_check(state: GameState) -> tuple[str | None, dict[str, int]]:
    """The winner among the Pretenders, or None; and each Pretender's count of conditions.

    The most conditions wins (at least 1); on a tie the Brenn wins if tied, else nobody does
    (rulebook, End of the Game).
    """
    scores = {seat: conditions_met(state, seat) for seat in state.pretenders}
    if not scores:
        return None, scores
    best = max(scores.values())
    if best < 1:
        return None, scores
    leaders = [s for s, v in scores.items() if v == best]
    if len(leaders) == 1:
        return leaders[0], scores
    if state.brenn in leaders:
        return state.brenn, scores
    return None, scores
