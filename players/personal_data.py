"""The registry of personal data holders: every room that keeps something about a person says
here how to forget it (docs/privacy.md).

The players room sits below the rooms that keep a person's data (the play room's seats, the
table talk, the mail, the invitations, the read models and reports, the follows), so it cannot
import them; each registers a `Holder` in its `AppConfig.ready()` (this room too, for its push
devices, chat targets and blocks: `players.own_data`), and `players.erasure.erase_account` calls
them all in one transaction. A new model keyed to a person joins by registering its own holder:
nothing else changes.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass
class Person:
    """Who is being erased: `user_id` (their account), `email` (canonical), `name` (the display
    name others read, "" for none), and `words`: the words of every table-talk message they
    wrote that can still be read, filled by the holders' `prepare` step, so that the `erase`
    step finds their copies (emails, digest lines) before the keys are destroyed; and `seats`:
    the ids of the seats they held, also filled by a `prepare` step (the mail's), so that the
    copies kept for other players name them as their seat reads once left ("Player N
    (left)")."""

    user_id: int
    email: str
    name: str = ""
    words: list[str] = field(default_factory=list)
    seats: list[int] = field(default_factory=list)

    def traces(self) -> list[str]:
        """The texts that give this person away in a stored copy: their address, their name
        (3 characters or more: a shorter one would match common words), their words."""
        found = [self.email, *self.words]
        if len(self.name) >= 3:  # noqa: PLR2004  (a name of 1 or 2 letters is in every text)
            found.append(self.name)
        return [t for t in found if t]


@dataclass(frozen=True)
class Holder:
    """A room's part of a person's data. `name`: the room (for logs and tests). `prepare(person)`:
    read what later steps need (runs first, for every holder); `erase(person)`: forget it, in
    the erasure's transaction; `collect(person)`: its part of their archive (`players.archive`),
    {file name in the archive: a JSON value}; any may be None."""

    name: str
    prepare: Callable[[Person], None] | None = None
    erase: Callable[[Person], None] | None = None
    collect: Callable[[Person], dict[str, object]] | None = None


_holders: list[Holder] = []


def register(holder: Holder) -> None:
    """Add `holder` (replacing one of the same name), from a room's AppConfig.ready()."""
    _holders[:] = [h for h in _holders if h.name != holder.name] + [holder]


def holders() -> list[Holder]:
    """The holders registered, in the order they registered."""
    return list(_holders)
