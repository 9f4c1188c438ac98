"""The open tables on the web (docs/open-tables.md): the public list, filtered by speed,
language and player count, and joining one in one click.

The list reads the `open_tables` projection only (public facts: never an address). Joining
needs the signed-in player (a visitor is sent to sign in by emailed link, and comes back to the
list); it acts for that player only, who takes at most OPEN_TABLE_JOINS_PER_HOUR seats an hour
(`community.join_limit`; `lobby.services.table_join` says why a join is refused, and writes
nothing then).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from community import list_cache
from community.join_limit import join_within_limit
from community.models import OpenTable
from community.open_tables import PAGE_SIZE, PLAYER_COUNTS, Filters, count_open_tables, open_tables
from community.words import LANGUAGE_WORDS, SPEED_WORDS, rows_html, table_lines
from lobby.models import Invitation, Proposal
from lobby.services import LobbyError
from web import page_cache


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
    """GET ?speed=&language=&players=&page=: the tables seeking players, the longest waiting
    first, PAGE_SIZE a page (`page` from 1; past the last: the last). Served again from the
    page cache while the list has not moved (`community.list_cache`)."""
    key = list_cache.page_key(request)
    html = list_cache.cached(key)
    if html is None:
        html = _open_tables_html(request)
        list_cache.keep(key, html)
    return HttpResponse(page_cache.filled(html, request, nonce=""))


def _open_tables_html(request: HttpRequest) -> str:
    """The list page rendered whole, its CSRF token a placeholder (`web.page_cache.filled`)."""
    filters = _filters(request)
    page = request.GET.get("page", "")
    page_number = int(page) if page.isdigit() and page != "0" and len(page) < 7 else 1
    # One query for the rows and their count (`total`); a second only past the last page.
    rows = list(open_tables(filters, limit=PAGE_SIZE, offset=(page_number - 1) * PAGE_SIZE))
    total = rows[0].total if rows else count_open_tables(filters)  # type: ignore[attr-defined]  # annotated
    pages = max(1, -(-total // PAGE_SIZE))
    if page_number > pages:
        page_number = pages
        rows = list(open_tables(filters, limit=PAGE_SIZE, offset=(page_number - 1) * PAGE_SIZE))
    tables = table_lines(rows)
    query = request.GET.copy()
    query.pop("page", None)
    # A visitor signs in first, by emailed link, and lands on the table's one button.
    sign_in_prefix = reverse("lobby:sign_in") + "?next=" + reverse("community:open_tables")
    return render_to_string(
        "community/open_tables.html",
        {
            "csrf_token": page_cache.CSRF_PLACEHOLDER,
            "tables": tables,
            "total": total,
            "page_number": page_number,
            "pages": pages,
            "first_shown": (page_number - 1) * PAGE_SIZE + 1,
            "last_shown": (page_number - 1) * PAGE_SIZE + len(tables),
            "query": query.urlencode(),
            "filters": filters,
            "speeds": list(SPEED_WORDS.items()),
            "languages": list(LANGUAGE_WORDS.items()),
            "player_counts": PLAYER_COUNTS,
            "rows": rows_html(
                tables,
                signed_in=request.user.is_authenticated,
                sign_in_prefix=sign_in_prefix,
                mine=_tables_of(request.user, [row.number for row in rows]),
            ),
        },
        request=request,
    )


def _tables_of(user, numbers: list[int]) -> frozenset[int]:
    """Those of the tables `numbers` that `user` hosts or has a seat at (one query; none for a
    visitor): the list links them to their page rather than offering to join."""
    if not user.is_authenticated or not numbers:
        return frozenset()
    seated = Q(invitations__user=user, invitations__status=Invitation.Status.ACCEPTED)
    return frozenset(
        Proposal.objects.filter(pk__in=numbers).filter(Q(host=user) | seated).values_list("pk", flat=True)
    )


@login_required
@require_POST
def join_posted(request: HttpRequest) -> HttpResponse:
    """POST `table` (a number): the list's join buttons, one form for the whole list; as `join`."""
    number = request.POST.get("table", "")
    if not number.isdigit() or len(number) > 12:
        messages.error(request, _("Choose a table of the list."))
        return redirect("community:open_tables")
    return join(request, int(number))


def _seated_at(number: int, user) -> bool:
    """Whether `user` hosts table `number` or holds a seat there (asked or taken, not declined):
    the join page then offers the table's page rather than a seat they cannot take."""
    if Proposal.objects.filter(pk=number, host_id=user.pk).exists():
        return True
    places = Invitation.objects.filter(proposal_id=number, user_id=user.pk, is_bot=False)
    return places.exclude(status=Invitation.Status.DECLINED).exists()


@login_required
@require_http_methods(["GET", "POST"])
def join(request: HttpRequest, number: int) -> HttpResponse:
    """GET: the one button that takes the seat (where a visitor lands after signing in by the
    emailed link); a table that never existed: 404, saying so. POST: the signed-in player takes a seat at open table `number`: to the game
    when their seat filled it, else to the table's page; refused (full, closed, already seated,
    too many seats taken this hour): back to the list, saying why."""
    if request.method == "GET":
        if not Proposal.objects.filter(pk=number).exists():
            # Never a table: not one that stopped looking for players.
            return render(request, "community/join.html", {"number": number, "missing": True}, status=404)
        table = next(iter(table_lines(OpenTable.objects.filter(number=number))), None)
        seated = table is not None and _seated_at(number, request.user)
        return render(request, "community/join.html", {"number": number, "table": table, "seated": seated})
    try:
        proposal = join_within_limit(proposal_id=number, user=request.user)
    except LobbyError as error:
        messages.error(request, str(error))
        return redirect("community:open_tables")
    if proposal.game_id:
        messages.success(request, _("Every seat is taken: the game has begun."))
        return redirect("games:detail", game_id=proposal.game_id)
    messages.success(request, _("You have a seat. The game starts when every seat is taken."))
    return redirect("lobby:proposal", proposal_id=proposal.pk)
