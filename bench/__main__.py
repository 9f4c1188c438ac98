"""python -m bench [--quick] [--only SECTIONS] [--write [FILE]]: run the benchmarks, print the table.

Sections, in order: rules, store, growth, email, web, live, cost, pacing, pace, bots, community,
reach (see each module's docstring; bots plays hundreds of games: hours of CPU without --quick;
reach is web push, bench/reach.py), and, only when chosen with --only, command (the command
path's rows of store alone) and faults (the production processes broken while games are played,
`bench.faults`). The bench
database (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/inis_bench) is dropped
and created again; Redis is BENCH_REDIS_URL (default redis://127.0.0.1:6379/0), used through the
bench's own queue. `--write` merges the run's rows into the Current figures of FILE (default
bench/RESULTS.md; `bench.current`), writes the same current rows to results.json beside it, and
the run's full record (the table, the date, the machine, the command) to
history/<date>-<commit>.md beside it. Exit status 0 whether goals are met or not: the table says.
"""

from __future__ import annotations

import argparse
import importlib.util
import shlex
import subprocess
import sys
import time
from datetime import UTC, datetime
from functools import partial
from pathlib import Path

SECTIONS = (
    "rules",
    "store",
    "growth",
    "email",
    "web",
    "live",
    "cost",
    "pacing",
    "pace",
    "bots",
    "community",
    "reach",
    "command",
    "faults",
)
# Run unless chosen: "command" is the first rows of "store" alone (`bench.command_path`);
# "faults" starts the production processes and breaks them (about 4 minutes, `bench.faults`).
ON_REQUEST = ("command", "faults")


def web_rows(*, quick: bool) -> list:
    """The web rows from bench/web_page.py (written with the web pages), or one row saying they are
    pending when that module is not there yet."""
    from bench.table import Row

    if importlib.util.find_spec("bench.web_page") is None:
        return [
            Row(
                "web",
                "game page and history page of a 2,000-event game (p50, p95)",
                None,
                "ms",
                note="pending: bench/web_page.py is not in the repository yet",
            )
        ]
    from bench import web_page

    try:
        return list(web_page.run(quick=quick))
    except TypeError:  # a run() without the quick argument
        return list(web_page.run())


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter runs (about a minute and a half)")
    parser.add_argument(
        "--only",
        default=",".join(s for s in SECTIONS if s not in ON_REQUEST),
        help=f"comma-separated sections to run (default: all of {', '.join(SECTIONS)} but "
        f"{', '.join(ON_REQUEST)}, which the store section includes)",
    )
    parser.add_argument(
        "--write",
        nargs="?",
        const="bench/RESULTS.md",
        metavar="FILE",
        help="merge the rows into the Current figures of FILE (default bench/RESULTS.md), write "
        "results.json and the run's record in history/ beside it",
    )
    args = parser.parse_args(argv)
    chosen = [s.strip() for s in args.only.split(",") if s.strip()]
    unknown = set(chosen) - set(SECTIONS)
    if unknown:
        parser.error(f"unknown sections: {', '.join(sorted(unknown))}")

    from bench import environment

    started = time.monotonic()
    env = environment.prepare()
    from bench import (
        bot_worker,
        bots,
        command_path,
        faults,
        game_calendar,
        growth,
        live_head,
        mail,
        move_cost,
        open_tables,
        pacing,
        ratings,
        reach,
        rules,
        store,
    )
    from bench.table import markdown

    # Sections that have more to say than their rows (the pacing tables per reaction mode).
    extras: list[str] = []

    runners = {
        "rules": lambda: rules.run(quick=args.quick),
        "store": lambda: store.run(env, quick=args.quick),
        "growth": lambda: growth.run(env, quick=args.quick),
        "email": lambda: mail.run(quick=args.quick),
        "web": lambda: web_rows(quick=args.quick),
        "live": lambda: live_head.run(quick=args.quick),
        "cost": lambda: move_cost.rows(env, quick=args.quick),
        "pacing": lambda: pacing.run(quick=args.quick, extras=extras),
        "pace": lambda: game_calendar.run(quick=args.quick, extras=extras),
        "command": lambda: command_path.rows(env, quick=args.quick),
        "faults": lambda: faults.run(env, quick=args.quick),
        "bots": lambda: bots.run(quick=args.quick) + bot_worker.rows(quick=args.quick),
        "community": lambda: open_tables.run(quick=args.quick) + ratings.run(quick=args.quick),
        "reach": lambda: reach.run(quick=args.quick),
    }
    rows = []
    for section in SECTIONS:
        if section in chosen:
            t0 = time.monotonic()
            print(f"[bench] {section} ...", file=sys.stderr, flush=True)
            rows.extend(runners[section]())
            print(f"[bench] {section}: {time.monotonic() - t0:.0f} s", file=sys.stderr, flush=True)
    table = markdown(rows)
    print(table)
    for extra in extras:
        print(f"\n{extra}")
    missed = [r for r in rows if r.verdict == "MISSED"]
    took = time.monotonic() - started
    summary = (
        f"{len(rows)} rows, {sum(r.verdict == 'met' for r in rows)} goals met, "
        f"{len(missed)} missed; {took:.0f} s"
    )
    print(summary)
    if args.write:
        write_results(args.write, rows, table, summary, environment.machine(env), argv, extras)
    return 0


def head_commit() -> str:
    """The short hash of the checkout's HEAD, with "+" when its tracked files differ from it;
    "unknown" outside a git checkout (a `git archive` export)."""
    try:
        run = partial(subprocess.run, capture_output=True, text=True, check=True)
        commit = run(["git", "rev-parse", "--short", "HEAD"]).stdout.strip()
        dirty = run(["git", "status", "--porcelain", "--untracked-files=no"]).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return commit + ("+" if dirty else "")


def write_results(path: str, rows: list, table: str, summary: str, machine: dict, argv, extras=()) -> None:
    """Merge `rows` into the Current figures of `path` and write the run's record to its
    history (`bench.current.write`)."""
    from bench import current

    command = " ".join(
        [".venv/bin/python -m bench", *map(shlex.quote, argv if argv is not None else sys.argv[1:])]
    )
    date, commit = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"), head_commit()
    text = f"""# Benchmark run of {date}

- date: {date}
- commit: {commit}
- machine: {machine["cores"]} cores ({machine["cpu"] or "unknown CPU"}), {machine["memory_gib"]} GiB memory;
  PostgreSQL {machine["postgresql"]}, Redis {machine["redis"]}, Python {machine["python"]};
  load average at the end {machine["load"]} (the machine is shared with other work)
- command: `{command}`
- {summary}

Each ratio is value / baseline, both measured in this run. What each row measures, and why each
missed goal is missed and what would reach it: bench/README.md.

{table}
"""
    for extra in extras:
        text += f"\n{extra}\n"
    figures = [current.Figure.of(row, date=date, commit=commit, load=machine["load"]) for row in rows]
    record = current.write(Path(path), figures, text, date=date, commit=commit)
    print(f"[bench] Current figures in {path}; this run's record in {record}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
