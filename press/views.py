"""The game page's table-talk form: POST a message to the whole table or to one player.

Who may talk: the signed-in user for the seats they play, and a visitor holding a seat link
(`players.seat_links`) for that seat. Sent: back to the game page with "sent". Refused (the
form's seat is not the visitor's, or `press.services.press_send` refuses the message): the
reason, the form again with the words typed, nothing stored.
"""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.models import Game
from games.rules import players_named
from games.store import selectors
from players import seat_links
from players.display_names import seat_names
from press.addressees import addressee_words
from press.services import MAX_CHARS, PressRefused, press_send

# Read no more of a posted message than this: far more than MAX_CHARS, so that an oversized
# message is refused with its length rather than cut.
POST_TEXT_LIMIT = 20 * MAX_CHARS


@require_POST
def send(request: HttpRequest, game_id: int) -> HttpResponse:
    """Send the posted message (fields: seat, to = "all" or a colour, text). 302 to the game
    page when sent; 400 with the reason, the table talk and the form (the words typed) when refused; 403 when the visitor plays no such seat."""
    try:
        game = selectors.game_get(game_id=game_id)
    except Game.DoesNotExist:
        raise Http404(_("No such game.")) from None
    mine = selectors.seats_of(game=game, user=request.user)
    mine += [s for s in seat_links.granted_seats(request, game) if s.pk not in {m.pk for m in mine}]
    colour = request.POST.get("seat", "")
    seat = next((s for s in mine if s.colour == colour), None)
    if seat is None:
        raise PermissionDenied(
            _(
                "You do not have that seat at this table, so you cannot talk at it: "
                "sign in with the link in your latest email."
            )
        )
    to = request.POST.get("to") or "all"
    text = request.POST.get("text", "")[:POST_TEXT_LIMIT]
    page = reverse("games:detail", args=[game.pk]) + (f"?as={seat.colour}" if len(mine) > 1 else "")
    try:
        message = press_send(game=game, seat=seat, to=to, text=text)
    except PressRefused as refused:
        context = {
            "game": game,
            "seat": seat,
            "reason": _("Your message was not sent. {reason}").format(reason=refused),
            "text": text,
            "to": to,
            "back": page,
            "max_chars": MAX_CHARS,
            "page": {"seat": seat},
        }
        return render(request, "press/refused.html", context, status=400)
    with players_named(seat_names(game.seats.all())):
        said = _("Your message to {who} was sent.").format(who=addressee_words(message))
    messages.success(request, said)
    return redirect(page + "#talk")
