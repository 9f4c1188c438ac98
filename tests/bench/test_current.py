"""bench/RESULTS.md opens with Current figures, the latest row of each figure, which
`python -m bench --write` keeps (bench/README.md): a run's row replaces the row of its figure,
every other row stays, and bench/results.json carries the same rows for scripts."""

from __future__ import annotations

import json
from pathlib import Path

import bench
from bench.__main__ import write_results
from bench.current import HEADING, Figure, merge, migrate_log, read, table, write
from bench.table import Row

MACHINE = {"cores": 2, "cpu": "test CPU", "memory_gib": 1, "postgresql": "15", "redis": "7", "python": "3.11"}


def figure(section: str, name: str, value: str, date: str = "2026-11-20 10:00 UTC") -> Figure:
    return Figure(section, name, value, date=date, commit="aaaaaaa", load="1.00")


def test_a_newer_row_replaces_the_older_and_the_other_rows_stay():
    old = [figure("rules", "fold", "1 events/s"), figure("store", "append", "2 commands/s")]
    new = figure("rules", "fold", "3 events/s", date="2026-11-28 10:00 UTC")
    assert merge(old, [new]) == [new, old[1]]


def test_a_new_figure_goes_after_the_rows_of_its_section():
    old = [figure("rules", "fold", "1"), figure("store", "append", "2")]
    added = figure("rules", "games", "5")
    assert [f.figure for f in merge(old, [added])] == ["fold", "games", "append"]


def test_write_merges_into_the_table_writes_the_json_and_the_record(tmp_path: Path):
    results = tmp_path / "RESULTS.md"
    write(
        results,
        [figure("rules", "fold", "1 events/s"), figure("store", "append", "2")],
        "first",
        date="2026-11-20 10:00 UTC",
        commit="aaaaaaa",
    )
    newer = Figure(
        "rules",
        "fold",
        "9 events/s",
        note="a | pipe",
        date="2026-11-28 10:00 UTC",
        commit="bbbbbbb",
        load="2.00",
    )
    record = write(results, [newer], "# the second run", date="2026-11-28 10:00 UTC", commit="bbbbbbb")
    text = results.read_text()
    assert text.startswith(f"# Benchmark results\n\n{HEADING}\n")
    rows = read(text)
    assert rows == [newer, figure("store", "append", "2")]
    assert json.loads((tmp_path / "results.json").read_text()) == [vars(row) for row in rows]
    assert record == tmp_path / "history" / "2026-11-28-bbbbbbb.md"
    assert record.read_text() == "# the second run"
    assert "9 events/s" in text and "1 events/s" not in text


def test_the_bench_writer_merges_a_run_of_one_section(tmp_path: Path):
    """What `python -m bench --only rules --write FILE` does at its end."""
    results = tmp_path / "RESULTS.md"
    results.write_text(f"# Benchmark results\n\n{HEADING}\n\n{table([figure('store', 'append', '2')])}\n")
    rows = [Row("rules", "fold", 30.0, "events/s", "trivial fold", 100.0, goal=(">=", 0.35))]
    write_results(
        str(results), rows, "| table |", "1 row", MACHINE | {"load": "0.50 0.40 0.30"}, ["--only", "rules"]
    )
    (fold,) = [f for f in read(results.read_text()) if f.section == "rules"]
    assert (fold.value, fold.ratio, fold.goal, fold.verdict, fold.load) == (
        "30.0 events/s",
        "0.3",
        "ratio ≥ 0.35",
        "MISSED",
        "0.50 0.40 0.30",
    )
    assert fold.date.endswith(" UTC") and fold.commit
    assert [f.figure for f in read(results.read_text())] == ["append", "fold"]
    (record,) = (tmp_path / "history").iterdir()
    assert "--only rules" in record.read_text() and "| table |" in record.read_text()


LOG = """\
# Benchmark results

- date: 2026-11-21 16:40 UTC
- command: `python -m bench --write bench/RESULTS.md`, run from commit 1111aaa

| section | figure | value | baseline (same run) | ratio | goal | verdict | note |
|---|---|---:|---|---:|---|---|---|
| rules | fold | 1 events/s | trivial: 2 events/s | 0.5 | ratio ≥ 0.25 | met |  |
| store | append | 3 commands/s |  |  |  |  |  |

## A later run, written further down

- date: 2026-11-23 09:00-09:30 UTC; load average 4-5
- command: `python -m bench --only rules` at commit 2222bbb

| section | figure | value | baseline (same run) | ratio | goal | verdict | note |
|---|---|---:|---|---:|---|---|---|
| rules | fold | 7 events/s | trivial: 2 events/s | 3.5 | ratio ≥ 0.25 | met |  |

## An earlier run, written above the later one's

- date: 2026-11-22 08:00 UTC

Run B (3333ccc; load 9):

| section | figure | run 1 | run 2 | goal | verdict |
|---|---|---:|---:|---|---|
| rules | fold | 0.1 | 0.2 | | |
"""


def test_the_migration_keeps_the_newest_row_of_each_figure_by_its_date_line():
    figures = {f.key: f for f in migrate_log(LOG)}
    assert set(figures) == {("rules", "fold"), ("store", "append")}
    fold = figures["rules", "fold"]
    assert (fold.value, fold.date, fold.commit, fold.load) == (
        "7 events/s",
        "2026-11-23 09:30 UTC",
        "2222bbb",
        "4-5",
    )
    assert figures["store", "append"].commit == "1111aaa"
    runs = migrate_log(LOG.replace("2026-11-22 08:00", "2026-11-24 08:00"))
    (fold,) = [f for f in runs if f.figure == "fold"]
    assert (fold.value, fold.commit, fold.load) == ("run 1: 0.1; run 2: 0.2", "3333ccc", "9")


def test_the_repository_s_results_open_with_current_figures_that_the_json_repeats():
    folder = Path(bench.__file__).parent
    text = (folder / "RESULTS.md").read_text()
    assert text.splitlines()[2] == HEADING
    rows = read(text)
    assert rows and len({row.key for row in rows}) == len(rows)
    assert json.loads((folder / "results.json").read_text()) == [vars(row) for row in rows]


def test_a_retired_figure_leaves_the_table_at_the_next_write(tmp_path: Path):
    """A figure renamed or replaced (bench.current.RETIRED) stays in the history only: the next
    write drops its row, so the table never shows a superseded MISSED beside the row that
    replaced it."""
    from bench.current import RETIRED

    retired_key = ("store", "commands/s on one connection vs commit 7222d2d")
    assert retired_key in RETIRED
    results = tmp_path / "RESULTS.md"
    results.write_text(bench.current.document([figure(*retired_key, "3.95"), figure("store", "append", "2")]))
    write(results, [figure("rules", "fold", "1")], "a run", date="2026-11-30 08:00 UTC", commit="ccccccc")
    assert [f.key for f in read(results.read_text())] == [("store", "append"), ("rules", "fold")]
    # Every retired figure names the figure that measures it now, itself no retired one.
    assert all(replacement and (key[0], replacement) not in RETIRED for key, replacement in RETIRED.items())
