"""Writes of the lobby: propose a game, answer an invitation, ask somebody else, start the game.

A proposal holds one invitation per seat; the game's log is started (`games.services
.create_game`) in the same transaction as the answer that takes the last seat, under the
proposal's row lock, so two last answers at once start one game. Emails are written to the
outbox in the same transaction as the answer that calls for them (`lobby.mail`) and delivered
after the commit: a mail provider that is down never undoes an answer nor loses its email.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.bots import LEVELS as BOT_LEVELS
from games.models import Game
from games.record.options import table_options
from games.services import SeatSpec, create_game
from lobby import gathering, mail
from lobby.models import OPEN_AGAIN, Invitation, Proposal, Removal
from lobby.sign_in_limits import addresses_asked_allowed
from players.accounts import normalise_email, user_for_email
from players.blocks import any_block_between
from players.erasure import is_erased


class LobbyError(Exception):
    """The request is not possible (the message says why, for the player); nothing written."""


# How long an open table waits for players before it closes (docs/open-tables.md).
OPEN_TABLE_LIFETIME = timedelta(days=7)


@dataclass(frozen=True)
class PlaceSpec:
    """One seat of a proposal: a player's email, a bot playing at `bot_level`
    (`games.bots.LEVELS`), or, with `is_open`, an open seat that anyone may take while the
    table is listed."""

    email: str = ""
    is_bot: bool = False
    bot_level: str = "hard"
    is_open: bool = False


def proposal_create(  # noqa: PLR0913 - one keyword per field of the new-table form, keyword-only
    *,
    host,
    places: list[PlaceSpec],
    host_plays: bool,
    setup: str,
    deadlines: dict,
    reaction_mode: str,
    public: bool = False,
    press_public_after_end: bool = False,
    listed: bool = False,
    language: str = "en",
    rated: bool = False,
    rematch_of: Game | None = None,
    bot_level: str = "hard",
) -> Proposal:
    """Propose a game: the host (first seat when `host_plays`), then `places` in order.

    2 to 4 seats in all, each player once, each bot at a level of `games.bots.LEVELS`; setup
    "random" or "discovery"; deadlines and reaction_mode as `games.record.options.table_options`;
    public: anyone may follow the game (table option `public`, docs/spectators.md);
    press_public_after_end: the private table talk becomes readable by everybody once the game is
    over (table option, docs/press.md). listed: an open table, in the public list, whose open
    places (`PlaceSpec(is_open=True)`) anyone may take (docs/open-tables.md); language: "en" or
    "fr" (settings.LANGUAGES), the table's; rated: shown in the list; rematch_of: the finished
    game this table plays again (`lobby.rematch`; its open places, private, wait for the host);
    bot_level: how the host chose the bots to play (`games.bots.LEVELS`), kept with the table
    for the bots seated later (`table_fill_with_bots`, `place_reinvite`). Invitations go out by email
    after the commit, each address counted for all hosts together (at most
    INVITATIONS_PER_ADDRESS_PER_DAY a day, `lobby.sign_in_limits.addresses_asked_allowed`). A
    proposal whose seats are all taken at once (the host and bots) starts at once. Raises
    LobbyError.
    """
    seats = ([PlaceSpec(email=host.email)] if host_plays else []) + list(places)
    if not 2 <= len(seats) <= 4:
        raise LobbyError(_("Inis is played by 2 to 4 players, not {count}.").format(count=len(seats)))
    if bot_level not in BOT_LEVELS:
        raise LobbyError(_unknown_level(bot_level))
    for spec in seats:
        if spec.is_bot and spec.bot_level not in BOT_LEVELS:
            raise LobbyError(_unknown_level(spec.bot_level))
    # A rematch keeps open, for its host to fill, the place of a player who erased their account.
    if any(spec.is_open for spec in seats) and not listed and rematch_of is None:
        raise LobbyError(_("Open seats are for open tables: make the table open, or invite players."))
    if language not in dict(settings.LANGUAGES):
        raise LobbyError(
            _("A table plays in one of {languages}, not {language}.").format(
                languages=", ".join(dict(settings.LANGUAGES)), language=repr(language)
            )
        )
    if setup not in ("random", "discovery"):
        raise LobbyError(_("The set-up is random or discovery, not {setup}.").format(setup=repr(setup)))
    try:
        emails = [normalise_email(s.email) for s in seats if not (s.is_bot or s.is_open)]
        options = {
            **table_options(deadlines=deadlines, reaction_mode=reaction_mode),
            "public": bool(public),
            "press_public_after_end": bool(press_public_after_end),
        }
    except ValueError as error:
        raise LobbyError(str(error)) from None
    if len(set(emails)) < len(emails):
        raise LobbyError(_("Each player can take only one seat."))
    host_email = normalise_email(host.email) if host_plays else None
    mailed = [email for email in emails if email != host_email]
    if mailed and not addresses_asked_allowed(mailed):
        # None is named: a rematch's host did not type the addresses, which strangers may not read.
        raise LobbyError(
            _(
                "A player of game {number} was invited too many times today: ask for the rematch again tomorrow."
            ).format(number=rematch_of.pk)
            if rematch_of is not None
            else _(
                "An address you typed was invited too many times today, by you or other hosts: "
                "invite somebody else, or try again tomorrow."
            )
        )
    with transaction.atomic():
        proposal = Proposal.objects.create(
            host=host,
            setup=setup,
            options=options,
            listed=listed,
            listed_at=timezone.now() if listed else None,
            language=language,
            rated=rated,
            rematch_of=rematch_of,
            bot_level=bot_level,
        )
        asked = []
        for position, spec in enumerate(seats):
            nobody = spec.is_bot or spec.is_open
            own = not nobody and normalise_email(spec.email) == host_email
            invitation = Invitation.objects.create(
                proposal=proposal,
                position=position,
                is_bot=spec.is_bot,
                bot_level=spec.bot_level if spec.is_bot else "hard",
                email="" if nobody else normalise_email(spec.email),
                user=None if nobody else user_for_email(spec.email),
                # The seats of the game played again: the host did not type these addresses.
                from_rematch=rematch_of is not None and not nobody and not own,
                status=Invitation.Status.ACCEPTED if (spec.is_bot or own) else Invitation.Status.PENDING,
                answered_at=timezone.now() if (spec.is_bot or own) else None,
            )
            if invitation.status == Invitation.Status.PENDING:
                asked.append(invitation.pk)
        for invitation_id in asked:  # once every seat exists: each says how many players
            mail.send_invitation(invitation_id)
        gathering.record(proposal, "created")
        _start_if_ready(proposal)
    return proposal


def invitation_answer(*, invitation: Invitation, user, accept: bool) -> Proposal:
    """`user` accepts or declines `invitation` (theirs only). Accepting the last open seat
    starts the game. Raises LobbyError (not theirs, already answered, proposal closed; at an
    open table, a block between `user` and its host or a player seated there, which never says
    who: a blocked pair never sits at one open table, docs/open-tables.md)."""
    with transaction.atomic():
        proposal = Proposal.objects.select_for_update().get(pk=invitation.proposal_id)
        invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
        if invitation.user_id != user.pk:
            raise LobbyError(_("This invitation is for somebody else."))
        if proposal.status != Proposal.Status.OPEN:
            raise LobbyError(
                _("This game is {status}: nothing to answer.").format(status=proposal.get_status_display())
            )
        if invitation.status != Invitation.Status.PENDING:
            raise LobbyError(
                _("You have already accepted this invitation.")
                if invitation.status == Invitation.Status.ACCEPTED
                else _("You have already declined this invitation.")
            )
        if accept and proposal.listed:
            seated = proposal.invitations.filter(status=Invitation.Status.ACCEPTED, user__isnull=False)
            if any_block_between(user.pk, [proposal.host_id, *seated.values_list("user_id", flat=True)]):
                raise LobbyError(
                    _("You cannot sit at table {number} with its players: decline this invitation.").format(
                        number=proposal.pk
                    )
                )
        invitation.status = Invitation.Status.ACCEPTED if accept else Invitation.Status.DECLINED
        invitation.answered_at = timezone.now()
        invitation.save(update_fields=["status", "answered_at"])
        if accept:
            gathering.record(proposal, "accepted")
            _start_if_ready(proposal)
        else:
            mail.send_declined(invitation.pk)
    return proposal


def place_reinvite(*, proposal: Proposal, user, position: int, email: str | None) -> Invitation:
    """The host asks somebody else (email) or a bot (None) for a declined or unanswered seat.
    Raises LobbyError (not the host, closed proposal, taken seat, invalid or repeated email, an
    address invited INVITATIONS_PER_ADDRESS_PER_DAY times today by all hosts together)."""
    with transaction.atomic():
        proposal = Proposal.objects.select_for_update().get(pk=proposal.pk)
        if proposal.host_id != user.pk:
            raise LobbyError(_("Only the host can invite players to this game."))
        if proposal.status != Proposal.Status.OPEN:
            raise LobbyError(_("This game is {status}.").format(status=proposal.get_status_display()))
        invitation = proposal.invitations.select_for_update().filter(position=position).first()
        if invitation is None or invitation.status == Invitation.Status.ACCEPTED:
            raise LobbyError(_("That seat is already taken."))
        if email is None:
            invitation.is_bot, invitation.email, invitation.user = True, "", None
            invitation.bot_level = proposal.bot_level
            invitation.from_rematch = False
            invitation.status = Invitation.Status.ACCEPTED
            invitation.answered_at = timezone.now()
        else:
            try:
                email = normalise_email(email)
            except ValueError as error:
                raise LobbyError(str(error)) from None
            if proposal.invitations.filter(email=email).exclude(pk=invitation.pk).exists():
                raise LobbyError(_("{email} is already invited to this game.").format(email=email))
            if not addresses_asked_allowed([email]):
                raise LobbyError(
                    _(
                        "{email} was invited too many times today, by you or other hosts: ask "
                        "somebody else, or try again tomorrow."
                    ).format(email=email)
                )
            invitation.is_bot, invitation.email, invitation.user = False, email, user_for_email(email)
            invitation.from_rematch = False  # the host typed it
            invitation.status, invitation.answered_at = Invitation.Status.PENDING, None
        invitation.save()
        if invitation.status == Invitation.Status.PENDING:
            mail.send_invitation(invitation.pk)
        gathering.record(proposal, "seat_filled")
        _start_if_ready(proposal)
    return invitation


def proposal_cancel(*, proposal: Proposal, user) -> None:
    """The host calls the game off before it starts; every player seated there or still asked
    is told by email (`mail.send_table_cancelled`). Raises LobbyError (not the host, no longer
    gathering); nothing written then."""
    with transaction.atomic():
        proposal = Proposal.objects.select_for_update().get(pk=proposal.pk)
        if proposal.host_id != user.pk:
            raise LobbyError(_("Only the host can cancel this game."))
        if proposal.status != Proposal.Status.OPEN:
            raise LobbyError(_("This game is {status}.").format(status=proposal.get_status_display()))
        proposal.status = Proposal.Status.CANCELLED
        proposal.save(update_fields=["status"])
        gathering.record(proposal, "cancelled")
        mail.send_table_cancelled(proposal.pk)


def table_join(*, proposal_id: int, user) -> Proposal:
    """`user` takes the first open seat of the open table `proposal_id` (docs/open-tables.md);
    the seat that fills the table starts the game (its emails after the commit). The trust
    rule: a player joins only for themselves (the signed-in user, or the address that proved
    its mailbox by replying to our email). Raises LobbyError, nothing written: no such open
    table (unknown, private), closed (started, cancelled, closed after a week), already seated
    there, removed from it by its host (`table_remove`), a block between the joiner and the host
    or a player asked or seated there (`players.blocks`; the message never says who), full (no
    open seat left), the account erased (by the time its lock was had).

    Locks the account first, then the table, in the service's lock order (an account, the
    games, the tables, the gathering's log: docs/privacy.md), as an erasure does: a join of a
    person being erased is done whole before the erasure (which then gives that seat up too),
    or finds the account erased after and takes no seat."""
    with transaction.atomic():
        account = get_user_model().objects.select_for_update(no_key=True).filter(pk=user.pk).first()
        if account is None or is_erased(user.pk):
            raise LobbyError(_("This account was erased: it can no longer take a seat."))
        proposal = Proposal.objects.select_for_update().filter(pk=proposal_id).first()
        if proposal is None or not proposal.listed:
            raise LobbyError(_("There is no open table {number}.").format(number=proposal_id))
        if proposal.status != Proposal.Status.OPEN:
            raise LobbyError(
                _("Table {number} is {status}: nobody can join it any more.").format(
                    number=proposal_id, status=proposal.get_status_display()
                )
            )
        places = list(proposal.invitations.select_for_update().order_by("position"))
        # A declined invitation (or an asked seat left) is no seat: its player may join as anyone.
        if proposal.host_id == user.pk or any(
            p.user_id == user.pk for p in places if not p.is_bot and p.status != Invitation.Status.DECLINED
        ):
            raise LobbyError(_("You already have a seat at table {number}.").format(number=proposal_id))
        if proposal.removals.filter(user=user).exists():
            raise LobbyError(
                _("The host of table {number} gave your seat back: choose another table.").format(
                    number=proposal_id
                )
            )
        # Never says who: the joiner learns only that this table is not for them. Only the
        # players still asked or seated count: a declined invitation (or an asked seat left) is
        # nobody at this table, as it is no seat above.
        present = [p.user_id for p in places if not p.is_bot and p.status != Invitation.Status.DECLINED]
        if any_block_between(user.pk, [proposal.host_id, *present]):
            raise LobbyError(
                _("You cannot sit at table {number} with its players: choose another table.").format(
                    number=proposal_id
                )
            )
        seat = next((p for p in places if _is_open_seat(p)), None)
        if seat is None:
            raise LobbyError(_("Table {number} is full.").format(number=proposal_id))
        seat.email, seat.user = normalise_email(account.email), account
        seat.status, seat.answered_at, seat.joined = Invitation.Status.ACCEPTED, timezone.now(), True
        seat.save(update_fields=["email", "user", "status", "answered_at", "joined"])
        gathering.record(proposal, "joined")
        _start_if_ready(proposal)
    return proposal


def table_remove(*, proposal_id: int, user, position: int) -> Proposal:
    """The host gives back the seat at `position` (0 = first) that a player took by joining
    their open table, before the game starts: the seat is open again, the player is told by
    email (in their language, without blame) and may not join this table again (a `Removal`).
    The trust rule: only the host, only a joined seat (a seat the host asked somebody for is
    the host's to ask again), only while the table is gathering. Raises LobbyError (not the
    host, no longer gathering, no joined player at that seat); nothing written then."""
    with transaction.atomic():
        proposal = _hosts_open_proposal(proposal_id, user)
        seat = proposal.invitations.select_for_update().filter(position=position).first()
        if seat is None or not seat.joined or seat.user_id is None:
            raise LobbyError(_("Only a player who joined the table can be removed, not that seat."))
        removed_email = seat.email
        Removal.objects.create(proposal=proposal, user_id=seat.user_id)
        Invitation.objects.filter(pk=seat.pk).update(**OPEN_AGAIN)
        gathering.record(proposal, "removed")
        mail.send_seat_removed(proposal.pk, removed_email)
    return proposal


def table_leave(*, proposal_id: int, user) -> Proposal:
    """`user` gives up their seat at a table still gathering (docs/open-tables.md, "Leaving a
    table"). A seat taken by joining is open again, and its player may join again later; a seat
    the host asked them for is declined, and the host is told by email, as for an invitation
    declined, so that they may ask somebody else. The trust rule: only the seat's own player,
    only while the table gathers; the host cancels the table instead. Raises LobbyError,
    nothing written: no such table, the host, no seat of `user` taken there, the table started,
    cancelled or closed."""
    with transaction.atomic():
        proposal = Proposal.objects.select_for_update().filter(pk=proposal_id).first()
        if proposal is None:
            raise LobbyError(_("There is no table {number}.").format(number=proposal_id))
        if proposal.host_id == user.pk:
            raise LobbyError(
                _("You host table {number}: cancel it rather than leave it.").format(number=proposal_id)
            )
        seat = (
            proposal.invitations.select_for_update()
            .filter(user=user, is_bot=False, status=Invitation.Status.ACCEPTED)
            .first()
        )
        if seat is None:
            raise LobbyError(_("You have no seat at table {number}.").format(number=proposal_id))
        if proposal.status != Proposal.Status.OPEN:
            raise LobbyError(
                _("Table {number} is {status}: its seats can no longer be left.").format(
                    number=proposal_id, status=proposal.get_status_display()
                )
            )
        was_asked = not seat.joined
        changes = (
            {"status": Invitation.Status.DECLINED, "answered_at": timezone.now()} if was_asked else OPEN_AGAIN
        )
        Invitation.objects.filter(pk=seat.pk).update(**changes)
        gathering.record(proposal, "left")
        if was_asked:
            mail.send_declined(seat.pk, after_accepting=True)
    return proposal


def table_fill_with_bots(*, proposal_id: int, user, bot_level: str | None = None) -> Proposal:
    """The host gives every open seat of their table to a bot at `bot_level` (None: the level
    the host chose for the table's bots, `Proposal.bot_level`), which starts the game when no
    invitation is left unanswered. Raises LobbyError (not the host, not open, no open seat,
    unknown level); nothing written then."""
    if bot_level is not None and bot_level not in BOT_LEVELS:
        raise LobbyError(_unknown_level(bot_level))
    with transaction.atomic():
        proposal = _hosts_open_proposal(proposal_id, user)
        bot_level = bot_level or proposal.bot_level
        open_seats = [p for p in proposal.invitations.select_for_update() if _is_open_seat(p)]
        if not open_seats:
            raise LobbyError(_("No seat is open at this table."))
        for seat in open_seats:
            seat.is_bot, seat.bot_level = True, bot_level
            seat.status, seat.answered_at = Invitation.Status.ACCEPTED, timezone.now()
            seat.save(update_fields=["is_bot", "bot_level", "status", "answered_at"])
        gathering.record(proposal, "seat_filled")
        _start_if_ready(proposal)
    return proposal


def table_set_listed(*, proposal_id: int, user, listed: bool) -> Proposal:
    """The host makes their table open (listed: anyone may take an open seat) or private
    (invitations only; its open seats wait for the host to invite somebody or a bot). A table
    made open waits a week from then (`close_stale_tables`). Raises LobbyError (not the host, no
    longer gathering)."""
    with transaction.atomic():
        proposal = _hosts_open_proposal(proposal_id, user)
        if proposal.listed != listed:
            proposal.listed = listed
            if listed:  # its week in the list starts now
                proposal.listed_at = timezone.now()
            proposal.save(update_fields=["listed", "listed_at"])
            gathering.record(proposal, "listed" if listed else "unlisted")
    return proposal


def close_stale_tables(now: datetime) -> list[int]:
    """Close every open table listed more than OPEN_TABLE_LIFETIME before `now` and still
    gathering, and tell its players (the host and who joined or accepted) by email. Returns the
    ids of the tables closed. Run by the sweep (`inis_pbem.tasks`)."""
    closed = []
    due = Proposal.objects.filter(
        listed=True, status=Proposal.Status.OPEN, listed_at__lt=now - OPEN_TABLE_LIFETIME
    ).values_list("pk", flat=True)
    for proposal_id in list(due):
        with transaction.atomic():
            proposal = Proposal.objects.select_for_update().get(pk=proposal_id)
            if proposal.status != Proposal.Status.OPEN:
                continue  # started or cancelled meanwhile
            proposal.status = Proposal.Status.CLOSED
            proposal.save(update_fields=["status"])
            gathering.record(proposal, "closed")
            mail.send_table_closed(proposal.pk)
        closed.append(proposal_id)
    return closed


def _unknown_level(level: str) -> str:
    """The refusal of a bot level that is none of `games.bots.LEVELS`, in words."""
    return _("A bot plays at one of the levels {levels}, not {level}.").format(
        levels=", ".join(BOT_LEVELS), level=repr(level)
    )


def _is_open_seat(place: Invitation) -> bool:
    return not place.is_bot and not place.email and place.status == Invitation.Status.PENDING


def _hosts_open_proposal(proposal_id: int, user) -> Proposal:
    """The proposal, locked, when `user` hosts it and it is still gathering; else LobbyError."""
    proposal = Proposal.objects.select_for_update().filter(pk=proposal_id).first()
    if proposal is None or proposal.host_id != user.pk:
        raise LobbyError(_("Only the host can change this table."))
    if proposal.status != Proposal.Status.OPEN:
        raise LobbyError(_("This game is {status}.").format(status=proposal.get_status_display()))
    return proposal


def _start_if_ready(proposal: Proposal) -> Game | None:
    """Inside the caller's transaction, holding the proposal's lock: start the game when every
    seat is taken. The first prompts are written by `create_game` (notifications)."""
    invitations = list(proposal.invitations.order_by("position"))
    if any(i.status != Invitation.Status.ACCEPTED for i in invitations):
        return None
    game = create_game(
        seats=[
            SeatSpec(is_bot=True, bot_level=i.bot_level) if i.is_bot else SeatSpec(email=i.email)
            for i in invitations
        ],
        setup=proposal.setup,
        options=dict(proposal.options),
        host=proposal.host,
    )
    proposal.status, proposal.game = Proposal.Status.STARTED, game
    proposal.save(update_fields=["status", "game"])
    gathering.record(proposal, "started")
    mail.send_game_started(game.pk)
    return game
