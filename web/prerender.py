"""The game page's live parts rendered after each commit, for the players who have not looked yet.

After a move, each player's first view of the game page misses the page cache (the game moved
on) and used to build its live part itself: the fold, the island, the forms and the templates,
some 200 times a minimal view (bench: web). The worker builds them instead, once the move has
committed (`web.tasks`, enqueued by an after-append hook): for each player seat, as its player
reads it (their language, signed in, host or not), kept in the shared "prerendered" cache under
the key the view looks for (`web.page_cache.cache_key`, `keep_ahead`). The view then only
renders the page around it.

Nothing here is shown to anybody but the seat's own player: the key names the seat, the viewer's
seats and the language, as the view's own does.
"""

from __future__ import annotations

from django.utils import translation

from players.models import Player
from web import live, live_part, page_cache


def render_live_parts(game_id: int) -> int:
    """Build and keep (`page_cache.keep_ahead`) the live part of every player seat of the game
    with a signed-in account, at the game's current versions, unless already kept; returns how
    many were built (0 for no such game). A part read at other versions than those the key names
    (the game moved on meanwhile) is not kept: the next commit's run builds it."""
    game = live.game_for_page(game_id=game_id, user=None)
    if game is None:
        return 0
    seats = [s for s in game.seats.all() if not s.is_bot and s.user_id is not None]
    by_user: dict[int, list] = {}
    for seat in seats:
        if seat.user_id is not None:
            by_user.setdefault(seat.user_id, []).append(seat)
    emails = {s.user_id: (s.email or "").lower() for s in seats}
    languages = dict(Player.objects.filter(email__in=set(emails.values())).values_list("email", "language"))
    versions = (game.page_seq, game.page_table_seq)  # type: ignore[attr-defined]  # the page query's columns
    built = 0
    for user_id, mine in by_user.items():
        mine.sort(key=lambda s: s.position)
        is_host = game.host_id == user_id
        with translation.override(languages.get(emails[user_id]) or "en"):
            for seat in mine:
                key = page_cache.cache_key(
                    game=game,
                    seq=versions[0],
                    table_seq=versions[1],
                    seat=seat,
                    my_seats=mine,
                    signed_in=True,
                    is_host=is_host,
                )
                if page_cache.cached(key) is not None:
                    continue
                part = live_part.build(game, seat, mine, is_host=is_host)
                built += 1
                if part["versions"] == versions:
                    page_cache.keep_ahead(key, part)
    return built
