"""Clash steps for the Triskel windows (docs/rulings.md, "One Triskel question per clash step").

A clash goes by steps: the Citadels step, the end of the Citadels step with the start of the
Resolution step, then one step per maneuver with everything it causes (`ClashFrame.beat`). A
seat's answer to a Triskel window of a step also answers the later triggers of that step
(`STEP_LATER`), which then do not ask it again: the card it said ahead is played at its trigger
if it can be then (games/rules/reactions.py). Pure reads of the state, no window opened here.
"""

from __future__ import annotations

from typing import Any

from .frames import ClashFrame, WindowTrigger
from .state import GameState, current_clash

# One Triskel question per clash step (docs/rulings.md): a seat's answer to a Triskel window of a
# clash step also answers the later triggers of that step listed here (by the window's trigger),
# which then do not ask it again. A step is the Citadels step, the start of the Resolution step,
# or one maneuver with all it causes (`ClashFrame.beat`). The windows of a Triskel card played
# in the step (Geis, The Dagda) and the window folded into the next maneuver still ask.
STEP_LATER: dict[str, tuple[str, ...]] = {
    "attack_declared": ("clan_removed", "after_maneuver"),
    "card_declared": ("clan_removed", "after_maneuver"),
    "clan_removed": ("clan_removed", "after_maneuver"),
    "after_maneuver": ("clan_removed",),
    "citadels_ended": ("resolution_started",),
}


def step_of(state: GameState, trigger: str) -> tuple[ClashFrame, tuple[str, ...]] | None:
    """The clash whose step a window for `trigger` belongs to and the step's later triggers it
    answers (`STEP_LATER`), or None: no clash, or no later trigger (a maneuver's windows count
    only in the Resolution step; the Citadels step has no later one)."""
    clash = current_clash(state)
    later = STEP_LATER.get(trigger, ())
    if clash is None or not later or (trigger != "citadels_ended" and clash["step"] != "resolution"):
        return None
    return clash, later


def answered_in_step(state: GameState, trigger: str) -> dict[str, dict[str, Any] | None]:
    """The seats whose answer in the clash step under way covers `trigger`: {seat: the card it
    said it would play at `trigger` (a `react` command without its type), or None}."""
    clash = current_clash(state)
    if clash is None or not clash.get("ahead"):
        return {}
    beat = clash.get("beat", 0)
    out: dict[str, dict[str, Any] | None] = {}
    for seat, answer in clash.get("ahead", {}).items():
        if answer["beat"] == beat and trigger in answer["covers"]:
            play = answer["play"]
            mine = play is not None and play["trigger"] == trigger
            out[seat] = {k: v for k, v in play.items() if k != "trigger"} if mine and play else None
    return out


def later_window(state: GameState, clash: ClashFrame, trigger: str, seat: str) -> WindowTrigger | None:
    """The window `trigger` would open later in the clash step, as `seat` may foresee it now:
    its own clan removed in the clash; the maneuver under way performed (an attack as
    declared, its attacked player's clans possibly removed); the Resolution step begun."""
    tid = clash["territory"]
    if trigger == "clan_removed":
        if not state.clans(tid, seat):
            return None
        return {"trigger": trigger, "actor": seat, "context": {"territory": tid, "cause": "attack"}}
    if trigger == "after_maneuver":
        attack, finishing = clash["attack"], clash.get("finishing")
        if attack:
            actor, kind, target = attack["attacker"], "attack", attack["target"]
        elif finishing:
            actor, kind, target = finishing["seat"], finishing["kind"], finishing.get("target")
        else:
            actor, kind, target = clash["current"] or seat, "epic", None
        context = {
            "territory": tid,
            "maneuver": kind,
            "target": target,
            "removed_opponents": int(kind == "attack"),
        }
        return {"trigger": trigger, "actor": actor, "context": context}
    index = next(i for i, f in enumerate(state.stack) if f is clash)
    return {
        "trigger": trigger,
        "actor": clash["instigator"],
        "context": {"territory": tid, "clash_index": index},
    }
