"""Setting a position up in a few lines and playing commands on it, for the rules tests.

The island is written one territory a line: its id, its cell `q,r` on the axial hex grid
(neighbours differ by (1,0), (1,-1), (0,-1), (-1,0), (-1,1), (0,1)), then `<word> <n>` pairs where
the word is a clan colour, `sanctuaries` or `citadels`:

    ISLAND = '''
        moor    0,0   green 4  blue 3  white 2
        plains  1,0   orange 2  sanctuaries 1  citadels 2
        valley  0,1   blue 1
    '''
    table = Table(ISLAND, capital="plains", brenn="green", hands={"green": ["act_migration"]})
    table.play("green", "act_migration", **{"from": "valley", "moves": {"moor": 1}})
    table.do("blue", "citadel")
    message = table.refuse("blue", "withdraw", moves={"cove": 1})

Every other keyword of `Table` is a field of the described position (games/rules/positions.py):
seats (default the four colours in seating order), brenn, turn, opened, passes, flock, hands, deeds,
pretenders, festival, phase, epic_deck, action_discard, set_aside, tile_stack...

`Table.do` plays a command through `decide` + `evolve`, checks that the command was among
`legal_commands`, and that the log still folds (through its JSON form) to the same state. A refused
command must leave the state and the log exactly as they were. Every Triskel window that opens is
declined by all asked seats, unless the table is made with `decline=False` (tests of windows).
"""

from __future__ import annotations

import pytest

from games.rules import (
    CommandError,
    Event,
    GameState,
    IllegalCommand,
    asks_triskel,
    decide,
    evolve,
    fold,
    legal_commands,
    pending,
    rng_for,
    start_game,
)
from games.rules.engine import GLOBAL_COMMANDS

SEATS = ("green", "blue", "orange", "white")
BUILDINGS = ("sanctuaries", "citadels")


def island(text: str) -> dict:
    """The `territories` object of a described position, from the compact notation above."""
    territories = {}
    for line in text.strip().splitlines():
        words = line.split()
        if not words:
            continue
        tid, cell, rest = words[0], words[1], words[2:]
        q, r = (int(x) for x in cell.split(","))
        if len(rest) % 2:
            raise ValueError(f"{tid}: expected '<word> <n>' pairs, got {rest}")
        entry = {"cell": [q, r], "clans": {}}
        for word, n in zip(rest[::2], rest[1::2]):
            if word in BUILDINGS:
                entry[word] = int(n)
            else:
                entry["clans"][word] = int(n)
        territories[tid] = entry
    return territories


def command_of(command, fields) -> dict:
    """`command` may be a whole dict, or just its type with the other fields as keywords."""
    if isinstance(command, dict):
        return {**command, **fields}
    return {"type": command, **fields}


class Table:
    """A game started from a described position, and the commands played on it since."""

    def __init__(
        self,
        island_text: str,
        *,
        seats=SEATS,
        seed: str = "rules-tests",
        decline: bool = True,
        options: dict | None = None,
        **position,
    ):
        territories = island(island_text)
        self.auto_decline = decline
        position.setdefault("capital", next(iter(territories)))
        position.setdefault("brenn", seats[0])
        self.seed = seed
        self.seats = list(seats)
        self.events: list[Event] = start_game(
            self.seats, seed=seed, options=options, setup={"territories": territories, **position}
        )
        self.state: GameState = fold(self.events)
        if decline:
            self.decline_reactions()

    # -- playing -------------------------------------------------------------------------------
    def do(self, seat: str, command, **fields) -> list[Event]:
        """Play `command` for `seat`; returns the events it produced (already folded)."""
        command = command_of(command, fields)
        listed = legal_commands(self.state, seat)
        events = decide(self.state, seat, command, rng=rng_for(self.seed, self.state.seq))
        if command["type"] not in GLOBAL_COMMANDS:
            assert command in listed, f"{command} was accepted but is not in legal_commands"
        for event in events:
            evolve(self.state, event)
        self.events.extend(events)
        replayed = fold([e.to_json() for e in self.events])
        assert replayed.to_json() == self.state.to_json(), "the log no longer folds to the state"
        if self.auto_decline:
            self.auto_decline = False
            try:
                events = events + self.decline_reactions()
            finally:
                self.auto_decline = True
        return events

    def play(self, seat: str, card: str, **args) -> list[Event]:
        """Play the Season half of `card` from `seat`'s hand with `args`."""
        return self.do(seat, {"type": "play", "card": card, **args})

    def refuse(self, seat: str, command, *, error=IllegalCommand, **fields) -> str:
        """Send a command that must be refused with `error`; returns the message.

        Checks that nothing was written: the state (its JSON snapshot) and the log are unchanged.
        """
        command = command_of(command, fields)
        before, count = self.state.to_json(), len(self.events)
        with pytest.raises(error) as info:
            self.do(seat, command)
        assert isinstance(info.value, CommandError)
        assert self.state.to_json() == before
        assert len(self.events) == count
        return str(info.value)

    def decline_reactions(self) -> list[Event]:
        """Every seat asked in an open Triskel window declines, until no window is open.

        Returns the events this produced. A table made with `decline=True` (the default) does
        this after every command.
        """
        events = []
        while True:
            seats = [d.seat for d in pending(self.state) if asks_triskel(d)]
            if not seats:
                return events
            for seat in seats:
                events += self.do(seat, "decline")

    # -- looking -------------------------------------------------------------------------------
    def legal(self, seat: str) -> list[dict]:
        return legal_commands(self.state, seat)

    def legal_types(self, seat: str) -> set:
        return {c["type"] for c in self.legal(seat)}

    def pending(self) -> list:
        return pending(self.state)

    def awaiting(self) -> dict:
        """`{seat: kind}` of the decisions awaited now."""
        return {d.seat: d.kind for d in pending(self.state)}

    def decision(self, seat: str):
        """The one decision `seat` must make now (fails when there is none)."""
        (found,) = [d for d in pending(self.state) if d.seat == seat]
        return found

    def clans(self, tid: str) -> dict:
        return dict(self.state.territories[tid]["clans"])

    def hand(self, seat: str) -> list:
        return list(self.state.hands[seat])

    def clash(self) -> dict | None:
        """The innermost clash frame, or None."""
        from games.rules.state import current_clash

        return current_clash(self.state)


def types(events) -> list[str]:
    """The event types of `events`, in order."""
    return [e.type for e in events]


def first(events, event_type: str) -> Event:
    """The first event of `event_type` in `events` (fails when there is none)."""
    found = [e for e in events if e.type == event_type]
    assert found, f"no {event_type} in {types(events)}"
    return found[0]
