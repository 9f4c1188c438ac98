"""The game state: what the fold of a game's events gives, and the questions rules ask of it.

The state is plain data (dicts, lists, ints, strings) so that it serialises to JSON for snapshots
and copies fast for `decide`. It includes hidden information (hands, decks, the set-aside
Action card): it never leaves the server except through `view_for`.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field, fields
from typing import Any, TypedDict

from .catalog import ACTION, ADVANTAGE_OF, CARDS
from .frames import ClashFrame, Frame
from .island import neighbour_cells


class Territory(TypedDict):
    """A territory on the island: its hex `cell` [q, r], the clans per seat, its buildings."""

    cell: list[int]
    clans: dict[str, int]
    sanctuaries: int
    citadels: int


@dataclass
class GameState:
    """Everything about one game. `seq` counts the events folded so far.

    territories: tid -> {"cell": [q, r], "clans": {seat: count}, "sanctuaries": n, "citadels": n}
    stack: the procedures in progress, innermost last (see `games.rules.engine`).
    """

    seq: int = 0
    seats: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    phase: str = "setup"  # setup | assembly | season | over
    round: int = 0
    territories: dict[str, Territory] = field(default_factory=dict)
    capital: str | None = None
    festival: str | None = None
    tile_stack: list[str] = field(default_factory=list)
    reserve: dict[str, int] = field(default_factory=dict)
    supply: dict[str, int] = field(default_factory=dict)
    hands: dict[str, list[str]] = field(default_factory=dict)
    action_deck: list[str] = field(default_factory=list)
    action_discard: list[str] = field(default_factory=list)
    set_aside: str | None = None
    epic_deck: list[str] = field(default_factory=list)
    epic_discard: list[str] = field(default_factory=list)
    advantage_display: list[str] = field(default_factory=list)
    advantage_played: list[str] = field(default_factory=list)
    deeds: dict[str, int] = field(default_factory=dict)
    pretenders: list[str] = field(default_factory=list)
    brenn: str | None = None
    flock: str = "clockwise"
    winner: str | None = None
    draft: dict[str, Any] = field(default_factory=dict)
    in_front: dict[str, str] = field(default_factory=dict)  # card -> seat: cards kept face up in front
    policies: dict[str, dict[str, str]] = field(default_factory=dict)
    stack: list[Frame] = field(default_factory=list)
    log_note: str = ""

    # -- copying and snapshots -------------------------------------------------------------
    def clone(self) -> GameState:
        """A deep copy (pickle is the fastest deep copy for plain data)."""
        # S301: pickled here from this process's own state, never read from outside.
        copy: GameState = pickle.loads(pickle.dumps(self, protocol=pickle.HIGHEST_PROTOCOL))  # noqa: S301
        return copy

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON-safe data (hidden information included: server only)."""
        data: dict[str, Any] = pickle.loads(  # noqa: S301 - our own bytes, made on the line below
            pickle.dumps({f.name: getattr(self, f.name) for f in fields(self)})
        )
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        """Inverse of `to_json`; unknown keys are ignored, missing ones take their defaults."""
        names = {f.name for f in fields(cls)}
        copied = pickle.loads(pickle.dumps(data))  # noqa: S301 - a deep copy of data already in memory
        return cls(**{k: v for k, v in copied.items() if k in names})

    # -- the table ---------------------------------------------------------------------------
    def next_seat(self, seat: str, steps: int = 1) -> str:
        """The seat `steps` places after `seat` in the Flock of Crows direction (turn order)."""
        i = self.seats.index(seat)
        direction = 1 if self.flock == "clockwise" else -1
        return self.seats[(i + direction * steps) % len(self.seats)]

    def turn_order_from(self, seat: str) -> list[str]:
        """All seats in turn order starting with `seat`."""
        return [self.next_seat(seat, k) for k in range(len(self.seats))]

    # -- the island --------------------------------------------------------------------------
    def clans(self, tid: str, seat: str) -> int:
        """Clans of `seat` in territory `tid` (sheltered ones included)."""
        return self.territories[tid]["clans"].get(seat, 0)

    def present(self, seat: str) -> list[str]:
        """Territories where `seat` has at least one clan, in board order."""
        return [t for t, d in self.territories.items() if d["clans"].get(seat, 0) > 0]

    def chieftain(self, tid: str) -> str | None:
        """The seat with strictly the most clans in `tid`, or None on a tie or an empty territory.

        Rulebook, Territory chieftain. A clash waiting its turn in `tid` (several clashes from
        one effect) changes nothing: the instigator is chieftain there when they have the most
        clans, and so is anyone else (rulebook, Clashes, Clarifications; the French text: "ce
        statut change de manière immédiate").
        """
        counts = self.territories[tid]["clans"]
        best, best_n, tied = None, 0, False
        for seat, n in counts.items():
            if n > best_n:
                best, best_n, tied = seat, n, False
            elif n == best_n and n > 0:
                tied = True
        if tied or best is None:
            return None
        return best

    def adjacent(self, tid: str) -> list[str]:
        """Territories in play next to `tid`."""
        cells = {tuple(d["cell"]): t for t, d in self.territories.items()}
        return [cells[c] for c in neighbour_cells(tuple(self.territories[tid]["cell"])) if c in cells]

    def citadel_slots(self, tid: str) -> int:
        """Citadels in `tid`, the Capital counting as one (rulebook, Citadels)."""
        return self.territories[tid]["citadels"] + (1 if self.capital == tid else 0)

    def clans_on_board(self, seat: str) -> int:
        """All of `seat`'s clans in territories."""
        return sum(d["clans"].get(seat, 0) for d in self.territories.values())

    # -- cards -------------------------------------------------------------------------------
    def action_cards(self, seat: str) -> list[str]:
        """The Action cards in `seat`'s hand."""
        return [c for c in self.hands.get(seat, []) if CARDS[c].type == ACTION]

    def advantage_location(self, card: str) -> str:
        """Where an Advantage card is: a seat colour, `display` (face up), `played` or `box`."""
        for seat, hand in self.hands.items():
            if card in hand:
                return seat
        if card in self.advantage_display:
            return "display"
        if card in self.advantage_played:
            return "played"
        return "box"

    def advantage_of(self, tid: str) -> str:
        """The Advantage card id matching territory `tid`."""
        return ADVANTAGE_OF[tid]

    def top(self) -> Frame | None:
        """The innermost procedure in progress, or None."""
        return self.stack[-1] if self.stack else None


# -- a clash in progress (rulebook, Clashes): public facts ---------------------------------------
def exposed(state: GameState, frame: ClashFrame, seat: str) -> int:
    """Clans of `seat` in the clashing territory that are not sheltered in a Citadel."""
    sheltered: int = frame["sheltered"].get(seat, 0)
    return state.clans(frame["territory"], seat) - sheltered


def exposed_seats(state: GameState, frame: ClashFrame) -> list[str]:
    """Seats with exposed clans in the clash, in turn order from the instigator."""
    return [s for s in state.turn_order_from(frame["instigator"]) if exposed(state, frame, s) > 0]


def current_clash(state: GameState) -> ClashFrame | None:
    """The innermost clash in progress, or None."""
    frame: Frame  # declared: mypy reads `reversed` over a union of TypedDicts as Any
    for frame in reversed(state.stack):
        if frame["kind"] == "clash":
            return frame
    return None


def withdraw_targets(state: GameState, frame: ClashFrame, seat: str | None) -> list[str]:
    """Adjacent territories where `seat` is chieftain (rulebook, Withdraw)."""
    return [t for t in state.adjacent(frame["territory"]) if state.chieftain(t) == seat]
