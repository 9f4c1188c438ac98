"""The rematch by email (docs/rematch.md): a reply to a game's game-over email whose first line
is `rematch` (French: `revanche`) asks for the rematch of that game, as the game page's button
does (`lobby.rematch.rematch`), for the seat's player.

The game-over email carries the seat's reply address; its token proves the seat, as for every
reply (a forged From header changes nothing). Registered with `notifications.inbound_hooks`,
asked before the seat's path, which answers any other reply to an ended game as before, with
the locks a rematch takes before the message's row (`locks_first`).
"""

from __future__ import annotations

import re

from django.conf import settings
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from games.models import Game, Seat
from lobby import gathering
from lobby.models import Proposal
from lobby.rematch import rematch
from lobby.services import LobbyError
from notifications.command_language import reply_lines
from notifications.inbound_hooks import UnseatedAnswer
from notifications.models import InboundEmail
from notifications.prompts import render_email
from players.models import Player
from players.signed_tokens import BadToken, check_reply_token, is_tables_token, read_reply_token

# The first line that asks for a rematch (any case; spaces and punctuation around it allowed).
REMATCH_WORDS = {"rematch", "revanche"}


def asks_rematch(text: str) -> bool:
    """Whether the first line written in `text` (a reply's text, or its HTML when it has no
    text part) is the one word `rematch` or `revanche`, whatever its case and the spaces and
    punctuation around it ("Revanche !", "rematch?"). The first line is read as the open
    tables' commands read it (`reply_lines`: HTML as the text it shows, the quoted mail left
    out)."""
    lines = reply_lines(text)
    found = re.findall(r"[^\W_]+", lines[0].lower()) if lines else []
    return len(found) == 1 and found[0] in REMATCH_WORDS


def answer_rematch_mail(token: str | None, text: str, sender: str) -> UnseatedAnswer | None:
    """The answer to a seat's reply that asks for a rematch, or None when the mail is something
    else (no seat's token, a damaged or forged one, another command: the seat's path goes on)."""
    if token is None or is_tables_token(token) or not asks_rematch(text):
        return None
    seat = _proven_seat(token)
    if seat is None or seat.user is None:
        return None
    language = (
        Player.objects.filter(email=seat.email.strip().lower()).values_list("language", flat=True).first()
    )
    with translation.override(language or "en"):
        try:
            proposal = rematch(game_id=seat.game_id, user=seat.user)
        except LobbyError as error:
            return _answer(InboundEmail.Status.REJECTED, "Rematch refused.", str(error), "", to=seat.email)
        if proposal.game_id:
            message = _("Every seat is taken: the rematch has begun.")
            link = settings.SITE_URL + reverse("games:detail", args=[proposal.game_id])
        else:
            message = _("You have a seat at the rematch. It starts when every player has accepted.")
            link = settings.SITE_URL + reverse("lobby:proposal", args=[proposal.pk])
        return _answer(
            InboundEmail.Status.ACCEPTED, f"Rematch: table {proposal.pk}.", message, link, to=seat.email
        )


def locks_first(token: str | None, text: str, sender: str) -> None:
    """The row locks a reply `rematch` will take, taken before the message's own row, in the
    service's lock order (`notifications.inbound_hooks`): the game its reply address names (its
    token read, not checked: `answer_rematch_mail` checks it under the locks), that game's
    rematch tables, then the gathering's log. An erasure takes the games of the person's
    seats, their tables and the log, then empties the stored emails of the person or holding
    their traces, this one perhaps: one waits for the other, never each for the other. Nothing
    for any other message."""
    if token is None or is_tables_token(token) or not asks_rematch(text):
        return
    try:
        game_id = read_reply_token(token).game_id
    except BadToken:
        return
    Game.objects.select_for_update().filter(pk=game_id).first()
    rematches = Proposal.objects.filter(rematch_of_id=game_id).exclude(status=Proposal.Status.CANCELLED)
    list(rematches.select_for_update().order_by("pk"))
    gathering.lock_log()


def _proven_seat(token: str) -> Seat | None:
    """The seat whose reply address `token` is, or None (damaged, forged, no such seat)."""
    try:
        claim = read_reply_token(token)
        seat = Seat.objects.select_related("user").filter(pk=claim.seat_id, game_id=claim.game_id).first()
        if seat is None:
            return None
        check_reply_token(token, seat.token)
    except BadToken:
        return None
    return seat


def _answer(status: str, detail: str, message: str, link: str, *, to: str) -> UnseatedAnswer:
    """The answer, to `to`: the seat's own address, as every reply is answered
    (docs/email-commands.md), whatever address of the player's the reply came from."""
    return UnseatedAnswer(
        status=status,
        detail=detail,
        to=to,
        email=render_email(
            "rematch_answer", {"message": message, "link": link}, headers={"Auto-Submitted": "auto-replied"}
        ),
    )
