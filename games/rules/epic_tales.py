"""The Season halves of the 16 Season Epic Tales (texts: docs/cards.md).

Every card lists its legal arguments (`season_options`); an empty list means it cannot be played
now (ruling, docs/rulings.md: a card is played only when its effect can be carried out at least in
part). Choices that depend on hidden cards are not arguments of the public `play` command but
choices made after it: which revealed Epic Tale Deirdre's Beauty takes, the Action cards Maeve's
Wealth passes, the tiles Tailtu's Land draws, the Epic Tale Tuan's Memory keeps. Effects on
several players go Brenn first, then in Flock of Crows order (the Seasons of Inis rulebook,
Timing clarifications).

One module for the family, like the other card modules; it passes 600 lines because Deirdre's
Beauty, Maeve's Wealth and Tailtu's Land each ask their questions after the play.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from itertools import combinations, combinations_with_replacement
from typing import Any

from .board import move_clans, place_building, place_clans, remove_clans
from .card_effects import CardEffect, card_effect
from .cards import discard_from_hand, draw_epic_tales
from .catalog import CARDS, EPIC, card_name, territory_name
from .clash import start_clashes
from .command_types import CommandFields
from .engine import Context, Decision, evolver
from .errors import IllegalCommand, InvalidCommand
from .event_payloads import ClashLapsed, EpicTaleRevealed, TerritoryTilesDrawn, TerritoryTilesReturned
from .frames import CardFrame
from .island import cell_key, open_cells, parse_cell
from .language import (
    _,
    clans_placed,
    colour_clans,
    colour_name,
    gettext_noop,
    ngettext,
    pgettext,
    player_name,
    territory_phrase,
)
from .moves import gatherings
from .places import place_phrase
from .state import GameState
from .territory_effects import arrive_with_buildings, flock_changed


class SeasonCard(CardEffect):
    """A Season half whose arguments are checked against `season_options`, with refusals in the
    card's own words.

    `needs` (CardEffect): what the card needs, said to a player who tries it when it cannot.
    `normalise(state, seat, args)`: put equivalent arguments in the listed form (sorted lists,
    no zero counts); may raise TypeError/ValueError/AttributeError for malformed arguments.
    `describe(args)`: the arguments in words, for "Allowed: ..." lists.
    """

    def normalise(self, state: GameState, seat: str, args: dict[str, Any]) -> dict[str, Any]:
        return args

    def describe(self, args: dict[str, Any]) -> str:
        return ", ".join(f"{k} {v}" for k, v in args.items()) or _("with no arguments")

    def validate(self, state: GameState, seat: str, args: CommandFields) -> CommandFields:
        name = card_name(self.card)
        options = self.season_options(state, seat)
        if not options:
            raise IllegalCommand(
                _("{card} cannot be played now: {needs}; you may still play it for no effect.").format(
                    card=name, needs=_(self.needs)
                )
            )
        try:
            args = self.normalise(state, seat, dict(args))
        except (TypeError, ValueError, AttributeError, KeyError):
            raise InvalidCommand(
                _("{card}: malformed arguments. For example: {example}.").format(
                    card=name, example=self.describe(options[0])
                )
            ) from None
        for option in options:
            if option == args:
                listed: CommandFields = option  # the listed form (exact types), not the sender's
                return listed
        allowed = pgettext("between the parts of a list", "; ").join(self.describe(o) for o in options[:8])
        more = _(" (and {count} more)").format(count=len(options) - 8) if len(options) > 8 else ""
        raise IllegalCommand(
            _("{card} cannot be played that way. Allowed: {allowed}{more}.").format(
                card=name, allowed=allowed, more=more
            )
        )


def brenn_order(state: GameState, excluding: str | None = None) -> list[str]:
    """Seats Brenn first, then in Flock of Crows order (the Seasons of Inis rulebook, Timing
    clarifications), less `excluding`."""
    assert state.brenn is not None  # the Brenn is chosen at setup
    return [s for s in state.turn_order_from(state.brenn) if s != excluding]


def epics_in_hand(state: GameState, seat: str) -> list[Any]:
    return sorted(c for c in state.hands.get(seat, []) if CARDS[c].type == EPIC)


def can_draw_epic(state: GameState) -> bool:
    """An Epic Tale can be drawn: from the deck, or from the discard pile reshuffled (U1)."""
    return bool(state.epic_deck or state.epic_discard)


def placements_of(tids: Iterable[str]) -> dict[str, int]:
    """`{territory: count}` from a list of territories (repeats allowed)."""
    out: dict[str, Any] = {}
    for t in tids:
        out[t] = out.get(t, 0) + 1
    return out


def _where(tids: Iterable[str]) -> str:
    return _(" and ").join(territory_phrase(t) for t in tids)


def _placed(placements: dict[str, Any]) -> str:
    return clans_placed(placements)


# -- removing and moving clans ---------------------------------------------------------------


@card_effect
class BalorsEye(SeasonCard):
    """Remove any 1 clan (any player's, yours included) from any territory."""

    card = "ep_balors_eye"
    needs = gettext_noop("there is no clan on the island")

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        return [
            {"territory": t, "owner": s}
            for t, d in state.territories.items()
            for s in sorted(d["clans"])
            if d["clans"][s] > 0
        ]

    def describe(self, args: CommandFields) -> str:
        return _("remove 1 {colour} clan from {the_territory}").format(
            colour=colour_name(args["owner"]), the_territory=territory_phrase(args["territory"])
        )

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        a = frame["args"]
        remove_clans(ctx, a["owner"], a["territory"], 1, cause=card_name(self.card, "en"))
        return True


@card_effect
class BreasTyranny(SeasonCard):
    """In a territory where you are present, move 1 opposing clan to an adjacent territory. This
    move does not start a clash; moved into the Mountains, its owner pays the toll."""

    card = "ep_breas_tyranny"
    needs = gettext_noop("it needs an opposing clan in a territory where you are present")

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        return [
            {"from": t, "owner": s, "to": d}
            for t in state.present(seat)
            for s in sorted(state.territories[t]["clans"])
            if s != seat and state.clans(t, s)
            for d in state.adjacent(t)
        ]

    def describe(self, args: CommandFields) -> str:
        return _("move 1 {colour} clan from {the_territory} to {the_other_territory}").format(
            colour=colour_name(args["owner"]),
            the_territory=territory_phrase(args["from"]),
            the_other_territory=territory_phrase(args["to"]),
        )

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        a = frame["args"]
        if ctx.state.clans(a["from"], a["owner"]):
            move_clans(ctx, a["owner"], [[a["from"], a["to"], 1]], cause=card_name(self.card, "en"))
        return True


@card_effect
class ManannansHorses(SeasonCard):
    """Move up to 3 of your clans from 1 territory to 1 other territory anywhere in play (no
    adjacency needed). Opposing clans there start a clash; you are the instigator."""

    card = "ep_manannans_horses"
    needs = gettext_noop("you have no clans on the island")

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        return [
            {"from": o, "to": d, "count": n}
            for o in state.present(seat)
            for d in state.territories
            if d != o
            for n in range(1, min(3, state.clans(o, seat)) + 1)
        ]

    def describe(self, args: CommandFields) -> str:
        return ngettext(
            "move {count} clan from {the_territory} to {the_other_territory}",
            "move {count} clans from {the_territory} to {the_other_territory}",
            args["count"],
        ).format(
            count=args["count"],
            the_territory=territory_phrase(args["from"]),
            the_other_territory=territory_phrase(args["to"]),
        )

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        seat, a = frame["seat"], frame["args"]
        n = min(a["count"], ctx.state.clans(a["from"], seat))
        move_clans(ctx, seat, [[a["from"], a["to"], n]], cause=card_name(self.card, "en"))
        start_clashes(ctx, seat, [a["to"]])
        return True


@card_effect
class TheMorrigan(SeasonCard):
    """You may flip the Flock of Crows (a change of turn direction: the Gates take their toll).
    Then you may start a clash in any territory, choosing 1 player present there as instigator.

    Arguments: `flip` (bool), and optionally `territory` and `instigator`. Rulings: the card must
    do at least one of the two; the clash starts after the Gates effect of the flip, and lapses if
    by then the instigator or every opposing clan has left the territory.
    """

    card = "ep_the_morrigan"
    optional_args = ("flip", "territory", "instigator")

    def _clashes(self, state: GameState) -> list[tuple[str, str]]:
        return [
            (t, s)
            for t, d in state.territories.items()
            for s in sorted(d["clans"])
            if d["clans"][s] > 0 and any(n > 0 and o != s for o, n in d["clans"].items())
        ]

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        clashes = self._clashes(state)
        return [{"flip": True}] + [
            {"flip": flip, "territory": t, "instigator": s} for flip in (True, False) for t, s in clashes
        ]

    def normalise(self, state: GameState, seat: str, args: CommandFields) -> CommandFields:
        args.setdefault("flip", False)
        return args

    def describe(self, args: CommandFields) -> str:
        parts = [_("flip the Flock of Crows")] if args["flip"] else []
        if "territory" in args:
            parts.append(
                _("start a clash in {the_territory} with {player} as instigator").format(
                    the_territory=territory_phrase(args["territory"]), player=player_name(args["instigator"])
                )
            )
        return _(" and ").join(parts)

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        state, a = ctx.state, frame["args"]
        if frame.get("sub") is None:
            ctx.update(frame, sub="clash")
            if a["flip"]:
                other = "counterclockwise" if state.flock == "clockwise" else "clockwise"
                ctx.emit("FlockTossed", side=other, cause=card_name(self.card, "en"))
                flock_changed(ctx)
                return False  # the Gates effect (if any) resolves before the clash
        if "territory" in a:
            tid, instigator = a["territory"], a["instigator"]
            if (tid, instigator) in self._clashes(state):
                ctx.emit(
                    "ClashInitiated",
                    seat=instigator,
                    territory=tid,
                    cause=card_name(self.card, "en"),
                    by=frame["seat"],
                )
                start_clashes(ctx, instigator, [tid])
            else:
                ctx.emit(
                    "ClashLapsed", territory=tid, instigator=instigator, cause=card_name(self.card, "en")
                )
        return True


@evolver(ClashLapsed)
def _clash_lapsed(state: GameState, p: ClashLapsed) -> None:
    pass


# -- placing clans ---------------------------------------------------------------------------


@card_effect
class ChildrenOfDana(SeasonCard):
    """Place 1 clan from your reserve in any territory; you need not be present there."""

    card = "ep_children_of_dana"
    needs = gettext_noop("it needs a clan in your reserve")

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        return [{"territory": t} for t in state.territories] if state.reserve[seat] else []

    def describe(self, args: CommandFields) -> str:
        return _("place 1 clan in {the_territory}").format(the_territory=territory_phrase(args["territory"]))

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        if ctx.state.reserve[frame["seat"]]:
            place_clans(ctx, frame["seat"], {frame["args"]["territory"]: 1}, cause=card_name(self.card, "en"))
        return True


@card_effect
class DagdasHarp(SeasonCard):
    """For each other Epic Tale card in your hand, place 1 clan in a territory where you are
    present (each may go to a different one); at most 3. Counted when the card is played; with a
    short reserve, as many as the reserve holds."""

    card = "ep_dagdas_harp"
    needs = gettext_noop(
        "it needs another Epic Tale in your hand, a clan in reserve and a clan on the island"
    )

    def count(self, state: GameState, seat: str) -> int:
        others = len(epics_in_hand(state, seat)) - (1 if self.card in state.hands[seat] else 0)
        return min(3, others, state.reserve[seat])

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        n = self.count(state, seat)
        if n <= 0:
            return []
        return [
            {"placements": placements_of(c)}
            for c in combinations_with_replacement(sorted(state.present(seat)), n)
        ]

    def normalise(self, state: GameState, seat: str, args: CommandFields) -> CommandFields:
        return {"placements": {t: n for t, n in args["placements"].items() if n}}

    def describe(self, args: CommandFields) -> str:
        return _placed(args["placements"])

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        seat = frame["seat"]
        placements = dict(frame["args"]["placements"])
        while sum(placements.values()) > ctx.state.reserve[seat]:
            last = sorted(placements)[-1]
            placements[last] -= 1
            placements = {t: n for t, n in placements.items() if n}
        place_clans(ctx, seat, placements, cause=card_name(self.card, "en"))
        return True


@card_effect
class Eriu(SeasonCard):
    """In each territory where you are present with at least 1 Sanctuary, you may place 1 clan;
    at most 3 in all. Argument `territories`: 1 to 3 such territories."""

    card = "ep_eriu"
    needs = gettext_noop("it needs a clan in reserve and a territory with a Sanctuary where you are present")

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        eligible = sorted(t for t in state.present(seat) if state.territories[t]["sanctuaries"])
        most = min(3, state.reserve[seat], len(eligible))
        return [{"territories": list(c)} for k in range(1, most + 1) for c in combinations(eligible, k)]

    def normalise(self, state: GameState, seat: str, args: CommandFields) -> CommandFields:
        return {"territories": sorted(args["territories"])}

    def describe(self, args: CommandFields) -> str:
        return _("place 1 clan in {territories}").format(territories=_where(args["territories"]))

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        seat = frame["seat"]
        tids = frame["args"]["territories"][: ctx.state.reserve[seat]]
        place_clans(ctx, seat, placements_of(tids), cause=card_name(self.card, "en"))
        return True


@card_effect
class KernunosSanctuary(SeasonCard):
    """In a territory where you are present that has no Sanctuary, place 1 clan and 1 Sanctuary.
    Ruling U7: no Epic Tale is drawn. Either part alone when the reserve or the supply is out."""

    card = "ep_kernunos_sanctuary"
    needs = gettext_noop(
        "it needs a territory without a Sanctuary where you are present, and a clan in "
        "reserve or a Sanctuary in the supply"
    )

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        if not state.reserve[seat] and state.supply["sanctuaries"] <= 0:
            return []
        return [{"territory": t} for t in state.present(seat) if not state.territories[t]["sanctuaries"]]

    def describe(self, args: CommandFields) -> str:
        return _("in {the_territory}").format(the_territory=territory_phrase(args["territory"]))

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        seat, tid = frame["seat"], frame["args"]["territory"]
        if ctx.state.reserve[seat]:
            place_clans(ctx, seat, {tid: 1}, cause=card_name(self.card, "en"))
        place_building(ctx, tid, "sanctuary")
        return True


@card_effect
class NuadaSilverhand(SeasonCard):
    """In each territory where you are chieftain, you may place 1 clan for each opposing player
    present there (players, not clans). Argument `placements`: {territory: count}."""

    card = "ep_nuada_silverhand"
    needs = gettext_noop(
        "it needs a clan in reserve and a territory you are chieftain of with opponents there"
    )

    def caps(self, state: GameState, seat: str) -> dict[str, Any]:
        out = {}
        for t in sorted(state.territories):
            if state.chieftain(t) == seat:
                others = sum(1 for s, n in state.territories[t]["clans"].items() if n and s != seat)
                if others:
                    out[t] = others
        return out

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        reserve = state.reserve[seat]
        partial: list[tuple[dict[str, int], int]] = [({}, 0)]
        for tid, cap in self.caps(state, seat).items():
            partial = [
                (dict(p, **({tid: n} if n else {})), total + n)
                for p, total in partial
                for n in range(min(cap, reserve - total) + 1)
            ]
        return [{"placements": p} for p, total in partial if total >= 1]

    def normalise(self, state: GameState, seat: str, args: CommandFields) -> CommandFields:
        return {"placements": {t: n for t, n in args["placements"].items() if n}}

    def describe(self, args: CommandFields) -> str:
        return _placed(args["placements"])

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        place_clans(ctx, frame["seat"], frame["args"]["placements"], cause=card_name(self.card, "en"))
        return True


@card_effect
class TheOtherworld(SeasonCard):
    """In a territory where you are present: for each Sanctuary there, place 1 clan or remove 1
    opposing clan there, mixing as you like; at most 3 in all.

    Arguments: `territory`, `place` (clans placed), `remove` ({opponent: clans removed}). Ruling:
    every Sanctuary gives its action while one is possible (min(3, Sanctuaries, reserve +
    opposing clans there)); only the mix is chosen.
    """

    card = "ep_the_otherworld"
    optional_args = ("place", "remove")
    needs = gettext_noop(
        "it needs a territory with a Sanctuary where you are present, and a clan in "
        "reserve or an opposing clan there"
    )

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        out: list[CommandFields] = []
        reserve = state.reserve[seat]
        for tid in sorted(state.present(seat)):
            d = state.territories[tid]
            opposing = {s: n for s, n in sorted(d["clans"].items()) if s != seat and n}
            total = min(3, d["sanctuaries"], reserve + sum(opposing.values()))
            for place in range(max(0, total - sum(opposing.values())), min(total, reserve) + 1):
                removals = gatherings(total - place, opposing) if total > place else [{}]
                out.extend({"territory": tid, "place": place, "remove": r} for r in removals)
        return [o for o in out if o["place"] or o["remove"]]

    def normalise(self, state: GameState, seat: str, args: CommandFields) -> CommandFields:
        args.setdefault("place", 0)
        args["remove"] = {s: n for s, n in (args.get("remove") or {}).items() if n}
        return args

    def describe(self, args: CommandFields) -> str:
        parts = (
            [
                ngettext("placing {count} clan", "placing {count} clans", args["place"]).format(
                    count=args["place"]
                )
            ]
            if args["place"]
            else []
        )
        parts += [_("removing {clans}").format(clans=colour_clans(n, s)) for s, n in args["remove"].items()]
        return _("{effects} in {the_territory}").format(
            the_territory=territory_phrase(args["territory"]), effects=_(" and ").join(parts)
        )

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        seat, a = frame["seat"], frame["args"]
        tid = a["territory"]
        place = min(a["place"], ctx.state.reserve[seat])
        if place:
            place_clans(ctx, seat, {tid: place}, cause=card_name(self.card, "en"))
        for owner, n in sorted(a["remove"].items()):
            remove_clans(ctx, owner, tid, n, cause=card_name(self.card, "en"))
        return True


@card_effect
class StoneOfFal(SeasonCard):
    """Place 2 clans in the Capital's territory; no presence needed (1 with 1 in reserve)."""

    card = "ep_stone_of_fal"
    needs = gettext_noop("it needs a clan in your reserve")

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        return [{}] if state.reserve[seat] and state.capital in state.territories else []

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        seat = frame["seat"]
        n = min(2, ctx.state.reserve[seat])
        if n:
            assert ctx.state.capital is not None  # the Capital is chosen at setup
            place_clans(ctx, seat, {ctx.state.capital: n}, cause=card_name(self.card, "en"))
        return True


# -- cards ---------------------------------------------------------------------------------------


@card_effect
class ChampionsShare(SeasonCard):
    """Take the Action card set aside during this round's Assembly into your hand. Ruling: the
    card set aside now (after a Cove, the card the Cove's player set aside)."""

    card = "ep_champions_share"
    needs = gettext_noop("no Action card is set aside")

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        return [{}] if state.set_aside else []

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        if ctx.state.set_aside:
            # Public: the set-aside card is taken face down; the payload does not name it.
            ctx.emit("SetAsideCardTaken", seat=frame["seat"], cause=card_name(self.card, "en"))
        return True


@card_effect
class TuansMemory(SeasonCard):
    """Draw 3 Epic Tale cards, keep 1, discard the other 2 (fewer when the deck and its discard
    pile hold fewer; ruling U1)."""

    card = "ep_tuans_memory"
    needs = gettext_noop("the Epic Tale deck and discard pile are empty")

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        return [{}] if can_draw_epic(state) else []

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        draw_epic_tales(ctx, frame["seat"], 3, keep=1, cause=card_name(self.card, "en"))
        return True


@evolver(EpicTaleRevealed)
def _epic_tale_revealed(state: GameState, p: EpicTaleRevealed) -> None:
    pass  # information only: the card is shown to everyone, it stays in the hand for now


@card_effect
class DeirdresBeauty(SeasonCard):
    """Each opponent reveals 1 Epic Tale chosen at random from their hand; take 1 of the revealed
    cards, the others are discarded. Then remove 1 of your own clans from any territory.

    Rulings: playable only when an opponent holds an Epic Tale (the removal alone is a cost, not
    an effect). Reveals go Brenn first, then in Flock of Crows order, face up for everyone; a
    single revealed card is taken without asking; the clan to remove is asked for only when you
    are present in more than one territory. A revealed card stays in its owner's hand until
    you choose: one they play meanwhile (The Dagda answering a Moor) is neither taken nor
    discarded, and you choose among the others (ruling "A revealed card played before the
    choice").
    """

    card = "ep_deirdres_beauty"
    needs = gettext_noop("no opponent holds an Epic Tale")

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        return [{}] if any(epics_in_hand(state, s) for s in state.seats if s != seat) else []

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        state, seat = ctx.state, frame["seat"]
        sub = frame.get("sub")
        if sub is None:
            revealed: list[list[str]] = []
            for opponent in brenn_order(state, excluding=seat):
                cards = epics_in_hand(state, opponent)
                if cards:
                    card = ctx.rng.choice(cards)
                    ctx.emit("EpicTaleRevealed", seat=opponent, card=card, cause=card_name(self.card, "en"))
                    revealed.append([opponent, card])
            if len(revealed) > 1:
                ctx.update(frame, sub="take", revealed=revealed, choice={"kind": "take"})
                return False
            if revealed:
                self._take(ctx, frame, revealed, revealed[0][1])
            sub = "taken"
        if sub == "taken":
            present = state.present(seat)
            if len(present) > 1:
                ctx.update(frame, sub="remove", choice={"kind": "remove_clan"})
                return False
            if present:
                remove_clans(ctx, seat, present[0], 1, cause=card_name(self.card, "en"))
        return True

    def _take(self, ctx: Context, frame: CardFrame, revealed: list[list[str]], card: str) -> None:
        seat, cause = frame["seat"], card_name(self.card, "en")
        for opponent, c in _still_revealed(ctx.state, revealed):
            if c == card:
                ctx.emit("CardGiven", **{"from": opponent}, to=seat, card=c, cause=cause)
            else:
                discard_from_hand(ctx, opponent, c, cause=cause)

    def decisions(self, state: GameState, frame: CardFrame) -> list[Decision]:
        if frame["sub"] == "take":
            names = ", ".join(
                f"{card_name(c)} ({colour_name(s)})" for s, c in _still_revealed(state, frame["revealed"])
            )
            return [
                Decision(
                    frame["seat"],
                    "card_choice",
                    _(
                        "{card}: take 1 of the revealed Epic Tales ({cards}); the others are discarded."
                    ).format(card=card_name(self.card), cards=names),
                    {"revealed": [list(r) for r in frame["revealed"]]},
                )
            ]
        return [
            Decision(
                frame["seat"],
                "card_choice",
                _("{card}: remove 1 of your own clans from a territory of your choice.").format(
                    card=card_name(self.card)
                ),
                {"territories": sorted(state.present(frame["seat"]))},
            )
        ]

    def legal(self, state: GameState, frame: CardFrame, seat: str) -> list[CommandFields]:
        if frame["sub"] == "take":
            # Never empty: the choice needs 2 revealed cards, and only The Dagda (one copy) can
            # leave a hand before it (answering a Moor played meanwhile).
            return [{"type": "choose", "card": c} for _seat, c in _still_revealed(state, frame["revealed"])]
        return [{"type": "remove_clan", "territory": t} for t in sorted(state.present(seat))]

    def choose(self, ctx: Context, frame: CardFrame, seat: str, command: CommandFields) -> None:
        legal = self.legal(ctx.state, frame, seat)
        if command not in legal:
            if frame["sub"] == "take":
                raise IllegalCommand(
                    _("{card}: take one of the revealed cards: {cards}.").format(
                        card=card_name(self.card), cards=", ".join(card_name(c["card"]) for c in legal)
                    )
                )
            raise IllegalCommand(
                _("{card}: remove 1 of your clans from one of: {territories}.").format(
                    card=card_name(self.card),
                    territories=", ".join(territory_name(c["territory"]) for c in legal),
                )
            )
        if frame["sub"] == "take":
            ctx.update(frame, sub="taken", choice=None)
            self._take(ctx, frame, frame["revealed"], command["card"])
        else:
            ctx.update(frame, sub="done", choice=None)
            remove_clans(ctx, seat, command["territory"], 1, cause=card_name(self.card, "en"))


def _still_revealed(state: GameState, revealed: list[list[str]]) -> list[list[str]]:
    """The `[owner, card]` pairs of Deirdre's Beauty's revealed cards still in their owner's
    hand: one played before the choice is neither taken nor discarded (docs/rulings.md, "A
    revealed card played before the choice")."""
    return [[owner, card] for owner, card in revealed if card in state.hands.get(owner, [])]


@card_effect
class MaevesWealth(SeasonCard):
    """Every other player with at least 1 Action card gives you 1 Action card of their choice;
    then you give 1 Action card to each player who gave you one.

    Rulings: the givers choose at the same time (each choice depends only on their own hand);
    you then give back Brenn first, then in Flock of Crows order, and may give back a card you
    have just received. Each passing is seen only by the two players concerned. A player with a
    single Action card (or a single choice) gives it without being asked.
    """

    card = "ep_maeves_wealth"
    needs = gettext_noop("no other player holds an Action card")

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        return [{}] if any(state.action_cards(s) for s in state.seats if s != seat) else []

    def _give(self, ctx: Context, giver: str, receiver: str, card: str) -> None:
        ctx.emit(
            "CardGiven",
            visibility=(giver, receiver),
            **{"from": giver},
            to=receiver,
            card=card,
            cause=card_name(self.card, "en"),
        )

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        state, seat = ctx.state, frame["seat"]
        if frame.get("sub") is None:
            givers = [s for s in brenn_order(state, excluding=seat) if state.action_cards(s)]
            waiting = []
            for giver in givers:
                cards = sorted(set(state.action_cards(giver)))
                if len(cards) == 1:
                    self._give(ctx, giver, seat, cards[0])
                else:
                    waiting.append(giver)
            ctx.update(frame, sub="gifts", givers=givers, waiting=waiting, queue=list(givers))
            if waiting:
                ctx.update(frame, choice={"kind": "give"})
                return False
        # Give back, one receiver after the other.
        queue = list(frame["queue"])
        while queue:
            cards = sorted(set(state.action_cards(seat)))
            if not cards:
                break
            if len(cards) > 1:
                ctx.update(frame, sub="return", queue=queue, choice={"kind": "give"})
                return False
            self._give(ctx, seat, queue.pop(0), cards[0])
        ctx.update(frame, sub="done", queue=[])
        return True

    def decisions(self, state: GameState, frame: CardFrame) -> list[Decision]:
        seat = frame["seat"]
        if frame["sub"] == "gifts":
            return [
                Decision(
                    g,
                    "card_choice",
                    _(
                        "{card}, played by {player}: give {player} 1 of your Action cards (your choice)."
                    ).format(card=card_name(self.card), player=player_name(seat)),
                    {"to": seat},
                )
                for g in frame["waiting"]
            ]
        to = frame["queue"][0]
        return [
            Decision(
                seat,
                "card_choice",
                _("{card}: give 1 of your Action cards to {player}.").format(
                    card=card_name(self.card), player=player_name(to)
                ),
                {"to": to},
            )
        ]

    def legal(self, state: GameState, frame: CardFrame, seat: str) -> list[CommandFields]:
        if frame["sub"] == "gifts" and seat not in frame["waiting"]:
            return []
        if frame["sub"] == "return" and seat != frame["seat"]:
            return []
        return [{"type": "give", "card": c} for c in sorted(set(state.action_cards(seat)))]

    def choose(self, ctx: Context, frame: CardFrame, seat: str, command: CommandFields) -> None:
        legal = self.legal(ctx.state, frame, seat)
        if command not in legal:
            raise IllegalCommand(
                _("{card}: give one of your Action cards: {cards}.").format(
                    card=card_name(self.card), cards=", ".join(card_name(c["card"]) for c in legal)
                )
            )
        if frame["sub"] == "gifts":
            self._give(ctx, seat, frame["seat"], command["card"])
            waiting = [s for s in frame["waiting"] if s != seat]
            ctx.update(frame, waiting=waiting, **({} if waiting else {"choice": None}))
        else:
            self._give(ctx, seat, frame["queue"][0], command["card"])
            ctx.update(frame, queue=frame["queue"][1:], choice=None)


# -- the island ----------------------------------------------------------------------------------


@evolver(TerritoryTilesDrawn)
def _tiles_drawn(state: GameState, p: TerritoryTilesDrawn) -> None:
    tiles = list(p["tiles"])
    state.tile_stack = state.tile_stack[len(tiles) :]
    for frame in reversed(state.stack):
        if frame["kind"] == "card" and frame["card"] == p["card"]:
            frame["secret"] = {"tiles": tiles}
            return


@evolver(TerritoryTilesReturned)
def _tiles_returned(state: GameState, p: TerritoryTilesReturned) -> None:
    state.tile_stack = state.tile_stack + list(p["tiles"])
    for frame in reversed(state.stack):
        if frame["kind"] == "card" and frame["card"] == p["card"]:
            frame["secret"] = {"tiles": []}
            return


@card_effect
class TailtusLand(SeasonCard):
    """Draw 3 territory tiles; place 1 of them, your choice, on an empty place touching at least
    2 territories (its Advantage card face up; Gates and Stone Circle with a Sanctuary); put the
    others face down at the bottom of the stack. Then you may move 1 of your clans from an
    adjacent territory onto it.

    Rulings: U2, with fewer than 3 tiles left draw what remains; U3, not playable with an empty
    stack or no such place. The player of the card chooses tile and place in one command; the
    tiles not placed go to the bottom in the order drawn. The tiles drawn are seen only by you.
    """

    card = "ep_tailtus_land"
    needs = gettext_noop("the territory stack is empty or no empty place touches 2 territories")

    def _cells(self, state: GameState) -> list[str]:
        cells = open_cells(tuple(d["cell"]) for d in state.territories.values())
        return [cell_key(c) for c in cells]

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        return [{}] if state.tile_stack and self._cells(state) else []

    def _sources(self, state: GameState, frame: CardFrame) -> list[str]:
        tid = frame["placed"]
        return [t for t in state.adjacent(tid) if state.clans(t, frame["seat"])]

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        state, seat = ctx.state, frame["seat"]
        sub = frame.get("sub")
        if sub is None:
            tiles = state.tile_stack[:3]
            if not tiles or not self._cells(state):
                return True
            ctx.emit("TerritoryTilesDrawn", visibility=(seat,), seat=seat, card=self.card, tiles=tiles)
            ctx.update(frame, sub="tile", choice={"kind": "place_territory"})
            return False
        if sub == "placed" and self._sources(state, frame):
            ctx.update(frame, sub="move", choice={"kind": "tailtu_move"})
            return False
        return True

    def decisions(self, state: GameState, frame: CardFrame) -> list[Decision]:
        seat = frame["seat"]
        if frame["sub"] == "tile":
            return [
                Decision(
                    seat,
                    "card_choice",
                    _(
                        "{card}: place 1 of the territory tiles you drew on an empty "
                        "place touching at least 2 territories; the others go to the bottom "
                        "of the stack."
                    ).format(card=card_name(self.card)),
                    {"cells": self._cells(state)},
                )
            ]
        return [
            Decision(
                seat,
                "card_choice",
                _(
                    "{card}: you may move 1 of your clans from an adjacent territory "
                    "into {the_territory}, or skip."
                ).format(card=card_name(self.card), the_territory=territory_phrase(frame["placed"])),
                {"territory": frame["placed"]},
            )
        ]

    def legal(self, state: GameState, frame: CardFrame, seat: str) -> list[CommandFields]:
        if seat != frame["seat"]:
            return []
        if frame["sub"] == "tile":
            return [
                {"type": "place_territory", "territory": t, "cell": c}
                for t in frame["secret"]["tiles"]
                for c in self._cells(state)
            ]
        return [{"type": "tailtu_move", "skip": True}] + [
            {"type": "tailtu_move", "from": t} for t in self._sources(state, frame)
        ]

    def choose(self, ctx: Context, frame: CardFrame, seat: str, command: CommandFields) -> None:
        state = ctx.state
        if frame["sub"] == "tile":
            command = dict(command)
            with contextlib.suppress(TypeError, ValueError):
                command["cell"] = cell_key(parse_cell(command.get("cell")))
            if command not in self.legal(state, frame, seat):
                tiles = ", ".join(territory_name(t) for t in frame["secret"]["tiles"])
                raise IllegalCommand(
                    _(
                        "{card}: place one of the tiles you drew ({tiles}) on one of these places: {places}."
                    ).format(
                        card=card_name(self.card),
                        tiles=tiles,
                        places=pgettext("between the parts of a list", "; ").join(
                            place_phrase(state, c) for c in self._cells(state)
                        ),
                    )
                )
            tid, tiles = command["territory"], frame["secret"]["tiles"]
            ctx.update(frame, sub="placed", placed=tid, choice=None)
            ctx.emit(
                "TerritoryPlaced",
                territory=tid,
                cell=list(parse_cell(command["cell"])),
                cause=card_name(self.card, "en"),
            )
            arrive_with_buildings(ctx, tid)
            others = [t for t in tiles if t != tid]
            if others:
                ctx.emit(
                    "TerritoryTilesReturned", visibility=(seat,), seat=seat, card=self.card, tiles=others
                )
            return
        if command not in self.legal(state, frame, seat):
            sources = ", ".join(territory_name(t) for t in self._sources(state, frame))
            raise IllegalCommand(
                _("{card}: move 1 clan into the new territory from one of: {territories}; or skip.").format(
                    card=card_name(self.card), territories=sources
                )
            )
        ctx.update(frame, sub="done", choice=None)
        if not command.get("skip"):
            move_clans(ctx, seat, [[command["from"], frame["placed"], 1]], cause=card_name(self.card, "en"))
