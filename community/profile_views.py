"""The players' profile pages and the leaderboard on the web (docs/profiles.md, docs/ratings.md).

A profile reads the projections and the seats; it never shows an address. A player who hides
their profile is shown only to the players they have sat at a game with; to anybody else the
page says the same as for an account that does not exist (so it tells nobody whether it does).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from community.profile_page import no_such_player, profile, strangers
from community.profiles import ChoiceRefused, set_hidden
from community.ratings import PROVISIONAL_GAMES, Rating, leaderboard
from community.words import LANGUAGE_WORDS
from games.play.answer_times import in_words
from players.blocks import BlockError, block, blocks, unblock
from players.display_names import public_names_for
from players.models import Block, Erasure


@require_GET
def profile_page(request: HttpRequest, player_id: int) -> HttpResponse:
    """GET: the profile of the account `player_id`; 404 with a clear sentence when there is no
    such account (deleted or never) or when it is hidden from this viewer."""
    viewer = request.user.pk if request.user.is_authenticated else None
    shown = profile(player_id)
    if shown is None or (shown.hidden and strangers(viewer, player_id)):
        return render(request, "community/no_profile.html", status=404)
    own = viewer == player_id
    return render(
        request,
        "community/profile.html",
        {
            "profile": shown,
            "own": own,
            "blocked": viewer is not None and not own and blocks(viewer, player_id),
            "blocked_list": _blocked_list(player_id) if own else [],
            "language": LANGUAGE_WORDS.get(shown.language, shown.language),  # each in its own words
            "answer_time": in_words(shown.median_seconds),
            "answered_percent": None if shown.answered_share is None else round(shown.answered_share * 100),
            "rating": _rating_words(shown.rating),
        },
    )


@login_required
@require_GET
def own_profile(request: HttpRequest) -> HttpResponse:
    """GET: a redirect to the signed-in player's own profile. The header links here, so that a
    page names no account number (two players' pages read alike but for their own names)."""
    return redirect("community:profile", player_id=request.user.pk)


def _blocked_list(player_id: int) -> list[dict]:
    """[{"player_id", "name"}] of the accounts `player_id` blocked, oldest block first: shown on
    their own profile only. An erased account is never listed (it has no name left, and its
    blocks went with it: docs/privacy.md)."""
    ids = list(
        Block.objects.filter(blocker_id=player_id)
        .exclude(blocked_id__in=Erasure.objects.values("user_id"))
        .values_list("blocked_id", flat=True)
    )
    emails = dict(get_user_model().objects.filter(pk__in=ids).values_list("pk", "email"))
    names = public_names_for(emails.values())
    return [{"player_id": pk, "name": names.get(emails[pk], "")} for pk in ids if pk in emails]


@login_required
@require_POST
def block_choice(request: HttpRequest, player_id: int) -> HttpResponse:
    """POST `blocked` ("1": block the player `player_id`, "0": unblock them): the signed-in
    player's choice, for themselves only (`players.blocks`); the other player is never told.
    Anything else, oneself, or an account that does not exist (or was erased, or hides its
    profile from this stranger): refused, saying why; nothing written. Back to that player's
    profile (or one's own, for an unknown account)."""
    value = request.POST.get("blocked", "")
    viewer = request.user.pk
    assert viewer is not None  # signed in (login_required)
    # A hidden or erased account is no more known here than on its page: the answer for nobody.
    if no_such_player(viewer, player_id):
        messages.error(request, _("There is no such player."))
        return redirect("community:own_profile")
    if value not in {"0", "1"}:
        messages.error(request, _("Choose to block this player or to unblock them."))
    elif value == "0":
        unblock(blocker_id=viewer, blocked_id=player_id)
        messages.success(request, _("You unblocked this player."))
    else:
        try:
            block(blocker_id=viewer, blocked_id=player_id)
        except BlockError as error:
            messages.error(request, str(error))
        else:
            messages.success(
                request,
                _(
                    "You blocked this player: you will not be seated together at an open table, "
                    "and you no longer read their table talk. They are not told."
                ),
            )
    return redirect("community:profile", player_id=player_id)


def _rating_words(rating: Rating | None) -> dict | None:
    """{"figure", "uncertainty", "games", "provisional"} of `rating` as read (rounded), or None."""
    if rating is None:
        return None
    return {
        "figure": round(rating.ordinal),
        "uncertainty": round(3 * rating.sigma),
        "games": rating.games,
        "provisional": rating.provisional,
    }


@login_required
@require_POST
def profile_visibility(request: HttpRequest) -> HttpResponse:
    """POST `hidden` ("1": hide my profile from strangers, "0": show it): the signed-in player's
    choice; anything else is refused, saying what is allowed, and nothing is written; so is a
    choice of an account erased as it arrived ("This account was erased: nothing was saved.")."""
    value = request.POST.get("hidden", "")
    player_id = request.user.pk
    assert player_id is not None  # signed in (login_required)
    if value not in {"0", "1"}:
        messages.error(request, _("Choose to hide your profile from strangers or to show it."))
    else:
        try:
            set_hidden(player_id, value == "1")
        except ChoiceRefused as refused:  # erased as the choice arrived: nothing written
            messages.error(request, str(refused))
            return redirect("lobby:home")
        messages.success(
            request,
            _("Your profile is hidden from strangers.")
            if value == "1"
            else _("Your profile is shown to anyone."),
        )
    return redirect("community:profile", player_id=player_id)


@require_GET
def leaderboard_page(request: HttpRequest) -> HttpResponse:
    """GET: the players with PROVISIONAL_GAMES rated games or more, the highest figure first;
    players who hide their profile are left out."""
    rows = list(leaderboard())
    emails = dict(
        get_user_model().objects.filter(pk__in=[row.player_id for row in rows]).values_list("pk", "email")
    )
    names = public_names_for(emails.values())
    lines = [
        {
            "player_id": row.player_id,
            "name": names.get(emails[row.player_id], ""),
            "figure": round(row.ordinal),
            "uncertainty": round(3 * row.sigma),
            "games": row.games,
        }
        for row in rows
        if row.player_id in emails
    ]
    return render(
        request, "community/leaderboard.html", {"lines": lines, "provisional_games": PROVISIONAL_GAMES}
    )
