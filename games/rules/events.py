"""Events: immutable, past-tense facts; the fold of a game's events is its state.

An event's `visibility` says who may read its full payload: `None` for everyone, a tuple of seat
colours otherwise (`()` is the server alone, e.g. a shuffled deck's order). `redact` (in
`games.rules.views`) gives the version other seats see.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

Payload = dict[str, Any]
"""An event's payload: JSON-serialisable fields."""


@dataclass(frozen=True)
class Event:
    """One fact. `type` is past tense (`ClansMoved`); `payload` is JSON-serialisable."""

    type: str
    payload: dict[str, Any] = field(default_factory=dict)
    visibility: tuple[Any, ...] | None = None
    version: int = 1

    def to_json(self) -> dict[str, Any]:
        """`{"type", "version", "payload", "visibility"}` with visibility as a list or None."""
        return {
            "type": self.type,
            "version": self.version,
            "payload": self.payload,
            "visibility": None if self.visibility is None else list(self.visibility),
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Event:
        """Inverse of `to_json`; old versions are upcast first (see `upcast`)."""
        data = upcast(data)
        vis = data.get("visibility")
        return cls(
            type=data["type"],
            payload=data.get("payload") or {},
            visibility=None if vis is None else tuple(vis),
            version=data.get("version", 1),
        )

    def visible_to(self, seat: str | None) -> bool:
        """True when `seat` (None: a spectator) may read the whole payload."""
        return self.visibility is None or (seat is not None and seat in self.visibility)


# (type, from_version) -> function(payload) -> payload of from_version + 1
Upcaster = Callable[[Payload], Payload]
"""Turns a payload of one version into the next one's."""

UPCASTERS: dict[tuple[str, int], Upcaster] = {}

# The current version of each event type that has ever changed shape; absent types are at 1.
CURRENT_VERSIONS: dict[str, int] = {}


def upcaster(event_type: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Register `fn(payload) -> payload` turning version `from_version` into the next one."""

    def register(fn: Upcaster) -> Upcaster:
        UPCASTERS[(event_type, from_version)] = fn
        CURRENT_VERSIONS[event_type] = max(CURRENT_VERSIONS.get(event_type, 1), from_version + 1)
        return fn

    return register


def upcast(data: dict[str, Any]) -> dict[str, Any]:
    """Bring a stored event (`to_json` shape) to the current version of its type.

    Returns a new dict; raises `ValueError` when a step of the chain is missing.
    """
    version = data.get("version", 1)
    event_type = data["type"]
    target = CURRENT_VERSIONS.get(event_type, 1)
    if version >= target:
        return data
    payload = dict(data.get("payload") or {})
    while version < target:
        step = UPCASTERS.get((event_type, version))
        if step is None:
            raise ValueError(f"no upcaster for {event_type} v{version}")
        payload = step(payload)
        version += 1
    return {**data, "version": version, "payload": payload}


# Version 1 of ClansPlaced carried one territory and a count; version 2 carries a mapping
# territory -> count so that New Clans and Dagda's Harp record one event per card.
@upcaster("ClansPlaced", 1)
def _clans_placed_v1(payload: dict[str, Any]) -> dict[str, Any]:
    return {"seat": payload["seat"], "placements": {payload["territory"]: payload.get("count", 1)}}
