"""The game and history pages, rendered once per (game, version, viewer, language), and the game
page's live part apart.

The live part of the game page (the island, the table, the clash panel, the decision forms, the
hand, the recent lines: `templates/games/_live.html`) is the same HTML for every request of the
same viewer until the game moves on, and it is most of a page's cost (the fold of the state,
the island's SVG, the forms). It is kept under `cache_key`, which names everything it depends
on: the game (its id and seed commitment, so a reused id can never match), the log's and the
table log's lengths (any event, any host action), the viewer's seat and their other seats at
the table (a player may hold two), whether they are signed in and host the game, and the
language.

A whole page (the game page with its header, footer, follow button and table talk, or a history
page) is kept under `page_key`, made before the viewer's seats are read: the game and its log
lengths, the last table-talk message's number, whether the viewer follows the game, the seats
they play, who they are (their address is in the header), the page's path with its query and
the language. The view reads all of these with the game row in one query
(`web.live.game_for_page`), so a page served again costs that query and the session's own
reads. The live part is still kept alone: a new table-talk message or a follow changes the page
but not its live part.

Never kept: a page that answers a refused form (it shows what was posted). Never served from
nor kept under `page_key`: a page with a one-time message to show (after a move), and any page
of a visitor holding a seat link of the game (the link is checked on each request). The only
per-request values inside what is kept, the CSRF token, the form nonce and the viewer's token for
the page's head (`web.head_viewer`), are written as placeholders and filled in for each request,
so a kept page never shares a nonce or another session's token, nor carries an old viewer's token.

Display names (chosen in preferences) can change without the game moving on: an entry lives
PAGE_SECONDS at most, so a new name shows within that time.

The first view after a move misses both keys (the game moved on). So that it need build neither,
the worker renders each player seat's live part, and each player's whole page at the game page's
own address, after each commit (`web.prerender`) and keeps them under these same keys with
`keep_ahead` in the "prerendered" cache, shared by every process (Redis when the service has
one), for PRERENDERED_SECONDS: a name changed meanwhile shows at the next move.
"""

from __future__ import annotations

import hashlib
import zlib

from django.conf import settings
from django.core.cache import caches
from django.middleware.csrf import get_token
from django.utils import translation

from web import head_viewer, live

# How long a rendered live part is kept, in seconds (an upper bound on a stale display name).
PAGE_SECONDS = 60
# How long a live part rendered after a commit waits for its viewer, in seconds: a player may
# look a day after the move. A display name changed meanwhile shows at the next move.
PRERENDERED_SECONDS = 24 * 3600
CSRF_PLACEHOLDER = "__inis_csrf_token__"
NONCE_PLACEHOLDER = "__inis_form_nonce__"
VIEWER_PLACEHOLDER = "__inis_head_viewer__"


def cache_key(*, game, seq: int, table_seq: int, seat, my_seats: list, signed_in: bool, is_host: bool) -> str:
    """The key of a live part: the game, its versions, the viewer's seat and other seats, whether
    they are signed in and host it (a hint and a link differ), the site's latest erasure (when
    `game` was read for its page, `web.live.game_for_page`), the language; a short hash."""
    parts = [
        str(game.pk),
        game.seed_commitment,
        str(seq),
        str(table_seq),
        seat.colour if seat is not None else "-",
        ",".join(s.colour for s in my_seats),
        "signed-in" if signed_in else "visitor",
        "host" if is_host else "-",
        str(getattr(game, "page_erasures", "-")),  # an erasure changes it (`live.erasures_column`)
        translation.get_language() or "en",
    ]
    return "game-live:" + hashlib.sha256("|".join(parts).encode()).hexdigest()[:40]


def page_key(*, game, user, path: str) -> str:
    """The key of a whole game page, before the viewer's seats are read: `game` as
    `web.live.game_for_page` gives it (its versions, table talk, the follow, the seats `user`
    plays), the signed-in user's id and address (None or anonymous: a visitor), the page's path
    with its query (`?as=` chooses among the viewer's seats) and the language; a short hash. Only
    for a visitor whose session holds no seat link of the game: such links are checked on each
    request (`players.seat_links.granted_seats`)."""
    signed_in = user is not None and user.is_authenticated
    parts = [
        str(game.pk),
        game.seed_commitment,
        str(game.page_seq),
        str(game.page_table_seq),
        *(str(getattr(game, name)) for name in live.page_columns()),
        str(game.page_my_positions),
        f"{user.pk}:{user.email}" if signed_in else "-",
        "host" if signed_in and game.host_id == user.pk else "-",
        path,
        translation.get_language() or "en",
    ]
    return "page:" + hashlib.sha256("|".join(parts).encode()).hexdigest()[:40]


def positions_mask(seats) -> int:
    """`seats` as `web.live.game_for_page`'s `page_my_positions` counts them: a bit per position."""
    return sum(1 << seat.position for seat in seats)


def cached(key: str) -> dict | None:
    """What `keep` (this process) or `keep_ahead` (any process: a live part or a page rendered
    after a commit, `web.prerender`) stored under `key` ({"html": rendered with placeholders,
    ...}), or None; always None with the speed layers off (settings.SPEED_LAYERS)."""
    if not settings.SPEED_LAYERS:
        return None
    found = caches["pages"].get(key)
    if found is None:
        found = caches["prerendered"].get(key, version=PRERENDERED_FORMAT)
        if found is not None:
            found = {**found, "html": zlib.decompress(found["html"]).decode()}
    return found


def cached_many(keys: list[str]) -> dict[str, dict]:
    """{key: what `cached(key)` gives} for those of `keys` kept, read with one look at each cache
    (the keys of one reader's pages: `web.prerender`); {} with the speed layers off."""
    if not settings.SPEED_LAYERS or not keys:
        return {}
    found = caches["pages"].get_many(keys)
    missing = [key for key in keys if key not in found]
    if missing:
        ahead = caches["prerendered"].get_many(missing, version=PRERENDERED_FORMAT)
        found.update(
            {key: {**kept, "html": zlib.decompress(kept["html"]).decode()} for key, kept in ahead.items()}
        )
    return found


# zlib's level for what `keep_ahead` stores: a page of some 40 KB is kept in about 10 KB (a
# player's live parts and page are kept for every move, for a day), compressed in under a
# millisecond by the worker and read back in a tenth of one by the view.
COMPRESSION_LEVEL = 6
# The cache key version of what `keep_ahead` stores (Django's `version`): 2 since its HTML is
# compressed, so that entries of the earlier form, left in Redis by the release before, are
# never read as compressed.
PRERENDERED_FORMAT = 2


def keep_ahead(key: str, rendered: dict) -> None:
    """Store `rendered` (a live part or a whole page, its "html" with the placeholders) under
    `key` where every web process reads it ("prerendered": Redis when the service has one), its
    HTML compressed, for PRERENDERED_SECONDS: made after a commit for a viewer who has not asked
    yet (`web.prerender`). Nothing with the speed layers off (settings.SPEED_LAYERS)."""
    keep_ahead_many({key: rendered})


def keep_ahead_many(rendered: dict[str, dict], seconds: int = PRERENDERED_SECONDS) -> None:
    """`keep_ahead` of each {key: live part or page} of `rendered`, in one write to the cache (the
    pages of one run: `web.prerender`), for `seconds`. Nothing with the speed layers off."""
    if not settings.SPEED_LAYERS or not rendered:
        return
    packed = {
        key: {**part, "html": zlib.compress(part["html"].encode(), COMPRESSION_LEVEL)}
        for key, part in rendered.items()
    }
    caches["prerendered"].set_many(packed, seconds, version=PRERENDERED_FORMAT)


def forget_earlier(*, game, versions: tuple[int, int], keys: list[str]) -> None:
    """Delete what `keep_ahead` kept for `game` at versions before `versions` (log length, table
    log length), and remember `keys` (kept at `versions`) for the next call: once the game has
    moved on, nobody reads those again (every key names the versions), so they need not wait
    PRERENDERED_SECONDS in Redis. What was kept at `versions` or later (a later commit's run that
    finished first) is left. Two runs at once may each miss the other's keys: those expire.
    Nothing with the speed layers off (settings.SPEED_LAYERS): nothing was kept."""
    if not settings.SPEED_LAYERS:
        return
    cache = caches["prerendered"]
    index = "game-ahead:" + hashlib.sha256(f"{game.pk}|{game.seed_commitment}".encode()).hexdigest()[:40]
    kept = [tuple(entry) for entry in cache.get(index, [], version=PRERENDERED_FORMAT)]
    cache.delete_many([key for at, key in kept if tuple(at) < versions], version=PRERENDERED_FORMAT)
    later = [(at, key) for at, key in kept if tuple(at) >= versions and key not in keys]
    cache.set(
        index, later + [(versions, key) for key in keys], PRERENDERED_SECONDS, version=PRERENDERED_FORMAT
    )


def keep(key: str, rendered: dict) -> None:
    """Store `rendered` (a dict whose "html" holds the placeholders) under `key` for PAGE_SECONDS;
    nothing with the speed layers off (settings.SPEED_LAYERS)."""
    if not settings.SPEED_LAYERS:
        return
    caches["pages"].set(key, rendered, PAGE_SECONDS)


def filled(html: str, request, nonce: str) -> str:
    """`html` with this request's CSRF token, a fresh form nonce and, for a signed-in viewer, a
    fresh token naming them to the page's head (`web.head_viewer`; empty for a visitor) in place
    of the placeholders."""
    html = html.replace(CSRF_PLACEHOLDER, get_token(request)).replace(NONCE_PLACEHOLDER, nonce)
    if VIEWER_PLACEHOLDER in html:
        user = request.user
        html = html.replace(VIEWER_PLACEHOLDER, head_viewer.issue(user.pk) if user.is_authenticated else "")
    return html
