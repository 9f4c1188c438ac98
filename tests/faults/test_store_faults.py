"""The store under concurrency and a dropped database connection (real PostgreSQL).

- Many games, many submitters, random interleavings: threads (one connection each) pick a game at
  random, sometimes send a command against a stale seq, sometimes repeat another thread's
  idempotency key, and pause at random. Afterwards every game verifies (`verify_game`) and every
  accepted command is in its game's log exactly once, where its result says.
- The connection dropped in the middle of a command's transaction (pg_terminate_backend after the
  events and the outbox rows were written, before the commit): nothing of it stays — no event, no
  command, no prompt — and the same command sent again is applied once, with one set of prompts.
"""

from __future__ import annotations

import random
import threading
import time
from collections import Counter

import psycopg
import pytest
from django.db import InterfaceError, OperationalError, connection

from games import rules, store
from games.models import Command, Event, Game
from games.play.signals import events_recorded
from games.services import SeatSpec, create_game, submit_command
from games.store.verification import verify_game
from notifications.models import Outbox

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

GAMES = 3
THREADS = 6
SUBMISSIONS = 14


def _submitter(game_ids, index, barrier, results, errors):
    try:
        games = {pk: Game.objects.get(pk=pk) for pk in game_ids}
        seats = {pk: {s.colour: s for s in g.seats.all()} for pk, g in games.items()}
        rng = random.Random(f"interleave-{index}")
        barrier.wait(timeout=30)
        for n in range(SUBMISSIONS):
            pk = rng.choice(game_ids)
            state, seq = store.load(games[pk])
            pending = rules.pending(state)
            if not pending:
                continue
            colour = rng.choice(sorted({d.seat for d in pending}))
            command = rules.bot_command(state, colour, rng)
            time.sleep(rng.random() * 0.02)  # let others move the log on: a stale seq
            # Threads i and i+3 share their keys, so the same key races from two threads.
            key = f"k-{pk}-{index % 3}-{n}"
            result = submit_command(
                game=games[pk], seat=seats[pk][colour], command=command, expected_seq=seq, command_id=key
            )
            results.append((pk, key, colour, result))
    except Exception as error:  # reported by the test: a thread must never fail
        errors.append(repr(error))
    finally:
        connection.close()


def test_many_games_many_submitters_every_accepted_command_once_and_every_game_verifies():
    games = [
        create_game(
            seats=[SeatSpec(email=f"c{i}@example.org") for i in range(4)],
            seed=f"interleave-{g}",
            play_bots=False,
        )
        for g in range(GAMES)
    ]
    ids = [g.pk for g in games]
    barrier = threading.Barrier(THREADS)
    results, errors = [], []
    threads = [
        threading.Thread(target=_submitter, args=(ids, i, barrier, results, errors)) for i in range(THREADS)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=300)
    assert not any(t.is_alive() for t in threads)
    assert errors == []

    accepted = [(pk, key, colour, r) for pk, key, colour, r in results if r.accepted]
    assert accepted
    records = {(c.game_id, c.command_id): c for c in Command.objects.filter(game_id__in=ids)}
    fresh = Counter((pk, key) for pk, key, _c, r in accepted if not r.duplicate)
    assert all(n == 1 for n in fresh.values()), "a key was applied twice"
    assert set(fresh) == set(records), "an accepted command is missing, or a stored one was not accepted"
    for pk, key, colour, result in accepted:
        record = records[(pk, key)]
        assert (record.first_seq, record.last_seq) == (result.first_seq, result.last_seq)
        assert record.seat.colour == colour or result.duplicate
        linked = list(Event.objects.filter(command=record).values_list("seq", flat=True).order_by("seq"))
        assert linked == list(range(record.first_seq, record.last_seq + 1))
    for game in games:
        report = verify_game(game)
        assert report.ok, report.lines()


def _terminate(pid: int) -> None:
    s = connection.settings_dict
    with psycopg.connect(
        host=s["HOST"], port=s["PORT"] or 5432, user=s["USER"], dbname=s["NAME"], autocommit=True
    ) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))


def test_a_connection_dropped_mid_transaction_leaves_nothing_and_the_retry_applies_once():
    game = create_game(
        seats=[SeatSpec(email=f"d{i}@example.org") for i in range(4)], seed="dropped", play_bots=False
    )
    state, seq = store.load(game)
    colour = rules.pending(state)[0].seat
    seat = game.seats.get(colour=colour)
    command = rules.legal_commands(state, colour)[0]
    outbox_before = Outbox.objects.filter(game=game).count()
    dropped = []

    def drop_once(sender, **kwargs):
        if not dropped:  # after the events and the prompts were written, before the commit
            dropped.append(connection.connection.info.backend_pid)
            _terminate(dropped[0])

    events_recorded.connect(drop_once, dispatch_uid="faults.drop_once")
    try:
        with pytest.raises((OperationalError, InterfaceError)):
            submit_command(game=game, seat=seat, command=command, expected_seq=seq, command_id="mail-1")
    finally:
        events_recorded.disconnect(dispatch_uid="faults.drop_once")
    assert dropped
    connection.close()  # what the request or task ending does with a broken connection

    assert store.head(game)[0] == seq, "an event of the dropped transaction stayed"
    assert not Command.objects.filter(game=game).exists()
    assert Outbox.objects.filter(game=game).count() == outbox_before

    result = submit_command(game=game, seat=seat, command=command, expected_seq=seq, command_id="mail-1")
    assert result.accepted and not result.duplicate
    again = submit_command(game=game, seat=seat, command=command, expected_seq=seq, command_id="mail-1")
    assert again.duplicate and again.first_seq == result.first_seq
    assert Command.objects.filter(game=game).count() == 1
    prompts = Counter(
        Outbox.objects.filter(game=game, seq=result.last_seq).values_list("seat__colour", flat=True)
    )
    assert all(n == 1 for n in prompts.values()), prompts
    assert verify_game(game).ok
