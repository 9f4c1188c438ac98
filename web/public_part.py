"""The public part of a game page at one version of the game, read and rendered once for all its
readers, in the shared "prerendered" cache.

After a move every reader's first view misses their page (the game moved on), and the worker
renders ahead only the page of the player the move asks to decide (`web.prerender`). Each other
reader's view used to read and render everything itself, though half of it is the same for every
reader: the page's reads (`pages.page_reads`: the state, the recent events, the seats' names,
answer times and profiles, the recent commands: seven queries), the public events' lines
(`PageReads.lines`, worded once per language) and the island with the table's facts
(`web.shared_board`, rendered once per public board and language). The first page built at a
version (the worker's, or a view's) keeps them here under the game and its versions; every later
page of that version takes them, and builds only what is its reader's own: the hand, the
decisions, the lines redacted for them, the header.

What is kept holds the whole state, hands and all, as the log and the snapshots do: it never
leaves the server's cache, and each page takes from it only what its viewer may see, exactly as
when it reads the state itself (`web.pages._game_page`: the hand through `rules.view_for`, a
private event worded for each viewer and never kept). A display name changed meanwhile shows once
the entry expires (PUBLIC_SECONDS) or the game moves on. Nothing is kept or read with the speed
layers off (settings.SPEED_LAYERS).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from django.conf import settings
from django.core.cache import caches

from web import pages

# How long a public part waits for the readers of its version, in seconds: the readers with the
# page open fetch it within seconds of the move (static/live.js); a later reader reads their own.
# It bounds how long a display name changed without a move stays old on a page built from it.
PUBLIC_SECONDS = 600
# The cache key version of what is kept (Django's `version`): raised when `PageReads` or the
# fragments change shape, so that entries of a release before are never read.
PUBLIC_FORMAT = 2


@dataclass
class PublicPart:
    """What every reader's page at `reads`' version reads and renders alike: `reads`
    (`pages.PageReads`, with the public lines worded so far), `fragments` (the island and the
    table's facts rendered so far: {(language, public board): HTML}, `web.shared_board`), and
    `seen`, how many lines and fragments it held when read (`keep` writes it only when grown)."""

    reads: pages.PageReads
    fragments: dict = field(default_factory=dict)
    seen: int = 0

    def size(self) -> int:
        return len(self.reads.lines) + len(self.fragments)


def _key(game, versions: tuple[int, int]) -> str:
    # The seed commitment too: a game id reused by another database never reads this game's.
    digest = hashlib.sha256(f"{game.pk}|{game.seed_commitment}".encode()).hexdigest()[:40]
    return f"public:{digest}:{versions[0]}:{versions[1]}"


def read(game, versions: tuple[int, int] | None) -> PublicPart:
    """The public part of `game` at `versions` (log length, table log length) when kept, else
    read now (`pages.page_reads`: it may be at later versions, the game having moved on). One
    cache read; none, and a fresh read, with the speed layers off or no `versions`."""
    if settings.SPEED_LAYERS and versions is not None:
        kept = caches["prerendered"].get(_key(game, versions), version=PUBLIC_FORMAT)
        if kept is not None:
            reads, fragments = kept
            part = PublicPart(reads, fragments)
            part.seen = part.size()
            return part
    return PublicPart(pages.page_reads(game))


def keep(game, part: PublicPart) -> None:
    """Store `part` for its own versions for PUBLIC_SECONDS, when it holds more than it did when
    read (a page built from it worded lines or rendered a board it did not hold). Nothing with
    the speed layers off. A failing cache is passed over: the next page reads its own."""
    if not settings.SPEED_LAYERS or part.size() == part.seen:
        return
    versions = (part.reads.seq, part.reads.table_seq)
    try:
        caches["prerendered"].set(
            _key(game, versions), (part.reads, part.fragments), PUBLIC_SECONDS, version=PUBLIC_FORMAT
        )
    except Exception:  # a cache that fails costs the next page its reads, nothing more
        return
    part.seen = part.size()
