"""The four printed territory effects (tile texts: docs/cards.md, Territories).

- Gates of Tír na nÓg and Stone Circle enter play with 1 Sanctuary.
- Gates of Tír na nÓg: whenever the turn direction changes (the Assembly toss lands on the other
  side, or The Morrigan flips the token: ruling U10), each player present there loses 1 clan there
  and draws 1 Epic Tale, Brenn first then in Flock of Crows order.
- Mountains: when clans are moved in, their owner discards 1 Action card or loses 1 of those
  clans; once per move (ruling U9); the Mountains Advantage card's holder may ignore it.
- Swamp: no Citadel (enforced by the Citadel card and the Capital choice).
"""

from __future__ import annotations

from .board import place_building, remove_clans
from .card_effects import declare
from .cards import discard_from_hand, draw_epic_tales
from .command_types import CommandFields
from .engine import Context, Decision, Procedure, evolver, procedure
from .errors import IllegalCommand
from .event_payloads import GatesOpened, MountainsTollPaid
from .frames import GatesFrame, MountainsTollFrame
from .language import _
from .reactions import open_window, triskels_forbidden
from .state import GameState


def arrive_with_buildings(ctx: Context, tid: str) -> None:
    """Gates of Tír na nÓg and Stone Circle enter play with 1 Sanctuary (if the supply has one)."""
    if tid in ("gates", "stone_circle"):
        place_building(ctx, tid, "sanctuary")


def flock_changed(ctx: Context) -> None:
    """Call after the Flock of Crows changed side: the Gates of Tír na nÓg take their toll."""
    state = ctx.state
    if "gates" not in state.territories:
        return
    assert state.brenn is not None  # the Brenn is chosen at setup
    order = [s for s in state.turn_order_from(state.brenn) if state.clans("gates", s) > 0]
    if order:
        ctx.push({"kind": "gates", "queue": order, "stage": "next", "bonus": False})


@evolver(GatesOpened)
def _gates_opened(state: GameState, p: GatesOpened) -> None:
    pass


@procedure
class Gates(Procedure[GatesFrame]):
    """frame: queue (seats still to resolve, first is current), stage (next -> lose -> offer ->
    draw), bonus (the Gates Advantage card was played: draw 2, keep 1)."""

    kind = "gates"

    def advance(self, ctx: Context, frame: GatesFrame) -> bool:

        if not frame["queue"]:
            ctx.pop(frame)
            return True
        seat = frame["queue"][0]
        stage = frame["stage"]
        if stage == "next":
            ctx.emit("GatesOpened", seat=seat)
            ctx.update(frame, stage="offer", bonus=False)
            remove_clans(ctx, seat, "gates", 1, cause="Gates of Tír na nÓg")
        elif stage == "offer":
            ctx.update(frame, stage="draw")
            open_window(ctx, "gates_effect", actor=seat, context={"gates_index": len(ctx.state.stack) - 1})
        else:
            ctx.update(frame, queue=frame["queue"][1:], stage="next")
            if frame["bonus"]:
                draw_epic_tales(ctx, seat, 2, keep=1, cause="Gates of Tír na nÓg")
            else:
                draw_epic_tales(ctx, seat, 1, cause="Gates of Tír na nÓg")
        return True


@evolver(MountainsTollPaid)
def _toll_paid(state: GameState, p: MountainsTollPaid) -> None:
    pass


@procedure
class MountainsToll(Procedure[MountainsTollFrame]):
    """The owner of clans moved into the Mountains pays: an Action card or one of those clans.

    frame: seat, paid (True once paid or ignored with the Mountains Advantage card).
    """

    kind = "mountains_toll"

    def options(self, state: GameState, seat: str) -> list[CommandFields]:
        out = [
            {"type": "mountains_toll", "pay": "discard", "card": c}
            for c in sorted(set(state.action_cards(seat)))
        ]
        if state.clans("mountains", seat):
            out.append({"type": "mountains_toll", "pay": "clan"})
        if "adv_mountains" in state.hands.get(seat, []) and not triskels_forbidden(state):
            # The card's Triskel is a Triskel card like any other: Lug's Spear forbids it.
            out.append({"type": "react", "card": "adv_mountains"})
        return out

    def advance(self, ctx: Context, frame: MountainsTollFrame) -> bool:
        state, seat = ctx.state, frame["seat"]
        if frame["paid"]:
            ctx.pop(frame)
            return True
        options = self.options(state, seat)
        if not options:
            ctx.emit("MountainsTollPaid", seat=seat, paid="nothing left to pay")
            ctx.pop(frame)
            return True
        if len(options) == 1:
            self._pay(ctx, frame, seat, options[0])
            return True
        return False

    def decisions(self, state: GameState, frame: MountainsTollFrame) -> list[Decision]:
        if {"type": "react", "card": "adv_mountains"} in self.options(state, frame["seat"]):
            prompt = _(
                "Your clans entered the Mountains: discard 1 Action card or lose 1 of "
                "those clans (or play the Mountains card to ignore it)."
            )
        else:
            prompt = _("Your clans entered the Mountains: discard 1 Action card or lose 1 of those clans.")
        return [Decision(frame["seat"], "mountains_toll", prompt)]

    def legal(self, state: GameState, frame: MountainsTollFrame, seat: str) -> list[CommandFields]:
        return self.options(state, seat)

    def handle(self, ctx: Context, frame: MountainsTollFrame, seat: str, command: CommandFields) -> None:
        if command not in self.options(ctx.state, seat):
            raise IllegalCommand(
                _("Pay the Mountains toll: discard an Action card, or lose 1 of the clans you moved there.")
            )
        self._pay(ctx, frame, seat, command)

    def _pay(self, ctx: Context, frame: MountainsTollFrame, seat: str, command: CommandFields) -> None:

        if command["type"] == "react":
            # The card's effect marks the toll paid; if The Dagda cancels it, the toll is asked again.
            declare(ctx, seat, "adv_mountains", "triskel", {"toll_index": ctx.state.stack.index(frame)})
            return
        ctx.update(frame, paid=True)
        if command["pay"] == "discard":
            discard_from_hand(ctx, seat, command["card"], cause="Mountains")
            ctx.emit("MountainsTollPaid", seat=seat, paid="an Action card")
        else:
            ctx.emit("MountainsTollPaid", seat=seat, paid="a clan")
            remove_clans(ctx, seat, "mountains", 1, cause="Mountains")
