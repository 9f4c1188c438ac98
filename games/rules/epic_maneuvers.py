"""The four Epic Tales played as a maneuver (texts: docs/cards.md): The Battle of Moytura, The Fianna,
Ogma's Eloquence and Tale of Cúchulain. Playing one is the player's maneuver; like every Triskel
card they are forbidden under Lug's Spear, and The Dagda may cancel them."""

from __future__ import annotations

from typing import Any

from .board import move_clans, place_clans, remove_clans
from .card_effects import CARD_EFFECTS, CardEffect, card_effect, declare
from .catalog import card_name
from .command_types import CommandFields
from .engine import Context
from .errors import IllegalCommand
from .frames import CardFrame, ClashFrame
from .language import _, ngettext, territory_phrase
from .moves import gatherings
from .reactions import triskels_forbidden
from .state import GameState, current_clash, exposed, exposed_seats

MANEUVER_EPICS = ("ep_ogmas_eloquence", "ep_the_fianna", "ep_battle_of_moytura", "ep_tale_of_cuchulain")


def epic_maneuver_options(state: GameState, frame: ClashFrame, seat: str) -> list[Any]:
    """The legal `play` commands of maneuver Epic Tales in `seat`'s hand."""
    if triskels_forbidden(state):
        return []
    out: list[CommandFields] = []
    for card in MANEUVER_EPICS:
        if card in state.hands.get(seat, []):
            out.extend(
                {"type": "play", "card": card, **a}
                for a in CARD_EFFECTS[card].maneuver_options(state, frame, seat)
            )
    return out


def play_epic_maneuver(ctx: Context, frame: ClashFrame, seat: str, command: CommandFields) -> None:
    """Validate and play a maneuver Epic Tale. Raises IllegalCommand with what is allowed."""
    options = epic_maneuver_options(ctx.state, frame, seat)
    if command not in options:
        card = command.get("card")
        if card not in MANEUVER_EPICS:
            # The four names are part of the sentence (a rule, not a card in play): written out,
            # they cannot be mistaken for a hidden card named in an email (tests/notifications/test_leaks.py).
            raise IllegalCommand(
                _(
                    "Only The Battle of Moytura, The Fianna, Ogma's Eloquence and "
                    "Tale of Cúchulain can be played as a maneuver."
                )
            )
        if card not in ctx.state.hands.get(seat, []):
            raise IllegalCommand(_("{card} is not in your hand.").format(card=card_name(card)))
        raise IllegalCommand(_("{card} cannot be played that way now.").format(card=card_name(card)))
    args = {k: v for k, v in command.items() if k not in ("type", "card")}
    declare(ctx, seat, command["card"], "triskel", args)


class ManeuverEpic(CardEffect):
    """Base: no Season half; `maneuver_options(state, clash, seat)` lists its arguments."""

    def maneuver_options(self, state: GameState, clash: ClashFrame, seat: str) -> list[Any]:
        return []


@card_effect
class OgmasEloquence(ManeuverEpic):
    """As your maneuver: the clash ends at once."""

    card = "ep_ogmas_eloquence"

    def maneuver_options(self, state: GameState, clash: ClashFrame, seat: str) -> list[CommandFields]:
        return [{}]

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        clash = current_clash(ctx.state)
        if clash is not None:
            ctx.update(clash, end_reason="Ogma's Eloquence")
        return True


@card_effect
class TheFianna(ManeuverEpic):
    """As your maneuver: move 1 or more of your clans, exposed or sheltered, from the clashing
    territory to 1 adjacent territory. This does not start a clash."""

    card = "ep_the_fianna"

    def maneuver_options(self, state: GameState, clash: ClashFrame, seat: str) -> list[CommandFields]:
        """`{"to", "count"}`, plus `"sheltered"` (how many of the moved clans come out of the
        Citadels) when the player has clans sheltered there: the player chooses which clans
        move ("exposed or sheltered in Citadels")."""
        tid = clash["territory"]
        sheltered = clash["sheltered"].get(seat, 0)
        out_exposed = exposed(state, clash, seat)
        out: list[CommandFields] = []
        for t in state.adjacent(tid):
            for n in range(1, out_exposed + sheltered + 1):
                if not sheltered:
                    out.append({"to": t, "count": n})
                    continue
                out.extend(
                    {"to": t, "count": n, "sheltered": k}
                    for k in range(max(0, n - out_exposed), min(n, sheltered) + 1)
                )
        return out

    def describe(self, args: CommandFields) -> str:
        count = args["count"]
        text = ngettext(
            "moving {count} clan to {the_territory}", "moving {count} clans to {the_territory}", count
        ).format(count=count, the_territory=territory_phrase(args["to"]))
        if args.get("sheltered"):
            text += _(" ({count} of them from the Citadels)").format(count=args["sheltered"])
        return text

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        clash = current_clash(ctx.state)
        assert clash is not None  # played as a maneuver, in a clash
        seat, args = frame["seat"], frame["args"]
        tid = clash["territory"]
        n = min(args["count"], ctx.state.clans(tid, seat))
        if "sheltered" in args:
            from_shelter = min(args["sheltered"], clash["sheltered"].get(seat, 0), n)
        else:
            # A play recorded before the choice existed: exposed clans went first.
            from_shelter = max(0, n - exposed(ctx.state, clash, seat))
        if from_shelter:
            ctx.update(clash, sheltered={**clash["sheltered"], seat: clash["sheltered"][seat] - from_shelter})
        move_clans(ctx, seat, [[tid, args["to"], n]], cause=card_name(self.card, "en"))
        return True


@card_effect
class BattleOfMoytura(ManeuverEpic):
    """As your maneuver: move 1 or more of your clans from adjacent territories into the clashing
    territory, then place 1 clan there. All are exposed."""

    card = "ep_battle_of_moytura"

    def maneuver_options(self, state: GameState, clash: ClashFrame, seat: str) -> list[CommandFields]:
        tid = clash["territory"]
        sources = {t: state.clans(t, seat) for t in state.adjacent(tid) if state.clans(t, seat)}
        out: list[CommandFields] = []
        for n in range(1, sum(sources.values()) + 1):
            out.extend({"moves": m} for m in gatherings(n, sources))
        return out

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        clash = current_clash(ctx.state)
        assert clash is not None  # played as a maneuver, in a clash
        seat, tid = frame["seat"], clash["territory"]
        if frame.get("sub") is None:
            ctx.update(frame, sub="moved")
            moves = [[o, tid, min(n, ctx.state.clans(o, seat))] for o, n in frame["args"]["moves"].items()]
            move_clans(ctx, seat, moves, cause=card_name(self.card, "en"))
            return False
        if ctx.state.reserve[seat]:
            place_clans(ctx, seat, {tid: 1}, cause=card_name(self.card, "en"))
        return True


@card_effect
class TaleOfCuchulain(ManeuverEpic):
    """As your maneuver, with exactly 1 exposed clan: remove any 2 exposed clans there."""

    card = "ep_tale_of_cuchulain"

    def maneuver_options(self, state: GameState, clash: ClashFrame, seat: str) -> list[CommandFields]:
        if exposed(state, clash, seat) != 1:
            return []
        pool = {s: exposed(state, clash, s) for s in exposed_seats(state, clash)}
        seats = sorted(pool)
        out: list[CommandFields] = []
        for i, a in enumerate(seats):
            for b in seats[i:]:
                if a != b or pool[a] >= 2:
                    out.append({"remove": [a, b]})
        if sum(pool.values()) < 2:
            out = [{"remove": [s]} for s in seats]
        return out

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        clash = current_clash(ctx.state)
        assert clash is not None  # played as a maneuver, in a clash
        for target in frame["args"]["remove"]:
            remove_clans(ctx, target, clash["territory"], 1, cause=card_name(self.card, "en"))
        return True
