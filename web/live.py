"""Live pages: a cheap "has anything changed?" answer for each page that moves by itself, and
the small script that asks it.

The game page (here), "My games" and a game being gathered (`lobby.live`) carry a version (a
short string) and the address of their head. `static/live.js` asks the head every few seconds
(plain HTTP GET, so it works behind any WSGI server, gunicorn included: no long-lived
connection, no worker held); when the version differs it fetches the page again and swaps in
its live part. Without JavaScript the pages are unchanged: a reload shows the same.

A head costs one indexed query and no fold of the log: the log's length (`Event` by
(game, seq)), the table log's length, and whether a seat of the viewer has a decision open,
read from that seat's clock (`SeatClock.seq`, set in the same transaction as the events that
opened the decision). Nothing a head says is hidden information: the number of events is on
every page and in the history, and "your_turn" is only ever about the signed-in viewer's own
seats (never who else is asked, so never who a Triskel window asked).

Every head answers one client (its IP address, `web.rate_limits.client_address`) at most
HEAD_POLLS_PER_CLIENT_PER_MINUTE times a minute, all heads together, the lobby's too
(`polls_limited`; default 240: sixteen pages in view asking every POLL_MS; a page asks 15 times
a minute). Beyond, 429 with Retry-After, the seconds left in the minute; the script waits that
long, and longer after each refusal.

The game page's cache key (`web.page_cache.page_key`) is read with the game in one query
(`game_for_page`); what other apps show on the page and must change its key (the last
table-talk message, whether the viewer follows the game) they add to that query as a page
column (`register_page_column`, in their AppConfig.ready()).
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import condition, require_GET

from games.models import Event, Game, Seat, SeatClock, StandingOrder, TableEvent
from games.store import sql
from players import at_the_table
from players.models import Block, Erasure, Player
from web import head_viewer
from web.rate_limits import client_address, count, seconds_left

# How often a page asks its head, in milliseconds, while it is in view (the script asks less
# often in a hidden tab). A few seconds: "the page moved by itself" without a visible wait.
POLL_MS = 4000

SCRIPT_PATH = Path(settings.BASE_DIR) / "static" / "live.js"


POLL_WINDOW_SECONDS = 60


def polls_limited(view):
    """`view` (a head) answered at most HEAD_POLLS_PER_CLIENT_PER_MINUTE times a minute per client,
    counted over every head together; beyond, a 429 whose Retry-After is the seconds left in the
    minute, and whose JSON says so in words: {"error", "retry_after"}."""

    @functools.wraps(view)
    def limited(request: HttpRequest, *args, **kwargs):
        allowed = settings.HEAD_POLLS_PER_CLIENT_PER_MINUTE
        if count("live-head:client", client_address(request), window_seconds=POLL_WINDOW_SECONDS) <= allowed:
            return view(request, *args, **kwargs)
        wait = seconds_left(POLL_WINDOW_SECONDS)
        response = JsonResponse(
            {
                "error": ngettext(
                    "This page was asked for too often from your connection (at most {limit} times a minute): "
                    "ask again in {seconds} second.",
                    "This page was asked for too often from your connection (at most {limit} times a minute): "
                    "ask again in {seconds} seconds.",
                    wait,
                ).format(limit=allowed, seconds=wait),
                "retry_after": wait,
            },
            status=429,
        )
        response["Retry-After"] = str(wait)
        return response

    return limited


def game_version(seq: int, table_seq: int) -> str:
    """The version of a game page: its log's and table log's lengths ("12.0")."""
    return f"{seq}.{table_seq}"


@dataclass(frozen=True)
class PageColumn:
    """A value read with the game for its page (`game_for_page`): `expression` is the SQL of one
    column over the game row `g`, with `%s` for the signed-in user's id (None for a visitor) as
    many times as `user_params` says; `convert` makes the database's answer a Python value."""

    attribute: str
    expression: Callable[[], str]
    user_params: int = 0
    convert: Callable[[object], object] = lambda value: value


_PAGE_COLUMNS: list[PageColumn] = []


def register_page_column(column: PageColumn) -> None:
    """Read `column` with every game page's game row, as `game.<attribute>`, and make it part of
    the page's cache key (`page_columns`). Registering an attribute again replaces it."""
    _PAGE_COLUMNS[:] = [c for c in _PAGE_COLUMNS if c.attribute != column.attribute] + [column]


def page_columns() -> list[str]:
    """The attributes the registered page columns set on a page's game, in the order registered."""
    return [column.attribute for column in _PAGE_COLUMNS]


def latest_of(model, field: str) -> str:
    """SQL of the largest `field` of `model`'s rows of the game `g` (they have a `game_id`), 0 for none."""
    return f"COALESCE((SELECT MAX(x.{field}) FROM {model._meta.db_table} x WHERE x.game_id = g.id), 0)"


def latest(model, field: str, name: str) -> str:
    """`latest_of` as the column `name`."""
    return f"{latest_of(model, field)} AS {name}"


def confirm_moves_column() -> str:
    """SQL of the game page's column `page_confirm_moves` (one user parameter): the signed-in
    user's preference (`web.confirm`), true by default and for a visitor."""
    users = get_user_model()._meta.db_table
    return (
        f"COALESCE((SELECT p.confirm_moves FROM {Player._meta.db_table} p JOIN {users} u"
        f" ON LOWER(p.email) = LOWER(u.email) WHERE u.id = %s), TRUE)"
    )


def my_orders_column() -> str:
    """SQL of the game page's column `page_my_orders` (one user parameter): a number that changes
    whenever the signed-in user's standing orders in the game `g` change (the sum of their ids
    times 1000 plus their count: new orders get larger ids), 0 for none or a visitor."""
    return (
        f"COALESCE((SELECT SUM(o.id) * 1000 + COUNT(*) FROM {StandingOrder._meta.db_table} o "
        f"INNER JOIN {Seat._meta.db_table} s ON s.id = o.seat_id "
        "WHERE o.game_id = g.id AND s.user_id = %s), 0)"
    )


def my_blocks_column() -> str:
    """SQL of the game page's column `page_my_blocks` (one user parameter): a number that changes
    whenever the signed-in user blocks or unblocks anybody (the sum of their blocks' ids times
    1000 plus their count: a new block gets a larger id), 0 for none or a visitor. The talk panel
    leaves out whom they blocked (`press.muting`): a page kept before a block is not served after."""
    return f"COALESCE((SELECT SUM(b.id) * 1000 + COUNT(*) FROM {Block._meta.db_table} b WHERE b.blocker_id = %s), 0)"


def erasures_column() -> str:
    """SQL of the game page's column `page_erasures`: the number of the site's latest account
    erasure (`players.Erasure`), 0 before any. Every web process keeps pages, live parts and
    talk lines in its own memory (the "pages" cache), which an erasure in another process cannot
    empty: with this number in their keys, a page kept before an erasure (the erased player's
    name, their words) is never served after it, in any process. Erasures are rare, so one
    number for the whole site costs a page nothing but an index probe."""
    return f"(SELECT COALESCE(MAX(e.id), 0) FROM {Erasure._meta.db_table} e)"


def _is_row_id(value: int) -> bool:
    """Whether `value` (a number from an address) can be a game's id: a larger number than the
    database's 64-bit ids is no game, never a database error (the ORM's lookups say so
    themselves; the written-out queries below ask here first)."""
    return 0 < value <= sql.largest_id()


# The heads below are written out in SQL rather than built with the ORM, which spends about 1.3 ms
# composing their subqueries, several times what the database takes to answer them (each is one
# index probe); a poll or a page served from the cache is little more than this one query.


def game_head_values(
    *, game_id: int, user=None, colour: str | None = None, user_id: int | None = None
) -> dict | None:
    """{"seq", "table_seq", "your_turn"} of a game in one query, or None when there is no such
    game. your_turn: a seat of `user` (or of the account `user_id`, when given instead; the
    seat of `colour` when given) has a decision open; always False for a visitor who is not
    signed in."""
    if not _is_row_id(game_id):
        return None
    if user_id is None:
        user_id = user.pk if user is not None and user.is_authenticated else None
    query = (
        f"SELECT {latest(Event, 'seq', 'head')}, {latest(TableEvent, 'seq', 'table_head')},"
        f" EXISTS(SELECT 1 FROM {Seat._meta.db_table} s JOIN {SeatClock._meta.db_table} c ON c.seat_id = s.id"
        f" WHERE s.game_id = g.id AND s.user_id = %s AND c.seq IS NOT NULL"
        f"{' AND s.colour = %s' if colour else ''}) AS turn"
        f" FROM {Game._meta.db_table} g WHERE g.id = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(query, [user_id, colour, game_id] if colour else [user_id, game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    return {"seq": row[0], "table_seq": row[1], "your_turn": bool(row[2])}


def public_head_values(*, game_id: int) -> dict | None:
    """{"seed_commitment", "seq", "table_seq", "erasures"} of a game in one query (its seed
    commitment, its log's and table log's lengths, the site's latest erasure: `erasures_column`),
    or None when there is no such game: what the key of its spectators' shared live part names
    (`web.spectator_part`), read without the page's seats, orders and page columns."""
    if not _is_row_id(game_id):
        return None
    query = (
        f"SELECT g.seed_commitment, {latest(Event, 'seq', 'head')}, {latest(TableEvent, 'seq', 'table_head')},"
        f" {erasures_column()} FROM {Game._meta.db_table} g WHERE g.id = %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(query, [game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    return {"seed_commitment": row[0], "seq": row[1], "table_seq": row[2], "erasures": row[3]}


def game_for_page(*, game_id: int, user=None) -> Game | None:
    """The game `game_id` with, read in the same query, what its page shows beyond the game row:
    `page_seq` and `page_table_seq` (the log's and table log's lengths), the registered page
    columns (`register_page_column`: press adds `page_talk_number`, the last table-talk
    message's number, 0 for none; watching adds `page_following`, whether the signed-in `user`
    follows it, False for a visitor), `page_my_positions` (the seats `user` plays, as a bit mask
    of their positions: 0 for none); its seats, in seating order, left where `game.seats.all()`
    finds them without a query; and `page_orders`, {seat id: [StandingOrder, oldest first]} for
    each seat `user` plays (their own standing orders, private to them; {} for a visitor).
    None when there is no such game. One query: the game page's cache key (web.page_cache) is made of
    these, so that a page served again costs no fold, no render and no further read, and a first
    view reads nothing more of the game but the table talk."""
    if not _is_row_id(game_id):
        return None
    user_id = user.pk if user is not None and user.is_authenticated else None
    with connection.cursor() as cursor:
        cursor.execute(_page_sql(), _page_params(user_id, game_id))
        rows = cursor.fetchall()
    if not rows:
        return None
    layout = _layout(len(_PAGE_COLUMNS))
    game = layout.game.build(rows[0])
    extra = layout.game.after()
    for index, attribute in enumerate(["page_seq", "page_table_seq", *page_columns(), "page_my_positions"]):
        setattr(game, attribute, rows[0][extra + index])
    for column in _PAGE_COLUMNS:
        setattr(game, column.attribute, column.convert(getattr(game, column.attribute)))
    seats: dict[int, Seat] = {}
    orders: dict[int, list] = {}
    for row in rows:
        seat = layout.seats.build(row)
        if seat is None:
            continue
        seat = seats.setdefault(seat.pk, seat)
        if user_id is not None and seat.user_id == user_id:
            orders.setdefault(seat.pk, [])
        order = layout.orders.build(row)
        if order is not None:
            orders[seat.pk].append(order)
    for seat in seats.values():
        seat.game = game  # as `game.seats.all()` leaves it: no query for `seat.game`
    sql.prefetched(game, "seats", list(seats.values()))
    game.page_orders = orders  # read by the view, web/views.py
    return game


@dataclass(frozen=True)
class _Layout:
    """Where the game, its seats and their orders are in a row of the page's query."""

    game: sql.Columns
    seats: sql.Columns
    orders: sql.Columns


@functools.cache
def _layout(registered: int) -> _Layout:
    """The row layout with `registered` page columns (plus the three of `game_for_page`'s own)
    between the game's columns and the seats'."""
    game = sql.Columns(Game, "p")
    seats = sql.Columns(Seat, "s", game.after() + registered + 3)
    orders = sql.Columns(StandingOrder, "o", seats.after())
    return _Layout(game, seats, orders)


def _page_params(user_id: int | None, game_id: int) -> list:
    params = [user_id for column in _PAGE_COLUMNS for _ in range(column.user_params)]
    return [*params, user_id, game_id, user_id]


def _page_sql() -> str:
    """The game page's one query (`game_for_page`): the game row with its page columns, once per
    seat (a LEFT JOIN: a game always has one row), once per standing order of a seat the viewer
    plays. The game's columns are read in a subquery, so that the columns' own subqueries are
    asked once and not once a row."""
    columns = "".join(f" {column.expression()} AS {column.attribute}," for column in _PAGE_COLUMNS)
    extra = ", ".join(
        ["p.page_seq", "p.page_table_seq", *(f"p.{a}" for a in page_columns()), "p.page_my_positions"]
    )
    layout = _layout(len(_PAGE_COLUMNS))
    return (
        f"SELECT {layout.game.sql()}, {extra}, {layout.seats.sql()}, {layout.orders.sql()} FROM ("
        f"SELECT g.*, {latest(Event, 'seq', 'page_seq')}, {latest(TableEvent, 'seq', 'page_table_seq')},"
        f"{columns}"
        f" COALESCE((SELECT SUM(1 << s.position) FROM {Seat._meta.db_table} s"
        f" WHERE s.game_id = g.id AND s.user_id = %s), 0) AS page_my_positions"
        f" FROM {Game._meta.db_table} g WHERE g.id = %s) p"
        f" LEFT JOIN {Seat._meta.db_table} s ON s.game_id = p.id"
        f" LEFT JOIN {StandingOrder._meta.db_table} o ON o.seat_id = s.id AND s.user_id = %s"
        f" ORDER BY s.position, o.id"
    )


@require_GET
@never_cache
@polls_limited
def game_head(request: HttpRequest, game_id: int) -> JsonResponse:
    """GET /games/<id>/head.json → {"version", "seq", "your_turn"}, and "viewer" when renewed:
    the game page's version (`game_version`), the number of events, and whether the signed-in
    viewer's seat (`?as=` colour, else any of theirs) has a decision open. 404 for no such game.
    The viewer is the one the page's token names (`web.head_viewer`: no session read); without
    a good token, the request's user as Django's authentication reads it, and then, for a
    signed-in viewer, "viewer" is a fresh token for the page's next heads. A signed-in viewer's
    poll marks them at the table (`players.at_the_table`)."""
    viewer, renewed = head_viewer.viewer_or_session(request)
    values = game_head_values(game_id=game_id, user_id=viewer, colour=request.GET.get("as") or None)
    if values is None:
        raise Http404(_("No such game."))
    if viewer is not None:  # at the table: the emails of the viewer's decisions wait
        at_the_table.seen(game_id, viewer)
    return JsonResponse(
        {
            "version": game_version(values["seq"], values["table_seq"]),
            "seq": values["seq"],
            "your_turn": values["your_turn"],
            **renewed,
        }
    )


def _script_etag(request: HttpRequest) -> str:
    return SCRIPT_ETAG


SCRIPT = SCRIPT_PATH.read_bytes()
SCRIPT_ETAG = hashlib.sha256(SCRIPT).hexdigest()[:20]


@require_GET
@condition(etag_func=_script_etag)
def script(request: HttpRequest) -> HttpResponse:
    """GET /live.js: the live pages' script (static/live.js), served by Django itself so that a
    plain WSGI deployment needs no static file server for it. The browser revalidates it on
    each page (an ETag: a 304 without a body when unchanged)."""
    response = HttpResponse(SCRIPT, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response
