"""Web pages: the list of games, a game's public page and history, a seat's page and history.

Views only parse and render: reads go through `games.selectors`, writes through
`games.services.submit_command`.
"""
from __future__ import annotations

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods

from games import selectors, services
from games.forms import CommandForm, new_nonce
from games.models import Game, Seat


def _game_or_404(game_id: int) -> Game:
    try:
        return selectors.game_get(game_id=game_id)
    except Game.DoesNotExist:
        raise Http404("No such game.") from None


def _seat_or_404(game: Game, token: str) -> Seat:
    try:
        return selectors.seat_get(game=game, token=token)
    except Seat.DoesNotExist:
        raise Http404("No such seat.") from None


def game_list(request: HttpRequest) -> HttpResponse:
    return render(request, "games/game_list.html", {"games": selectors.game_list()})


def game_detail(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game_or_404(game_id)
    return render(request, "games/game_detail.html", {"view": selectors.public_view(game=game)})


@require_http_methods(["GET", "POST"])
def seat_page(request: HttpRequest, game_id: int, token: str) -> HttpResponse:
    """GET: the seat's board, decisions and command form. POST: submit the command.

    An accepted command redirects back to the page (with the result as a message); a refused one
    shows the page again, status 400, with the reason (the rules' message) and what was written.
    """
    game = _game_or_404(game_id)
    seat = _seat_or_404(game, token)
    refusal = None
    if request.method == "POST":
        form = CommandForm(request.POST)
        if form.is_valid():
            result = services.submit_command(
                game=game, seat=seat, command=form.cleaned_data["command"],
                expected_seq=form.cleaned_data["expected_seq"],
                command_id=f"web:{form.cleaned_data['nonce']}",
            )
            if result.accepted:
                messages.success(request, result.message)
                return redirect("games:seat", game_id=game.pk, token=seat.token)
            refusal = result.message
        game.refresh_from_db()
    view = selectors.seat_view(game=game, seat=seat)
    if request.method == "POST":
        # Keep what the player sent and say what was wrong, against the state shown now.
        data = request.POST.copy()
        data["expected_seq"] = str(view.seq)
        data["nonce"] = new_nonce()
        form = CommandForm(data, choices=view.choices)
        if form.is_valid() and refusal:
            form.add_error(None, refusal)
        return render(request, "games/seat.html", {"view": view, "form": form}, status=400)
    form = CommandForm(initial={"expected_seq": view.seq, "nonce": new_nonce()}, choices=view.choices)
    return render(request, "games/seat.html", {"view": view, "form": form})


def history(request: HttpRequest, game_id: int) -> HttpResponse:
    game = _game_or_404(game_id)
    entries = selectors.history(game=game, colour=None)
    return render(request, "games/history.html", {"game": game, "seat": None, "entries": entries})


def seat_history(request: HttpRequest, game_id: int, token: str) -> HttpResponse:
    game = _game_or_404(game_id)
    seat = _seat_or_404(game, token)
    entries = selectors.history(game=game, colour=seat.colour)
    return render(request, "games/history.html", {"game": game, "seat": seat, "entries": entries})
