"""Whether a player is at the table: has a game's page open, which polls its head every few
seconds (web.live.game_head). While they are, the emails about their decisions in that game wait
(`notifications.outbox`): the decision shows on the page, and answered there it sends no email.

Kept in the default cache (Redis in production, shared by the web processes and the workers):
one key per game and account, set at each poll, living AT_TABLE_SECONDS. Only a signed-in
viewer is known (a seat link signs nobody in: its emails come as usual).
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import cache


def _key(game_id: int, user_id: int) -> str:
    return f"at-table:{game_id}:{user_id}"


def seen(game_id: int, user_id: int) -> None:
    """The account `user_id` has the page of game `game_id` open now (its poll came)."""
    cache.set(_key(game_id, user_id), 1, timeout=settings.AT_TABLE_SECONDS)


def at_the_table(game_id: int, user_id: int | None) -> bool:
    """Whether the account `user_id` polled the page of game `game_id` in the last
    AT_TABLE_SECONDS seconds (False for no account)."""
    return user_id is not None and cache.get(_key(game_id, user_id)) is not None
