"""The open tables on the web (docs/open-tables.md): the public list, filtered by speed,
language and player count, and joining one in one click.

The list reads the `open_tables` projection only (public facts: never an address). Joining
needs the signed-in player (a visitor is sent to sign in by emailed link, and comes back to the
list); it acts for that player only, at most OPEN_TABLE_JOINS_PER_HOUR times an hour
(`lobby.services.table_join` says why a join is refused, and writes nothing then).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from community.open_tables import PLAYER_COUNTS, Filters, open_tables
from community.words import LANGUAGE_WORDS, SPEED_WORDS, table_lines
from lobby.services import LobbyError, table_join
from web.rate_limits import count

JOIN_WINDOW_SECONDS = 3600


def _filters(request: HttpRequest) -> Filters:
    """The list's filters from the query string; a value outside the choices counts as "any"."""
    speed = request.GET.get("speed") or None
    language = request.GET.get("language") or None
    players = request.GET.get("players") or ""
    return Filters(
        speed=speed if speed in SPEED_WORDS else None,
        language=language if language in LANGUAGE_WORDS else None,
        players=int(players) if players in {str(n) for n in PLAYER_COUNTS} else None,
    )


@require_GET
def open_tables_page(request: HttpRequest) -> HttpResponse:
    """GET ?speed=&language=&players=: the tables seeking players, the longest waiting first."""
    filters = _filters(request)
    return render(
        request,
        "community/open_tables.html",
        {
            "tables": table_lines(open_tables(filters)),
            "filters": filters,
            "speeds": list(SPEED_WORDS.items()),
            "languages": list(LANGUAGE_WORDS.items()),
            "player_counts": PLAYER_COUNTS,
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, number: int) -> HttpResponse:
    """GET: the one button that takes the seat (where a visitor lands after signing in by the
    emailed link). POST: the signed-in player takes a seat at open table `number`: to the game
    when their seat filled it, else to the table's page; refused (full, closed, already seated,
    too many joins this hour): back to the list, saying why."""
    if request.method == "GET":
        table = next((t for t in table_lines(open_tables()) if t.number == number), None)
        return render(request, "community/join.html", {"number": number, "table": table})
    if (
        count("tables:join", str(request.user.pk), window_seconds=JOIN_WINDOW_SECONDS)
        > settings.OPEN_TABLE_JOINS_PER_HOUR
    ):
        messages.error(request, _("You joined tables too often this hour: try again later."))
        return redirect("community:open_tables")
    try:
        proposal = table_join(proposal_id=number, user=request.user)
    except LobbyError as error:
        messages.error(request, str(error))
        return redirect("community:open_tables")
    if proposal.game_id:
        messages.success(request, _("Every seat is taken: the game has begun."))
        return redirect("games:detail", game_id=proposal.game_id)
    messages.success(request, _("You have a seat. The game starts when every seat is taken."))
    return redirect("lobby:proposal", proposal_id=proposal.pk)
