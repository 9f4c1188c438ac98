"""Live pages: a cheap "has anything changed?" answer for each page that moves by itself, and
the small script that asks it.

The game page, "My games" and a game being gathered carry a version (a short string) and the
address of their head. `static/live.js` asks the head every few seconds (plain HTTP GET, so it
works behind any WSGI server, gunicorn included: no long-lived connection, no worker held);
when the version differs it fetches the page again and swaps in its live part. Without
JavaScript the pages are unchanged: a reload shows the same.

A head costs one indexed query and no fold of the log: the log's length (`Event` by
(game, seq)), the table log's length, and whether a seat of the viewer has a decision open,
read from that seat's clock (`notifications.SeatClock.seq`, set in the same transaction as the
events that opened the decision). Nothing a head says is hidden information: the number of
events is on every page and in the history, and "your_turn" is only ever about the signed-in
viewer's own seats (never who else is asked, so never who a Triskel window asked).

Every head answers one client (its IP address, `inis_pbem.rate_limits.client_address`) at most
HEAD_POLLS_PER_CLIENT_PER_MINUTE times a minute, all heads together (default 240: sixteen pages
in view asking every POLL_MS; a page asks 15 times a minute). Beyond, 429 with Retry-After, the
seconds left in the minute; the script waits that long, and longer after each refusal.
"""
from __future__ import annotations

import functools
import hashlib
from pathlib import Path

from django.conf import settings
from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models import Exists, OuterRef, Q
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _, ngettext
from django.views.decorators.cache import never_cache
from django.views.decorators.http import condition, require_GET

from games.models import Event, Game, Seat, TableEvent
from inis_pbem.rate_limits import client_address, count, seconds_left

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
        response = JsonResponse({"error": ngettext(
            "This page was asked for too often from your connection (at most {limit} times a minute): "
            "ask again in {seconds} second.",
            "This page was asked for too often from your connection (at most {limit} times a minute): "
            "ask again in {seconds} seconds.", wait).format(limit=allowed, seconds=wait),
            "retry_after": wait}, status=429)
        response["Retry-After"] = str(wait)
        return response

    return limited


def game_version(seq: int, table_seq: int) -> str:
    """The version of a game page: its log's and table log's lengths ("12.0")."""
    return f"{seq}.{table_seq}"


def _latest(model, field: str, name: str) -> str:
    """SQL for the column `name`: the largest `field` of `model`'s rows of the game `g`, 0 for none."""
    return f"COALESCE((SELECT MAX(x.{field}) FROM {model._meta.db_table} x WHERE x.game_id = g.id), 0) AS {name}"


def _is_row_id(value: int) -> bool:
    """Whether `value` (a number from an address) can be a game's id: a larger number than the
    database's 64-bit ids is no game, never a database error (the ORM's lookups say so
    themselves; the written-out queries below ask here first)."""
    return 0 < value <= connection.ops.integer_field_range("BigAutoField")[1]


# The heads below are written out in SQL rather than built with the ORM, which spends about 1.3 ms
# composing their subqueries, several times what the database takes to answer them (each is one
# index probe); a poll or a page served from the cache is little more than this one query.

def game_head_values(*, game_id: int, user, colour: str | None = None) -> dict | None:
    """{"seq", "table_seq", "your_turn"} of a game in one query, or None when there is no such
    game. your_turn: a seat of `user` (the seat of `colour` when given) has a decision open;
    always False for a visitor who is not signed in."""
    from notifications.models import SeatClock  # notifications depends on games, not the reverse

    if not _is_row_id(game_id):
        return None
    user_id = user.pk if user is not None and user.is_authenticated else None
    sql = (f"SELECT {_latest(Event, 'seq', 'head')}, {_latest(TableEvent, 'seq', 'table_head')},"
           f" EXISTS(SELECT 1 FROM {Seat._meta.db_table} s JOIN {SeatClock._meta.db_table} c ON c.seat_id = s.id"
           f" WHERE s.game_id = g.id AND s.user_id = %s AND c.seq IS NOT NULL"
           f"{' AND s.colour = %s' if colour else ''}) AS turn"
           f" FROM {Game._meta.db_table} g WHERE g.id = %s")
    with connection.cursor() as cursor:
        cursor.execute(sql, [user_id, colour, game_id] if colour else [user_id, game_id])
        row = cursor.fetchone()
    if row is None:
        return None
    return {"seq": row[0], "table_seq": row[1], "your_turn": bool(row[2])}


def game_for_page(*, game_id: int, user) -> Game | None:
    """The game `game_id` with, read in the same query, what its page shows beyond the game row:
    `page_seq` and `page_table_seq` (the log's and table log's lengths), `page_talk_number` (the
    last table-talk message's number, 0 for none), `page_following` (whether the signed-in
    `user` follows it; False for a visitor), `page_my_positions` (the seats `user` plays, as a
    bit mask of their positions: 0 for none). None when there is no such game. One query: the
    game page's cache key (games.page_cache) is made of these, so that a page served again costs
    no fold, no render and no further read."""
    from press.models import PressMessage  # press depends on games, not the reverse
    from watching.models import Follow

    if not _is_row_id(game_id):
        return None
    sql = (f"SELECT g.*, {_latest(Event, 'seq', 'page_seq')}, {_latest(TableEvent, 'seq', 'page_table_seq')},"
           f" {_latest(PressMessage, 'number', 'page_talk_number')},"
           f" EXISTS(SELECT 1 FROM {Follow._meta.db_table} f WHERE f.game_id = g.id AND f.user_id = %s)"
           f" AS page_following,"
           f" COALESCE((SELECT SUM(1 << s.position) FROM {Seat._meta.db_table} s"
           f" WHERE s.game_id = g.id AND s.user_id = %s), 0) AS page_my_positions"
           f" FROM {Game._meta.db_table} g WHERE g.id = %s")
    user_id = user.pk if user is not None and user.is_authenticated else None
    found = list(Game.objects.raw(sql, [user_id, user_id, game_id]))
    if not found:
        return None
    game = found[0]
    game.page_following = bool(game.page_following)  # SQLite answers 0 or 1
    return game


@require_GET
@never_cache
@polls_limited
def game_head(request: HttpRequest, game_id: int) -> JsonResponse:
    """GET /games/<id>/head.json → {"version", "seq", "your_turn"}: the game page's version
    (`game_version`), the number of events, and whether the signed-in viewer's seat (`?as=`
    colour, else any of theirs) has a decision open. 404 for no such game."""
    values = game_head_values(game_id=game_id, user=request.user, colour=request.GET.get("as") or None)
    if values is None:
        raise Http404(_("No such game."))
    return JsonResponse({"version": game_version(values["seq"], values["table_seq"]),
                         "seq": values["seq"], "your_turn": values["your_turn"]})


def home_version(user) -> tuple[str, int]:
    """(version, games waiting for `user`) of "My games", in one query: the version changes when
    any of the user's games records an event or a table event, when a decision of theirs opens
    or closes, and when an invitation to them, or an answer to a proposal of theirs, comes.

    Each of the user's games costs one index probe per log (its head), whatever its length: a
    poll must not grow with the events of the games. Written out in SQL (see `game_head_values`).
    """
    from lobby.models import Invitation, Proposal  # lobby depends on games, not the reverse
    from notifications.models import SeatClock  # notifications depends on games, not the reverse

    def heads(model) -> str:
        """The sum of the user's games' heads in `model`'s log (one index probe per game)."""
        return (f"(SELECT COALESCE(SUM((SELECT MAX(x.seq) FROM {model._meta.db_table} x"
                f" WHERE x.game_id = s.game_id)), 0) FROM {Seat._meta.db_table} s WHERE s.user_id = %s)")

    sql = (f"WITH lobby AS (SELECT i.id, i.status, i.answered_at FROM {Invitation._meta.db_table} i"
           f" JOIN {Proposal._meta.db_table} p ON p.id = i.proposal_id"
           f" WHERE p.status = %s AND ((i.user_id = %s AND i.status = %s) OR p.host_id = %s))"
           f" SELECT {heads(Event)}, {heads(TableEvent)},"
           f" (SELECT COUNT(*) FROM {Seat._meta.db_table} s JOIN {SeatClock._meta.db_table} c ON c.seat_id = s.id"
           f" WHERE s.user_id = %s AND c.seq IS NOT NULL),"
           f" (SELECT COUNT(*) FROM lobby), (SELECT COUNT(*) FROM lobby WHERE status = %s),"
           f" (SELECT MAX(id) FROM lobby), (SELECT MAX(answered_at) FROM lobby)")
    uid, pending = user.pk, Invitation.Status.PENDING.value
    with connection.cursor() as cursor:
        cursor.execute(sql, [Proposal.Status.OPEN.value, uid, pending, uid, uid, uid, uid, pending])
        events, table, waiting, lobby_n, lobby_pending, lobby_newest, lobby_answered = cursor.fetchone()
    # The newest answer's time only tells that one came: its text as the database gives it will do.
    answered = lobby_answered.timestamp() if hasattr(lobby_answered, "timestamp") else lobby_answered or 0
    return f"{events}.{table}.{waiting}.{lobby_n}.{lobby_pending}.{lobby_newest or 0}.{answered}", waiting


@require_GET
@never_cache
@polls_limited
def home_head(request: HttpRequest) -> JsonResponse:
    """GET /live/home.json → {"version", "your_turn", "waiting"} of the signed-in user's "My
    games" (`home_version`); 403 for a visitor who is not signed in."""
    if not request.user.is_authenticated:
        raise PermissionDenied(_("Sign in to see your games."))
    version, waiting = home_version(request.user)
    return JsonResponse({"version": version, "your_turn": waiting > 0, "waiting": waiting})


def proposal_version(proposal_id: int) -> str | None:
    """The version of a game being gathered: a digest of its status, its game and each seat's
    answer (one query); None when there is no such proposal."""
    from lobby.models import Invitation

    rows = list(Invitation.objects.filter(proposal_id=proposal_id).order_by("position").values_list(
        "proposal__status", "proposal__game_id", "position", "status", "email", "is_bot"))
    if not rows:
        return None
    return hashlib.sha256(repr(rows).encode()).hexdigest()[:16]


@require_GET
@never_cache
@polls_limited
def proposal_head(request: HttpRequest, proposal_id: int) -> JsonResponse:
    """GET /lobby/<id>/head.json → {"version"} of a game being gathered, for its host and the
    players invited (403 for anybody else, as the page itself; 404 for no such proposal)."""
    from lobby.models import Invitation, Proposal

    if not request.user.is_authenticated:
        raise PermissionDenied(_("Sign in to see this game."))
    allowed = Proposal.objects.filter(pk=proposal_id).filter(
        Q(host=request.user) | Exists(Invitation.objects.filter(proposal=OuterRef("pk"), user=request.user)))
    version = proposal_version(proposal_id)
    if version is None:
        raise Http404(_("No such game being gathered."))
    if not allowed.exists():
        raise PermissionDenied(_("This game is being gathered by its host and the players invited."))
    return JsonResponse({"version": version})


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
