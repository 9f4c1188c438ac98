"""What a seat cannot tell apart: its information set, and deals of the cards hidden from it.

A bot that thinks ahead needs a whole state to play on, yet may know only what its seat knows
(docs/rulings.md, "Bots"). `deal_hidden(state, seat)` gives a copy of the state in which every
card and tile hidden from `seat` is dealt again in a canonical order: two states that `seat`
cannot tell apart (other hands, deck orders, the set-aside card, other seats' draft packs,
their standing policies) give equal copies, so whatever decides on that copy cannot read a
hidden card. `deal_hidden(copy, seat, rng)` then deals the same hidden cards at random: one
possible truth (a determinization), the way a player imagines the other hands.

Hidden from `seat`: the Action cards and Epic Tales in other hands, in the Action deck and its
discard pile, the set-aside card, in the Epic Tale deck, in other seats' draft records and in
the packs passed to `seat` that it has not picked up yet (its view shows only their count); the
secret part of another seat's procedure in progress (the card it discards face down to Master
Craftsman, the Epic Tales or tiles it drew to choose from); another seat's answer to a Triskel
window not yet revealed (the card it plays, the maneuver it gives with it, a card it says ahead
for later in a clash step) and, in a window that asks only holders, whether it was asked; the order of the territory tile
stack; other seats' standing Triskel policies. A card the procedures in progress name in
public (`state.stack` less other seats' secrets: a card being played, a choice shown to a seat)
stays where it is. Each place keeps its size and its card type (hand sizes by type are public).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from .assembly import draft_cards_in_hand
from .catalog import ACTION, CARDS, EPIC
from .engine import legal_commands, pending_for
from .state import GameState


def deal_hidden(state: GameState, seat: str, rng: random.Random | None = None) -> GameState:
    """A copy of `state` with the cards and tiles hidden from `seat` dealt again.

    rng None: in a canonical order (sorted cards dealt into the places in a fixed order), so the
    copy depends only on what `seat` may know. rng given: uniformly at random among the deals
    consistent with what `seat` sees. Never changes `state`. Raises ValueError when `seat` is
    not seated.
    """
    if seat not in state.seats:
        raise ValueError(f"{seat!r} is not seated")
    new = state.clone()
    others = [s for s in new.seats if s != seat]
    order = _hidden_in_order(new, seat, _known_to(state, seat))
    mapping: dict[str, str] = {}
    for card_type in (ACTION, EPIC):
        first_met = [c for c in order if CARDS[c].type == card_type]
        dealt = sorted(first_met)
        if rng is not None:
            rng.shuffle(dealt)
        mapping.update(zip(first_met, dealt))
    for s in others:
        if s in new.hands:
            new.hands[s] = [mapping.get(c, c) for c in new.hands[s]]
    for s in new.seats:
        # Its own record too: the packs passed to `seat` and not picked up are hidden from it.
        if new.draft and s in new.draft:
            new.draft[s] = _replace(new.draft[s], mapping)
    for frame in _secret_frames(new, seat):
        # A card's or an Epic Tale draw's frame: the kinds that hold a secret part.
        frame["secret"] = _replace(frame["secret"], mapping)  # type: ignore[index]
    new.action_deck = [mapping.get(c, c) for c in new.action_deck]
    new.action_discard = [mapping.get(c, c) for c in new.action_discard]
    new.epic_deck = [mapping.get(c, c) for c in new.epic_deck]
    if new.set_aside is not None:
        new.set_aside = mapping.get(new.set_aside, new.set_aside)
    _deal_tiles(new, seat, rng)
    for s in others:
        if s in new.policies:
            new.policies[s] = {}
    new.stack[:] = [_as_seen_by(frame, seat) for frame in new.stack]
    return new


def _as_seen_by(frame: Any, seat: str) -> Any:
    """`frame` (a procedure in progress) less what only other seats know of it, the secret part
    of their card aside (`_secret_frames`): their answers given ahead in a clash step; in a
    Triskel window whose answers are not revealed yet, their answers and the maneuver one of them
    gave with its answer (read as declines: that they answered is public), and, in a window that
    asks only holders, who else was asked and answered (that tells who holds a card). A new
    frame when anything is left out; else `frame` itself."""
    if frame["kind"] == "clash" and frame.get("ahead"):
        # Another seat's answer given ahead in a clash step is as secret as its answer.
        return {**frame, "ahead": {s: a for s, a in frame["ahead"].items() if s == seat}}
    if frame["kind"] != "window" or frame["queue"] is not None:
        return frame
    # Who has answered a window asking on public facts is public (the table waits for the
    # others), what they answered is not: their answers read as declines.
    seen = {**frame, "answers": {s: (a if s == seat else None) for s, a in frame["answers"].items()}}
    if frame.get("maneuver") and frame["maneuver"]["seat"] != seat:
        del seen["maneuver"]
    if frame.get("private"):
        seen["asked"] = [s for s in frame["asked"] if s == seat]
        seen["answers"] = {s: a for s, a in frame["answers"].items() if s == seat}
    return seen


def _deal_tiles(new: GameState, seat: str, rng: random.Random | None) -> None:
    """Deal again, in place, the territory tiles hidden from `seat`: the stack's tiles no
    procedure names in public, and the tiles another seat drew in secret (Epic Tales that draw
    tiles to choose from)."""
    named = _cards_in(_public_stack(new.stack, seat))
    secret = [f["secret"] for f in _secret_frames(new, seat) if isinstance(f["secret"].get("tiles"), list)]
    places = [t for t in new.tile_stack if t not in named] + [t for s in secret for t in s["tiles"]]
    free = sorted(places)
    if rng is not None:
        rng.shuffle(free)
    it = iter(free)
    new.tile_stack = [t if t in named else next(it) for t in new.tile_stack]
    for s in secret:
        s["tiles"] = [next(it) for _t in s["tiles"]]


def _secret_frames(state: GameState, seat: str) -> list[Mapping[str, Any]]:
    """The procedures in progress of other seats that hold a secret part (`frame["secret"]`)."""
    return [f for f in state.stack if f.get("secret") and f.get("seat") != seat]


def _public_stack(stack: Sequence[Mapping[str, Any]], seat: str) -> list[Mapping[str, Any]]:
    """The procedures in progress as `seat` sees them: other seats' secrets left out, and what
    only they know of a clash step or an open Triskel window (`_as_seen_by`)."""
    seen = [_as_seen_by(f, seat) for f in stack]
    return [{k: v for k, v in f.items() if k != "secret"} if f.get("seat") != seat else f for f in seen]


def hidden_from(state: GameState, seat: str) -> set[str]:
    """The Action cards and Epic Tales whose place `seat` cannot see in `state` (the cards
    `deal_hidden` deals again): in other hands and draft records, the Action deck and its
    face-down discard pile, the set-aside card, the Epic Tale deck, the packs passed to `seat` not
    yet picked up, other seats' secrets in progress; never a card the seat holds,
    is shown or is told of (`state` is not changed). Raises ValueError when `seat` is not seated."""
    if seat not in state.seats:
        raise ValueError(f"{seat!r} is not seated")
    return set(_hidden_in_order(state, seat, _known_to(state, seat)))


def cards_named(value: Any) -> set[str]:
    """Every card id inside JSON-like `value` (a command, a decision's facts, an event's payload)."""
    return {v for v in _cards_in(value) if v in CARDS}


def _known_to(state: GameState, seat: str) -> set[str]:
    """Every id `seat` sees the place of: the cards in play (less other seats' secrets), in its
    hand, face up (in front of a player, the Epic Tale discard pile), in its draft but for the
    packs it has not picked up, and in what it is told (its options and decisions)."""
    known = _cards_in(_public_stack(state.stack, seat)) | set(state.hands.get(seat, ())) | set(state.in_front)
    known |= set(state.epic_discard)
    # What the seat is told: its options and its decisions' facts (Cathbad's Word shows it the
    # Action deck while it chooses the card set aside).
    known |= _cards_in(legal_commands(state, seat))
    known |= _cards_in([d.context for d in pending_for(state, seat)])
    if state.draft and seat in state.draft:
        known |= _draft_seen(state, seat)
    return known


def _draft_seen(state: GameState, seat: str) -> set[str]:
    """The cards of `seat`'s draft record it has seen: those it keeps, holds, picks from or has
    passed on, and the packs it has picked from; not the packs dealt or passed to it that it
    has not picked up yet (rulebook, Assembly step 6: passed cards are taken after keeping)."""
    d = state.draft[seat]
    steps = len(state.draft["_plan"]["keeps"])
    seen = set(draft_cards_in_hand(state, seat)) | set(d["kept"]) | set(d["held"]) | set(d.get("passing", []))
    for key, received in d["received"].items():
        k = int(key)
        used = (d["blocks_done"] > k // steps) if k % steps == steps - 1 else (d["stage"] > k + 1)
        if used:
            seen |= set(received)
    for key, dealt in d["dealt"].items():
        if d["stage"] > int(key) * steps:
            seen |= set(dealt)
    return seen


def _hidden_in_order(state: GameState, seat: str, known: set[str]) -> list[str]:
    """The cards hidden from `seat` (not in `known`), each once, in a fixed order."""
    others = [s for s in state.seats if s != seat]
    # Every place a hidden card may be, in a fixed order; a card met twice (a draft record keeps
    # the cards dealt and those held) is the same card both times, so one mapping is applied.
    containers: list[Any] = [state.hands[s] for s in others if s in state.hands]
    containers += [state.draft[s] for s in state.seats if state.draft and s in state.draft]
    containers += [f["secret"] for f in _secret_frames(state, seat)]
    containers += [state.action_deck, state.action_discard, state.epic_deck]
    order: list[str] = []
    seen: set[str] = set()
    for container in containers:
        _collect(container, known, order, seen)
    if state.set_aside is not None and state.set_aside not in known and state.set_aside not in seen:
        order.append(state.set_aside)
    return order


def _cards_in(value: Any) -> set[str]:
    """Every string inside JSON-like `value` (card and territory ids among them)."""
    out: set[str] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if type(v) is str:
            out.add(v)
        elif type(v) is dict:
            stack.extend(v.values())
            stack.extend(k for k in v if type(k) is str)
        elif type(v) in (list, tuple):
            stack.extend(v)
    return out


def _collect(value: Any, known: set[str], order: list[str], seen: set[str]) -> None:
    """Append to `order` the hidden cards of `value` in a fixed traversal order (dict keys sorted)."""
    if type(value) is str:
        card = CARDS.get(value)
        if card is not None and card.type in (ACTION, EPIC) and value not in known and value not in seen:
            seen.add(value)
            order.append(value)
    elif type(value) is dict:
        for key in sorted(value):
            _collect(value[key], known, order, seen)
    elif type(value) in (list, tuple):
        for v in value:
            _collect(v, known, order, seen)


def _replace(value: Any, mapping: dict[str, str]) -> Any:
    """`value` (JSON-like) with every string in `mapping` replaced."""
    if type(value) is str:
        return mapping.get(value, value)
    if type(value) is dict:
        return {k: _replace(v, mapping) for k, v in value.items()}
    if type(value) is list:
        return [_replace(v, mapping) for v in value]
    return value
