"""Pages of following (docs/spectators.md): the "Games to watch" list, follow and unfollow (one
click each: a POST with its CSRF token, by a signed-in person), and the unsubscribe link of the
followers' digest (RFC 8058 one-click: a POST without cookie nor CSRF token, the signed link is the
proof; GET shows a page with the same button).

What a follower sees of a game is the game's public page, the one every visitor gets
(`web.views.game_detail` for nobody's seat): following adds only the digest.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from games.models import Game
from games.rules import players_named
from games.story.names import player_name
from players.accounts import is_site_path
from players.display_names import seat_names_by_game
from watching import selectors, services
from watching.links import BadLink, read_unsubscribe_token


def _named(watch: selectors.WatchList) -> selectors.WatchList:
    """`watch` with each game's players named as the game pages name them (docs/web.md, "Players
    by name": "Gil (green)", a bot by its level, a player with no chosen name by the colour
    alone) in the reader's language: `game.named_seats` [(colour, name)], `game.winner_named`.
    One query for every game's chosen names."""
    games = [*watch.in_progress, *watch.finished]
    names = seat_names_by_game([seat for game in games for seat in game.seats.all()])
    for game in games:
        with players_named(names.get(game.pk, {})):
            game.named_seats = [(seat.colour, player_name(seat.colour)) for seat in game.seats.all()]
            game.winner_named = player_name(game.winner) if game.winner else ""
    return watch


@require_GET
def watch_list(request: HttpRequest) -> HttpResponse:
    """Public games in progress and recently finished, with a Follow / Unfollow button each
    (signing in first, by emailed link, for a visitor)."""
    return render(
        request,
        "watching/list.html",
        {
            "watch": _named(selectors.games_to_watch()),
            "following": selectors.followed_game_ids(request.user),
            "sign_in": reverse("lobby:sign_in") + "?" + urlencode({"next": reverse("watching:list")}),
        },
    )


def _back(request: HttpRequest) -> str:
    """Where to go after a click: the posted `next` when it is a path of this site, else the list."""
    target = request.POST.get("next", "")
    return target if is_site_path(target) else reverse("watching:list")


def _public_game(game_id: int) -> Game:
    game = Game.objects.filter(pk=game_id).first()
    if game is None or not selectors.is_public(game):
        raise Http404(_("There is no public game with that number."))
    return game


@require_POST
def follow(request: HttpRequest, game_id: int) -> HttpResponse:
    """Follow the public game `game_id` (a visitor who is not signed in is sent to sign in,
    then back to the list). No such public game: 404."""
    game = _public_game(game_id)
    if not request.user.is_authenticated:
        return redirect(reverse("lobby:sign_in") + "?" + urlencode({"next": reverse("watching:list")}))
    try:
        services.follow(user=request.user, game=game)
    except services.FollowError as error:
        messages.error(request, str(error))
    else:
        messages.success(
            request,
            _("You follow game {number}: its news comes once a day by email, to {email}.").format(
                number=game.pk, email=request.user.email
            ),
        )
    return redirect(_back(request))


@require_POST
def unfollow(request: HttpRequest, game_id: int) -> HttpResponse:
    """Stop following game `game_id` (whether or not it is still public)."""
    if not request.user.is_authenticated:
        return redirect(reverse("lobby:sign_in") + "?" + urlencode({"next": reverse("watching:list")}))
    services.unfollow(user=request.user, game_id=game_id)
    messages.success(request, _("You no longer follow game {number}.").format(number=game_id))
    return redirect(_back(request))


@csrf_exempt  # RFC 8058: the provider's one-click POST carries no CSRF token; the signed link is the proof
@require_http_methods(["GET", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET: a page with the button. POST: stop following that game (or every game). A link not
    made here (forged, cut, of another purpose) or of a person who is no more: 404, with a page
    that says so and what to use instead."""
    try:
        user_id, game_id = read_unsubscribe_token(token)
    except BadLink:
        return render(request, "watching/link_invalid.html", status=404)
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None:
        return render(request, "watching/link_invalid.html", status=404)
    done = request.method == "POST"
    if done:
        services.unfollow(user=user, game_id=game_id)
    return render(request, "watching/unsubscribe.html", {"game_id": game_id, "token": token, "done": done})
