"""The game page rendered after each commit, for the players who have not looked yet.

After a move, each player's first view of the game page misses the page cache (the game moved
on) and used to build it itself: the fold, the island, the forms and the templates, some 200
times a minimal view (bench: web). The worker builds it instead, once the move has committed
(`web.tasks`, published by the outbox relay): for each player who opened the game's page lately
and whom the move asks to decide: their seat holds a decision opened since the last run
(`web.page_readers`: players who play by email alone cost the worker nothing, and the other
readers look later, if at all: their first view builds their page, as any page missing from the
cache), as they read it (their language, signed in, host or not), at the game's current versions,

- the live part of each of their seats, under the key the view looks for
  (`web.page_cache.cache_key`);
- the whole page of their first seat at the game page's own address (`/games/<id>/`, no
  `?as=`), under the key the view looks for before it reads anything else
  (`web.page_cache.page_key`: the game's versions, the table talk's last message, the follow,
  the moves-confirmed preference, the viewer's standing orders and seats, who they are, the
  address and the language).

What every reader's page reads alike (the state, the recent events, the table log's length, the
seats' names and answer times: `pages.page_reads`) is read once a run, and the island is drawn
once a state (`web.board_svg.island_of`); the public events' lines are worded once a language
(`pages.PageReads.lines`), and the island with the table's facts rendered once a language
(`web.shared_board`); only what is each reader's own (their hand, decisions, lines redacted for
them, header, the "(you)" in the table) is built per reader. Those public parts are then kept
(`web.public_part`) for the readers whose pages the run did not build: their first view takes
them and builds only what is theirs.

Both are kept with `keep_ahead_many` (one write a run) in the shared "prerendered" cache, and what was kept for the
game's earlier versions is deleted (`page_cache.forget_earlier`): nobody reads it again. The
view then serves the page from the cache with this request's CSRF token and form nonce (a
session holding a seat link, or with a one-time message to show, is never served from
`page_key`), or renders only the page around a kept live part.

Nothing here is shown to anybody but the seat's own player: both keys name the viewer (the live
part's their seat and seats, the page's their account and address), as the view's own do.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.http import HttpRequest
from django.urls import reverse
from django.utils import translation

from games.store import selectors
from players.models import Player
from web import live, live_part, page_cache, page_readers, public_part


def render_live_parts(game_id: int) -> int:
    """Build and keep (`page_cache.keep_ahead_many`) the live part of every player seat of each
    player of the game who opened its page lately and holds a decision opened since the last run
    (`web.page_readers.deciding_readers`), and each such player's whole game page (`page_html`,
    their first seat), at the game's current versions, unless already kept; returns how many live parts and
    pages were built (0 for no such game). What was read at other versions than those the keys
    name (the game moved on meanwhile) is not kept: the next commit's run builds it. Nothing
    (0) with the speed layers off (settings.SPEED_LAYERS): each view builds its own page."""
    if not settings.SPEED_LAYERS:
        return 0
    game = live.game_for_page(game_id=game_id, user=None)
    if game is None:
        return 0
    versions = (game.page_seq, game.page_table_seq)  # type: ignore[attr-defined]  # the page query's columns
    # Only for the players who open the page and whom the move asks to decide (web.page_readers):
    # most play by email, and the others' first view is built when they look.
    user_ids = page_readers.deciding_readers(game=game, seq=versions[0])
    if user_ids is None:
        return 0  # nobody reads the game's page: nothing of it was kept ahead either
    users = get_user_model().objects.filter(pk__in=user_ids).order_by("pk")
    languages = dict(
        Player.objects.filter(email__in={(u.email or "").lower() for u in users}).values_list(
            "email", "language"
        )
    )
    built = 0
    keys: list[str] = []
    shared = _Shared(game, versions)
    for user in users:
        with translation.override(languages.get((user.email or "").lower()) or "en"):
            built += _render_for(game_id, user, versions, keys, shared)
    page_cache.keep_ahead_many(shared.kept)  # one write for every page of the run
    shared.keep_public()
    # What was kept for the game's earlier versions is never read again: gone from Redis now.
    page_cache.forget_earlier(game=game, versions=versions, keys=keys)
    return built


class _Shared:
    """What every reader's page of one run reads alike (`web.public_part`: the page's reads, the
    public lines, the island): taken from the cache, or read, for the first page built, and given
    to the others when it is at `versions` (the game did not move on meanwhile); else each page
    reads its own, and is not kept. Kept in the end (`keep_public`) for the other readers' views.
    Language-free: the words are put in by each page, in its reader's language."""

    def __init__(self, game, versions: tuple[int, int]):
        self.game, self.versions = game, versions
        self.public: public_part.PublicPart | None = None
        self.kept: dict[str, dict] = {}  # {key: live part or page} to keep, written together

    @property
    def fragments(self) -> dict:
        """The pages' island and table's facts, rendered once (`web.shared_board`)."""
        self.get()
        assert self.public is not None
        return self.public.fragments

    def get(self):
        """The run's `pages.PageReads`, or None when read at other versions than the run's."""
        if self.public is None:
            self.public = public_part.read(self.game, self.versions)
        reads = self.public.reads
        return reads if (reads.seq, reads.table_seq) == self.versions else None

    def keep_public(self) -> None:
        """Keep the public part for the readers whose pages the run did not build."""
        if self.public is not None:
            public_part.keep(self.game, self.public)


def _render_for(game_id: int, user, versions: tuple[int, int], keys: list[str], shared: _Shared) -> int:
    """The live parts and the whole page of `user` (a player of the game), to be kept
    (`shared.kept`) when read at `versions`, their keys added to `keys`; returns how many were
    built. `shared`: what their pages read alike (built only when a page is to be built). What
    is kept already is looked up with one read of the cache."""
    game = live.game_for_page(game_id=game_id, user=user)
    if game is None or (game.page_seq, game.page_table_seq) != versions:  # type: ignore[attr-defined]
        return 0  # the game moved on since `versions` were read: the next commit's run builds it
    mine = selectors.seats_of(game=game, user=user)
    is_host = game.host_id == user.pk
    path = reverse("games:detail", args=[game_id])
    live_keys = [
        page_cache.cache_key(
            game=game,
            seq=versions[0],
            table_seq=versions[1],
            seat=seat,
            my_seats=mine,
            signed_in=True,
            is_host=is_host,
        )
        for seat in mine
    ]
    page_key = page_cache.page_key(game=game, user=user, path=path)
    kept = page_cache.cached_many([*live_keys, page_key])
    built = 0
    parts = []
    for seat, key in zip(mine, live_keys):
        part = kept.get(key)
        if part is None:
            part = live_part.build(
                game, seat, mine, is_host=is_host, reads=shared.get(), fragments=shared.fragments
            )
            built += 1
            if part["versions"] == versions:
                shared.kept[key] = part
        keys.append(key)
        parts.append(part)
    if not mine or parts[0]["versions"] != versions:
        return built
    if page_key not in kept:
        html = live_part.page_html(game, mine[0], parts[0], request=_request(user, path))
        shared.kept[page_key] = {"html": html}
        built += 1
    keys.append(page_key)
    return built


def _request(user, path: str) -> HttpRequest:
    """A GET of `path` by the signed-in `user` with no one-time message and no seat link: what
    the whole page reads of the request it answers (`live_part.page_html`)."""
    request = HttpRequest()
    request.method = "GET"
    request.path = request.path_info = path
    request.user = user
    return request
