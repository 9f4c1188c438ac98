"""The models of the games app, as Django and the rest of the project name them (`games.models`).

They are defined in the rooms that own them: the event store's in `games.store.models` (Game,
Seat, Command, Event, Snapshot, TableEvent), the play room's in `games.play.models` (SeatClock,
StandingOrder, TableChannel). Modules of those rooms import them from there; the rooms above may import them from here.
"""

from games.play.models import SeatClock, StandingOrder, TableChannel
from games.store.models import (
    COLOURS,
    REFUSE_TRUNCATE,
    Command,
    Event,
    Game,
    Seat,
    Snapshot,
    TableEvent,
    new_seat_token,
    seed_commitment,
)

__all__ = [
    "COLOURS",
    "REFUSE_TRUNCATE",
    "Command",
    "Event",
    "Game",
    "Seat",
    "SeatClock",
    "StandingOrder",
    "Snapshot",
    "TableChannel",
    "TableEvent",
    "new_seat_token",
    "seed_commitment",
]
