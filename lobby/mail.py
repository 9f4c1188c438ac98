"""The lobby's emails: invitations, a declined seat, the game started, a seat given, sign-in.

Each is a template triplet under templates/emails/ rendered by `notifications.prompts
.render_email`, and every link in it signs its reader in (`games.players.sign_in_link`). These
emails are about people, not decisions, so they are sent at once rather than through the game
outbox (whose rows belong to a seat of a started game); a failure is logged and the lobby page
still shows everything the email said.
"""
from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.urls import reverse

from games.models import Game, Seat
from games.players import seat_link, sign_in_link
from lobby.models import Invitation
from notifications.prompts import render_email

logger = logging.getLogger(__name__)


def _send(name: str, context: dict, to: str) -> None:
    email = render_email(name, context, headers={})
    message = EmailMultiAlternatives(subject=email.subject, body=email.text,
                                     from_email=settings.DEFAULT_FROM_EMAIL, to=[to])
    message.attach_alternative(email.html, "text/html")
    message.send()


def send_invitation(invitation_id: int) -> None:
    """Ask the invited player to accept or decline (link: the proposal page, signed in)."""
    invitation = Invitation.objects.select_related("proposal__host", "user").get(pk=invitation_id)
    if invitation.user is None or invitation.status != Invitation.Status.PENDING:
        return
    proposal = invitation.proposal
    link = sign_in_link(invitation.user, reverse("lobby:proposal", args=[proposal.pk]))
    _send("invitation", {"invitation": invitation, "proposal": proposal, "host": proposal.host.email,
                         "link": link, "players": proposal.invitations.count()}, invitation.email)


def send_declined(invitation_id: int) -> None:
    """Tell the host a seat was declined, with the link to invite somebody else."""
    invitation = Invitation.objects.select_related("proposal__host").get(pk=invitation_id)
    proposal = invitation.proposal
    link = sign_in_link(proposal.host, reverse("lobby:proposal", args=[proposal.pk]))
    _send("invitation_declined", {"invitation": invitation, "proposal": proposal, "link": link},
          proposal.host.email)


def send_game_started(game_id: int) -> None:
    """Tell every player the game has begun, with a signed link to its page."""
    game = Game.objects.get(pk=game_id)
    for seat in game.seats.filter(is_bot=False).select_related("user"):
        _send("game_started", {"game": game, "seat": seat, "link": seat_link(seat),
                               "seats": list(game.seats.all())}, seat.email)


def send_seat_given(seat_id: int) -> None:
    """Tell a player the host gave them a seat in a game under way."""
    seat = Seat.objects.select_related("game", "user").get(pk=seat_id)
    if seat.is_bot or not seat.email:
        return
    _send("seat_given", {"game": seat.game, "seat": seat, "link": seat_link(seat)}, seat.email)


def send_sign_in(user, next_path: str) -> None:
    """A fresh sign-in link to `next_path` for `user` (who asked for one on /signin/)."""
    _send("sign_in", {"link": sign_in_link(user, next_path),
                      "days": settings.SESAME_MAX_AGE.days}, user.email)
