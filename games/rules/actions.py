"""The 17 Action cards (texts: docs/cards.md), Season halves and Triskel halves.

Ruling (docs/rulings.md, "Cards that cannot do anything"): a Season half is played for whatever
part of its effect can be carried out (a target, a clan in reserve, a building in the supply);
`season_options` lists those plays, and when it lists none the card may still be played for no
effect (play.py, `NO_EFFECT`), except where its own text forbids it (the Druid as your only
Action card: `restriction`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .board import move_clans, place_building, place_clans, remove_clans
from .card_effects import CardEffect, card_effect
from .cards import discard_from_hand, draw_epic_tales, gain_deed, played_epic_unclaimed
from .catalog import ACTION, CARDS, card_name, territory_name
from .clash import start_clashes
from .command_types import CommandFields
from .engine import Context, Decision, evolver
from .errors import IllegalCommand
from .event_payloads import ClashInitiated
from .frames import CardFrame, WindowTrigger
from .island import cell_key, open_cells, parse_cell
from .language import _, gettext_noop, ngettext, pgettext, player_name, territory_phrase
from .moves import gatherings, splits
from .places import place_phrase
from .reactions import triskel
from .revisions import revision
from .state import GameState, current_clash, exposed
from .territory_effects import arrive_with_buildings


def _has_action(state: GameState, seat: str) -> bool:
    return bool(state.action_cards(seat))


def _opponents_in(state: GameState, tid: str, seat: str) -> list[Any]:
    return [s for s, n in state.territories[tid]["clans"].items() if n > 0 and s != seat]


def _names(tids: Iterable[str]) -> str:
    """Territories by name, for an error message: "Cove, Plains"."""
    return ", ".join(territory_name(t) for t in tids)


def _clans_there(state: GameState, seat: str, tid: str) -> str:
    """ "You have 2 clans in the Valley." for an error message."""
    n = state.clans(tid, seat)
    return ngettext(
        "You have {count} clan in {the_territory}.", "You have {count} clans in {the_territory}.", n
    ).format(count=n, the_territory=territory_phrase(tid))


# -- Bard ------------------------------------------------------------------------------------


@card_effect
class Bard(CardEffect):
    """Season: draw 1 Epic Tale. Triskel (after one of your maneuvers removed opposing clans):
    gain 1 Deed."""

    card = "act_bard"
    needs = gettext_noop("it needs an Epic Tale card to draw, in the deck or the discard pile")

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        return [{}] if state.epic_deck or state.epic_discard else []

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        if frame["half"] == "triskel":
            gain_deed(ctx, frame["seat"], cause=card_name(self.card, "en"))
        else:
            draw_epic_tales(ctx, frame["seat"], 1)
        return True


triskel(
    "act_bard",
    "after_maneuver",
    offer=lambda state, w, seat: (
        seat == w["actor"] and w["context"]["removed_opponents"] > 0 and _has_action(state, seat)
    ),
    options=lambda state, w, seat: (
        [{}] if (seat == w["actor"] and w["context"]["removed_opponents"] > 0) else []
    ),
)


# -- Citadel ---------------------------------------------------------------------------------


@card_effect
class Citadel(CardEffect):
    """Place 1 Citadel where you are present (never the Swamp); take that territory's Advantage
    card if it has not been played this round (ruling U6: even from another player's hand)."""

    card = "act_citadel"
    needs = gettext_noop(
        "it needs a territory where you are present, other than the Swamp, and there a "
        "Citadel left in the supply or an Advantage card you can take"
    )

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        places = [t for t in state.present(seat) if t != "swamp"]
        if state.supply["citadels"] <= 0:
            # No Citadel left: the card still gives the territory's Advantage card, where it can
            # be taken (ruling "Cards that cannot do anything": carried out in part).
            places = [
                t for t in places if state.advantage_location(state.advantage_of(t)) not in ("played", seat)
            ]
        return [{"territory": t} for t in places]

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        state, seat, tid = ctx.state, frame["seat"], frame["args"]["territory"]
        place_building(ctx, tid, "citadel")
        card = state.advantage_of(tid)
        where = state.advantage_location(card)
        if where not in ("played", seat):
            ctx.emit("AdvantageCardTaken", seat=seat, card=card, cause=card_name(self.card, "en"))
        return True


# -- moving cards ----------------------------------------------------------------------------


@card_effect
class Conquest(CardEffect):
    """Choose a territory; move any number of your clans into it from adjacent territories.
    Opposing clans there start a clash; you are the instigator."""

    card = "act_conquest"

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        out: list[CommandFields] = []
        for tid in state.territories:
            sources = {t: state.clans(t, seat) for t in state.adjacent(tid) if state.clans(t, seat)}
            for n in range(1, sum(sources.values()) + 1):
                out.extend({"territory": tid, "moves": m} for m in gatherings(n, sources))
        return out

    def validate(self, state: GameState, seat: str, args: CommandFields) -> CommandFields:
        tid, moves = args.get("territory"), args.get("moves")
        if tid not in state.territories or not isinstance(moves, dict) or not moves:
            raise IllegalCommand(
                _(
                    "{card}: name the territory to conquer and where your clans come "
                    "from, e.g. conquest of the plains: 2 from valley."
                ).format(card=card_name(self.card))
            )
        for origin, n in moves.items():
            if origin not in state.territories or origin not in state.adjacent(tid):
                raise IllegalCommand(
                    _(
                        "{card} moves clans only from territories adjacent to {the_territory}: {territories}."
                    ).format(
                        card=card_name(self.card),
                        the_territory=territory_phrase(tid),
                        territories=_names(state.adjacent(tid)),
                    )
                )
            if not isinstance(n, int) or n < 1 or n > state.clans(origin, seat):
                raise IllegalCommand(_clans_there(state, seat, origin))
        return {"territory": tid, "moves": dict(moves)}

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        seat, tid = frame["seat"], frame["args"]["territory"]
        move_clans(
            ctx,
            seat,
            [[o, tid, n] for o, n in frame["args"]["moves"].items()],
            cause=card_name(self.card, "en"),
        )
        start_clashes(ctx, seat, [tid])
        return True


@card_effect
class Migration(CardEffect):
    """Move 1 or more of your clans from 1 territory to 1 or more adjacent territories; each
    destination with opposing clans starts a clash, in the order you choose."""

    card = "act_migration"

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        out: list[CommandFields] = []
        for origin in state.present(seat):
            targets = state.adjacent(origin)
            for n in range(1, state.clans(origin, seat) + 1):
                out.extend({"from": origin, "moves": m} for m in splits(n, targets))
        return out

    def validate(self, state: GameState, seat: str, args: CommandFields) -> CommandFields:
        origin, moves = args.get("from"), args.get("moves")
        if origin not in state.territories or not state.clans(origin, seat):
            raise IllegalCommand(
                _("{card} moves clans from a territory where you are present: {territories}.").format(
                    card=card_name(self.card), territories=_names(state.present(seat))
                )
            )
        if not isinstance(moves, dict) or not moves:
            raise IllegalCommand(
                _("{card}: say where the clans go, e.g. 2 to cove, 1 to plains.").format(
                    card=card_name(self.card)
                )
            )
        for t, n in moves.items():
            if t not in state.territories or t not in state.adjacent(origin):
                raise IllegalCommand(
                    _("From {the_territory} clans can go to: {territories}.").format(
                        the_territory=territory_phrase(origin), territories=_names(state.adjacent(origin))
                    )
                )
            if not isinstance(n, int) or n < 1:
                raise IllegalCommand(_("Move counts are whole numbers of 1 or more."))
        if sum(moves.values()) > state.clans(origin, seat):
            raise IllegalCommand(_clans_there(state, seat, origin))
        return {"from": origin, "moves": dict(moves)}

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        seat, origin = frame["seat"], frame["args"]["from"]
        moves = frame["args"]["moves"]
        move_clans(ctx, seat, [[origin, t, n] for t, n in moves.items()], cause=card_name(self.card, "en"))
        start_clashes(ctx, seat, list(moves))
        return True


@card_effect
class Emissaries(CardEffect):
    """Move 1 of your clans to an adjacent territory; this never starts a clash."""

    card = "act_emissaries"

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        return [{"from": o, "to": t} for o in state.present(seat) for t in state.adjacent(o)]

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        a = frame["args"]
        move_clans(ctx, frame["seat"], [[a["from"], a["to"], 1]], cause=card_name(self.card, "en"))
        return True


@card_effect
class ScoutsAndSpies(CardEffect):
    """Look at 1 opponent's Action cards; then you may move 1 or more of your clans from 1
    territory to 1 adjacent territory, which can start a clash."""

    card = "act_scouts_spies"

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        return [{"opponent": s} for s in state.seats if s != seat]

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        state, seat = ctx.state, frame["seat"]
        if frame.get("sub") is None:
            opponent = frame["args"]["opponent"]
            ctx.emit(
                "HandRevealed",
                visibility=(seat, opponent),
                seat=opponent,
                to=seat,
                cards=sorted(state.action_cards(opponent)),
            )
            ctx.update(frame, sub="move", choice={"kind": "scouts_move"})
            return False
        return True

    def _moves(self, state: GameState, seat: str) -> list[CommandFields]:
        out = [{"type": "scouts_move", "skip": True}]
        for origin in state.present(seat):
            for t in state.adjacent(origin):
                out.extend(
                    {"type": "scouts_move", "from": origin, "to": t, "count": n}
                    for n in range(1, state.clans(origin, seat) + 1)
                )
        return out

    def decisions(self, state: GameState, frame: CardFrame) -> list[Decision]:
        return [
            Decision(
                frame["seat"],
                "card_choice",
                _("{card}: you may now move clans from 1 territory to 1 adjacent territory, or skip.").format(
                    card=card_name(self.card)
                ),
            )
        ]

    def legal(self, state: GameState, frame: CardFrame, seat: str) -> list[CommandFields]:
        return self._moves(state, seat)

    def choose(self, ctx: Context, frame: CardFrame, seat: str, command: CommandFields) -> None:
        if command not in self._moves(ctx.state, seat):
            raise IllegalCommand(
                _(
                    "{card}: move N clans from one territory where you are "
                    "present to an adjacent one, or skip."
                ).format(card=card_name(self.card))
            )
        ctx.update(frame, choice=None)
        if not command.get("skip"):
            move_clans(
                ctx,
                seat,
                [[command["from"], command["to"], command["count"]]],
                cause=card_name(self.card, "en"),
            )
            start_clashes(ctx, seat, [command["to"]])


# -- placing cards ---------------------------------------------------------------------------


@card_effect
class CraftsmenAndPeasants(CardEffect):
    """In each territory where you are present, place up to 1 clan per Citadel there (the
    Capital counts as a Citadel)."""

    card = "act_craftsmen_peasants"
    needs = gettext_noop(
        "it needs a clan in your reserve and a territory where you are present with a "
        "Citadel (the Capital counts)"
    )

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        caps = {t: state.citadel_slots(t) for t in state.present(seat) if state.citadel_slots(t)}
        reserve = state.reserve[seat]
        out: list[CommandFields] = [{}]
        for tid, cap in caps.items():
            out = [dict(o, **({tid: n} if n else {})) for o in out for n in range(cap + 1)]
        return [{"placements": o} for o in out if 1 <= sum(o.values()) <= reserve]

    def validate(self, state: GameState, seat: str, args: CommandFields) -> CommandFields:
        placements = args.get("placements")
        if isinstance(placements, dict):
            placements = {t: n for t, n in placements.items() if n}
        return super().validate(state, seat, {"placements": placements})

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        place_clans(ctx, frame["seat"], frame["args"]["placements"], cause=card_name(self.card, "en"))
        return True


@card_effect
class NewClans(CardEffect):
    """Place 2 clans where you are present, both in one territory or 1 in each of two.
    Ruling: with 1 clan left in reserve, place that one."""

    card = "act_new_clans"
    needs = gettext_noop("it needs a clan in your reserve")

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        present = sorted(state.present(seat))
        if state.reserve[seat] >= 2:
            return [{"territories": [a, b]} for i, a in enumerate(present) for b in present[i:]]
        if state.reserve[seat] == 1:
            return [{"territories": [a]} for a in present]
        return []

    def validate(self, state: GameState, seat: str, args: CommandFields) -> CommandFields:
        tids = args.get("territories")
        if isinstance(tids, list):
            args = {"territories": sorted(tids)}
        return super().validate(state, seat, args)

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        placements: dict[str, int] = {}
        for t in frame["args"]["territories"]:
            placements[t] = placements.get(t, 0) + 1
        place_clans(ctx, frame["seat"], placements, cause=card_name(self.card, "en"))
        return True


@card_effect
class NewAlliance(CardEffect):
    """Where you are present: place 1 clan; or replace 1 clan of an opponent who has 2 or more
    there by 1 of yours ("Return 1 of their clans to their reserve and place 1 of your own clans
    there in its place").

    With your reserve empty only the return can be carried out, and from rules revision 2 the
    card is played for it ("replace", ruling "Cards that cannot do anything": carried out in
    part); in revision 1 both modes needed a clan in the reserve."""

    card = "act_new_alliance"
    needs = gettext_noop(
        "it needs a clan in your reserve, or an opponent with 2 or more clans where you are present"
    )

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        reserve = state.reserve[seat]
        if not reserve and revision(state) < 2:
            return []
        out = []
        for t in state.present(seat):
            if reserve:
                out.append({"mode": "place", "territory": t})
            out.extend(
                {"mode": "replace", "territory": t, "opponent": s}
                for s in _opponents_in(state, t, seat)
                if state.clans(t, s) >= 2
            )
        return out

    def validate(self, state: GameState, seat: str, args: CommandFields) -> CommandFields:
        if not state.reserve[seat] and revision(state) < 2:
            raise IllegalCommand(
                _("{card} cannot be played now: {needs}; you may still play it for no effect.").format(
                    card=card_name(self.card), needs=_("it needs a clan in your reserve")
                )
            )
        return super().validate(state, seat, args)

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        a, seat = frame["args"], frame["seat"]
        if a["mode"] == "replace":
            remove_clans(ctx, a["opponent"], a["territory"], 1, cause=card_name(self.card, "en"))
        if ctx.state.reserve[seat]:
            place_clans(ctx, seat, {a["territory"]: 1}, cause=card_name(self.card, "en"))
        return True


@card_effect
class Festival(CardEffect):
    """Where you are present with a Sanctuary: place 1 clan and the Festival marker."""

    card = "act_festival"
    needs = gettext_noop("it needs a territory where you are present with a Sanctuary")

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        return [{"territory": t} for t in state.present(seat) if state.territories[t]["sanctuaries"]]

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        tid = frame["args"]["territory"]
        if ctx.state.reserve[frame["seat"]]:
            place_clans(ctx, frame["seat"], {tid: 1}, cause=card_name(self.card, "en"))
        ctx.emit("FestivalPlaced", territory=tid)
        return True


@card_effect
class Sanctuary(CardEffect):
    """Place 1 Sanctuary where you are present, then draw 1 Epic Tale."""

    card = "act_sanctuary"
    needs = gettext_noop("it needs a Sanctuary left in the supply or an Epic Tale left to draw")

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        if state.supply["sanctuaries"] <= 0 and not (state.epic_deck or state.epic_discard):
            return []
        # With the supply empty the Epic Tale is still drawn (ruling "Cards that cannot do
        # anything": carried out in part); the territory is named all the same.
        return [{"territory": t} for t in state.present(seat)]

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        place_building(ctx, frame["args"]["territory"], "sanctuary")
        draw_epic_tales(ctx, frame["seat"], 1)
        return True


@card_effect
class Exploration(CardEffect):
    """The Brenn puts the top territory tile on an empty place touching 2+ territories (its
    Advantage card goes face up; Gates and Stone Circle come with a Sanctuary); then you place
    1 clan there. Ruling U2/U3: not playable with an empty stack or no such place."""

    card = "act_exploration"
    needs = gettext_noop(
        "it needs a territory tile left in the stack and an empty place touching 2 territories"
    )

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        if not state.tile_stack or not self._cells(state):
            return []
        return [{}]

    def _cells(self, state: GameState) -> list[str]:
        return [cell_key(c) for c in open_cells(tuple(d["cell"]) for d in state.territories.values())]

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        if frame.get("sub") is None:
            ctx.update(frame, sub="cell", choice={"kind": "territory_cell"})
            return False
        return True

    def decisions(self, state: GameState, frame: CardFrame) -> list[Decision]:
        return [
            Decision(
                state.brenn,
                "territory_cell",
                _(
                    "{card} by {player}: as Brenn, choose where the new territory "
                    "goes (an empty place touching at least 2 territories)."
                ).format(card=card_name(self.card), player=player_name(frame["seat"])),
                {"cells": self._cells(state)},
            )
        ]

    def legal(self, state: GameState, frame: CardFrame, seat: str) -> list[CommandFields]:
        return [{"type": "territory_cell", "cell": c} for c in self._cells(state)]

    def choose(self, ctx: Context, frame: CardFrame, seat: str, command: CommandFields) -> None:
        state = ctx.state
        try:
            cell = cell_key(parse_cell(command.get("cell")))
        except (TypeError, ValueError):
            cell = None
        if command["type"] != "territory_cell" or cell not in self._cells(state):
            raise IllegalCommand(
                _("Choose an empty place touching at least 2 territories: {places}.").format(
                    places=pgettext("between the parts of a list", "; ").join(
                        place_phrase(state, c) for c in self._cells(state)
                    )
                )
            )
        tid = state.tile_stack[0]
        ctx.update(frame, choice=None)
        ctx.emit("TerritoryPlaced", territory=tid, cell=list(parse_cell(cell)), cause="Exploration")
        arrive_with_buildings(ctx, tid)
        if state.reserve[frame["seat"]]:
            place_clans(ctx, frame["seat"], {tid: 1}, cause=card_name(self.card, "en"))


# -- cards about cards -----------------------------------------------------------------------


@card_effect
class Druid(CardEffect):
    """Take 1 card from the Action discard pile into your hand. "Cannot be played if it is
    your only Action card" (docs/cards.md): then not even for no effect, the card's own text
    winning over the ruling "Cards that cannot do anything" (docs/rulings.md)."""

    card = "act_druid"
    needs = gettext_noop("it needs a card in the Action discard pile")

    def restriction(self, state: GameState, seat: str) -> str | None:
        if len(state.action_cards(seat)) < 2:
            return _("it is the only Action card in your hand, and the card says it cannot be played then")
        return None

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        if self.restriction(state, seat) or not state.action_discard:
            return []
        return [{}]

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        if frame.get("sub") is None:
            ctx.update(frame, sub="take", choice={"kind": "druid"})
            return False
        return True

    def decisions(self, state: GameState, frame: CardFrame) -> list[Decision]:
        return [
            Decision(
                frame["seat"],
                "card_choice",
                _("{card}: take 1 card from the Action discard pile.").format(card=card_name(self.card)),
            )
        ]

    def legal(self, state: GameState, frame: CardFrame, seat: str) -> list[CommandFields]:
        return [{"type": "choose", "card": c} for c in sorted(set(state.action_discard))]

    def choose(self, ctx: Context, frame: CardFrame, seat: str, command: CommandFields) -> None:
        if command.get("type") != "choose" or command.get("card") not in ctx.state.action_discard:
            names = ", ".join(card_name(c) for c in sorted(ctx.state.action_discard))
            raise IllegalCommand(
                _("{card}: take one of the discarded Action cards: {cards}.").format(
                    card=card_name(self.card), cards=names
                )
            )
        ctx.update(frame, choice=None)
        ctx.emit("CardTakenFromDiscard", visibility=(seat,), seat=seat, card=command["card"])


@card_effect
class MasterCraftsman(CardEffect):
    """Season: discard 1 card of any type if you have one, then draw 1 Epic Tale.
    Triskel (right after you play an Epic Tale): give that Epic Tale to another player instead
    of discarding it, and gain 1 Deed."""

    card = "act_master_craftsman"
    needs = gettext_noop("it needs an Epic Tale card to draw, in the deck or the discard pile")
    secret_args = ("discard",)

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        others = (
            sorted(set(state.hands[seat]) - {self.card})
            or sorted(c for c in state.hands[seat] if c == self.card)[1:]
        )
        if not (state.epic_deck or state.epic_discard):
            return []
        return [{"discard": c} for c in others] or [{}]

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        seat = frame["seat"]
        if frame["half"] == "triskel":
            window = frame["args"]["window"]
            epic_frame = ctx.state.stack[window["context"]["card_index"]]
            if epic_frame["kept"]:
                return True
            ctx.update(epic_frame, kept=True)
            ctx.emit(
                "CardReturnedToHand",
                seat=frame["args"]["to"],
                card=epic_frame["card"],
                cause=card_name(self.card, "en"),
            )
            gain_deed(ctx, seat, cause=card_name(self.card, "en"))
            return True
        card = frame.get("secret", {}).get("discard")
        # Discarded only if still in hand: from rules revision 2 it cannot be played before
        # (`named_for_discard`), but a revision-1 game may have played it meanwhile (the Moor at
        # any time); nothing else is discarded then (docs/rulings.md, "Master Craftsman (Season
        # half)").
        if card and card in ctx.state.hands[seat]:
            discard_from_hand(ctx, seat, card, cause=card_name(self.card, "en"))
        draw_epic_tales(ctx, seat, 1)
        return True


# Only for an Epic Tale on its way to the discard (a public fact): the window opens after The
# Dagda and Dagda's Cauldron too, for Forest.
triskel(
    "act_master_craftsman",
    "after_epic_played",
    offer=lambda state, w, seat: (
        seat == w["actor"] and _has_action(state, seat) and played_epic_unclaimed(state, w)
    ),
    options=lambda state, w, seat: (
        [{"to": s} for s in state.seats if s != seat]
        if seat == w["actor"] and played_epic_unclaimed(state, w)
        else []
    ),
)


# -- Triskel-only Action cards ---------------------------------------------------------------


@card_effect
class Geis(CardEffect):
    """Triskel, when an opponent plays an Action card (fully declared): it has no effect and is
    discarded."""

    card = "act_geis"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        window = frame["args"]["window"]
        target = ctx.state.stack[window["context"]["card_index"]]
        ctx.update(target, cancelled=True)
        ctx.emit(
            "CardCancelled",
            card=target["card"],
            seat=target["seat"],
            by=frame["seat"],
            cause=card_name(self.card, "en"),
        )
        return True


def _geis_applies(w: WindowTrigger, seat: str) -> bool:
    # There is one Geis: when Geis itself is the card declared, nobody else can hold it.
    card = w["context"]["card"]
    return seat != w["actor"] and CARDS[card].type == ACTION and card != "act_geis"


triskel(
    "act_geis",
    "card_declared",
    offer=lambda state, w, seat: _geis_applies(w, seat) and _has_action(state, seat),
    options=lambda state, w, seat: [{}] if _geis_applies(w, seat) else [],
)


@card_effect
class Raid(CardEffect):
    """Triskel, right after your Attack: take 1 Action card at random from the attacked player;
    if they have none, remove 1 of their exposed clans."""

    card = "act_raid"

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        state, seat = ctx.state, frame["seat"]
        context = frame["args"]["window"]["context"]
        target = context["target"]
        cards = state.action_cards(target)
        if cards:
            card = ctx.rng.choice(sorted(cards))
            ctx.emit(
                "CardGiven",
                visibility=(target, seat),
                **{"from": target},
                to=seat,
                card=card,
                cause=card_name(self.card, "en"),
            )
        else:
            clash = current_clash(state)
            if clash and exposed(state, clash, target) > 0:
                remove_clans(ctx, target, context["territory"], 1, cause=card_name(self.card, "en"))
        return True


triskel(
    "act_raid",
    "after_maneuver",
    offer=lambda state, w, seat: (
        seat == w["actor"] and w["context"]["maneuver"] == "attack" and _has_action(state, seat)
    ),
    options=lambda state, w, seat: (
        [{}] if (seat == w["actor"] and w["context"]["maneuver"] == "attack") else []
    ),
)


@card_effect
class Warlord(CardEffect):
    """Season: start a clash where you are present (with opponents); you are the instigator.
    Triskel, in a clash you are involved in, right after any maneuver: place 1 clan there
    (exposed) and choose who performs the next maneuver (ruling U13: play goes on from them)."""

    card = "act_warlord"
    needs = gettext_noop("it needs a territory where you and an opponent are present")

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        return [{"territory": t} for t in state.present(seat) if _opponents_in(state, t, seat)]

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        seat = frame["seat"]
        if frame["half"] == "season":
            ctx.emit(
                "ClashInitiated",
                seat=seat,
                territory=frame["args"]["territory"],
                cause=card_name(self.card, "en"),
            )
            start_clashes(ctx, seat, [frame["args"]["territory"]])
            return True
        clash = current_clash(ctx.state)
        if clash is None:
            return True
        if ctx.state.reserve[seat]:
            place_clans(ctx, seat, {clash["territory"]: 1}, cause=card_name(self.card, "en"))
        nxt = frame["args"]["next"]
        if exposed(ctx.state, clash, nxt) > 0 and clash["peace"]:
            # Peace proposed while this window was open: its vote still comes before the next
            # maneuver, as the one proposal before it (docs/rulings.md, "Peace").
            ctx.update(clash, current=nxt)
        elif exposed(ctx.state, clash, nxt) > 0:
            ctx.update(clash, current=nxt, proposed=False)
        return True


def _warlord_next(state: GameState, w: WindowTrigger, seat: str) -> list[CommandFields]:
    clash = current_clash(state)
    if clash is None or not (state.reserve[seat] or _warlord_without_a_clan(state)):
        return []
    out = []
    for s in state.turn_order_from(clash["instigator"]):
        if exposed(state, clash, s) > 0 or s == seat:
            out.append({"next": s})
    return out


def _involved(state: GameState, w: WindowTrigger, seat: str) -> bool:
    """Whether `seat` is involved in the clash whose maneuver the window `w` answers (Warlord:
    "During a clash in which you are involved"): it has exposed clans there (rulebook, Citadels:
    "A clan in a Citadel is protected and is not involved in the clash in any way"). Games of
    rules revision 1 count its sheltered clans too (games/rules/revisions.py)."""
    tid = w["context"]["territory"]
    if revision(state) < 2:
        return state.clans(tid, seat) > 0
    clash = current_clash(state)
    return clash is not None and clash["territory"] == tid and exposed(state, clash, seat) > 0


def _warlord_without_a_clan(state: GameState) -> bool:
    """Whether Warlord's Triskel half may be played with the reserve empty, for its second part
    alone (choosing who performs the next maneuver; docs/rulings.md, "Warlord with the reserve
    empty"): from rules revision 4. Before, it was not offered then."""
    return revision(state) >= 4


triskel(
    "act_warlord",
    "after_maneuver",
    offer=lambda state, w, seat: (
        _involved(state, w, seat)
        and _has_action(state, seat)
        and (state.reserve[seat] > 0 or _warlord_without_a_clan(state))
    ),
    options=lambda state, w, seat: _warlord_next(state, w, seat) if _involved(state, w, seat) else [],
)


@evolver(ClashInitiated)
def _clash_initiated(state: GameState, p: ClashInitiated) -> None:
    pass
