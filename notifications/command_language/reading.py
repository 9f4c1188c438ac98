"""What one line of a reply says: readings of its words (docs/email-commands.md).

A line's tokens (`command_words.tokenize`) become *slots* of alternatives — "cove" is the Cove or
the Cove's Advantage card, "citadel" the card or the Citadels-step answer, "1,-1" a cell or two
numbers — and each choice of alternatives gives a `Reading`: the command types its verbs allow,
its yes/no-like flags, the cards, the territories with their counts and prepositions, the colours,
the free numbers, a cell. `notifications.command_language.matching` then finds the legal commands a
reading denotes.
"""

from __future__ import annotations

import itertools
from collections.abc import Collection
from dataclasses import dataclass, field
from typing import Any

from notifications.command_language import words

MAX_READINGS = 512


@dataclass(frozen=True)
class Item:
    """One understood piece of a line: kind (card, territory, seat, self, num, cell, prep, sep,
    kw, filler) and value (an id, a colour, an int, a "q,r" cell, a Keyword...)."""

    kind: str
    value: Any  # by kind: an id or a colour (str), a count (int), a Keyword...
    text: str = ""


Slot = list[tuple[Item, ...]]
"""The alternatives for one piece of a line: each a tuple of Items read together."""


@dataclass(frozen=True)
class Place:
    """A territory named in a line, with the count and the preposition attached to it."""

    territory: str
    count: int | None
    prep: str | None  # from, de (French "de": from, or nothing), to, at


@dataclass(frozen=True)
class Reading:
    """One way of taking a line. `types` None: no verb; cards: ((id, role or None), ...)."""

    types: frozenset[str] | None
    contradictory: bool
    flags: frozenset[str]
    soft: frozenset[str]
    cards: tuple[tuple[str, str | None], ...]
    places: tuple[Place, ...]
    seats: frozenset[str]
    self_seat: bool
    numbers: tuple[int, ...]
    cell: str | None
    items: tuple[Item, ...] = field(compare=False, default=())
    free_at: tuple[int, ...] = field(compare=False, default=())  # indexes in items of the free numbers

    def has_content(self) -> bool:
        return bool(
            self.types is not None
            or self.flags
            or self.soft
            or self.cards
            or self.places
            or self.seats
            or self.numbers
            or self.cell
        )


def lex(tokens: list[words.Token], relevant_cards: Collection[str]) -> tuple[list[Slot], list[str]]:
    """Slots of alternatives (each a tuple of Items) and the unknown words of a line.

    A name that is both a territory and a card keeps its card reading only when the card is in
    `relevant_cards` (named by some command the seat may send): "cove" is the Cove unless the
    Cove's Advantage card could be meant."""
    slots: list[Slot] = []
    unknown: list[str] = []
    i, n = 0, len(tokens)
    while i < n:
        tok = tokens[i]
        if tok.kind == "num":
            i = _lex_number(tokens, i, slots, unknown)
            continue
        if tok.kind == "arrow":
            slots.append([(Item("prep", "to", "->"),)])
        elif tok.kind == "sep":
            slots.append([(Item("sep", tok.text),)])
        elif tok.kind == "marker":
            slots.append([(Item("kw", words.KEYWORDS[tok.text], tok.text),)])
        elif tok.kind == "word":
            found = words.match_name(tokens, i)
            if found:
                end, entities = found
                text = " ".join(t.text for t in tokens[i:end])
                alts: Slot = [(Item(kind, ident, text),) for kind, ident in entities]
                if any(k == "territory" for k, _ in entities):
                    alts = [a for a in alts if a[0].kind == "territory" or a[0].value in relevant_cards]
                if end == i + 1 and tok.text in words.KEYWORDS:
                    alts.append((Item("kw", words.KEYWORDS[tok.text], tok.text),))
                slots.append(alts)
                i = end
                continue
            item = _word_item(tok.text)
            if item is None:
                unknown.append(tok.text)
            else:
                slots.append([(item,)])
        i += 1
    return slots, unknown


def _lex_number(tokens: list[words.Token], i: int, slots: list[Slot], unknown: list[str]) -> int:
    """Lex the number at `tokens[i]` into `slots` (or `unknown`, for none a player means): with
    the number after it ("3,4" or "3 4"), a cell or two numbers. Returns the index of the next
    token."""
    n, tok = len(tokens), tokens[i]
    a = _number(tok.text)
    nxt = tokens[i + 1] if i + 1 < n else None
    if (
        nxt
        and nxt.kind == "sep"
        and nxt.text in ",;"
        and i + 2 < n
        and tokens[i + 2].kind == "num"
        and a is not None
    ):
        b = _number(tokens[i + 2].text)
        if b is not None:
            slots.append([(Item("cell", f"{a},{b}"),), (Item("num", a), Item("sep", ","), Item("num", b))])
            return i + 3
    if nxt and nxt.kind == "num" and a is not None and _number(nxt.text) is not None:
        b = _number(nxt.text)
        slots.append([(Item("cell", f"{a},{b}"),), (Item("num", a), Item("num", b))])
        return i + 2
    if a is None:
        unknown.append(tok.text)
    else:
        slots.append([(Item("num", a),)])
    return i + 1


def _number(text: str) -> int | None:
    """A count or a coordinate; more than 4 digits is nothing a player means."""
    digits = text.lstrip("-")
    return int(text) if digits.isdigit() and len(digits) <= 4 else None


def _word_item(word: str) -> Item | None:
    if word in ("and", "et"):
        return Item("sep", word)
    if word in words.KEYWORDS:
        return Item("kw", words.KEYWORDS[word], word)
    if word in words.PREPOSITIONS:
        return Item("prep", words.PREPOSITIONS[word], word)
    if word in words.NUMBER_WORDS:
        return Item("num", words.NUMBER_WORDS[word], word)
    if word in words.SEAT_WORDS:
        return Item("seat", words.SEAT_WORDS[word], word)
    if word in words.SELF_WORDS:
        return Item("self", None, word)
    if word in words.FILLERS:
        return Item("filler", None, word)
    return None


def readings_of(slots: list[Slot]) -> list[Reading]:
    """Every reading of a line: one per choice of alternatives and per way of attaching numbers
    (none when there would be more than MAX_READINGS: the line is too tangled to read)."""
    total = 1
    for alts in slots:
        total *= len(alts)
    if total > MAX_READINGS:
        return []
    out: dict[Reading, Reading] = {}
    for choice in itertools.product(*slots):
        items = tuple(item for alt in choice for item in alt)
        for back_first in (False, True):
            reading = _read(items, back_first)
            out.setdefault(reading, reading)
    return list(out)


def _read(items: tuple[Item, ...], back_first: bool) -> Reading:
    """The reading of one choice of alternatives (`items`, in line order)."""
    strong, weaks, flags, soft = None, [], set(), set()
    cards, seats, self_seat, cell, marker = [], set(), False, None, None
    segments: list[list[tuple[int, Item]]] = [[]]
    for index, item in enumerate(items):
        if item.kind == "sep":
            segments.append([])
            continue
        segments[-1].append((index, item))
        if item.kind == "kw":
            k = item.value
            if k.strong is not None:
                strong = k.strong if strong is None else strong & k.strong
            if k.weak is not None:
                weaks.append(k.weak)
            flags |= k.flags
            soft |= k.soft
            marker = k.marker or marker
        elif item.kind == "card":
            cards.append((item.value, marker))
            marker = None
        elif item.kind == "seat":
            seats.add(item.value)
        elif item.kind == "self":
            self_seat = True
        elif item.kind == "cell":
            cell = item.value
    types = strong
    for weak in weaks:
        if types is None:
            types = weak
        elif types & weak:
            types = types & weak
    places, free_at = _attach(segments, back_first)
    return Reading(
        types,
        strong is not None and not strong,
        frozenset(flags),
        frozenset(soft),
        tuple(dict.fromkeys(cards)),
        tuple(places),
        frozenset(seats),
        self_seat,
        tuple(items[i].value for i in free_at),
        cell,
        items,
        tuple(free_at),
    )


def _attach(segments: list[list[tuple[int, Item]]], back_first: bool) -> tuple[list[Place], list[int]]:
    """Places with their counts and prepositions, and where the numbers attached to no
    territory are. `segments`: lists of (index in the line, Item).

    Within a segment (between commas, colons, "and"), a number goes to the territory right after
    it ("2 to cove") or right before it ("valley 2"); `back_first` says which to try first. A
    preposition goes to the next territory of its segment."""
    places: list[Place] = []
    free: list[int] = []
    for numbered in segments:
        seg = [item for _, item in numbered]
        preps, pending_prep = {}, None
        for i, item in enumerate(seg):
            if item.kind == "prep":
                pending_prep = item.value
            elif item.kind == "territory":
                preps[i], pending_prep = pending_prep, None
        counts: dict[int, int] = {}
        for i, item in enumerate(seg):
            if item.kind != "num":
                continue
            target = None
            for step in (-1, 1) if back_first else (1, -1):
                j = _next_territory(seg, i, step)
                if j is not None and j not in counts:
                    target = j
                    break
            if target is None:
                free.append(numbered[i][0])
            else:
                counts[target] = item.value
        places.extend(
            Place(item.value, counts.get(i), preps.get(i))
            for i, item in enumerate(seg)
            if item.kind == "territory"
        )
    return places, free


def _next_territory(seg: list[Item], i: int, step: int) -> int | None:
    j = i + step
    while 0 <= j < len(seg):
        kind = seg[j].kind
        if kind == "territory":
            return j
        if kind == "filler" or (kind == "prep" and step == 1):
            j += step
            continue
        return None
    return None
