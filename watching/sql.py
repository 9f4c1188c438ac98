"""The watching room's SQL: the column of the game page's one query that says whether the viewer
follows the game (`web.live.register_page_column`, registered in WatchingConfig.ready())."""

from __future__ import annotations

from watching.models import Follow


def following_column() -> str:
    """SQL of the game page's column `page_following` over the game row `g` (one user parameter):
    whether the signed-in user follows the game (a boolean; SQLite answers 0 or 1)."""
    return f"EXISTS(SELECT 1 FROM {Follow._meta.db_table} f WHERE f.game_id = g.id AND f.user_id = %s)"
