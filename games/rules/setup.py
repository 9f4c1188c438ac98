"""Setting the game up: tiles, Brenn, Capital, Flock of Crows, two rounds of clan placement.

Rulebook, Setup and Discovery Scenario; a described position (docs/positions.md) starts a game
from any point instead.
"""

from __future__ import annotations

from typing import Any, cast

from .board import place_building, place_clans, territory_list
from .catalog import (
    BUILDING_SUPPLIES,
    CLANS_PER_PLAYER,
    COLOURS,
    DISCOVERY_BOTTOM,
    DISCOVERY_START,
    EPIC_TALES,
    TERRITORY_INFO,
    action_cards_for,
)
from .command_types import CommandFields
from .engine import Context, Decision, Procedure, evolver, procedure, rng_for
from .errors import IllegalCommand, InvalidCommand
from .event_payloads import BrennAssigned, FlockTossed, GameStarted
from .events import Event
from .frames import ChooseCapitalFrame, SetupPlacementFrame
from .island import starting_layout
from .language import _, territory_phrase
from .positions import apply_position
from .reactions import REACTION_ASKING
from .revisions import CURRENT, REVISIONS
from .state import GameState
from .take_back import TAKE_BACK_RULES
from .territory_effects import arrive_with_buildings


@evolver(GameStarted)
def _game_started(state: GameState, p: GameStarted) -> None:
    state.seats = list(p["seats"])
    state.options = dict(p["options"])
    supply = BUILDING_SUPPLIES[state.options["buildings"]]
    state.supply = dict(supply)
    state.reserve = {s: CLANS_PER_PLAYER for s in state.seats}
    state.hands = {s: [] for s in state.seats}
    state.deeds = {s: 0 for s in state.seats}
    state.policies = {s: {} for s in state.seats}
    state.action_deck = action_cards_for(len(state.seats))
    state.phase = "setup"


@evolver(BrennAssigned)
def _brenn_assigned(state: GameState, p: BrennAssigned) -> None:
    state.brenn = p["seat"]


@evolver(FlockTossed)
def _flock_tossed(state: GameState, p: FlockTossed) -> None:
    state.flock = p["side"]


def start_game(
    seats: list[str],
    *,
    seed: str,
    setup: str | dict[str, Any] = "random",
    options: dict[str, Any] | None = None,
) -> list[Event]:
    """The opening events of a new game: seats seated, tiles laid, Brenn drawn.

    seats: 2–4 distinct colours from green, blue, orange, white, in seating (clockwise) order.
    setup: "random", "discovery" or a described position (dict, docs/positions.md).
    options: {"buildings": "first_print" (1 Capital + 8 Citadels + 9 Sanctuaries, default) or
    "later_print" (9 + 10), "reactions": "public" (default: Triskel windows ask every seat that
    could answer on public facts) or "holders" (only the seats holding a card that can answer
    now; games.rules.reactions), "take_backs": "private_events" (default: a take-back is refused
    when the move made an event not everybody sees) or "mover_view" (judged on what the mover
    may see; games.rules.take_back), "rules_revision": the fixes of the rules the game plays with
    (`games.rules.revisions`: default and recorded, the current one; 1, never recorded, for a
    game begun before revisions)}. Other keys left out are not recorded, so a game started
    before an option existed replays unchanged. Raises InvalidCommand for a bad configuration
    (seats not a list of 2 to 4 distinct colours, options not an object, an option or its value
    not one of those above, a position docs/positions.md refuses), naming what is allowed.
    """
    seats = _checked_seats(seats)
    options = _checked_options(options)
    ctx = Context(GameState(), rng_for(seed, 0))
    kind = setup if isinstance(setup, str) else "position"
    if kind not in ("random", "discovery", "position"):
        raise InvalidCommand(_("setup must be random, discovery or a described position."))
    ctx.emit("GameStarted", seats=seats, options=options, setup=kind)
    if kind == "position":
        apply_position(ctx, cast(dict[str, Any], setup))
    else:
        _lay_tiles(ctx, len(seats), kind, with_buildings=options.get("rules_revision", 1) >= 2)
        cards = [c.id for c in EPIC_TALES]
        ctx.rng.shuffle(cards)
        ctx.emit("EpicDeckShuffled", visibility=(), cards=cards)
        ctx.emit("BrennAssigned", seat=ctx.rng.choice(seats), reason="drawn at random")
        ctx.push({"kind": "game", "next": "assembly"})
        ctx.push({"kind": "setup_placement", "order": None, "index": 0})
        ctx.push({"kind": "choose_capital"})
    ctx.run()
    return ctx.events


def _checked_seats(seats: Any) -> list[str]:
    """`start_game`'s seats: a list of 2 to 4 distinct colours (rulebook, Components)."""
    if not isinstance(seats, (list, tuple)) or not all(isinstance(s, str) for s in seats):
        raise InvalidCommand(
            _("seats must be a list of 2 to 4 colours among {colours}.").format(colours=", ".join(COLOURS))
        )
    if not 2 <= len(seats) <= 4:
        raise InvalidCommand(_("Inis is played by 2, 3 or 4 players."))
    if len(set(seats)) != len(seats) or any(s not in COLOURS for s in seats):
        raise InvalidCommand(
            _("Seats must be distinct colours among {colours}.").format(colours=", ".join(COLOURS))
        )
    return list(seats)


def _checked_options(given: Any) -> dict[str, Any]:
    """`start_game`'s options as recorded in `GameStarted`: `buildings` always, `rules_revision`
    from 2 on, the others only when given."""
    if given is not None and not isinstance(given, dict):
        raise InvalidCommand(
            _("options must be an object, such as {example}.").format(example='{"buildings": "later_print"}')
        )
    options = {"buildings": "first_print", **(given or {})}
    revision = options.pop("rules_revision", CURRENT)
    if type(revision) is not int or revision not in REVISIONS:
        raise InvalidCommand(
            _("rules_revision must be one of {revisions}.").format(revisions=", ".join(map(str, REVISIONS)))
        )
    if revision > 1:  # revision 1, the games begun before revisions, recorded none
        options["rules_revision"] = revision
    # A value of another type (a list, an object) is no name of the choice: refused as unknown.
    if not isinstance(options["buildings"], str) or options["buildings"] not in BUILDING_SUPPLIES:
        raise InvalidCommand(_("buildings must be first_print or later_print."))
    reactions = options.get("reactions", "public")
    if not isinstance(reactions, str) or reactions not in REACTION_ASKING:
        raise InvalidCommand(_("reactions must be public or holders."))
    take_backs = options.get("take_backs", "private_events")
    if not isinstance(take_backs, str) or take_backs not in TAKE_BACK_RULES:
        raise InvalidCommand(_("take_backs must be private_events or mover_view."))
    unknown = sorted(
        str(k) for k in set(options) - {"buildings", "reactions", "take_backs", "rules_revision"}
    )
    if unknown:
        raise InvalidCommand(
            _(
                "Unknown option {name}: the options are buildings, reactions, take_backs and rules_revision."
            ).format(name=repr(unknown[0]))
        )
    return options


def _lay_tiles(ctx: Context, players: int, kind: str, *, with_buildings: bool) -> None:
    """The starting tiles and the stack (rulebook, Setup; Discovery Scenario). A starting tile
    enters play as a tile placed later does: Gates of Tír na nÓg and Stone Circle with their
    Sanctuary (their tiles' text, "Enters play with 1 Sanctuary"), unless `with_buildings` is
    False (rules revision 1: the set-up of the games begun before it was so)."""
    rng = ctx.rng
    if kind == "discovery":
        start = list(DISCOVERY_START[players])
        bottom = list(DISCOVERY_BOTTOM)
        rest = [t for t in TERRITORY_INFO if t not in start and t not in bottom]
        rng.shuffle(rest)
        rng.shuffle(bottom)
        stack = rest + bottom  # top of the stack first
        cells = starting_layout(players, None)
    else:
        tiles = list(TERRITORY_INFO)
        rng.shuffle(tiles)
        start, stack = tiles[:players], tiles[players:]
        cells = starting_layout(players, rng)
    ctx.emit("TileStackFormed", visibility=(), tiles=stack)
    for tid, cell in zip(start, cells):
        ctx.emit("TerritoryPlaced", territory=tid, cell=list(cell), cause="setup")
        if with_buildings:
            arrive_with_buildings(ctx, tid)


@procedure
class ChooseCapital(Procedure[ChooseCapitalFrame]):
    """The Brenn chooses the Capital: it gets the Capital and 1 Sanctuary (rulebook, Setup).

    Ruling U15: not the Swamp, where no Citadel may stand.
    """

    kind = "choose_capital"

    def options(self, state: GameState) -> list[str]:
        return [t for t in state.territories if t != "swamp"]

    def decisions(self, state: GameState, frame: ChooseCapitalFrame) -> list[Decision]:
        return [
            Decision(
                state.brenn, "choose_capital", _("As Brenn, choose the territory that will be the Capital.")
            )
        ]

    def legal(self, state: GameState, frame: ChooseCapitalFrame, seat: str) -> list[CommandFields]:
        return [{"type": "choose_capital", "territory": t} for t in self.options(state)]

    def handle(self, ctx: Context, frame: ChooseCapitalFrame, seat: str, command: CommandFields) -> None:
        if command["type"] != "choose_capital":
            raise IllegalCommand(_("Choose the territory of the Capital."))
        (tid,) = territory_list(ctx.state, [command.get("territory")])
        if tid not in self.options(ctx.state):
            raise IllegalCommand(
                _("{the_territory} cannot hold a Citadel, so it cannot be the Capital.").format(
                    the_territory=territory_phrase("swamp", capital=True)
                )
            )
        ctx.emit("CapitalChosen", territory=tid)
        place_building(ctx, tid, "sanctuary")
        ctx.emit("FlockTossed", side=ctx.rng.choice(["clockwise", "counterclockwise"]))
        ctx.pop(frame)


@procedure
class SetupPlacement(Procedure[SetupPlacementFrame]):
    """Two rounds of placing one clan each, from the Brenn in turn order (rulebook, Setup)."""

    kind = "setup_placement"

    def advance(self, ctx: Context, frame: SetupPlacementFrame) -> bool:
        state = ctx.state
        if frame["order"] is None:
            assert state.brenn is not None  # the Brenn is chosen at setup
            ctx.update(frame, order=state.turn_order_from(state.brenn) * 2)
            return True
        if frame["index"] >= len(frame["order"]):
            ctx.pop(frame)
            return True
        return False

    def decisions(self, state: GameState, frame: SetupPlacementFrame) -> list[Decision]:
        if frame["order"] is None or frame["index"] >= len(frame["order"]):
            return []  # between two events of one command: the order is not set yet
        seat = frame["order"][frame["index"]]
        # The setup placement is no game round (the board says "Setup" until round 1): the
        # prompt counts the seat's own clans, 2 each (rulebook, Setup).
        first = frame["index"] < len(state.seats)
        return [
            Decision(
                seat,
                "place_clan",
                _("Setup: place your first clan (of 2) in any territory.")
                if first
                else _("Setup: place your second and last setup clan in any territory."),
            )
        ]

    def legal(self, state: GameState, frame: SetupPlacementFrame, seat: str) -> list[CommandFields]:
        return [{"type": "place_clan", "territory": t} for t in state.territories]

    def handle(self, ctx: Context, frame: SetupPlacementFrame, seat: str, command: CommandFields) -> None:
        if command["type"] != "place_clan":
            raise IllegalCommand(_("Place one clan in a territory."))
        (tid,) = territory_list(ctx.state, [command.get("territory")])
        place_clans(ctx, seat, {tid: 1}, cause="setup")
        ctx.update(frame, index=frame["index"] + 1)


def describe_territory(tid: str) -> str:
    """`the Valley` style name used in messages (`language.territory_phrase`)."""
    return territory_phrase(tid)
