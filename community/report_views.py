"""Reporting to the operator on the web (docs/profiles.md, "Reporting"): a player from their
profile, a table-talk message from the game page. Signed in only; the report is taken or refused
(`community.reports` says why, and writes nothing then), and the page says which; the reported
player is never told.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.http import require_POST

from community.reports import MAX_REASON, ReportRefused, report_message, report_player

TAKEN = gettext_noop("Thank you: your report went to the people who run this site. The player is not told.")


@login_required
@require_POST
def report_player_posted(request: HttpRequest, player_id: int) -> HttpResponse:
    """POST `reason`: report the player `player_id`. Back to their profile, saying whether it
    was taken (own profile on "no such player")."""
    try:
        report_player(reporter=request.user, player_id=player_id, reason=_posted_reason(request))
    except ReportRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, _(TAKEN))
    return redirect("community:profile", player_id=player_id)


@login_required
@require_POST
def report_message_posted(request: HttpRequest, game_id: int, number: int) -> HttpResponse:
    """POST `reason`: report message `number` of game `game_id`'s table talk. Back to the game
    page's talk, saying whether it was taken."""
    try:
        report_message(reporter=request.user, game_id=game_id, number=number, reason=_posted_reason(request))
    except ReportRefused as refused:
        messages.error(request, str(refused))
    else:
        messages.success(request, _(TAKEN))
    return redirect(reverse("games:detail", args=[game_id]) + "#talk")


def _posted_reason(request: HttpRequest) -> str:
    """The posted reason, read no further than far past MAX_REASON (so that an oversized one is
    refused with its length rather than cut)."""
    return request.POST.get("reason", "")[: 10 * MAX_REASON]
