"""The benchmark's own claims: its bulk-made long logs are valid games, and its table says when a
goal is missed (bench/README.md). The figures themselves are never asserted: they are ratios for
`python -m bench` to print, not pass/fail timings."""

from __future__ import annotations

import pytest

from bench.growth import play_log, store_log, store_snapshots
from bench.players import new_game
from bench.table import Row, markdown
from games import rules, store
from games.services import submit_command
from games.store.verification import verify_game


@pytest.mark.django_db
def test_a_bulk_inserted_long_log_verifies_loads_and_takes_the_next_command(settings):
    settings.SNAPSHOT_EVERY = 100
    game = new_game("bench-log")
    commands, snapshots, marks = play_log(game, until=600, checkpoints=(300,))
    store_log(game, commands, upto=10**9)
    store_snapshots(game, snapshots, upto=10**9)
    state, seq = store.load(game)
    assert seq >= 600 and marks[300] >= 300
    seqs = [s for s, _state in snapshots]
    assert seqs and all(b - a >= 100 for a, b in zip([0, *seqs], seqs))
    report = verify_game(game)
    assert report.ok, report.lines()
    assert report.snapshots == len(snapshots)
    colour = rules.pending(state)[0].seat
    command = rules.legal_commands(state, colour)[0]
    result = submit_command(game=game, seat=game.seats.get(colour=colour), command=command, expected_seq=seq)
    assert result.accepted, result.message


def test_the_table_says_missed_and_met_against_the_goal():
    rows = [
        Row("s", "fast enough", 30.0, "x/s", "ceiling", 100.0, goal=(">=", 0.25)),
        Row("s", "too slow", 20.0, "x/s", "ceiling", 100.0, goal=(">=", 0.25)),
        Row("s", "latency", 2.0, "ms", "at 50", 1.0, goal=("<=", 1.5)),
        Row("s", "pending", None, "ms", note="not measured"),
    ]
    assert [r.verdict for r in rows] == ["met", "MISSED", "MISSED", ""]
    table = markdown(rows)
    assert "| s | too slow | 20.0 x/s | ceiling: 100 x/s | 0.2 | ratio ≥ 0.25 | MISSED |" in table


def test_a_goal_on_the_figure_itself_is_judged_on_the_figure_not_the_ratio():
    """A push's hand-off of 1.5 s meets "at most 2 s" though it is slower than the email beside it."""
    rows = [
        Row("s", "hand-off", 1.5, "s", "email", 1.0, goal=("<=", 2.0), goal_on="value"),
        Row("s", "slow hand-off", 2.5, "s", "email", 3.0, goal=("<=", 2.0), goal_on="value"),
    ]
    assert [r.verdict for r in rows] == ["met", "MISSED"]
    assert "| s | slow hand-off | 2.5 s | email: 3 s | 0.833 | ≤ 2 s | MISSED |" in markdown(rows)


@pytest.mark.django_db
def test_the_hash_chain_row_hashes_the_same_events_in_both_versions():
    """The row compares like with like: one row, both sides measured on the same events."""
    from bench import hash_chain

    (row,) = hash_chain.rows(quick=True)
    assert row.section == "store" and row.value > 0 and row.baseline > 0
    assert row.baseline_name == "the same events, chain version 1" and "private" in row.note


def test_the_worker_memory_row_reads_a_process_and_its_children():
    """bench/bot_worker.py reads the resident memory of a worker and of its pool's children."""
    import os
    import subprocess
    import sys

    from bench.bot_worker import worker_memory_mb

    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        found = worker_memory_mb(os.getpid())
        assert set(found) >= {os.getpid(), child.pid}
        assert found[os.getpid()] > 10  # this Python, its modules loaded
    finally:
        child.kill()
        child.wait()
    assert worker_memory_mb(child.pid) == {}
