"""The game page's live part (`templates/games/_live.html`: the island, the table, the clash, the
decision forms, the hand, the recent lines), built for one viewer: by the view on a request, or
after a commit for each player seat (`web.prerender`), to be kept in the page cache
(`web.page_cache`) with its placeholders for the CSRF token and the form nonce; and the whole
page around it (`page_html`), rendered the same way by the view and after a commit."""

from __future__ import annotations

from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.safestring import mark_safe

from games.play import standing_orders
from web import page_cache, pages, shared_board


def build(  # noqa: PLR0913 - the viewer and what was read or rendered already, keyword-only, defaulted
    game,
    seat,
    mine: list,
    *,
    is_host: bool,
    request=None,
    error: str | None = None,
    reads=None,
    fragments: dict | None = None,
    audience: str | None = None,
) -> dict:
    """{"html", "your_turn", "versions"}: the live part as `seat` (of the viewer's seats `mine`;
    None: a spectator) sees it now; versions: (log length, table log length) it was read at.
    request: the request it answers (None: built ahead, for a signed-in player: the same HTML,
    since the live part reads nothing of the request but the posted form of a refusal, `error`).
    reads: what every viewer's page reads alike (`pages.page_reads`), when read already.
    fragments: the public parts of the pages built together with this one (a dict held for one
    run, `web.prerender`): the island and the table's facts are rendered once for all of them
    (`web.shared_board`); None: this page renders its own.
    audience: for a spectator's part built with no request (`web.spectator_part`), who reads it:
    "visitor" (not signed in: the hint to sign in is shown) or "member"; None: as `request` says
    (no request: a player signed in)."""
    page = pages.game_page(game=game, seat=seat, my_seats=mine, reads=reads)
    shared = shared_board.board_html(page.board, fragments) if fragments is not None else None
    if audience is None:
        audience = "visitor" if request is not None and not request.user.is_authenticated else "member"
    context = {
        "page": page,
        "game": game,
        "error": error,
        "is_host": is_host,
        "nonce": page_cache.NONCE_PLACEHOLDER,
        "csrf_token": page_cache.CSRF_PLACEHOLDER,
        # Who reads the page, for its head (web.head_viewer): filled per request, as the CSRF
        # token is; none in the part every spectator shares (no request, no seat).
        "viewer_token": page_cache.VIEWER_PLACEHOLDER if request is not None or seat is not None else None,
        "board_html": shared,
        "signed_in": audience != "visitor",
        # A spectator's page takes its live part from the address every spectator shares.
        "public_address": spectator_address(game.pk, audience) if seat is None and not is_host else "",
    }
    return {
        "html": render_to_string("games/_live.html", context, request=request),
        "your_turn": bool(page.decisions),
        "versions": (page.board.seq, page.table_seq),
    }


def spectator_address(game_id: int, audience: str) -> str:
    """The address of the spectator's live part of game `game_id` for `audience` ("visitor" or
    "member") in the active language, without its version (`?v=`, the head's version, which the
    page's script adds): `web.spectator_part`."""
    language = translation.get_language() or "en"
    return reverse("games:public_live", args=[game_id, language, audience])


def page_html(game, seat, part: dict, *, request, orders_refused: dict | None = None) -> str:
    """The whole game page (`templates/games/game.html`) around the live part `part` (from
    `build`), as `seat` (None: a spectator) of the viewer of `request` sees it, with the CSRF
    token's placeholder (`page_cache.filled` puts the request's own in). What it reads of
    `request`: its user (the header), its path and query (the language switch, the follow
    button), its one-time messages; the table talk, the follow and the viewer's standing orders
    from `game` as `web.live.game_for_page` read it (else from the database). `orders_refused`
    ({"error": why, "line": the order as typed}): the orders' panel says why and keeps the line."""
    context = {
        "game": game,
        "seat": seat,
        # The seat's own standing orders, outside the cached live part (docs/standing-orders.md).
        "orders": [standing_orders.describe(o) for o in _orders_of(game, seat)] if seat else [],
        "orders_refused": orders_refused,
        "your_turn": part["your_turn"],
        "talk_page": {"seat": seat},
        "live_html": mark_safe(part["html"]),  # noqa: S308 - our own render, placeholders filled later
        "csrf_token": page_cache.CSRF_PLACEHOLDER,
    }
    return render_to_string("games/game.html", context, request=request)


def _orders_of(game, seat) -> list:
    """The standing orders of `seat`, oldest first: read with the game when it is one of the
    signed-in viewer's seats (`web.live.game_for_page`'s `page_orders`), else from the database
    (a seat held by a seat link, or a game not read for its page)."""
    found = getattr(game, "page_orders", {}).get(seat.pk)
    return found if found is not None else standing_orders.orders_of(seat)
