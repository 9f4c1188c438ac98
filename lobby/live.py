"""The lobby's live pages: "My games" and a game being gathered, each with a cheap head that the
live pages' script (`web.live`, static/live.js) asks every few seconds.

A head costs one query and no fold of a log. Nothing a head says is hidden information:
"your_turn" and "waiting" are only ever about the signed-in viewer's own seats, read from their
clocks (`SeatClock.seq`, set in the same transaction as the events that opened the decision).
They count against the client's polls of every head (`web.live.polls_limited`).
"""

from __future__ import annotations

import hashlib

from django.core.exceptions import PermissionDenied
from django.db import connection
from django.db.models import Exists, OuterRef, Q
from django.http import Http404, HttpRequest, JsonResponse
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from games.models import Event, Seat, SeatClock, TableEvent
from lobby.models import Invitation, Proposal
from web import head_viewer
from web.live import polls_limited


def home_version(user_id: int) -> tuple[str, int]:
    """(version, games waiting for the account `user_id`) of "My games", in one query: the version changes when
    any of the user's games records an event or a table event, when a decision of theirs opens
    or closes, and when a seat changes at a table still gathering that they host, sit at or are
    invited to.

    Each of the user's games costs one index probe per log (its head), whatever its length: a
    poll must not grow with the events of the games. Written out in SQL (see `web.live.game_head_values`).
    """

    def heads(model) -> str:
        """The sum of the user's games' heads in `model`'s log (one index probe per game)."""
        return (
            f"(SELECT COALESCE(SUM((SELECT MAX(x.seq) FROM {model._meta.db_table} x"
            f" WHERE x.game_id = s.game_id)), 0) FROM {Seat._meta.db_table} s WHERE s.user_id = %s)"
        )

    sql = (
        f"WITH lobby AS (SELECT i.id, i.status, i.answered_at FROM {Invitation._meta.db_table} i"
        f" JOIN {Proposal._meta.db_table} p ON p.id = i.proposal_id"
        f" WHERE p.status = %s AND (p.host_id = %s OR p.id IN (SELECT m.proposal_id"
        f" FROM {Invitation._meta.db_table} m WHERE m.user_id = %s AND m.status IN (%s, %s))))"
        f" SELECT {heads(Event)}, {heads(TableEvent)},"
        f" (SELECT COUNT(*) FROM {Seat._meta.db_table} s JOIN {SeatClock._meta.db_table} c ON c.seat_id = s.id"
        f" WHERE s.user_id = %s AND c.seq IS NOT NULL),"
        f" (SELECT COUNT(*) FROM lobby), (SELECT COUNT(*) FROM lobby WHERE status = %s),"
        f" (SELECT MAX(id) FROM lobby), (SELECT MAX(answered_at) FROM lobby)"
    )
    uid, pending, accepted = user_id, Invitation.Status.PENDING.value, Invitation.Status.ACCEPTED.value
    with connection.cursor() as cursor:
        cursor.execute(sql, [Proposal.Status.OPEN.value, uid, uid, pending, accepted, uid, uid, uid, pending])
        events, table, waiting, lobby_n, lobby_pending, lobby_newest, lobby_answered = cursor.fetchone()
    # The newest answer's time only tells that one came: its text as the database gives it will do.
    answered = lobby_answered.timestamp() if hasattr(lobby_answered, "timestamp") else lobby_answered or 0
    return f"{events}.{table}.{waiting}.{lobby_n}.{lobby_pending}.{lobby_newest or 0}.{answered}", waiting


@require_GET
@never_cache
@polls_limited
def home_head(request: HttpRequest) -> JsonResponse:
    """GET /live/home.json → {"version", "your_turn", "waiting"} of the signed-in user's "My
    games" (`home_version`), and "viewer" when renewed; 403 for a visitor who is not signed in.
    The viewer is the one the page's token names, else the request's user, as for a game's head
    (`web.live.game_head`, `web.head_viewer`)."""
    viewer, renewed = head_viewer.viewer_or_session(request)
    if viewer is None:
        raise PermissionDenied(_("Sign in to see your games."))
    version, waiting = home_version(viewer)
    return JsonResponse({"version": version, "your_turn": waiting > 0, "waiting": waiting, **renewed})


def proposal_version(proposal_id: int) -> str | None:
    """The version of a game being gathered: a digest of its status, its game and each seat's
    answer (one query); None when there is no such proposal."""
    rows = list(
        Invitation.objects.filter(proposal_id=proposal_id)
        .order_by("position")
        .values_list("proposal__status", "proposal__game_id", "position", "status", "email", "is_bot")
    )
    if not rows:
        return None
    return hashlib.sha256(repr(rows).encode()).hexdigest()[:16]


@require_GET
@never_cache
@polls_limited
def proposal_head(request: HttpRequest, proposal_id: int) -> JsonResponse:
    """GET /lobby/<id>/head.json → {"version"} of a game being gathered, and "viewer" when
    renewed, for its host and the players invited (403 for anybody else, as the page itself; 404
    for no such proposal). The viewer is the one the page's token names, else the request's user
    (`web.head_viewer`)."""
    viewer, renewed = head_viewer.viewer_or_session(request)
    if viewer is None:
        raise PermissionDenied(_("Sign in to see this game."))
    allowed = Proposal.objects.filter(pk=proposal_id).filter(
        Q(host_id=viewer) | Exists(Invitation.objects.filter(proposal=OuterRef("pk"), user_id=viewer))
    )
    version = proposal_version(proposal_id)
    if version is None:
        raise Http404(_("No such game being gathered."))
    if not allowed.exists():
        raise PermissionDenied(_("This game is being gathered by its host and the players invited."))
    return JsonResponse({"version": version, **renewed})
