"""A person joining an open table on the web ("Join this table") while their account is erased
(real PostgreSQL, one connection per thread). docs/privacy.md, "Asking for it": a command of the
person being erased is done whole before the erasure (which then gives that seat up too) or
finds the account erased after; nothing of theirs is left behind either way.

The join was read with the signed-in account before the erasure began: it locks the account
first, as an erasure and a `join N` by email do (the service's lock order: the account, the
games, the tables, the gathering's log). Otherwise it took its seat unseen by the erasure
(which gives up only the seats it finds), or waited for it and then wrote the erased person's
address into a place once it was gone."""

from __future__ import annotations

import threading
from functools import partial

import pytest
from django.db import connection

from lobby import services
from lobby.models import GatheringEvent, Invitation
from players import erasure
from players.accounts import user_for_email
from players.erasure import erase_account, is_erased
from tests.community.test_open_tables import open_table
from tests.lock_races import WAIT_SECONDS, backend_pid, run_together, until_waiting

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def at_once(monkeypatch, first, second, *, paused) -> tuple[dict, list[str]]:
    """Run `first()` and `second()` in two threads: `first` pauses in `paused` (its module and
    name), its locks taken, while `second` starts, and goes on once `second` waits for one of
    its locks (or, if it never does, after WAIT_SECONDS: `second` then went through first).
    Returns what each returned or raised ({"first": ..., "second": ...}) and the errors."""
    started = threading.Event()
    pids: dict = {}
    results: dict = {}
    errors: list[str] = []
    pausing = getattr(*paused)

    def once_the_other_waits(*args, **kwargs):
        found = pausing(*args, **kwargs)
        if threading.current_thread().name == "first" and not started.is_set():
            started.set()
            until_waiting(pids, "second", errors, "the second never waited for the first")
        return found

    monkeypatch.setattr(*paused, once_the_other_waits)

    def run(name: str, work) -> None:
        try:
            pids[name] = backend_pid()
            if name == "second":
                assert started.wait(WAIT_SECONDS)
            results[name] = work()
        except services.LobbyError as refusal:
            results[name] = refusal
        except Exception as error:  # reported by the test
            errors.append(f"{name}: {error!r}")
        finally:
            connection.close()

    threads = [
        threading.Thread(target=run, args=("first", first), name="first"),
        threading.Thread(target=run, args=("second", second), name="second"),
    ]
    run_together(*threads)
    return results, errors


def places_of(table, address: str):
    """The places at `table` that hold `address` or the account of that address."""
    return Invitation.objects.filter(proposal=table, email__iexact=address) | Invitation.objects.filter(
        proposal=table, user__email__iexact=address
    )


def test_a_join_on_the_web_as_its_player_erases_their_account_is_done_whole_before(monkeypatch):
    """Ana clicks "Join this table" and erases her account at once: the seat is taken first,
    then the erasure gives it up (the table's log says she joined, then left)."""
    host = user_for_email("host@example.org")
    table = open_table(host, open_seats=2)
    ana = user_for_email("ana@example.org")

    results, errors = at_once(
        monkeypatch,
        partial(services.table_join, proposal_id=table.pk, user=ana),
        partial(erase_account, ana.pk),
        paused=(services, "any_block_between"),
    )

    assert errors == []
    assert not isinstance(results["first"], services.LobbyError)
    assert is_erased(ana.pk)
    assert not places_of(table, "ana@example.org").exists()
    assert not Invitation.objects.filter(proposal=table, user=ana, status=Invitation.Status.ACCEPTED).exists()
    assert list(GatheringEvent.objects.filter(proposal=table).values_list("type", flat=True))[-2:] == [
        "joined",
        "left",
    ]


def test_a_join_on_the_web_read_before_its_player_erased_their_account_takes_no_seat(monkeypatch):
    """Ana's erasure has begun when her click on "Join this table" arrives (her page was read
    before): the join waits for it, then is refused; no place holds her address."""
    host = user_for_email("host@example.org")
    table = open_table(host, open_seats=2)
    ana = user_for_email("ana@example.org")

    results, errors = at_once(
        monkeypatch,
        partial(erase_account, ana.pk),
        partial(services.table_join, proposal_id=table.pk, user=ana),
        paused=(erasure, "holders"),
    )

    assert errors == []
    assert is_erased(ana.pk)
    assert isinstance(results["second"], services.LobbyError)
    assert "erased" in str(results["second"])
    assert not places_of(table, "ana@example.org").exists()
    assert not Invitation.objects.filter(proposal=table, user=ana).exists()
    assert not GatheringEvent.objects.filter(proposal=table, type="joined").exists()
