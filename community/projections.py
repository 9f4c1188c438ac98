"""Read models fed by the logs: the projection framework.

A projection folds the rows of one append-only log (`source`: a model whose `id` grows with
every row committed, e.g. `lobby.models.GatheringEvent`) into tables of its own, in `id` order.
`ProjectionPosition` keeps, per projection, the `id` of the last row folded; `feed` folds what
came after it and moves the position in the same transaction as the projection's writes, so a
crash leaves both as they were. A projection never writes a log and never blocks a command: it
reads committed rows and locks only its own position (skipping a projection another process is
feeding). `rebuild` empties a projection (`reset`), folds its whole log again and forgets the
rows of erased accounts (`forget_erased`); the result equals what the feeds built
(tests/community/test_read_models_and_erasure.py).

To add one (docs/architecture.md, "Read models"): subclass `Projection`, give it a `name`, a
`source`, `handle(row)` (and, to fold many rows at once, `handle_batch(rows)`), `reset()` and
`forget_erased()`, and `register` an instance in its app's `ready()`.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from django.db import models, transaction

from community.models import ProjectionPosition

# Rows folded per transaction: a long log is refolded in many short transactions.
BATCH = 500


class Projection(ABC):
    """A read model of the log `source`, folded row by row with `handle`, emptied by `reset`."""

    name: ClassVar[str]
    source: ClassVar[type[models.Model]]

    @abstractmethod
    def handle(self, row) -> None:
        """Fold one row of `source` (in `id` order, each once) into the projection's tables."""

    @abstractmethod
    def reset(self) -> None:
        """Empty the projection's tables (before a rebuild)."""

    def handle_batch(self, rows: list) -> None:
        """Fold `rows` (consecutive rows of `source`, in `id` order): `handle` each by default; a
        projection that can fold many rows with fewer statements overrides it."""
        for row in rows:
            self.handle(row)

    @abstractmethod
    def forget_erased(self) -> None:
        """Delete what the whole log gave back of erased accounts (`players.Erasure`): run at
        the end of a rebuild, in its transaction, so that a rebuild holds what the feeds hold
        after the erasures (`community.erasure`)."""


_registry: dict[str, Projection] = {}


def register(projection: Projection) -> None:
    """Make `projection` fed by `feed` and rebuilt by `rebuild` (called in an AppConfig.ready)."""
    _registry[projection.name] = projection


def registered() -> dict[str, Projection]:
    """{name: projection} of every registered projection."""
    return dict(_registry)


def _named(name: str | None) -> list[Projection]:
    if name is None:
        return list(_registry.values())
    if name not in _registry:
        raise KeyError(f"No projection is named {name!r}; there are: {', '.join(sorted(_registry))}.")
    return [_registry[name]]


def _fold_after(projection: Projection, held: ProjectionPosition) -> int:
    """Inside the caller's transaction, holding the position `held`: fold every row after it,
    BATCH rows per read, and move it. Returns the rows folded."""
    folded = 0
    while rows := list(
        projection.source._default_manager.filter(id__gt=held.position).order_by("id")[:BATCH]
    ):
        projection.handle_batch(rows)
        held.position = rows[-1].pk
        folded += len(rows)
    if folded:
        held.save(update_fields=["position"])
    return folded


def _position(projection: Projection, *, wait: bool) -> ProjectionPosition | None:
    """The projection's position row, locked; None when another process holds it and not `wait`."""
    ProjectionPosition.objects.get_or_create(name=projection.name)
    return (
        ProjectionPosition.objects.select_for_update(skip_locked=not wait)
        .filter(name=projection.name)
        .first()
    )


def feed(name: str | None = None, *, wait: bool = False) -> int:
    """Fold into each projection (or the one named `name`) the rows of its log it has not read,
    each projection in one transaction; a projection another process is feeding is left to it,
    or, with `wait`, fed once that process is done (an erasure, inside its transaction, so that
    the positions stay locked until it commits: `community.erasure`). Returns the rows folded.
    Raises KeyError for an unknown name."""
    folded = 0
    for projection in _named(name):
        with transaction.atomic():
            held = _position(projection, wait=wait)
            if held is not None:
                folded += _fold_after(projection, held)
    return folded


def rebuild(name: str | None = None) -> int:
    """Empty each projection (or the one named `name`) and fold its whole log again, then
    forget the erased accounts' rows (`forget_erased`), in one transaction per projection (its
    readers see the old tables until the new ones commit). Returns the rows folded. Raises
    KeyError for an unknown name."""
    folded = 0
    for projection in _named(name):
        with transaction.atomic():
            held = _position(projection, wait=True)
            assert held is not None  # waited for the lock
            projection.reset()
            held.position = 0
            held.save(update_fields=["position"])
            folded += _fold_after(projection, held)
            projection.forget_erased()
    return folded
