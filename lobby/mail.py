"""The lobby's emails: invitations, a declined seat, the game started, a seat given, a seat
taken away by the host, sign-in.

Each is a template triplet under templates/emails/ rendered by `notifications.prompts
.render_email`. Only the sign-in email's link signs its reader in (`players.accounts
.sign_in_link`, docs/security.md); every other link gives only the power the email is for: the
game started and a seat given carry the seat link of that seat (`players.seat_links`), an
invitation a link that answers that invitation only (`players.signed_tokens.invitation_token`),
the host's notices and the open tables' the plain address of a page (a host's page asks a
visitor to sign in). Like
every other email, each is written to the outbox (`notifications.outbox.enqueue`) in the
caller's transaction and delivered by a task after the commit: a mail provider that is down or
slow never fails nor slows the request that asked for it, and the delivery is retried, then
picked up by the periodic sweep, until the provider takes it. The rows are of kind NOTICE (about
no decision, so never skipped as stale).

Each is written in its recipient's language (`Player.language`; English for an address that has
no Player yet, such as a first invitation).
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import translation
from django.utils.text import capfirst
from django.utils.translation import gettext as _

from games import store
from games.models import Game, Seat
from games.record.options import DEFAULT_DEADLINES, deadline_hours, reaction_mode
from lobby.models import Invitation, Proposal
from lobby.speeds import expected_length
from notifications import outbox
from notifications.models import Outbox
from notifications.prompts import render_email
from players import seat_links
from players.accounts import normalise_email, sign_in_link
from players.display_names import UNNAMED, chosen_names_for, name_for, needs_name, seat_names
from players.models import Player
from players.signed_tokens import invitation_token


def _send(name: str, context: dict, to: str, *, game: Game | None = None, seat: Seat | None = None) -> Outbox:
    """Write the email `name` to `to` in the outbox (inside the caller's transaction, or in one
    of its own); it is delivered after the commit, in `to`'s language. Returns the row."""
    with translation.override(recipient_language(to)):
        email = render_email(name, context, headers={})
    with transaction.atomic():
        return outbox.enqueue(
            kind=Outbox.Kind.NOTICE,
            to_email=to,
            email=email,
            seq=store.head(game)[0] if game is not None else 0,
            game=game,
            seat=seat,
        )


def recipient_language(email: str) -> str:
    """The language of the emails to `email`: its Player's ("en"/"fr"), English when none."""
    language = (
        Player.objects.filter(email=(email or "").strip().lower()).values_list("language", flat=True).first()
    )
    return language or "en"


def send_invitation(invitation_id: int) -> None:
    """Ask the invited player to accept or decline (link: the invitation's own page,
    `lobby.views.invitation`, which answers this invitation only and signs nobody in), saying
    which game a rematch plays again (`Proposal.rematch_of`) and what they would commit to: the hours a decision and how long a game takes at that speed
    (`lobby.speeds.expected_length`, in their language)."""
    invitation = Invitation.objects.select_related("proposal__host", "user").get(pk=invitation_id)
    if invitation.user is None or invitation.status != Invitation.Status.PENDING:
        return
    proposal = invitation.proposal
    token = invitation_token(invitation_id=invitation.pk, email=invitation.email)
    link = _site_link(reverse("lobby:invitation", args=[token]))
    with translation.override(recipient_language(invitation.email)):
        length = expected_length(
            proposal.options.get("deadlines") or DEFAULT_DEADLINES,
            reaction_mode(proposal.options) or "holders",
        )
        host = proposal.host_name
        if host == _(UNNAMED):  # it begins the subject and the sentence
            host = capfirst(host)
    _send(
        "invitation",
        {
            "invitation": invitation,
            "proposal": proposal,
            "host": host,
            "link": link,
            "players": proposal.invitations.count(),
            "deadline": deadline_hours(proposal.options, "default"),
            "length": length,
        },
        invitation.email,
    )


def send_declined(invitation_id: int, *, after_accepting: bool = False) -> None:
    """Tell the host a seat was declined (`after_accepting`: its player accepted, then left the
    table, `lobby.services.table_leave`), with the table's page to invite somebody else: its
    plain address, which asks a visitor to sign in (a forwarded notice gives away nothing)."""
    invitation = Invitation.objects.select_related("proposal__host").get(pk=invitation_id)
    proposal = invitation.proposal
    link = _site_link(reverse("lobby:proposal", args=[proposal.pk]))
    with translation.override(recipient_language(proposal.host.email)):
        who = _invitee_for_host(invitation)
    _send(
        "invitation_declined",
        {"who": who, "proposal": proposal, "link": link, "after_accepting": after_accepting},
        proposal.host.email,
    )


def _invitee_for_host(invitation: Invitation) -> str:
    """The player of `invitation` as its host reads them, in the active language: the display
    name they chose; else the address the host typed, or, for an address the host never typed
    (a player asked again for a rematch, one who joined), "A player with no name yet" (it
    begins the sentence)."""
    if invitation.address_hidden:
        return chosen_names_for([invitation.email]).get(invitation.email) or capfirst(_(UNNAMED))
    return invitation.email if needs_name(invitation.email) else name_for(invitation.email)


def _seat_link(seat: Seat) -> str:
    """A new seat link of `seat` (`players.seat_links`): its game page, for that seat only,
    signing nobody in, acting SEAT_LINK_DAYS days and while the seat is its player's."""
    return seat_links.seat_link_url(game_id=seat.game_id, seat_id=seat.pk, seat_secret=seat.token)


def send_game_started(game_id: int) -> None:
    """Tell every player the game has begun, with their seat's link (`_seat_link`) and who sits where
    ("Aoife (green), Hard bot (blue), you (orange)": the names players read, never an address;
    a bot's name in the reader's language)."""
    game = Game.objects.get(pk=game_id)
    seats = list(game.seats.order_by("position").select_related("user"))
    for seat in seats:
        if seat.is_bot:
            continue
        with translation.override(recipient_language(seat.email)):
            names = seat_names(seats)
        table = [{"colour": s.colour, "name": names[s.colour], "you": s.pk == seat.pk} for s in seats]
        _send(
            "game_started",
            {"game": game, "seat": seat, "link": _seat_link(seat), "table": table},
            seat.email,
            game=game,
            seat=seat,
        )


def send_seat_given(seat_id: int) -> None:
    """Tell a player the host gave them a seat in a game under way, with the seat's link
    (`_seat_link`)."""
    seat = Seat.objects.select_related("game", "user").get(pk=seat_id)
    if seat.is_bot or not seat.email:
        return
    _send(
        "seat_given",
        {"game": seat.game, "seat": seat, "link": _seat_link(seat)},
        seat.email,
        game=seat.game,
        seat=seat,
    )


def on_seat_handed_over(  # noqa: PLR0913 - the signal's keyword arguments
    sender,
    *,
    game: Game,
    seat: Seat,
    previous_player: int | None = None,
    previous_email: str = "",
    left: bool = False,
    **_facts,
) -> None:
    """`games.play.signals.seat_handed_over` receiver: tell the player whose seat the host gave
    away (`send_seat_taken`); not the host giving up their own seat (they did it)."""
    if not previous_email or (previous_player is not None and previous_player == game.host_id):
        return
    host_email = game.host.email if game.host is not None else ""
    if host_email and normalise_email(host_email) == normalise_email(previous_email):
        return
    send_seat_taken(game, seat, previous_email, left=left)


def send_seat_taken(game: Game, seat: Seat, email: str, *, left: bool) -> None:
    """Tell the player of `email` that the host of `game` gave their seat (now `seat`: the bot's
    or another player's, who is not named) away, in their language: the host by the name the
    table reads, the game, that it leaves their games list and its emails stop, and, for a rated
    game, how it counts (`left`: they were absent, ranked last; otherwise not rated for it,
    docs/ratings.md). No link to the seat: it is no longer theirs."""
    proposal = Proposal.objects.select_related("host").filter(game_id=game.pk).first()
    with translation.override(recipient_language(email)):
        if proposal is not None:
            host = proposal.host_name
        elif game.host is not None:
            host = name_for(game.host.email)
        else:
            host = ""
        if host == _(UNNAMED):  # it begins the subject and the sentence
            host = capfirst(host)
    context = {
        "game": game,
        "seat": seat,
        "host": host,
        "rated": bool(proposal and proposal.rated),
        "left": left,
        "link": _site_link(reverse("games:detail", args=[game.pk])),
    }
    _send("seat_taken", context, email, game=game)


def send_sign_in(user, next_path: str) -> Outbox:
    """A fresh sign-in link to `next_path` (a path of this site) for `user`, who asked for one on
    /signin/: written to the outbox, delivered after the commit. Returns the outbox row. Raises
    ValueError for a `next_path` that is not a path of this site (`sign_in_link`)."""
    return _send(
        "sign_in", {"link": sign_in_link(user, next_path), "days": settings.SESAME_MAX_AGE.days}, user.email
    )


def send_table_closed(proposal_id: int) -> None:
    """Tell the host and every player seated at an open table that it closed unfilled after a
    week (`lobby.services.close_stale_tables`), with the link to the open tables."""
    proposal = Proposal.objects.select_related("host").get(pk=proposal_id)
    seated = proposal.invitations.filter(status=Invitation.Status.ACCEPTED, is_bot=False).exclude(email="")
    addresses = dict.fromkeys([proposal.host.email, *seated.values_list("email", flat=True)])
    for address in addresses:
        context = {
            "number": proposal.pk,
            "link": _site_link(reverse("community:open_tables")),
            "hosted": address == proposal.host.email,
        }
        _send("table_closed", context, address)


def send_table_cancelled(proposal_id: int, *, name_host: bool = True) -> None:
    """Tell every player seated at the table `proposal_id` (joined, or an invitation accepted)
    or still asked there, but its host, that the host cancelled it before the game started
    (`lobby.services.proposal_cancel`), with the link to the open tables. Names the host by the
    name players read, never an address; not at all when not `name_host` (a host who erased
    their account, `lobby.erasure`)."""
    proposal = Proposal.objects.select_related("host").get(pk=proposal_id)
    places = proposal.invitations.filter(
        is_bot=False, status__in=[Invitation.Status.ACCEPTED, Invitation.Status.PENDING]
    ).exclude(email="")
    host = proposal.host_name if name_host else ""
    for address in dict.fromkeys(places.exclude(user=proposal.host).values_list("email", flat=True)):
        _send(
            "table_cancelled",
            {"number": proposal.pk, "host": host, "link": _site_link(reverse("community:open_tables"))},
            address,
        )


def send_seat_removed(proposal_id: int, email: str) -> None:
    """Tell the player at `email` that the host of open table `proposal_id` gave their seat back
    (`lobby.services.table_remove`), with the link to the other open tables; it blames nobody
    and names nobody."""
    _send(
        "seat_removed",
        {"number": proposal_id, "link": _site_link(reverse("community:open_tables"))},
        email,
    )


def _site_link(path: str) -> str:
    """The absolute address of `path` on this site (SITE_URL), signing nobody in."""
    return settings.SITE_URL.rstrip("/") + path
