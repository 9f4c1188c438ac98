"""Who reads a game's page: the players whose pages the worker renders ahead after a move.

Rendering a player's page after each commit (`web.prerender`) makes their first view after a
move a cache hit, but it costs the worker about 30 ms of CPU a player and a move (docs/scaling.md),
and most players play by email and never open the page. So the worker renders ahead only for the
players who opened the game's page lately: the view notes a signed-in player when it had to build
their page itself (`note`: nothing was rendered ahead for them, or it expired), and the note lasts
`READER_SECONDS`. While it lasts, their pages are rendered ahead and their views are cache hits,
which note nothing; once it lapses, their next view builds the page and notes them again. A player
who never opens the page costs the worker nothing after a move.

The notes live in the "prerendered" cache, shared by every process (Redis when the service has
one), next to the pages they stand for. They say only that an account opened a game's page, which
the server knows anyway; nothing of them is shown to anybody.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.conf import settings
from django.core.cache import caches

# How long one opening of the page keeps a player's pages rendered ahead, in seconds: longer than
# the longest deadline (four days), so a player who looks at each of their turns stays noted.
READER_SECONDS = 30 * 24 * 3600


def _key(game_id: int, user_id: int) -> str:
    return f"reader:{game_id}:{user_id}"


def note(*, game_id: int, user_id: int) -> None:
    """Note that the account `user_id` opened the page of the game `game_id` (for READER_SECONDS);
    nothing with the speed layers off (settings.SPEED_LAYERS): no page is rendered ahead then."""
    if not settings.SPEED_LAYERS:
        return
    caches["prerendered"].set(_key(game_id, user_id), 1, READER_SECONDS)


def readers(*, game_id: int, user_ids: Iterable[int]) -> set[int]:
    """Those of `user_ids` noted as readers of the game `game_id`'s page (one cache round trip)."""
    wanted = {_key(game_id, user_id): user_id for user_id in user_ids}
    if not wanted:
        return set()
    found = caches["prerendered"].get_many(list(wanted))
    return {wanted[key] for key in found}
