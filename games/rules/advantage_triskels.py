"""The thirteen Triskel Advantage cards (texts: docs/cards.md). Advantage cards are public, so each
window is offered to the card's holder only, and only when its trigger concerns them."""

from __future__ import annotations

from .board import move_clans, place_clans, remove_clans
from .card_effects import CardEffect, card_effect, declare
from .cards import (
    draw_epic_tales,
    gain_deed,  # noqa: F401  (kept for symmetry of imports)
    named_for_discard,
    played_epic_unclaimed,
)
from .catalog import CARDS, EPIC, card_name
from .command_types import CommandFields
from .engine import Context, Decision, evolver, global_command
from .errors import IllegalCommand, InvalidCommand
from .event_payloads import InstigatorChanged
from .frames import CardFrame, WindowTrigger
from .language import _, player_name
from .reactions import WindowTest, holds, triskel, triskels_forbidden
from .state import GameState, current_clash, exposed_seats


def _mine(card: str, condition: WindowTest = lambda state, w, seat: True) -> WindowTest:
    """Offer `card` to its holder when `condition` holds."""
    return lambda state, w, seat: holds(state, seat, card) and condition(state, w, seat)


def _actor(state: GameState, w: WindowTrigger, seat: str) -> bool:
    return bool(seat == w["actor"])


def _free(state: GameState, seat: str, card: str) -> bool:
    """False while `card` is the discard `seat` named with a card still in play (Master
    Craftsman): from rules revision 2 it cannot be played before that card resolves
    (`named_for_discard`; docs/rulings.md, "Master Craftsman (Season half)")."""
    return named_for_discard(state, seat, card) is None


# -- after you play a Season card --------------------------------------------------------------


@card_effect
class Cove(CardEffect):
    """After you play a Season card: take the set-aside Action card, then set aside 1 Action
    card from your hand face down."""

    card = "adv_cove"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        seat = frame["seat"]
        if frame.get("sub") is None:
            if ctx.state.set_aside is None:
                return True
            ctx.emit("SetAsideCardTaken", visibility=(seat,), seat=seat, cause=card_name(self.card, "en"))
            ctx.update(frame, sub="give", choice={"kind": "set_aside"})
            return False
        return True

    def decisions(self, state: GameState, frame: CardFrame) -> list[Decision]:
        return [
            Decision(
                frame["seat"],
                "card_choice",
                _("{card}: set aside 1 Action card from your hand, face down.").format(
                    card=card_name(self.card)
                ),
            )
        ]

    def legal(self, state: GameState, frame: CardFrame, seat: str) -> list[CommandFields]:
        return [{"type": "set_aside", "card": c} for c in sorted(set(state.action_cards(seat)))]

    def choose(self, ctx: Context, frame: CardFrame, seat: str, command: CommandFields) -> None:
        if command not in self.legal(ctx.state, frame, seat):
            raise IllegalCommand(
                _("Set aside one of your Action cards: {cards}.").format(
                    cards=", ".join(card_name(c) for c in ctx.state.action_cards(seat))
                )
            )
        ctx.update(frame, choice=None)
        ctx.emit("ActionCardSetAside", visibility=(seat,), seat=seat, card=command["card"])


triskel(
    "adv_cove",
    "after_season_card",
    offer=_mine("adv_cove", _actor),
    options=lambda state, w, seat: [{}] if _actor(state, w, seat) and state.set_aside else [],
)


@card_effect
class LostVale(CardEffect):
    """After you play a Season card: move any 1 clan (any player's) from a territory adjacent to
    the Lost Vale into it. This does not start a clash."""

    card = "adv_lost_vale"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        a = frame["args"]
        if ctx.state.clans(a["from"], a["owner"]):
            move_clans(ctx, a["owner"], [[a["from"], "lost_vale", 1]], cause=card_name(self.card, "en"))
        return True


def _lost_vale_options(state: GameState, w: WindowTrigger, seat: str) -> list[CommandFields]:
    if not _actor(state, w, seat) or "lost_vale" not in state.territories:
        return []
    return [
        {"owner": s, "from": t}
        for t in state.adjacent("lost_vale")
        for s in sorted(state.territories[t]["clans"])
        if state.clans(t, s)
    ]


triskel(
    "adv_lost_vale", "after_season_card", offer=_mine("adv_lost_vale", _actor), options=_lost_vale_options
)


@card_effect
class SaltMine(CardEffect):
    """After you play a Season card: take 1 Action card at random from an opponent, then give
    them 1 of your Action cards (your choice)."""

    card = "adv_salt_mine"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        state, seat = ctx.state, frame["seat"]
        opponent = frame["args"]["opponent"]
        if frame.get("sub") is None:
            cards = state.action_cards(opponent)
            if not cards:
                return True
            card = ctx.rng.choice(sorted(cards))
            ctx.emit(
                "CardGiven",
                visibility=(opponent, seat),
                **{"from": opponent},
                to=seat,
                card=card,
                cause=card_name(self.card, "en"),
            )
            ctx.update(frame, sub="give", choice={"kind": "give"})
            return False
        return True

    def decisions(self, state: GameState, frame: CardFrame) -> list[Decision]:
        return [
            Decision(
                frame["seat"],
                "card_choice",
                _("{card}: give 1 of your Action cards to {player}.").format(
                    card=card_name(self.card), player=player_name(frame["args"]["opponent"])
                ),
            )
        ]

    def legal(self, state: GameState, frame: CardFrame, seat: str) -> list[CommandFields]:
        return [{"type": "give", "card": c} for c in sorted(set(state.action_cards(seat)))]

    def choose(self, ctx: Context, frame: CardFrame, seat: str, command: CommandFields) -> None:
        if command not in self.legal(ctx.state, frame, seat):
            raise IllegalCommand(
                _("Give one of your Action cards: {cards}.").format(
                    cards=", ".join(card_name(c) for c in ctx.state.action_cards(seat))
                )
            )
        opponent = frame["args"]["opponent"]
        ctx.update(frame, choice=None)
        ctx.emit(
            "CardGiven",
            visibility=(seat, opponent),
            **{"from": seat},
            to=opponent,
            card=command["card"],
            cause=card_name(self.card, "en"),
        )


triskel(
    "adv_salt_mine",
    "after_season_card",
    offer=_mine("adv_salt_mine", _actor),
    options=lambda state, w, seat: (
        [{"opponent": s} for s in state.seats if s != seat and state.action_cards(s)]
        if _actor(state, w, seat)
        else []
    ),
)


@card_effect
class Valley(CardEffect):
    """After you play a Season card: place 1 clan in a territory where you are present."""

    card = "adv_valley"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        if ctx.state.reserve[frame["seat"]]:
            place_clans(ctx, frame["seat"], {frame["args"]["territory"]: 1}, cause=card_name(self.card, "en"))
        return True


triskel(
    "adv_valley",
    "after_season_card",
    offer=_mine("adv_valley", _actor),
    options=lambda state, w, seat: (
        [{"territory": t} for t in state.present(seat)]
        if _actor(state, w, seat) and state.reserve[seat]
        else []
    ),
)


# -- after you play an Epic Tale ---------------------------------------------------------------


@card_effect
class Forest(CardEffect):
    """After you play an Epic Tale card: draw 1 Epic Tale card."""

    card = "adv_forest"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        draw_epic_tales(ctx, frame["seat"], 1, cause=card_name(self.card, "en"))
        return True


triskel(
    "adv_forest",
    "after_epic_played",
    offer=_mine("adv_forest", _actor),
    options=lambda state, w, seat: (
        [{}] if _actor(state, w, seat) and _free(state, seat, "adv_forest") else []
    ),
)


@card_effect
class StoneCircle(CardEffect):
    """After you play an Epic Tale card: remove 1 of your clans from the Stone Circle and take
    that Epic Tale back into your hand instead of discarding it."""

    card = "adv_stone_circle"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        seat = frame["seat"]
        window = frame["args"]["window"]
        epic = ctx.state.stack[window["context"]["card_index"]]
        if not played_epic_unclaimed(ctx.state, window) or not ctx.state.clans("stone_circle", seat):
            return True
        ctx.update(epic, kept=True)
        ctx.emit("CardReturnedToHand", seat=seat, card=epic["card"], cause=card_name(self.card, "en"))
        remove_clans(ctx, seat, "stone_circle", 1, cause=card_name(self.card, "en"))
        return True


# "Instead of discarding it": only for an Epic Tale on its way to the discard (a public fact);
# the window opens after The Dagda and Dagda's Cauldron too, for Forest.
triskel(
    "adv_stone_circle",
    "after_epic_played",
    offer=_mine(
        "adv_stone_circle", lambda state, w, seat: _actor(state, w, seat) and played_epic_unclaimed(state, w)
    ),
    options=lambda state, w, seat: (
        [{}]
        if _actor(state, w, seat)
        and played_epic_unclaimed(state, w)
        and "stone_circle" in state.territories
        and state.clans("stone_circle", seat)
        else []
    ),
)


# -- draws and the Gates ---------------------------------------------------------------------


@card_effect
class Meadows(CardEffect):
    """When you draw Epic Tale cards: draw 1 more, keep 1 of the drawn cards (ruling: a draw that
    already keeps K of N becomes keep K of N + 1)."""

    card = "adv_meadows"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        draw = ctx.state.stack[frame["args"]["window"]["context"]["draw_index"]]
        ctx.update(draw, count=draw["count"] + 1, keep=draw["keep"] or 1)
        return True


triskel(
    "adv_meadows",
    "epic_drawn",
    offer=_mine("adv_meadows", _actor),
    options=lambda state, w, seat: (
        [{}] if _actor(state, w, seat) and _free(state, seat, "adv_meadows") else []
    ),
)


@card_effect
class GatesAdvantage(CardEffect):
    """When the Gates effect is resolved for you: draw 2 Epic Tales instead of 1, keep 1."""

    card = "adv_gates"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        gates = ctx.state.stack[frame["args"]["window"]["context"]["gates_index"]]
        ctx.update(gates, bonus=True)
        return True


triskel(
    "adv_gates",
    "gates_effect",
    offer=_mine("adv_gates", _actor),
    options=lambda state, w, seat: [{}] if _actor(state, w, seat) else [],
)


# -- clashes -----------------------------------------------------------------------------------


@card_effect
class Highlands(CardEffect):
    """At the start of the Resolution step of a clash in the Highlands (ruling U11): choose a
    player with exposed clans there; they become the instigator."""

    card = "adv_highlands"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        clash = current_clash(ctx.state)
        new = frame["args"]["instigator"]
        if clash is not None and new in exposed_seats(ctx.state, clash):
            ctx.emit(
                "InstigatorChanged", territory=clash["territory"], seat=new, cause=card_name(self.card, "en")
            )
            ctx.update(clash, instigator=new, current=new)
        return True


@evolver(InstigatorChanged)
def _instigator_changed(state: GameState, p: InstigatorChanged) -> None:
    pass


def _highlands_options(state: GameState, w: WindowTrigger, seat: str) -> list[CommandFields]:
    clash = current_clash(state)
    if clash is None or w["context"]["territory"] != "highlands":
        return []
    return [{"instigator": s} for s in exposed_seats(state, clash)]


triskel(
    "adv_highlands",
    "resolution_started",
    offer=_mine("adv_highlands", lambda state, w, seat: w["context"]["territory"] == "highlands"),
    options=_highlands_options,
)


@card_effect
class Hills(CardEffect):
    """When an Attack targets you in the Hills: ignore it."""

    card = "adv_hills"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        clash = ctx.state.stack[frame["args"]["window"]["context"]["clash_index"]]
        if clash.get("attack"):
            ctx.update(clash, attack={**clash["attack"], "ignore": True})
        return True


def _hills_applies(state: GameState, w: WindowTrigger, seat: str) -> bool:
    return bool(w["context"]["territory"] == "hills" and w["context"]["target"] == seat)


triskel(
    "adv_hills",
    "attack_declared",
    offer=_mine("adv_hills", _hills_applies),
    options=lambda state, w, seat: [{}] if _hills_applies(state, w, seat) else [],
)


@card_effect
class IronMine(CardEffect):
    """When you perform an Attack: the attacked player removes 1 exposed clan and discards 1
    Action card (only the clan without an Action card)."""

    card = "adv_iron_mine"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        clash = ctx.state.stack[frame["args"]["window"]["context"]["clash_index"]]
        if clash.get("attack"):
            ctx.update(clash, attack={**clash["attack"], "both": True})
        return True


triskel(
    "adv_iron_mine",
    "attack_declared",
    offer=_mine("adv_iron_mine", _actor),
    options=lambda state, w, seat: [{}] if _actor(state, w, seat) else [],
)


@card_effect
class MountainsAdvantage(CardEffect):
    """When you move clans into the Mountains: ignore the Mountains effect."""

    card = "adv_mountains"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        toll = ctx.state.stack[frame["args"]["toll_index"]]
        ctx.update(toll, paid=True)
        ctx.emit("MountainsTollPaid", seat=frame["seat"], paid="ignored with the Mountains card")
        return True


# -- Moor: at any time -----------------------------------------------------------------------


@card_effect
class Moor(CardEffect):
    """At any time: look at the Epic Tale cards in 1 opponent's hand."""

    card = "adv_moor"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:

        seat, opponent = frame["seat"], frame["args"]["opponent"]
        cards = sorted(c for c in ctx.state.hands[opponent] if CARDS[c].type == EPIC)
        ctx.emit(
            "HandRevealed",
            visibility=(seat, opponent),
            seat=opponent,
            to=seat,
            cards=cards,
            cause=card_name(self.card, "en"),
        )
        return True


def moor_playable(state: GameState, seat: str) -> bool:
    """Whether `seat` may play the Moor now: it holds it, some decision is awaited (the Moor
    says "at any time", so a half-resolved clash, card or window is no obstacle; playing it
    needs no turn of your own, so it shows nothing about who is asked), no Lug's Spear
    forbids Triskel cards, and (from rules revision 2) it is not the card `seat` named to
    discard with Master Craftsman, still in play (`named_for_discard`)."""
    return (
        "adv_moor" in state.hands.get(seat, [])
        and state.top() is not None
        and state.phase != "over"
        and not triskels_forbidden(state)
        and _free(state, seat, "adv_moor")
    )


def moor_options(state: GameState, seat: str) -> list[CommandFields]:
    """The Moor plays open to `seat` now: one per opponent, in seating order (listed by
    `legal_commands` next to the seat's pending decision)."""
    if not moor_playable(state, seat):
        return []
    return [{"type": "moor", "opponent": s} for s in state.seats if s != seat]


@global_command("moor", options=moor_options)
def play_moor(ctx: Context, seat: str, command: CommandFields) -> None:
    """`{"type": "moor", "opponent": seat}`: play the Moor card at any time (docs/commands.md).

    Raises IllegalCommand when `seat` does not hold it, a Lug's Spear forbids Triskel cards, it
    is the discard `seat` named with a card still in play, or `opponent` is not another seated
    colour (a colour is understood: naming oneself or a colour nobody plays is against the
    card, docs/rules-api.md "Errors"); InvalidCommand when `opponent` is missing (a name that
    is no colour `decide` refuses first). The decision awaited before the play is awaited
    again after it."""
    state = ctx.state
    if "adv_moor" not in state.hands.get(seat, []):
        raise IllegalCommand(
            _("You do not hold the {card} Advantage card.").format(card=card_name("adv_moor"))
        )
    discarding = named_for_discard(state, seat, "adv_moor")
    if discarding is not None:
        raise IllegalCommand(
            _(
                "You named the {card} Advantage card as the card {other} discards: you cannot play it until {other} is resolved."
            ).format(card=card_name("adv_moor"), other=card_name(discarding))
        )
    if triskels_forbidden(state):
        raise IllegalCommand(
            _("{card}: no one may play Triskel cards during this clash.").format(
                card=card_name("ep_lugs_spear")
            )
        )
    opponent = command.get("opponent")
    if opponent not in state.seats or opponent == seat:
        raise (InvalidCommand if opponent is None else IllegalCommand)(
            _("Name the opponent whose Epic Tales you look at: {players}.").format(
                players=", ".join(player_name(s) for s in state.seats if s != seat)
            )
        )
    declare(ctx, seat, "adv_moor", "triskel", {"opponent": opponent})
