"""The Triskel Epic Tales answered in reaction windows (texts: docs/cards.md). The four maneuver Epic
Tales are in `epic_maneuvers`. Windows are offered to every seat holding an Epic Tale (a public
fact), or only to the seat the trigger concerns ("your clan", "your attack")."""

from __future__ import annotations

from .card_effects import CardEffect, card_effect
from .cards import gain_deed, named_for_discard
from .catalog import ADVANTAGE, CARDS, EPIC, card_name
from .engine import Context, evolver
from .event_payloads import CauldronSet
from .frames import CardFrame, ClashFrame, Frame, WindowTrigger
from .reactions import holds_epic, triskel
from .state import GameState, current_clash


def _frame(ctx_or_state: Context | GameState, index: int) -> Frame:
    state = ctx_or_state.state if isinstance(ctx_or_state, Context) else ctx_or_state
    return state.stack[index]


def _card_frame(ctx: Context, index: int) -> CardFrame:
    frame = _frame(ctx, index)
    assert frame["kind"] == "card"  # the card the window was opened for
    return frame


def _clash_frame(ctx: Context, index: int) -> ClashFrame:
    frame = _frame(ctx, index)
    assert frame["kind"] == "clash"  # the clash the window was opened in
    return frame


def _window(frame: CardFrame) -> WindowTrigger:
    window: WindowTrigger = frame["args"]["window"]
    return window


# -- The Dagda -----------------------------------------------------------------------------------


def _dagda_applies(state: GameState, w: WindowTrigger, seat: str) -> bool:
    # "When any player plays": the card's own player included (docs/rulings.md).
    return CARDS[w["context"]["card"]].type in (EPIC, ADVANTAGE)


@card_effect
class TheDagda(CardEffect):
    """When any player (you included) plays an Epic Tale or an Advantage card: its effect is
    ignored and it is discarded; then the Epic Tale discard pile, The Dagda included, is
    shuffled into the deck (ruling U5)."""

    card = "ep_the_dagda"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        target = _card_frame(ctx, _window(frame)["context"]["card_index"])
        ctx.update(target, cancelled=True)
        ctx.emit(
            "CardCancelled",
            card=target["card"],
            seat=target["seat"],
            by=frame["seat"],
            cause=card_name(self.card, "en"),
        )
        if CARDS[target["card"]].type == EPIC:
            # "The card is discarded. Then shuffle the discard pile": a cancelled Epic Tale is
            # discarded now, so it goes into the new deck too.
            ctx.update(target, kept=True)
            ctx.emit(
                "CardDiscarded",
                seat=target["seat"],
                card=target["card"],
                from_hand=False,
                cause=card_name(self.card, "en"),
            )
        ctx.update(frame, kept=True)
        state = ctx.state
        cards = list(state.epic_deck) + list(state.epic_discard) + [self.card]
        ctx.rng.shuffle(cards)
        ctx.emit("EpicDeckShuffled", visibility=(), cards=cards, from_discard=True, returned=self.card)
        return True


triskel(
    "ep_the_dagda",
    "card_declared",
    offer=lambda state, w, seat: _dagda_applies(state, w, seat) and holds_epic(state, seat),
    # Not the discard its holder named with Master Craftsman, still in play (rules revision 2,
    # docs/rulings.md "Master Craftsman (Season half)"): a hidden fact, so in the options only.
    options=lambda state, w, seat: (
        [{}]
        if _dagda_applies(state, w, seat) and named_for_discard(state, seat, "ep_the_dagda") is None
        else []
    ),
)


# -- Lug Samildanach -------------------------------------------------------------------------


@card_effect
class LugSamildanach(CardEffect):
    """After any Action card has been resolved: take it into your hand instead of the discard.
    Ruling U8: a card cancelled by Geis is never resolved, so it cannot be taken."""

    card = "ep_lug_samildanach"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        target = _card_frame(ctx, _window(frame)["context"]["card_index"])
        if target["kept"] or target["cancelled"]:
            return True
        ctx.update(target, kept=True)
        ctx.emit(
            "CardReturnedToHand", seat=frame["seat"], card=target["card"], cause=card_name(self.card, "en")
        )
        return True


triskel(
    "ep_lug_samildanach",
    "action_resolved",
    offer=lambda state, w, seat: holds_epic(state, seat),
    options=lambda state, w, seat: [{}],
)


# -- clash triggers ----------------------------------------------------------------------------


@card_effect
class LugsSpear(CardEffect):
    """At the start of a clash: nobody may play Triskel cards during this clash."""

    card = "ep_lugs_spear"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        clash = current_clash(ctx.state)
        if clash is not None:
            ctx.update(clash, spear=True)
        return True


triskel(
    "ep_lugs_spear",
    "clash_started",
    offer=lambda state, w, seat: holds_epic(state, seat),
    options=lambda state, w, seat: [{}],
)


@card_effect
class BattleFrenzy(CardEffect):
    """At the end of the Citadels step: every clan in the Citadels there comes out, exposed."""

    card = "ep_battle_frenzy"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        clash = current_clash(ctx.state)
        if clash is not None:
            ctx.update(clash, sheltered={})
        return True


triskel(
    "ep_battle_frenzy",
    "citadels_ended",
    offer=lambda state, w, seat: holds_epic(state, seat),
    options=lambda state, w, seat: (
        [{}] if (clash := current_clash(state)) is not None and any(clash["sheltered"].values()) else []
    ),
)


@card_effect
class StrengsResolve(CardEffect):
    """Right after you perform an Attack maneuver: gain 1 Deed."""

    card = "ep_strengs_resolve"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        gain_deed(ctx, frame["seat"], cause=card_name(self.card, "en"))
        return True


def _own_attack(w: WindowTrigger, seat: str) -> bool:
    return bool(seat == w["actor"] and w["context"].get("maneuver") == "attack")


triskel(
    "ep_strengs_resolve",
    "after_maneuver",
    offer=lambda state, w, seat: _own_attack(w, seat) and holds_epic(state, seat),
    options=lambda state, w, seat: [{}] if _own_attack(w, seat) else [],
)


# -- removals ----------------------------------------------------------------------------------


def _own_removal(w: WindowTrigger, seat: str) -> bool:
    return bool(seat == w["actor"])


@card_effect
class DiarmuidAndGrainne(CardEffect):
    """When 1 of your clans is removed: place it in another territory where you are present
    instead; this does not start a clash."""

    card = "ep_diarmuid_grainne"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        removal = _frame(ctx, _window(frame)["context"]["removal_index"])
        ctx.update(removal, relocate=frame["args"]["to"])
        return True


triskel(
    "ep_diarmuid_grainne",
    "clan_removed",
    offer=lambda state, w, seat: _own_removal(w, seat) and holds_epic(state, seat),
    options=lambda state, w, seat: (
        [{"to": t} for t in state.present(seat) if t != w["context"]["territory"]]
        if _own_removal(w, seat)
        else []
    ),
)


@card_effect
class DagdasClub(CardEffect):
    """When 1 of your clans would be removed: it is not. Or when you perform an Attack: you
    choose whether the attacked player removes a clan or discards an Action card."""

    card = "ep_dagdas_club"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        context = _window(frame)["context"]
        if frame["args"].get("mode") == "spare":
            ctx.update(_frame(ctx, context["removal_index"]), spared=True)
        else:
            clash = _clash_frame(ctx, context["clash_index"])
            attack = clash["attack"]
            if attack:
                ctx.update(clash, attack={**attack, "chooser": frame["seat"]})
        return True


triskel(
    "ep_dagdas_club",
    "clan_removed",
    offer=lambda state, w, seat: _own_removal(w, seat) and holds_epic(state, seat),
    options=lambda state, w, seat: [{"mode": "spare"}] if _own_removal(w, seat) else [],
)
triskel(
    "ep_dagdas_club",
    "attack_declared",
    offer=lambda state, w, seat: seat == w["actor"] and holds_epic(state, seat),
    options=lambda state, w, seat: [{"mode": "choose"}] if seat == w["actor"] else [],
)


@evolver(CauldronSet)
def _cauldron_set(state: GameState, p: CauldronSet) -> None:
    clash = current_clash(state)
    assert clash is not None  # Dagda's Cauldron is set in a clash
    clash.setdefault("cauldron", {})[p["seat"]] = 0


@card_effect
class DagdasCauldron(CardEffect):
    """During a clash, when 1 of your clans is removed: your clans removed in this clash go on
    this card; when the clash ends up to 3 go back into the territory, the others to your
    reserve (ruling U19)."""

    card = "ep_dagdas_cauldron"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        if current_clash(ctx.state) is None:
            return True
        ctx.emit("CauldronSet", seat=frame["seat"])
        ctx.update(frame, kept=True)
        ctx.emit("CardPutInFront", seat=frame["seat"], card=self.card)
        return True


def _cauldron_applies(state: GameState, w: WindowTrigger, seat: str) -> bool:
    clash = current_clash(state)
    return (
        seat == w["actor"]
        and clash is not None
        and clash["territory"] == w["context"]["territory"]
        and seat not in clash.get("cauldron", {})
    )


triskel(
    "ep_dagdas_cauldron",
    "clan_removed",
    offer=lambda state, w, seat: _cauldron_applies(state, w, seat) and holds_epic(state, seat),
    options=lambda state, w, seat: [{}] if _cauldron_applies(state, w, seat) else [],
)


# -- Season and Assembly triggers --------------------------------------------------------------


@card_effect
class OengusPloy(CardEffect):
    """At the end of any player's turn: you take the next turn; a Season about to end goes on
    (ruling U14: turn order then continues from you, and the passes count again from zero)."""

    card = "ep_oengus_ploy"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        for season in reversed(ctx.state.stack):
            if season["kind"] == "season":
                ctx.update(season, next_turn=frame["seat"], passes=0)
                break
        return True


triskel(
    "ep_oengus_ploy",
    "turn_ended",
    offer=lambda state, w, seat: holds_epic(state, seat),
    options=lambda state, w, seat: [{}],
)


@card_effect
class CathbadsWord(CardEffect):
    """At the start of the Assembly: you choose the set-aside Action card; after the draft you
    take it into your hand and set aside 1 Action card of yours."""

    card = "ep_cathbads_word"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        for assembly in reversed(ctx.state.stack):
            if assembly["kind"] == "assembly":
                ctx.update(assembly, cathbad=frame["seat"])
                break
        return True


triskel(
    "ep_cathbads_word",
    "assembly_started",
    offer=lambda state, w, seat: holds_epic(state, seat),
    options=lambda state, w, seat: [{}],
)
