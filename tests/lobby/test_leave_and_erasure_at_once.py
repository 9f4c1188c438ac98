"""A player leaving a table on the web while another player at that table, who hosts a table
of their own, erases their account (real PostgreSQL, one connection per thread). docs/privacy.md:
the erasure gives up the person's seats at tables still gathering and cancels the tables they
host; docs/open-tables.md, "Ruling: the gathering has its own log": every change of a table
appends to the gathering's log under the table's row lock, then the log's own lock.

The erasure locks every table it changes, then the log (its first change's row): were it to
cancel its own table first (taking the log's lock) and lock the table where it sits or is asked
after, a leave (or a host asking a bot for a place) holding that table and waiting for the log,
and the erasure holding the log and waiting for that table, would wait for each other
(PostgreSQL fails one: the erasure, or the other)."""

from __future__ import annotations

import threading
from functools import partial

import pytest

from lobby import gathering, services
from lobby.models import GatheringEvent, Invitation, Proposal
from players.accounts import user_for_email
from players.erasure import erase_account, is_erased
from tests.community.test_open_tables import open_table
from tests.lock_races import run_together, session, until_waiting

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def at_once(monkeypatch, change, user_id: int) -> list[str]:
    """Run `change()` (a change of a table) and the erasure of the account `user_id` at once, in
    two threads: the change, its table locked, records its row in the gathering's log once the
    erasure waits for a lock (or, if it never does, after WAIT_SECONDS: the erasure then went
    through first). Returns the errors of either thread."""
    changing = threading.Event()  # the change holds the table's lock, about to record
    pids: dict = {}
    errors: list[str] = []
    recording = gathering.record

    def recorded_once_the_erasure_waits(proposal, kind):
        if threading.current_thread().name == "change":
            changing.set()
            until_waiting(pids, "erasure", errors, "the erasure never waited for the change")
        return recording(proposal, kind)

    monkeypatch.setattr(gathering, "record", recorded_once_the_erasure_waits)

    run_together(
        session("change", errors, change),
        session("erasure", errors, lambda: erase_account(user_id), pids=pids, after=changing),
    )
    return errors


def test_a_leave_as_a_host_seated_at_that_table_erases_their_account_is_done_whole_before(monkeypatch):
    host = user_for_email("host@example.org")
    table = open_table(host, open_seats=3)
    ana, bo = user_for_email("ana@example.org"), user_for_email("bo@example.org")
    services.table_join(proposal_id=table.pk, user=ana)
    services.table_join(proposal_id=table.pk, user=bo)
    hers = open_table(ana, open_seats=2)

    errors = at_once(monkeypatch, partial(services.table_leave, proposal_id=table.pk, user=bo), ana.pk)

    assert errors == []
    # bo left first, then ana's erasure gave her seat up and cancelled her table.
    assert list(GatheringEvent.objects.filter(proposal=table).values_list("type", flat=True))[-2:] == [
        "left",
        "left",
    ]
    assert not Invitation.objects.filter(
        proposal=table, status=Invitation.Status.ACCEPTED, joined=True
    ).exists()
    assert Proposal.objects.get(pk=hers.pk).status == Proposal.Status.CANCELLED
    assert is_erased(ana.pk)


def test_a_host_giving_an_asked_place_to_a_bot_as_its_player_erases_their_account(monkeypatch):
    """The host of a table gives the place ana was asked for, unanswered, to a bot, as ana (who
    hosts a table of her own) erases her account: the bot takes it first, then the erasure
    finds no place of hers there."""
    host = user_for_email("host@example.org")
    table = open_table(host, open_seats=1, asked=["ana@example.org"])
    ana = user_for_email("ana@example.org")
    hers = open_table(ana, open_seats=2)
    place = table.invitations.get(user=ana).position

    errors = at_once(
        monkeypatch,
        partial(services.place_reinvite, proposal=table, user=host, position=place, email=None),
        ana.pk,
    )

    assert errors == []
    given = table.invitations.get(position=place)
    assert (given.is_bot, given.status, given.email, given.user_id) == (
        True,
        Invitation.Status.ACCEPTED,
        "",
        None,
    )
    assert Proposal.objects.get(pk=hers.pk).status == Proposal.Status.CANCELLED
    assert is_erased(ana.pk)
