"""Concurrent submitters on one game (real PostgreSQL, one connection per thread).

Whatever the interleaving: the log's seq runs 1..N with no gap or duplicate, every accepted
command is in the log where its result says, a refused one left nothing, a command_id is applied
once, and the game still verifies (every command decided again from the seed gives its events).
"""

from __future__ import annotations

import random
import threading

import pytest
from django.db import connection

from games import rules, store
from games.models import Command, Event
from games.services import submit_command
from games.store.verification import verify_game

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

ATTEMPTS_PER_THREAD = 12


def submitter(game_id: int, index: int, barrier: threading.Barrier, results: list, errors: list) -> None:
    """Thread body: repeatedly send a legal command for a seat that must decide.

    Threads index and index+4 share their command ids, so pairs of them race with the same key.
    """
    from games.models import Game

    try:
        game = Game.objects.get(pk=game_id)
        seats = {seat.colour: seat for seat in game.seats.all()}
        rng = random.Random(index)
        barrier.wait(timeout=30)
        for attempt in range(ATTEMPTS_PER_THREAD):
            state, seq = store.load(game)
            pending = rules.pending(state)
            if not pending:
                return
            colour = rng.choice(sorted({d.seat for d in pending}))
            command = rules.bot_command(state, colour, rng)
            command_id = f"thread-{index % 4}-{attempt}"
            result = submit_command(
                game=game, seat=seats[colour], command=command, expected_seq=seq, command_id=command_id
            )
            results.append((command_id, colour, result))
    except Exception as error:  # reported by the test: a thread must never fail
        errors.append(repr(error))
    finally:
        connection.close()


@pytest.mark.parametrize("threads", [2, 4, 8])
def test_concurrent_submitters_leave_no_gap_duplicate_or_lost_command(make_game, threads):
    game = make_game(seed=f"concurrency-{threads}")
    barrier = threading.Barrier(threads)
    results: list = []
    errors: list = []
    workers = [
        threading.Thread(target=submitter, args=(game.pk, i, barrier, results, errors))
        for i in range(threads)
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=300)
    assert not any(worker.is_alive() for worker in workers)
    assert errors == []

    seqs = list(Event.objects.filter(game=game).order_by("seq").values_list("seq", flat=True))
    assert seqs == list(range(1, len(seqs) + 1)), "a gap or a duplicate seq"

    records = {c.command_id: c for c in Command.objects.filter(game=game)}
    accepted = [(cid, colour, r) for cid, colour, r in results if r.accepted]
    assert accepted, "no command was accepted"
    for command_id, colour, result in accepted:
        record = records.get(command_id)
        assert record is not None, f"accepted command {command_id} is not in the log"
        assert (record.first_seq, record.last_seq) == (result.first_seq, result.last_seq)
        assert record.seat.colour == colour
        linked = list(Event.objects.filter(command=record).order_by("seq").values_list("seq", flat=True))
        assert linked == list(range(record.first_seq, record.last_seq + 1))
    for command_id, _colour, result in results:
        if not result.accepted and not result.duplicate:
            # A refusal wrote nothing under its key, unless another thread used the key first.
            record = records.get(command_id)
            assert record is None or any(cid == command_id for cid, _, r in accepted)

    # Each key was applied at most once, and the original and its repeats agree.
    fresh = [r for cid, _, r in accepted if not r.duplicate]
    assert len(fresh) == len({cid for cid, _, r in accepted if not r.duplicate}) == len(records)
    for command_id, _colour, result in accepted:
        if result.duplicate:
            assert result.first_seq == records[command_id].first_seq

    # Commands cover the log after set-up without overlap.
    ranges = sorted((c.first_seq, c.last_seq) for c in records.values())
    for (_, last), (first, _) in zip(ranges, ranges[1:]):
        assert first == last + 1
    assert ranges[-1][1] == seqs[-1]

    print(
        f"{threads} threads: {len(results)} submissions, {len(fresh)} accepted, "
        f"{sum(r.rebased for _, _, r in accepted)} rebased, "
        f"{sum(r.duplicate for _, _, r in results)} duplicates, "
        f"{sum(not r.accepted for _, _, r in results)} refused, {len(seqs)} events"
    )
    report = verify_game(game)
    assert report.ok, report.lines()


@pytest.mark.parametrize("threads", [2, 4, 8])
def test_the_same_command_id_sent_at_once_is_applied_once(make_game, threads):
    game = make_game(seed=f"same-key-{threads}")
    state, seq = store.load(game)
    colour = rules.pending(state)[0].seat
    seat = game.seats.get(colour=colour)
    command = rules.legal_commands(state, colour)[0]
    barrier = threading.Barrier(threads)
    results: list = []
    errors: list = []

    def send():
        try:
            barrier.wait(timeout=30)
            results.append(
                submit_command(game=game, seat=seat, command=command, expected_seq=seq, command_id="same-key")
            )
        except Exception as error:
            errors.append(repr(error))
        finally:
            connection.close()

    workers = [threading.Thread(target=send) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=120)
    assert errors == []
    assert len(results) == threads
    assert all(r.accepted for r in results), [r.message for r in results]
    assert sum(not r.duplicate for r in results) == 1
    assert {(r.first_seq, r.last_seq) for r in results} == {(seq + 1, results[0].last_seq)}
    assert Command.objects.filter(game=game, command_id="same-key").count() == 1
    assert Command.objects.filter(game=game).count() == 1
