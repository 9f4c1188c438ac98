"""The game page's live part (`templates/games/_live.html`: the island, the table, the clash, the
decision forms, the hand, the recent lines), built for one viewer: by the view on a request, or
after a commit for each player seat (`web.prerender`), to be kept in the page cache
(`web.page_cache`) with its placeholders for the CSRF token and the form nonce."""

from __future__ import annotations

from django.template.loader import render_to_string

from web import page_cache, pages


def build(game, seat, mine: list, *, is_host: bool, request=None, error: str | None = None) -> dict:
    """{"html", "your_turn", "versions"}: the live part as `seat` (of the viewer's seats `mine`;
    None: a spectator) sees it now; versions: (log length, table log length) it was read at.
    request: the request it answers (None: built ahead, for a signed-in player: the same HTML,
    since the live part reads nothing of the request but the posted form of a refusal, `error`)."""
    page = pages.game_page(game=game, seat=seat, my_seats=mine)
    context = {
        "page": page,
        "game": game,
        "error": error,
        "is_host": is_host,
        "nonce": page_cache.NONCE_PLACEHOLDER,
        "csrf_token": page_cache.CSRF_PLACEHOLDER,
    }
    return {
        "html": render_to_string("games/_live.html", context, request=request),
        "your_turn": bool(page.decisions),
        "versions": (page.board.seq, page.table_seq),
    }
