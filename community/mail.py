"""The open tables by email (docs/email-commands.md, "Finding a table"): `list`, `join N` and
`leave N`.

A mail to the service's own address (no reply token), or a reply to the list it sent, whose
first line is `list` is answered with the open tables in the sender's language (their
Player's; English for a new address), carrying a reply address of its own (`tables_token`).
`join N` takes a seat only in a reply to that list: the reply address proves the mailbox, as a
sign-in link does, so a forged From header never seats anybody. A `join N` sent without it is
answered with the list and how to join from it. `leave N` gives up a seat at a table still
gathering (`lobby.services.table_leave`) under the same rule: only in a reply to our mail, so
nobody can unseat a player with a forged From. Registered with `notifications.inbound_hooks`,
with the locks a `join N` / `leave N` takes before the message's row (`locks_first`).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from community.join_limit import JoinLimitReached, join_within_limit
from community.open_tables import Filters, open_tables
from community.words import table_lines
from lobby import gathering
from lobby.models import Proposal
from lobby.services import LobbyError, table_leave
from notifications.command_language import read_tables_command
from notifications.inbound_hooks import UnseatedAnswer
from notifications.models import InboundEmail
from notifications.prompts import render_email
from notifications.tokens import inbound_parts
from players.accounts import user_for_email
from players.display_names import needs_name
from players.models import Player
from players.signed_tokens import (
    BadToken,
    check_tables_token,
    is_tables_token,
    tables_token,
    tables_token_user,
)

# The tables an email lists at most (the page lists them all, with filters).
LISTED_BY_EMAIL = 20


def answer_tables_mail(token: str | None, text: str, sender: str) -> UnseatedAnswer | None:
    """The answer to a mail holding `list`, `join N` or `leave N` (see the module), or None when
    the mail is not for the open tables (a seat's reply, or no such command: the seat's path
    goes on)."""
    if token is not None and not is_tables_token(token):
        return None
    command = read_tables_command(text)
    user = _proven_user(token) if token is not None else None
    if token is not None and user is None:
        return None  # a damaged or forged tables token: answered as any bad reply address
    if user is None:
        if command is None:
            return None
        try:
            user = user_for_email(sender)
        except ValueError:
            return None  # no address to answer: the usual answer to a stranger (or none)
    with translation.override(_language(user.email)):
        if command is None:
            message = _("Write list, or join and a table's number.")
            return _answer(user, "rejected", "Tables: not understood.", message)
        if command[0] == "list":
            return _answer(user, "accepted", "Tables: listed.", "")
        if token is None:
            if command[0] == "leave":
                message = _("To leave table {number}, reply to this email with: leave {number}").format(
                    number=command[1]
                )
                return _answer(user, "rejected", "Tables: leave without the list's address.", message)
            message = _("To take a seat, reply to this email with: join {number}").format(number=command[1])
            return _answer(user, "rejected", "Tables: join without the list's address.", message)
        if command[0] == "leave":
            return _leave(user, int(command[1] or 0))
        return _join(user, int(command[1] or 0))


def locks_first(token: str | None, text: str, sender: str) -> None:
    """The row locks `join N` / `leave N` in a reply to the list will take, taken before the
    message's own row, in the service's lock order (`notifications.inbound_hooks`): the account
    the tables token claims (not yet checked: `answer_tables_mail` checks it under the locks),
    table N, then the gathering's log. An erasure takes an account, its tables and the log,
    then empties the stored emails of the person or holding their traces, this one perhaps:
    it waits for this message, or this message for it, never each for the other; and a
    command of the account being erased is done whole before the erasure, or finds the
    account erased after (its tables token no longer acts). Nothing for any other message."""
    if token is None or not is_tables_token(token):
        return
    command = read_tables_command(text)
    if command is None or command[1] is None:  # `list` locks nothing
        return
    # FOR NO KEY UPDATE: it waits for an erasure (FOR UPDATE), not for rows naming the account.
    get_user_model().objects.select_for_update(no_key=True).filter(pk=tables_token_user(token)).first()
    Proposal.objects.select_for_update().filter(pk=command[1]).first()
    gathering.lock_log()


def _proven_user(token: str):
    """The account whose mailbox the tables token proves, or None (damaged, forged, gone)."""
    try:
        user = get_user_model().objects.filter(pk=tables_token_user(token)).first()
        if user is None:
            return None
        check_tables_token(token, user.email)
    except BadToken:
        return None
    return user


def _join(user, number: int) -> UnseatedAnswer:
    try:
        proposal = join_within_limit(proposal_id=number, user=user)
    except JoinLimitReached as error:
        return _answer(user, "rejected", "Tables: join refused (rate limit).", str(error))
    except LobbyError as error:
        return _answer(user, "rejected", "Tables: join refused.", str(error))
    if proposal.game_id:
        message = _("You have a seat at table {number}: every seat is taken, the game has begun.")
    else:
        message = " ".join(
            [
                _("You have a seat at table {number}. The game starts when every seat is taken."),
                _("To give your seat up before then, reply with: leave {number}"),
            ]
        )
    message = message.format(number=number)
    if needs_name(user.email):
        # No sign-in link: this answer goes to the From of the mail, which a forwarded reply
        # address does not prove; the player signs in on the site as always, at its address.
        message += "\n\n" + _(
            "The other players read you as “a player with no name yet” until you choose your name "
            "at the table: sign in on the site, {address}, then open Preferences."
        ).format(address=settings.SITE_URL + reverse("lobby:sign_in"))
    return UnseatedAnswer(
        status=InboundEmail.Status.ACCEPTED,
        detail=f"Tables: joined {number}.",
        email=render_email("tables_answer", {"message": message, "tables": None}, headers=_headers(user)),
    )


def _leave(user, number: int) -> UnseatedAnswer:
    try:
        table_leave(proposal_id=number, user=user)
    except LobbyError as error:
        return _answer(user, "rejected", "Tables: leave refused.", str(error))
    message = _("You left table {number}.").format(number=number)
    return _answer(user, "accepted", f"Tables: left {number}.", message, left=number)


def _answer(user, status: str, detail: str, message: str, *, left: int | None = None) -> UnseatedAnswer:
    """An answer to `user` with `message` and the open tables of their language, in the active
    language (theirs), carrying their tables reply address. The table `left` is not listed: the
    list is fed after this transaction commits, so its row would still show the seat taken."""
    language = _language(user.email)
    rows = open_tables(Filters(language=language), limit=LISTED_BY_EMAIL)
    tables = table_lines([row for row in rows if row.number != left])
    return UnseatedAnswer(
        status=status,
        detail=detail,
        email=render_email("tables_answer", {"message": message, "tables": tables}, headers=_headers(user)),
    )


def _headers(user) -> dict:
    local, domain = inbound_parts()
    token = tables_token(user_id=user.pk, email=user.email)
    return {"Reply-To": f"{local}+{token}@{domain}", "Auto-Submitted": "auto-replied"}


def _language(email: str) -> str:
    return (
        Player.objects.filter(email=email.strip().lower()).values_list("language", flat=True).first() or "en"
    )
