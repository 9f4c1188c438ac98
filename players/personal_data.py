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

import re
from collections.abc import Callable
from dataclasses import dataclass, field

# What mail programs put before a line they quote: ">", "> ", ">> ", "> > ".
_QUOTE_PREFIX = re.compile(r"^[ \t]*(?:>[ \t]?)+")


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

    def tracer(self) -> Callable[[str], bool]:
        """A test of a text: whether it holds one of this person's traces (`traces`) where it
        stands as theirs, whatever the case, quoted or not, over several lines (`folded`): their
        address as a whole address (`as_address`), their name and words as words of their own
        (`as_words`: a message "ok" is not in "book", "Don" is not in "Done.")."""
        patterns = [
            re.compile(as_address(folded(t)) if t == self.email else as_words(folded(t)))
            for t in self.traces()
            if folded(t)
        ]

        def holds(text: str) -> bool:
            text = folded(text)
            return any(pattern.search(text) for pattern in patterns)

        return holds


def as_words(text: str) -> str:
    """A regular expression (its source) finding `text` where it stands as words of its own: no
    letter or digit glued to an end that is one ("Don" is in "Don, your move", not in "Done."; a
    message "ok" is in "ok!", not in "book"); an end that is none ("ok!") needs nothing."""
    before = r"(?<!\w)" if re.match(r"\w", text[:1]) else ""
    after = r"(?!\w)" if re.match(r"\w", text[-1:]) else ""
    return f"{before}{re.escape(text)}{after}"


def as_address(address: str) -> str:
    """A regular expression (its source) finding the email address `address` as a whole address,
    never inside a longer one ("don@example.org" is not in "brandon@example.org", nor in
    "don@example.org.uk")."""
    return rf"(?<![\w.+'-]){re.escape(address)}(?![\w-]|\.\w)"


def folded(text: str) -> str:
    """`text` as a quoted copy keeps it, whatever the mail program did to the lines: each line
    without its quote prefixes ("> ", ">> ", "> > "), every run of white space one space,
    case folded. A message of several lines, quoted line by line and re-wrapped, folds to the
    same text as the message itself."""
    lines = (_QUOTE_PREFIX.sub("", line) for line in text.splitlines())
    return " ".join(" ".join(lines).split()).casefold()


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
