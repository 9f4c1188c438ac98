"""Removing clans when their owner may answer with a Triskel card.

Diarmuid and Gráinne (the clan goes to another territory where you are present instead), The
Dagda's Club (the clan is not removed) and Dagda's Cauldron (during a clash, your removed clans
wait on the card) answer "when 1 of your clans is removed". Each clan is asked about separately.
Rulebook, Removing a clan; the cards' texts (docs/cards.md).
"""

from __future__ import annotations

from .catalog import CARDS, EPIC
from .engine import Context, Procedure, evolver, procedure
from .event_payloads import ClanSpared
from .frames import RemovalFrame
from .reactions import open_window, policy_allows, triskels_forbidden
from .revisions import revision
from .state import GameState, current_clash

REMOVAL_ANSWERS = ("ep_diarmuid_grainne", "ep_dagdas_club", "ep_dagdas_cauldron")


def removal_may_be_answered(state: GameState, seat: str) -> bool:
    """Whether `seat` must be asked before losing a clan (public facts: Epic Tales in hand)."""
    if triskels_forbidden(state):
        return False
    if not any(CARDS[c].type == EPIC for c in state.hands.get(seat, [])):
        return False
    return any(policy_allows(state, seat, c) for c in REMOVAL_ANSWERS)


@evolver(ClanSpared)
def _clan_spared(state: GameState, p: ClanSpared) -> None:
    pass


@procedure
class Removal(Procedure[RemovalFrame]):
    """frame: seat, territory, left (clans still to remove), cause, stage (offer -> apply),
    spared (The Dagda's Club), relocate (Diarmuid and Gráinne's destination)."""

    kind = "removal"

    def advance(self, ctx: Context, frame: RemovalFrame) -> bool:

        state = ctx.state
        seat, tid = frame["seat"], frame["territory"]
        if frame["left"] <= 0 or state.clans(tid, seat) <= 0:
            ctx.pop(frame)
            return True
        if frame["stage"] == "offer":
            ctx.update(frame, stage="apply", spared=False, relocate=None)
            open_window(
                ctx,
                "clan_removed",
                actor=seat,
                context={"territory": tid, "cause": frame["cause"], "removal_index": len(state.stack) - 1},
            )
            return True
        # apply one clan's removal
        if frame["spared"]:
            ctx.emit("ClanSpared", seat=seat, territory=tid, cause=frame["cause"])
        elif frame["relocate"]:
            ctx.emit(
                "ClansMoved", seat=seat, moves=[[tid, frame["relocate"], 1]], cause="Diarmuid and Gráinne"
            )
            clash = current_clash(state)
            if revision(state) >= 2 and clash is not None and clash["territory"] == tid:
                # The card changes where the removed clan goes ("Instead of returning it to
                # your reserve"), not that it is removed: the maneuver removed it (Bard).
                removed = clash.get("removed_now") or {}
                ctx.update(clash, removed_now={**removed, seat: removed.get(seat, 0) + 1})
        else:
            ctx.emit("ClansRemoved", seat=seat, territory=tid, count=1, cause=frame["cause"])
        ctx.update(frame, left=frame["left"] - 1, stage="offer")
        return True
