"""The game page's live part, rendered once per (game, version, viewer, language).

The live part of the game page (the island, the table, the clash panel, the decision forms, the
hand, the recent lines: `templates/games/_live.html`) is the same HTML for every request of the
same viewer until the game moves on, and it is most of a page's cost (the fold of the state,
the island's SVG, the forms). It is kept in the "pages" cache under a key naming everything it
depends on: the game (its id and seed commitment, so a reused id can never match), the log's and
the table log's lengths (`games.live.game_version`: any event, any host action), the viewer's seat
and their other seats at the table (a player may hold two), whether they are signed in and host
the game, and the language. A page that answers a refused form is never kept (it shows what was
posted). The only
per-request values inside it, the CSRF token and the form nonce, are written as placeholders and
filled in for each request, so a cached part never shares a nonce or another session's token.

Display names (chosen in preferences) can change without the game moving on: an entry lives
PAGE_SECONDS at most, so a new name shows within that time.
"""
from __future__ import annotations

import hashlib

from django.core.cache import caches
from django.middleware.csrf import get_token
from django.utils import translation

# How long a rendered live part is kept, in seconds (an upper bound on a stale display name).
PAGE_SECONDS = 60
CSRF_PLACEHOLDER = "__inis_csrf_token__"
NONCE_PLACEHOLDER = "__inis_form_nonce__"


def cache_key(*, game, seq: int, table_seq: int, seat, my_seats: list, signed_in: bool, is_host: bool) -> str:
    """The key of a live part: the game, its versions, the viewer's seat and other seats, whether
    they are signed in and host it (a hint and a link differ), the language; a short hash."""
    parts = [str(game.pk), game.seed_commitment, str(seq), str(table_seq),
             seat.colour if seat is not None else "-", ",".join(s.colour for s in my_seats),
             "signed-in" if signed_in else "visitor", "host" if is_host else "-",
             translation.get_language() or "en"]
    return "game-live:" + hashlib.sha256("|".join(parts).encode()).hexdigest()[:40]


def cached_part(key: str) -> dict | None:
    """The stored live part under `key` ({"html": rendered with placeholders, "your_turn": bool}),
    or None."""
    return caches["pages"].get(key)


def keep_part(key: str, part: dict) -> None:
    """Store `part` (as `cached_part` returns it) under `key` for PAGE_SECONDS."""
    caches["pages"].set(key, part, PAGE_SECONDS)


def filled(html: str, request, nonce: str) -> str:
    """`html` with this request's CSRF token and a fresh form nonce in place of the placeholders."""
    return html.replace(CSRF_PLACEHOLDER, get_token(request)).replace(NONCE_PLACEHOLDER, nonce)
