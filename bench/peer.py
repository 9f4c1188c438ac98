"""The peer: an application of the `eventsourcing` library (requirements/bench.txt) with one
aggregate per game and one event per command, stored by its PostgreSQL persistence module."""

from __future__ import annotations

from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event


class Table(Aggregate):
    """A game as the peer would hold it: each command is one `Moved` event."""

    @event("Registered")
    def __init__(self, name: str):
        self.name = name
        self.last = ""

    @event("Moved")
    def move(self, kind: str, payload: str):
        self.last = kind


class Games(Application):
    """The peer's application; `env` selects `eventsourcing.postgres` (see bench.store.peer_rate)."""
