"""Starting a game from a described position (tests, teaching, games moved from a table).

The format is documented in docs/positions.md. The whole position is one event,
`PositionDescribed`, visible to the server only; `public_position` is what each seat sees of it.
"""

from __future__ import annotations

from typing import Any, cast

from .catalog import (
    ACTION,
    ADVANTAGE_OF,
    CARDS,
    CLANS_PER_PLAYER,
    EPIC,
    EPIC_TALES,
    TERRITORY_INFO,
    TERRITORY_OF_ADVANTAGE,
    action_cards_for,
)
from .engine import Context, evolver
from .errors import InvalidCommand
from .event_payloads import PositionDescribed
from .frames import SeasonFrame
from .island import neighbour_cells
from .language import _
from .state import GameState, Territory

POSITION_KEYS = (
    "territories",
    "capital",
    "brenn",
    "flock",
    "festival",
    "hands",
    "deeds",
    "pretenders",
    "epic_deck",
    "epic_discard",
    "action_discard",
    "set_aside",
    "tile_stack",
    "advantage",
    "round",
    "phase",
    "turn",
    "opened",
    "passes",
)
TERRITORY_KEYS = ("cell", "clans", "sanctuaries", "citadels")
FLOCK_SIDES = ("clockwise", "counterclockwise")
ADVANTAGE_PLACES = ("display", "played")


def apply_position(ctx: Context, position: dict[str, Any]) -> None:
    """Check `position`, record it as one event and start the round loop from it.

    `position` is the JSON object of docs/positions.md. Raises InvalidCommand naming the first
    thing wrong and what is allowed instead: a key, territory or card unknown; a field of the
    wrong type or out of range (clans 0 to 12 a colour, no negative count, `passes` below the
    number of seats); a colour not seated; a card or tile in two places, or a card in a place
    that cannot hold it; two territories on one cell, or one touching none; more clans or
    buildings than there are (the list is in docs/positions.md).
    """
    seats = ctx.state.seats
    _check_keys(position, POSITION_KEYS, "position")
    territories = _island(position["territories"], seats)
    capital = _capital(position.get("capital"), territories)
    hands = _hands(position.get("hands"), seats)
    places = _places(position, hands)
    _check_cards(places, len(seats))
    phase = _phase(position.get("phase", "season"), hands)
    if position.get("epic_deck") is None:
        epic_deck = [c.id for c in EPIC_TALES if c.id not in {card for _where, card in places}]
        ctx.rng.shuffle(epic_deck)
    else:
        epic_deck = [card for where, card in places if where == "epic_deck"]
    tiles = _tile_stack(position.get("tile_stack"), territories)
    if tiles is None:
        tiles = [t for t in TERRITORY_INFO if t not in territories]
        ctx.rng.shuffle(tiles)
    brenn = _seat(position.get("brenn", seats[0]), "brenn", seats)
    turn = _seat(position.get("turn", brenn), "turn", seats)
    payload: PositionDescribed = {
        "territories": territories,
        "capital": capital,
        "brenn": brenn,
        "flock": _choice(position.get("flock", "clockwise"), "flock", FLOCK_SIDES),
        "festival": _festival(position.get("festival"), territories),
        "hands": hands,
        "deeds": _deeds(position.get("deeds"), seats),
        "pretenders": _pretenders(position.get("pretenders"), seats),
        "tile_stack": tiles,
        "epic_deck": epic_deck,
        "epic_discard": _names(position.get("epic_discard"), "epic_discard"),
        "action_discard": _names(position.get("action_discard"), "action_discard"),
        "set_aside": position.get("set_aside"),
        "round": _whole(position.get("round", 1), "round", 1),
        "phase": phase,
        "advantage": _advantage(position.get("advantage"), territories, hands),
        "supply_used": _supply_used(territories, ctx.state.supply),
    }
    season = _season_frame(position, turn, brenn, len(seats)) if phase == "season" else None
    ctx.emit("PositionDescribed", visibility=(), **payload)
    ctx.push({"kind": "game", "next": "assembly"})
    if season is not None:
        ctx.push(season)


# Each check below takes one part of the raw JSON and gives it back typed, or raises
# InvalidCommand. `field` is the part's path in the position ("territories.cove.clans"): data,
# not words, so a player finds it in the file whatever the language of the message.


def _refused(field: str, refusal: str) -> InvalidCommand:
    """A refusal of the part `field` of the position, the path first (docs/positions.md)."""
    return InvalidCommand(_("{field}: {refusal}").format(field=field, refusal=refusal))


def _check_keys(value: Any, keys: tuple[str, ...], field: str) -> None:
    if field == "position" and not (isinstance(value, dict) and isinstance(value.get("territories"), dict)):
        raise InvalidCommand(_("A position needs a territories object."))
    if not isinstance(value, dict):
        raise InvalidCommand(
            _("{field} must be an object with the keys {keys}.").format(field=field, keys=", ".join(keys))
        )
    unknown = sorted(str(k) for k in value if k not in keys)
    if unknown:
        raise InvalidCommand(
            _("Unknown key {name} in {field}: the keys are {keys}.").format(
                name=repr(unknown[0]), field=field, keys=", ".join(keys)
            )
        )


def _object(value: Any, field: str, example: str) -> dict[Any, Any]:
    """`value` as an object (`null` is an empty one)."""
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidCommand(
            _("{field} must be an object, such as {example}.").format(field=field, example=example)
        )
    return value


def _whole(value: Any, field: str, low: int, high: int | None = None) -> int:
    # JSON's true and false are Python ints: a count is a number, never a yes or a no.
    if type(value) is not int or value < low or (high is not None and value > high):
        if high is None:
            message = _("{field} must be a whole number, {low} or more.")
        else:
            message = _("{field} must be a whole number from {low} to {high}.")
        raise InvalidCommand(message.format(field=field, low=low, high=high))
    return value


def _names(value: Any, field: str) -> list[str]:
    """A list of card, territory or colour ids (`null` is an empty one)."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(x, str) for x in value):
        raise InvalidCommand(
            _("{field} must be a list of names, such as {example}.").format(
                field=field, example='["act_bard", "ep_eriu"]'
            )
        )
    return list(value)


def _choice(value: Any, field: str, allowed: tuple[str, ...]) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise InvalidCommand(
            _("{field} must be one of {allowed}.").format(field=field, allowed=", ".join(allowed))
        )
    return value


def _seat(value: Any, field: str, seats: list[str]) -> str:
    if not isinstance(value, str) or value not in seats:
        raise InvalidCommand(
            _("{field}: {name} is not a seated colour; the colours seated are {colours}.").format(
                field=field, name=repr(value), colours=", ".join(seats)
            )
        )
    return value


def _territory_id(value: Any, field: str) -> str:
    if not isinstance(value, str) or value not in TERRITORY_INFO:
        raise InvalidCommand(
            _("Unknown territory {name} in {field}: the territories are {territories}.").format(
                name=repr(value), field=field, territories=", ".join(sorted(TERRITORY_INFO))
            )
        )
    return value


def _island(raw: dict[Any, Any], seats: list[str]) -> dict[str, Territory]:
    """The territories on their cells: each known, on its own cell, touching another; at most
    12 clans of a colour on the island (rulebook, Components)."""
    territories = {_territory_id(tid, "territories"): _territory(tid, d, seats) for tid, d in raw.items()}
    on: dict[tuple[int, ...], str] = {}
    for tid, d in territories.items():
        cell = tuple(d["cell"])
        if cell in on:
            raise _refused(
                f"territories.{tid}.cell",
                _("{territory} is on that cell already: each territory needs its own cell [q, r].").format(
                    territory=on[cell]
                ),
            )
        on[cell] = tid
    for tid, d in territories.items():
        if len(on) > 1 and not any(tuple(n) in on for n in neighbour_cells(tuple(d["cell"]))):
            raise _refused(
                f"territories.{tid}.cell", _("{territory} touches no other territory.").format(territory=tid)
            )
    for s in seats:
        if sum(d["clans"].get(s, 0) for d in territories.values()) > CLANS_PER_PLAYER:
            raise _refused(
                "territories",
                _("{colour} has more than {count} clans on the island.").format(
                    colour=s, count=CLANS_PER_PLAYER
                ),
            )
    return territories


def _territory(tid: str, raw: Any, seats: list[str]) -> Territory:
    field = f"territories.{tid}"
    _check_keys(raw, TERRITORY_KEYS, field)
    cell = raw.get("cell")
    if not isinstance(cell, list) or len(cell) != 2 or any(type(x) is not int for x in cell):
        raise InvalidCommand(
            _("{field} must be a cell [q, r] of two whole numbers.").format(field=f"{field}.cell")
        )
    clans = {}
    for colour, count in _object(raw.get("clans"), f"{field}.clans", '{"green": 2}').items():
        _seat(colour, f"{field}.clans", seats)
        if _whole(count, f"{field}.clans.{colour}", 0):  # over 12 a colour: `_island` says so
            clans[colour] = count
    return {
        "cell": [cell[0], cell[1]],
        "clans": clans,
        "sanctuaries": _whole(raw.get("sanctuaries", 0), f"{field}.sanctuaries", 0),
        "citadels": _whole(raw.get("citadels", 0), f"{field}.citadels", 0),
    }


def _capital(capital: Any, territories: dict[str, Territory]) -> str:
    if not isinstance(capital, str) or capital not in territories:
        raise InvalidCommand(
            _("capital must be a territory on the island: {territories}.").format(
                territories=", ".join(territories)
            )
        )
    if capital == "swamp" or ("swamp" in territories and territories["swamp"]["citadels"]):
        raise _refused(
            "capital" if capital == "swamp" else "territories.swamp.citadels",
            _(
                "No Citadel can be placed in the Swamp, so it holds no Citadel and "
                "cannot be the capital (ruling U15)."
            ),
        )
    return capital


def _hands(raw: Any, seats: list[str]) -> dict[str, list[str]]:
    hands = _object(raw, "hands", '{"green": ["act_bard"]}')
    for colour in hands:
        _seat(colour, "hands", seats)
    return {s: _names(hands.get(s), f"hands.{s}") for s in seats}


def _places(position: dict[str, Any], hands: dict[str, list[str]]) -> list[tuple[str, str]]:
    """(where, card) for every card the position places, `where` the place's key."""
    places = [(f"hands.{s}", c) for s, h in hands.items() for c in h]
    for key in ("action_discard", "epic_discard", "epic_deck"):
        places += [(key, c) for c in _names(position.get(key), key)]
    set_aside = position.get("set_aside")
    if set_aside is not None:
        if not isinstance(set_aside, str):
            raise InvalidCommand(_("set_aside must be the name of an Action card, or null."))
        places.append(("set_aside", set_aside))
    return places


def _check_cards(places: list[tuple[str, str]], players: int) -> None:
    """Each card known, in use with this many players, in a place that may hold it, and in one
    place only."""
    in_use = set(action_cards_for(players))
    seen: dict[str, str] = {}
    for where, c in places:
        if c not in CARDS:
            raise InvalidCommand(
                _("Unknown card {name} ({where}): docs/cards.md lists the card ids.").format(
                    name=repr(c), where=where
                )
            )
        kind = CARDS[c].type
        if kind == ACTION and c not in in_use:
            raise _refused(where, _("{card} is used only with 4 players.").format(card=c))
        if where in ("action_discard", "set_aside") and kind != ACTION:
            raise InvalidCommand(
                _("{card} cannot be in {where}: only Action cards go there.").format(card=c, where=where)
            )
        if where in ("epic_discard", "epic_deck") and kind != EPIC:
            raise InvalidCommand(
                _("{card} cannot be in {where}: only Epic Tale cards go there.").format(card=c, where=where)
            )
        if c in seen:
            raise InvalidCommand(
                _("{card} is both in {where} and in {other_where}.").format(
                    card=c, where=seen[c], other_where=where
                )
            )
        seen[c] = where


def _phase(raw: Any, hands: dict[str, list[str]]) -> str:
    phase = _choice(raw, "phase", ("season", "assembly"))
    holding = [s for s, h in hands.items() if any(CARDS[c].type == ACTION for c in h)]
    if phase == "assembly" and holding:
        raise _refused(
            f"hands.{holding[0]}",
            _(
                "At the start of an Assembly no Action card is in a hand: they were "
                "discarded at the end of the Season."
            ),
        )
    return phase


def _tile_stack(raw: Any, territories: dict[str, Territory]) -> list[str] | None:
    if raw is None:
        return None
    tiles = _names(raw, "tile_stack")
    for i, tid in enumerate(tiles):
        _territory_id(tid, "tile_stack")
        if tid in territories:
            raise _refused(
                "tile_stack",
                _("{territory} is on the island: the tile stack holds territories not in play.").format(
                    territory=tid
                ),
            )
        if tid in tiles[:i]:
            raise _refused("tile_stack", _("{territory} is twice in the tile stack.").format(territory=tid))
    return tiles


def _festival(festival: Any, territories: dict[str, Territory]) -> str | None:
    if festival is not None and (not isinstance(festival, str) or festival not in territories):
        raise InvalidCommand(
            _("festival must be null or a territory on the island: {territories}.").format(
                territories=", ".join(territories)
            )
        )
    return festival


def _deeds(raw: Any, seats: list[str]) -> dict[str, int]:
    deeds = _object(raw, "deeds", '{"green": 1}')
    for colour in deeds:
        _seat(colour, "deeds", seats)
    return {s: _whole(deeds.get(s, 0), f"deeds.{s}", 0) for s in seats}


def _pretenders(raw: Any, seats: list[str]) -> list[str]:
    pretenders = _names(raw, "pretenders")
    for i, colour in enumerate(pretenders):
        _seat(colour, "pretenders", seats)
        if colour in pretenders[:i]:
            raise _refused(
                "pretenders", _("{colour} holds at most one Pretender token.").format(colour=colour)
            )
    return pretenders


def _advantage(raw: Any, territories: dict[str, Territory], hands: dict[str, list[str]]) -> dict[str, str]:
    """Where each Advantage card of a territory in play is: the seat whose hand holds it, else
    "display" or "played" as `raw` says (docs/positions.md)."""
    given = _object(raw, "advantage", '{"adv_cove": "played"}')
    for card, where in given.items():
        if TERRITORY_OF_ADVANTAGE.get(card) not in territories:
            raise InvalidCommand(
                _("advantage names Advantage cards of the territories on the island: {cards}.").format(
                    cards=", ".join(ADVANTAGE_OF[t] for t in territories)
                )
            )
        _choice(where, f"advantage.{card}", ADVANTAGE_PLACES)
    advantage = {}
    for tid in territories:
        card = ADVANTAGE_OF[tid]
        holder = next((s for s, h in hands.items() if card in h), None)
        if holder is not None and card in given:
            raise InvalidCommand(
                _("{card} is both in {where} and in {other_where}.").format(
                    card=card, where=f"hands.{holder}", other_where=f"advantage ({given[card]})"
                )
            )
        advantage[card] = holder or given.get(card, "display")
    return advantage


def _supply_used(territories: dict[str, Territory], supply: dict[str, int]) -> dict[str, int]:
    used = {kind: sum(d[kind] for d in territories.values()) for kind in ("citadels", "sanctuaries")}
    if any(used[kind] > supply[kind] for kind in used):
        raise _refused(
            "territories",
            _(
                "More buildings on the island than the supply holds ({citadels} Citadels, {sanctuaries} Sanctuaries)."
            ).format(**supply),
        )
    return used


def _season_frame(position: dict[str, Any], turn: str, brenn: str, players: int) -> SeasonFrame:
    """The Season resumed at `turn`'s turn after `passes` passes in a row; all the players
    passing in a row ends the Season (rulebook, Season), so at most `players` - 1 have. Not yet
    `opened`, it is the Brenn's first turn ("The Brenn begins the Season by playing the first
    card", rulebook, Season): nobody has played or passed before it."""
    opened = position.get("opened", True)
    if not isinstance(opened, bool):
        raise InvalidCommand(_("opened must be true or false."))
    passes = _whole(position.get("passes", 0), "passes", 0, players - 1)
    if not opened and (turn != brenn or passes):
        raise _refused(
            "opened",
            _("false is the Brenn's opening turn: turn must be the Brenn ({colour}) and passes 0.").format(
                colour=brenn
            ),
        )
    return {
        "kind": "season",
        "turn": turn,
        "passes": passes,
        "opened": opened,
        "status": "start",
    }


@evolver(PositionDescribed)
def _position_described(state: GameState, p: PositionDescribed) -> None:
    state.territories = {
        t: cast(Territory, {**d, "clans": dict(d["clans"])}) for t, d in p["territories"].items()
    }
    state.capital = p["capital"]
    state.brenn = p["brenn"]
    state.flock = p["flock"]
    state.festival = p["festival"]
    state.hands = {s: list(h) for s, h in p["hands"].items()}
    state.deeds = dict(p["deeds"])
    state.pretenders = list(p["pretenders"])
    state.tile_stack = list(p["tile_stack"])
    state.epic_deck = list(p["epic_deck"])
    state.epic_discard = list(p["epic_discard"])
    state.action_discard = list(p["action_discard"])
    state.set_aside = p["set_aside"]
    placed = {c for h in state.hands.values() for c in h} | set(state.action_discard) | {state.set_aside}
    state.action_deck = [c for c in action_cards_for(len(state.seats)) if c not in placed]
    state.advantage_display = [c for c, w in p["advantage"].items() if w == "display"]
    state.advantage_played = [c for c, w in p["advantage"].items() if w == "played"]
    for s in state.seats:
        state.reserve[s] = CLANS_PER_PLAYER - sum(d["clans"].get(s, 0) for d in state.territories.values())
    for kind in ("citadels", "sanctuaries"):
        state.supply[kind] -= p["supply_used"][kind]
    if p["phase"] == "season":
        state.round = p["round"]
        state.phase = "season"
    else:
        state.round = p["round"] - 1
        state.phase = "assembly"


def public_position(payload: dict[str, Any], seat: str | None) -> dict[str, Any]:
    """The described position as `seat` sees it: own hand only, the other hands, the piles
    and the set-aside Action card as counts (docs/positions.md: "counts of everything hidden",
    as `view_for` gives them)."""
    out = {
        k: v
        for k, v in payload.items()
        if k not in ("hands", "tile_stack", "epic_deck", "action_discard", "set_aside")
    }
    out["hands"] = {s: (list(h) if s == seat else {"count": len(h)}) for s, h in payload["hands"].items()}
    out["counts"] = {
        "tile_stack": len(payload["tile_stack"]),
        "epic_deck": len(payload["epic_deck"]),
        "action_discard": len(payload["action_discard"]),
        "set_aside": 0 if payload["set_aside"] is None else 1,
    }
    out["redacted"] = True
    return out
