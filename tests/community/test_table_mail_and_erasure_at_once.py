"""A `leave N` or `join N` by email being processed while somebody's account is erased (real
PostgreSQL, one connection per thread). docs/privacy.md, "Asking for it": an erasure and a
message being processed happen one after the other; the erasure empties every stored email
from the person or holding their traces ("keep only their Message-ID and status").

The erasure locks the person's account, the games of their seats, then the tables where they
sit or host (the gathering's log's lock with the first change it records), then empties their
stored emails. An open tables' command takes its locks in the same order, the stored email's
last: otherwise a `leave 7` holding its stored email and waiting for table 7, and an erasure
holding table 7 and waiting for that email, would wait for each other (a deadlock, which
PostgreSQL breaks by failing one of them: the erasure, or the email, retried)."""

from __future__ import annotations

import threading
from email.message import EmailMessage
from functools import partial

import pytest

from community import mail as tables_mail
from community import rematch_mail
from lobby import services
from lobby.models import GatheringEvent, Invitation, Proposal
from notifications import inbound
from notifications.models import InboundEmail, Outbox
from notifications.tokens import inbound_parts
from players import erasure
from players.accounts import user_for_email
from players.erasure import erase_account, is_erased
from players.preferences import set_display_name
from players.signed_tokens import tables_token
from tests.community.test_open_tables import last_to, open_table
from tests.lobby.test_rematch import finished
from tests.lock_races import run_together, session, until_waiting
from tests.notifications.grace import after_the_grace

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def stored(sender: str, to: str, body: str) -> InboundEmail:
    """The email `body` from `sender` to `to`, stored as received (not processed yet)."""
    message = EmailMessage()
    message["From"], message["To"], message["Subject"] = sender, to, "Re: Inis"
    message["Message-ID"] = f"<at-once-{abs(hash((sender, to, body)))}@example.org>"
    message.set_content(body)
    row, _created = inbound.receive(message.as_bytes(), source="test", enqueue=False)
    return row


def stored_reply_to_the_list(user, body: str) -> InboundEmail:
    """`user`'s email `body`, sent to the reply address of the open tables' list they were
    sent, stored as received (not processed yet)."""
    local, domain = inbound_parts()
    return stored(user.email, f"{local}+{tables_token(user_id=user.pk, email=user.email)}@{domain}", body)


def processed_while_erased(
    monkeypatch, row: InboundEmail, user_id: int, *, paused=(tables_mail, "check_tables_token")
) -> tuple[str | None, list[str]]:
    """Process the stored email `row` and erase the account `user_id` at once, in two threads.
    `paused`, a function (its module and name), is where the one that goes first pauses, its
    locks taken: by default the email, as its tables token is checked; `erasure.holders`, the
    erasure, its account locked. The other starts then, and the first goes on once the other
    waits for one of its locks (or, if it never does, after WAIT_SECONDS: it then went through
    first). Returns the email's final status and the errors of either thread."""
    first_is_the_erasure = paused == (erasure, "holders")
    started = threading.Event()
    pids: dict = {}
    status: dict = {}
    errors: list[str] = []
    pausing = getattr(*paused)

    def once_the_other_waits(*args):
        found = pausing(*args)
        started.set()
        other = "email" if first_is_the_erasure else "erasure"
        until_waiting(pids, other, errors, f"the {other} never waited")
        return found

    monkeypatch.setattr(*paused, once_the_other_waits)

    def process() -> None:
        status["email"] = inbound.process(row.pk)

    run_together(
        session("email", errors, process, pids=pids, after=started if first_is_the_erasure else None),
        session(
            "erasure",
            errors,
            partial(erase_account, user_id),
            pids=pids,
            after=None if first_is_the_erasure else started,
        ),
    )
    return status.get("email"), errors


def emptied(row: InboundEmail) -> bool:
    """Whether the stored email `row` keeps only its Message-ID and status."""
    stored = InboundEmail.objects.get(pk=row.pk)
    return (bytes(stored.raw), stored.from_email, stored.detail, stored.envelope_to) == (b"", "", "", "")


def test_a_leave_by_email_processed_as_its_player_erases_their_account_is_done_whole_before(monkeypatch):
    host = user_for_email("host@example.org")
    table = open_table(host, open_seats=2)
    ana = user_for_email("ana@example.org")
    services.table_join(proposal_id=table.pk, user=ana)
    row = stored_reply_to_the_list(ana, f"leave {table.pk}")

    status, errors = processed_while_erased(monkeypatch, row, ana.pk)

    assert errors == []
    # The leave was done whole (the table says so in its log), then the erasure emptied it.
    assert status == InboundEmail.Status.ACCEPTED
    assert list(GatheringEvent.objects.filter(proposal=table).values_list("type", flat=True))[-1] == "left"
    assert not Invitation.objects.filter(
        proposal=table, status=Invitation.Status.ACCEPTED, joined=True
    ).exists()
    assert is_erased(ana.pk) and emptied(row)


def test_a_join_by_email_quoting_a_host_who_erases_their_account_is_done_whole_before(monkeypatch):
    """Bob replies `join N` to the list, which names Brigid as the host of another table; Brigid
    erases her account meanwhile: her table is cancelled (a change the gathering's log records)
    and Bob's email, which quotes her name, is emptied too."""
    brigid = user_for_email("brigid@example.org")
    set_display_name(brigid.email, "Brigid")
    hers = open_table(brigid, open_seats=2)
    cathal = user_for_email("cathal@example.org")
    set_display_name(cathal.email, "Cathal")
    other = open_table(cathal, open_seats=2)
    bob = user_for_email("bob@example.org")
    listed = f"Table {hers.pk}, hosted by Brigid: 1 of 3 seats taken\nTable {other.pk}, hosted by Cathal"
    row = stored_reply_to_the_list(bob, f"join {other.pk}\n\n> {listed.replace(chr(10), chr(10) + '> ')}")

    status, errors = processed_while_erased(monkeypatch, row, brigid.pk)

    assert errors == []
    assert status == InboundEmail.Status.ACCEPTED
    assert other.invitations.filter(user=bob, joined=True, status=Invitation.Status.ACCEPTED).exists()
    assert is_erased(brigid.pk) and emptied(row)
    assert (
        list(GatheringEvent.objects.filter(proposal=hers).values_list("type", flat=True))[-1] == "cancelled"
    )


def test_a_rematch_by_email_naming_a_host_who_erases_their_account_is_done_whole_before(monkeypatch):
    """Blue replies `rematch` to the game-over email, and names Brigid, who plays elsewhere and
    hosts an open table; Brigid erases her account meanwhile. The rematch opens a table (a row of
    the gathering's log), her table is cancelled (another), and blue's email is emptied."""
    game = finished("rematch-and-erasure")
    after_the_grace()
    blue = game.seats.get(colour="blue")
    brigid = user_for_email("brigid@example.org")
    set_display_name(brigid.email, "Brigid")
    hers = open_table(brigid, open_seats=2)
    row = stored(
        blue.email, last_to(blue.email).reply_to[0], "Rematch!\n\nBrigid would like a seat next time."
    )

    status, errors = processed_while_erased(
        monkeypatch, row, brigid.pk, paused=(rematch_mail, "check_reply_token")
    )

    assert errors == []
    assert status == InboundEmail.Status.ACCEPTED
    assert Proposal.objects.get(rematch_of=game).host_id == blue.user_id
    assert is_erased(brigid.pk) and emptied(row)
    assert (
        list(GatheringEvent.objects.filter(proposal=hers).values_list("type", flat=True))[-1] == "cancelled"
    )


def test_a_join_by_email_processed_as_its_player_erases_their_account_leaves_no_address_behind(monkeypatch):
    """Ana, seated at one table, joins another by email as she erases her account: the join is
    done whole first, then the erasure gives up both seats; no place keeps her address."""
    host = user_for_email("host@example.org")
    seated, joined = open_table(host, open_seats=2), open_table(host, open_seats=2)
    ana = user_for_email("ana@example.org")
    services.table_join(proposal_id=seated.pk, user=ana)
    row = stored_reply_to_the_list(ana, f"join {joined.pk}")

    status, errors = processed_while_erased(monkeypatch, row, ana.pk)

    assert errors == []
    assert status == InboundEmail.Status.ACCEPTED
    assert list(GatheringEvent.objects.filter(proposal=joined).values_list("type", flat=True))[-2:] == [
        "joined",
        "left",
    ]
    assert not Invitation.objects.filter(email__iexact="ana@example.org").exists()
    assert not Invitation.objects.filter(user_id=ana.pk).exists()
    assert is_erased(ana.pk) and emptied(row)


def test_a_leave_by_email_processed_as_its_player_is_being_erased_waits_and_does_nothing(monkeypatch):
    """The erasure went first: the `leave N` waits for it, then finds itself emptied (nor would
    its tables reply address act, the account's address being gone): nothing left, nobody
    answered."""
    host = user_for_email("host@example.org")
    table = open_table(host, open_seats=2)
    ana = user_for_email("ana@example.org")
    services.table_join(proposal_id=table.pk, user=ana)
    row = stored_reply_to_the_list(ana, f"leave {table.pk}")

    status, errors = processed_while_erased(monkeypatch, row, ana.pk, paused=(erasure, "holders"))

    assert errors == []
    assert is_erased(ana.pk)
    # Emptied, then read as the empty message it was then (its line for the operators names
    # nobody).
    stored = InboundEmail.objects.get(pk=row.pk)
    assert (bytes(stored.raw), stored.from_email, stored.envelope_to) == (b"", "", "")
    assert "ana" not in stored.detail
    # The erasure gave the seat up ("left"), and the email left nothing more.
    assert list(GatheringEvent.objects.filter(proposal=table).values_list("type", flat=True))[-1] == "left"
    assert GatheringEvent.objects.filter(proposal=table, type="left").count() == 1
    assert status != InboundEmail.Status.ACCEPTED
    assert not Outbox.objects.filter(kind=Outbox.Kind.ANSWER).exists()
