"""What a command says: the facts of a command dict, and whether a reading denotes it.

Every legal command (any type, including ones added to the rules later) is described by the same
kinds of facts a line can state: its type, the cards it names and in which role, the territories
it names grouped by role (from / to / at) with counts, the colours, the number of clans, a cell,
the yes/no-like flags it stands for. `fits(reading, facts)` is true when the command accounts for
every word of the reading and the reading says what the command needs said (a card to play, the
cards to keep...).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from typing import Any, TypeGuard

from games.rules import CARDS, TERRITORY_INFO
from notifications.command_language import words
from notifications.command_language.reading import Place, Reading

ANSWER_TYPES = words.ANSWERS  # answering an attack or a toll: a clan or an Action card
CARD_COMMANDS = ("play", "react", "choose", "give", "set_aside")
ENUM_FLAGS = {
    "discard": "discard",
    "remove": "remove",
    "clan": "remove",
    "replace": "replace",
    "never": "never",
    "ask": "ask",
}


@dataclass
class Facts:
    """The words that may denote a command. groups: {role: {territory: count or None}} with role
    from / to / at; layout: how unmarked territories take roles; needs: what a reading must say."""

    type: str
    cards: dict[str, str] = field(default_factory=dict)  # card id -> role (card, discard, keep, ...)
    keep: frozenset[str] | None = None
    groups: dict[str, dict[str, int]] = field(default_factory=dict)
    layout: str | None = None
    seats: frozenset[str] = frozenset()
    seats_exact: bool = False
    total: int | None = None
    cell: str | None = None
    flags: frozenset[str] = frozenset()
    needs: tuple[str, ...] = ()
    skip: bool = False


def _is_territory(value: object) -> TypeGuard[str]:
    return isinstance(value, str) and value in TERRITORY_INFO


def command_facts(command: Mapping[str, Any], seats: Collection[str]) -> Facts:
    """The facts of a command dict (any type: unknown fields are simply not wordable)."""
    t: Any = command.get("type")
    f = Facts(type=t)
    flags, needs, seat_set = set(), [], set()
    for key, value in command.items():
        if key == "type":
            continue
        if (
            key in ("keep", "cards")
            and isinstance(value, list)
            and all(isinstance(c, str) and c in CARDS for c in value)
        ):
            f.keep = frozenset(value)
            f.cards.update({c: "keep" for c in value})
            needs.append("keep")
        elif isinstance(value, str) and value in CARDS:
            f.cards[value] = "discard" if key == "discard" or t in ANSWER_TYPES else "card"
            if key == "discard" or t in ANSWER_TYPES:
                flags.add("discard")
        elif key == "cell":
            f.cell = str(value)
        elif isinstance(value, str) and value in seats:
            seat_set.add(value)
        elif isinstance(value, list) and value and all(isinstance(s, str) and s in seats for s in value):
            seat_set.update(value)
            f.seats_exact = True
        elif isinstance(value, bool) and key == "agree":
            flags.add("yes" if value else "no")
            if not value:
                needs.append("flag:no")
        elif key == "no_effect" and value is True:
            flags.add("no_effect")
        elif key == "skip" and value is True:
            flags.add("no")
            f.skip = True
        elif isinstance(value, str) and key in ("choice", "pay", "mode", "policy"):
            if value in ENUM_FLAGS:
                flags.add(ENUM_FLAGS[value])
        elif key == "count" and isinstance(value, int):
            f.total = value
    f.seats = frozenset(seat_set)
    _territory_facts(command, f)
    _type_facts(command, t, f, flags, needs)
    f.flags, f.needs = frozenset(flags), tuple(needs)
    return f


def _type_facts(command: Mapping[str, Any], t: Any, f: Facts, flags: set[str], needs: list[str]) -> None:
    """Add to `flags` and `needs` (and `f`'s total) what the command's type `t` says: what a
    reading must say for this command, beyond fitting every word of it."""
    if t in CARD_COMMANDS and any(r == "card" for r in f.cards.values()):
        needs.append("card")
    if t == "set_policy":
        needs.append("flag:" + str(command.get("policy")))
        if command.get("card") in CARDS:
            needs.append("card")
    if t == "remove_clan":
        flags.add("remove")
    if t in ANSWER_TYPES:
        if "discard" in flags:
            needs.append("discard")
        elif "remove" in flags:
            needs.append("flag:remove")
            f.total = f.total or 1
    if command.get("mode") == "replace":
        needs.append("seat_or_replace")
    if "skip" in command and not command.get("skip"):
        needs.append("place")
    if t in ("citadel", "place_clan"):
        f.total = 1
    if t == "citadel":
        flags.add("yes")
    if t in ("no_citadel", "decline"):
        flags.add("no")


def _territory_facts(command: Mapping[str, Any], f: Facts) -> None:
    moves = command.get("moves")
    frm, to, where = command.get("from"), command.get("to"), command.get("territory")
    if isinstance(moves, dict) and all(_is_territory(k) and isinstance(v, int) for k, v in moves.items()):
        moved = sum(moves.values())
        f.total = moved
        if _is_territory(frm):
            f.groups = {"from": {frm: moved}, "to": dict(moves)}
            f.layout = "move"
        elif _is_territory(where):
            f.groups = {"to": {where: moved}, "from": dict(moves)}
            f.layout = "conquest"
        else:  # a Withdraw goes out; an Epic Tale maneuver brings clans into the clash
            role = "to" if f.type == "withdraw" else "from"
            f.groups = {role: dict(moves)}
            f.layout = role
        return
    given = command.get("count")
    count = given if isinstance(given, int) else 1
    if _is_territory(frm):
        f.groups["from"] = {frm: count}
    if _is_territory(to):
        f.groups["to"] = {to: count}
    if _is_territory(frm) or _is_territory(to):
        f.total = count
    if _is_territory(where):
        f.groups.setdefault("at", {})[where] = 1
        f.total = f.total or 1
    placed = command.get("territories")
    if isinstance(placed, list) and placed and all(_is_territory(x) for x in placed):
        at = f.groups.setdefault("at", {})
        for x in placed:
            at[x] = at.get(x, 0) + 1
        f.total = len(placed)
    placements = command.get("placements")
    if isinstance(placements, dict) and all(
        _is_territory(k) and isinstance(v, int) for k, v in placements.items()
    ):
        f.groups.setdefault("at", {}).update(placements)
        f.total = sum(placements.values())
    roles = set(f.groups)
    if roles == {"from", "to"}:
        f.layout = "move"
    elif len(roles) == 1:
        f.layout = roles.pop()
    if f.type == "remove_clan" and f.layout == "at":
        # A clan is removed from its territory: "remove a clan from valley", "in valley" too.
        f.layout = "removal"


def fits(reading: Reading, f: Facts, seat: str) -> bool:
    """True when the command with facts `f` accounts for every word of `reading`."""
    if reading.contradictory:
        return False
    if reading.types is not None and not typed(f, reading.types):
        return False
    if not reading.flags <= f.flags:
        return False
    for card, role in reading.cards:
        have = f.cards.get(card)
        if have is None or (role is not None and role != have):
            return False
    if reading.seats and (not reading.seats <= f.seats or (f.seats_exact and reading.seats != f.seats)):
        return False
    if reading.self_seat and f.seats and seat not in f.seats:
        return False
    if any(n != f.total for n in reading.numbers):
        return False
    if reading.cell is not None and reading.cell != f.cell:
        return False
    if not _places_fit(reading.places, f):
        return False
    said = reading.flags | reading.soft
    for need in f.needs:
        if need == "card" and not any(f.cards.get(c) == "card" for c, _ in reading.cards):
            return False
        if need == "keep" and frozenset(c for c, _ in reading.cards) != f.keep:
            return False
        if need.startswith("flag:") and need[5:] not in said:
            return False
        if need == "discard" and "discard" not in said and not reading.cards:
            return False
        if need == "seat_or_replace" and not reading.seats and "replace" not in said:
            return False
        if need == "place" and not reading.places:
            return False
    # The reading must say something about this command, not only fit it.
    return bool(
        reading.types is not None
        or reading.flags
        or reading.cards
        or reading.places
        or reading.seats
        or reading.numbers
        or reading.cell
        or (reading.soft & f.flags)
        or (reading.self_seat and seat in f.seats)
    )


def typed(f: Facts, types: Collection[str]) -> bool:
    """Whether a command of facts `f` is of one of `types` (the *skip* wildcard included)."""
    return f.type in types or (f.skip and words.SKIPPING in types)


def _places_fit(places: tuple[Place, ...], f: Facts) -> bool:
    if not places:
        return True
    if not f.groups or f.layout is None:
        return False
    roles = _roles(places, f.layout)
    if roles is None:
        return False
    said: dict[str, dict[str, tuple[int, int]]] = {}
    for place, role in zip(places, roles):
        group = said.setdefault(role, {})
        counted, bare = group.get(place.territory, (0, 0))
        if place.count is None:
            bare += 1
        else:
            counted += place.count
        group[place.territory] = (counted, bare)
    for role, group in said.items():
        wanted = f.groups.get(role)
        if wanted is None or set(group) != set(wanted):
            return False
        for tid, (counted, bare) in group.items():
            n = wanted[tid]
            if n is None:
                continue
            if (not bare and counted != n) or (bare and n < counted + bare):
                return False
    return True


def _roles(places: tuple[Place, ...], layout: str) -> list[str] | None:
    """The role of each named territory for a command of `layout` (docs/email-commands.md:
    "from" marks the origin, "to"/"into" the destination; unmarked, the origin comes first for
    a move, the target first for a Conquest; a clan removed is removed "from" or "in" its
    territory)."""
    if layout == "removal":
        return None if any(p.prep == "to" for p in places) else ["at"] * len(places)
    if layout in ("at", "to", "from"):
        for p in places:
            if (p.prep == "from" and layout != "from") or (p.prep in ("to", "at") and layout == "from"):
                return None
        return [layout] * len(places)
    roles = []
    if layout == "move":
        first_taken = any(p.prep in ("from", "de") for p in places)
        for p in places:
            if p.prep in ("from", "de"):
                roles.append("from")
            elif p.prep in ("to", "at") or first_taken:
                roles.append("to")
            else:
                roles.append("from")
                first_taken = True
        return roles
    if layout == "conquest":
        target_taken = any(p.prep in ("to", "at") for p in places)
        for p in places:
            if p.prep == "from":
                roles.append("from")
            elif p.prep in ("to", "at") or not target_taken:
                roles.append("to")
                target_taken = True
            else:
                roles.append("from")
        return roles
    return None
