"""The command path: queries per accepted command, commands/s on one connection and CPU per
accepted command, for this tree and for a pinned older export of the repository, measured in the
same run.

    .venv/bin/python -m bench --only store        (these rows open the store section)
    .venv/bin/python -m bench --only command      (these rows alone)

Each side runs in a fresh process of its own (`python bench/command_path.py --root DIR`, DIR
being this tree or `git archive BASELINE_COMMIT` unpacked in a temporary directory) against the
bench database the parent prepared, with DEBUG off as production runs (DEBUG logs every
statement, which is no part of a command): it creates a 4-seat game of player seats (emails, so every
command writes its prompt emails and enqueues their delivery, on the bench's own queue), and one
client submits random legal commands through `services.submit_command_and_fold`, keeping the
state each accepted command returns, for `seconds`. The queries of each command are counted with
Django's CaptureQueriesContext: BEGIN is left out (the driver opens the transaction with the
first statement), COMMIT is counted; queries run after the commit (a snapshot every
SNAPSHOT_EVERY events) count for the command that caused them.

The queries are counted over the first third of the run; the rest, timed without Django's
capture of queries (which formats and keeps every statement: CPU that is no part of a command),
gives commands/s, the write-ahead log and the CPU per command: the submitter's own CPU time
(`time.process_time`, less the bench player's choice of each move) plus that of its PostgreSQL
backend (`pg_backend_pid()`, utime + stime read from /proc: the server runs on this machine),
divided by the commands accepted. With a broker the tree's command
sends no task (the relay publishes its rows: `inis_pbem.relay`), so the relay's share is
measured apart: the relay's passes over the rows the timed commands wrote, in this process and
its backend, per command (`relay_cpu`), shown in the note. What the bench database held before
is no part of it (`_relay_ready`: a first pass makes the relay's imports and broker connection,
then every row still pending is put off): a run once counted there a first pass that folded the
community section's 10,000 game ends into the profiles and published every earlier row again,
"100.5 ms per command" for some 0.5 ms of publishing. The baseline enqueued its Celery tasks inside the
command, on the bench's own queue (nobody consumes it).

BASELINE_COMMIT is a467144, the commit issue 30 measured against (25.6 ms of CPU per command);
it runs on a database of its own (the bench database's name + "_baseline"), made and migrated
by that code, so that later migrations do not matter to it.

The tree's side also measures a bare psycopg transaction of the same statements (`replay`):
after the timed part its database is copied (CREATE DATABASE ... TEMPLATE: the same rows and
sequences), REPLAYED commands are submitted while Django's `execute_wrapper` keeps each
statement with its parameters as sent, and a plain psycopg connection (no Django; psycopg's
default server-side binding and prepare threshold) runs each command's statements on the copy
in one transaction, from the same state. The row is the tree's CPU per command over the
replay's (its process and backend), the first REPLAY_WARM_UP commands left out as warm-up.

To compare commits alone (e.g. a change's before and after, same run, sides alternated):

    .venv/bin/python -m bench.command_path --compare d4508a1,HEAD [--seconds 10] [--rounds 2]

Each commit is a `git archive` in a temporary directory with a database of its own (the bench
database's name + "_" + the commit); the figures are printed as JSON and as a table.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
from dataclasses import replace

BASELINE_COMMIT = "a467144"
BUDGET = 6  # the goal: lock + head, events, command row, outbox rows, seat clocks, commit
REPLAYED = 400  # commands whose statements the bare psycopg replay runs
REPLAY_WARM_UP = 20  # of them, replayed untimed: connection warm, statements prepared


def measure(seconds: float, *, replay: bool = False) -> dict:
    """In the child: {"commands": n, "seconds": s, "queries": [per command], "rate": n/s,
    "wal_bytes", "cpu_seconds", "backend_cpu_seconds", "relay_cpu_seconds"} (commands, seconds, rate, WAL and CPU of the
    timed part; queries of the counted part); with `replay`, also "replay": `_replay`'s."""
    import random

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from bench.players import new_game, next_move
    from games import store
    from games.services import submit_command_and_fold

    game = new_game(f"command-path-{os.getpid()}")
    seats = {seat.colour: seat for seat in game.seats.all()}
    loaded = store.load(game)
    rng = random.Random(1)
    queries, accepted = [], 0
    for _warm_up in range(20):  # templates compiled, connections to PostgreSQL and Redis open
        colour, command = next_move(loaded[0], rng)
        _result, after = submit_command_and_fold(
            game=game, seat=seats[colour], command=command, expected_seq=loaded[1], loaded=loaded
        )
        loaded = (after, after.seq)
    backend = _backend_pid(connection)

    def submit(colour, command):
        nonlocal loaded
        result, after = submit_command_and_fold(
            game=game, seat=seats[colour], command=command, expected_seq=loaded[1], loaded=loaded
        )
        if not result.accepted or after is None:
            raise RuntimeError(f"command-path bench: {command} refused: {result.message}")
        loaded = (after, after.seq)

    # The queries, counted in a first part: Django's capture of them (each statement formatted
    # and kept) costs CPU that is no part of a command, so the timed part runs without it.
    stop = time.perf_counter() + seconds / 3
    while time.perf_counter() < stop:
        colour, command = next_move(loaded[0], rng)
        with CaptureQueriesContext(connection) as captured:
            submit(colour, command)
        queries.append(sum(q["sql"] != "BEGIN" for q in captured.captured_queries))
    # The timed part: rate, CPU (the client's choice of each move left out: it is the bench's
    # player, not the service) and write-ahead log.
    _relay_ready()
    client_cpu = 0.0
    wal_before = _wal_position(connection)
    backend_before = _backend_cpu(backend)
    cpu_before = time.process_time() + backend_before
    start = time.perf_counter()
    stop = start + seconds * 2 / 3
    while time.perf_counter() < stop:
        chose = time.process_time()
        colour, command = next_move(loaded[0], rng)
        client_cpu += time.process_time() - chose
        submit(colour, command)
        accepted += 1
    took = time.perf_counter() - start
    backend_after = _backend_cpu(backend)
    cpu = time.process_time() + backend_after - cpu_before - client_cpu
    wal_bytes = _wal_bytes_since(connection, wal_before)
    relay_cpu = _relay_cpu(connection, backend)
    replayed = _replay(connection, lambda: submit(*next_move(loaded[0], rng))) if replay else None
    return {
        "commands": accepted,
        "seconds": took,
        "queries": queries,
        "rate": accepted / took,
        "wal_bytes": wal_bytes,
        "cpu_seconds": cpu,
        "backend_cpu_seconds": backend_after - backend_before,
        "relay_cpu_seconds": relay_cpu,
        **({"replay": replayed} if replayed is not None else {}),
    }


def _replay(connection, submit_next) -> dict:
    """{"commands": n, "cpu_seconds", "backend_cpu_seconds"}: a bare psycopg transaction of each
    of REPLAYED commands' statements, on a copy of the database made before they were submitted
    (module docstring); n and the CPU (this process and the copy's backend) are of the timed
    commands, after REPLAY_WARM_UP."""
    import psycopg

    settings = connection.settings_dict
    name, copy = settings["NAME"], settings["NAME"] + "_replay"
    keys = {"host": settings["HOST"], "port": settings["PORT"], "user": settings["USER"]}
    keys = {k: v for k, v in keys.items() if v} | (
        {"password": settings["PASSWORD"]} if settings["PASSWORD"] else {}
    )
    connection.close()  # a template database must have no other session
    with psycopg.connect(dbname="postgres", autocommit=True, **keys) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{copy}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{copy}" TEMPLATE "{name}"')
    commands: list[list[tuple]] = []

    def keep(execute, sql, params, many, context):
        commands[-1].append((sql, params, many))
        return execute(sql, params, many, context)

    with connection.execute_wrapper(keep):
        for _ in range(REPLAYED):
            commands.append([])
            submit_next()
    try:
        with psycopg.connect(dbname=copy, **keys) as bare:
            (backend,) = bare.execute("SELECT pg_backend_pid()").fetchall()[0]
            bare.commit()
            for statements in commands[:REPLAY_WARM_UP]:
                _run_bare(bare, statements)
            backend_before = _backend_cpu(backend)
            before = time.process_time() + backend_before
            for statements in commands[REPLAY_WARM_UP:]:
                _run_bare(bare, statements)
            backend_after = _backend_cpu(backend)
            cpu = time.process_time() + backend_after - before
    finally:
        with psycopg.connect(dbname="postgres", autocommit=True, **keys) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{copy}" WITH (FORCE)')
    return {
        "commands": len(commands) - REPLAY_WARM_UP,
        "cpu_seconds": cpu,
        "backend_cpu_seconds": backend_after - backend_before,
    }


def _run_bare(conn, statements: list[tuple]) -> None:
    """One command's statements (sql, params, many), as Django sent them, in one transaction."""
    with conn.cursor() as cursor:
        for sql, params, many in statements:
            if many:
                cursor.executemany(sql, params)
            else:
                cursor.execute(sql, params)
    conn.commit()


def _backend_pid(connection) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]


def _backend_cpu(pid: int) -> float:
    """CPU seconds (user + system) of the process `pid` so far, from /proc/<pid>/stat."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _relay_ready() -> None:
    """Before the timed part, on a tree with the relay: one relay pass (its imports, its broker
    connection: once per process), then every row still pending put off by a day, so that the
    timed pass (`_relay_cpu`) publishes the timed commands' rows alone, not what earlier runs
    and sections left in the bench database (no worker delivers them: each pass would publish
    them again, every OUTBOX_REPUBLISH_AFTER seconds)."""
    try:
        from inis_pbem import relay
    except ImportError:
        return
    from datetime import timedelta

    from django.utils import timezone

    from notifications.models import Outbox

    relay.publish_all_due()
    Outbox.objects.filter(status="pending").update(queued_at=timezone.now() + timedelta(days=1))


def _relay_cpu(connection, backend: int) -> float | None:
    """CPU seconds of the relay's passes over the rows the timed commands left due (this
    process and its backend: the claims, one `deliver_many` task per game and pass, the pages
    ahead's task), or None on a tree without the relay (the baseline: its command enqueued).
    The rows are published in one go here; a relay woken at each commit publishes each
    command's in a pass of its own (bench.move_cost's relay row)."""
    try:
        from inis_pbem import relay
    except ImportError:
        return None
    before = time.process_time() + _backend_cpu(backend)
    relay.publish_all_due()
    return time.process_time() + _backend_cpu(backend) - before


def _wal_position(connection) -> str:
    """PostgreSQL's write-ahead log position now (an LSN, e.g. '0/1A2B3C4')."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_current_wal_lsn()")
        return cursor.fetchone()[0]


def _wal_bytes_since(connection, before: str) -> int:
    """Bytes of write-ahead log written on the server since the position `before`: what the
    commands wrote to disk and flushed at their commits (with whatever else ran meanwhile; the
    bench runs nothing else)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_wal_lsn_diff(pg_current_wal_lsn(), %s)", [before])
        return int(cursor.fetchone()[0])


def run_side(root: str, env, seconds: float, *, migrate: bool = False, replay: bool = False) -> dict:
    """Run `measure` in a fresh process on the code in `root`, against the database of `env`
    (migrated first by that code with `migrate`; with the bare psycopg replay with `replay`)."""
    args = ["--seconds", str(seconds), *(["--migrate"] if migrate else []), *(["--replay"] if replay else [])]
    return run_child(os.path.abspath(__file__), root, env, args, timeout=seconds + 300)


def run_child(script: str, root: str, env, args: list[str], *, timeout: float, extra_env=None) -> dict:
    """Run `python script --root root *args` in a fresh process on the code in `root` (this tree
    or a `git archive` of an older commit: `export`), against the database and Redis of `env`
    (bench.environment.Environment), with `extra_env` added to its environment; returns the JSON
    object the script printed last. Raises RuntimeError with the end of its stderr when it fails.
    The bench modules' children (`_child` here, bench.move_cost's) read `--root`, put it first on
    sys.path and set Django up on that code."""
    from bench.environment import QUEUE

    child_env = dict(
        os.environ,
        DATABASE_URL=env.database_url,
        REDIS_URL=env.redis_url,
        EMAIL_BACKEND="anymail.backends.test.EmailBackend",
        # As production runs: with DEBUG on, Django logs every statement, which costs a
        # server-bound statement its parameters quoted into the log's text on the client.
        DJANGO_DEBUG="0",
        SECRET_KEY=secrets.token_urlsafe(50),
        SITE_URL="https://bench.invalid",
        # What the production checks ask of every process (a worker a child starts included).
        DJANGO_ALLOWED_HOSTS="bench.invalid",
        EMAIL_WEBHOOKS="0",
        DJANGO_SETTINGS_MODULE="inis_pbem.settings",
        LOG_LEVEL="WARNING",
        BENCH_QUEUE=QUEUE,
        PYTHONPATH=root,
        **(extra_env or {}),
    )
    done = subprocess.run(
        [sys.executable, script, "--root", root, *args],
        cwd=root,
        env=child_env,
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if done.returncode != 0:
        raise RuntimeError(f"bench child {os.path.basename(script)} in {root} failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def export(commit: str, into: str) -> str | None:
    """`git archive commit` unpacked in `into`; None when git or the commit is not there."""
    repo = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        archive = subprocess.run(
            ["git", "-C", repo, "archive", commit], capture_output=True, check=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", into], input=archive, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return into


def rows(env, *, quick: bool) -> list:
    """The command-path rows (bench.table.Row): commands/s on one connection against the
    baseline commit, queries per command against the baseline commit and against the budget."""
    from django.db import connections

    from bench.clock import median
    from bench.environment import _recreate_database
    from bench.table import Row

    seconds = 5.0 if quick else 15.0
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    # The tree's side copies the bench database as a template, which must have no other session:
    # this process's own (the bench's set-up) is closed first.
    connections.close_all()
    with tempfile.TemporaryDirectory(prefix="inis-bench-baseline-") as tmp:
        old_root = export(BASELINE_COMMIT, tmp)
        # The old code gets a database of its own, with its own schema.
        old_env = replace(env, database_url=env.database_url.rstrip("/") + "_baseline")
        if old_root:
            _recreate_database(old_env)
        # Old, new, old, new: a burst of load from elsewhere weighs on both sides.
        sides = {"old": [], "new": []}
        for turn in range(2):
            if old_root:
                sides["old"].append(run_side(old_root, old_env, seconds / 2, migrate=turn == 0))
            sides["new"].append(run_side(here, env, seconds / 2, replay=True))

    def rate(name):
        runs = sides[name]
        return sum(r["commands"] for r in runs) / sum(r["seconds"] for r in runs) if runs else None

    def queries(name):
        counts = [q for r in sides[name] for q in r["queries"]]
        return (median(counts), sum(counts) / len(counts), max(counts)) if counts else (None, None, None)

    def cpu_per_command(name):
        runs = sides[name]
        return 1000 * sum(r["cpu_seconds"] for r in runs) / sum(r["commands"] for r in runs) if runs else None

    def backend_per_command():
        runs = sides["new"]
        return 1000 * sum(r["backend_cpu_seconds"] for r in runs) / sum(r["commands"] for r in runs)

    def relay_per_command():
        runs = [r for r in sides["new"] if r.get("relay_cpu_seconds") is not None]
        return (
            1000 * sum(r["relay_cpu_seconds"] for r in runs) / sum(r["commands"] for r in runs)
            if runs
            else None
        )

    def wal_per_command(name):
        runs = sides[name]
        return sum(r["wal_bytes"] for r in runs) / sum(r["commands"] for r in runs) if runs else None

    bare = bare_per_command(sides["new"])
    new_q, old_q = queries("new"), queries("old")
    label = f"commit {BASELINE_COMMIT} (before)" if old_root else f"commit {BASELINE_COMMIT}: no git export"
    note = (
        f"4 player seats, 1 client keeping the state it gets back; {sum(r['commands'] for r in sides['new'])} "
        f"commands; queries: median {new_q[0]}, mean {new_q[1]:.1f}, max {new_q[2]} (forced moves, "
        f"snapshots)" + (f"; before: median {old_q[0]}, mean {old_q[1]:.1f}" if old_root else "")
    )
    relay_ms = relay_per_command()
    return [
        Row(
            "store",
            "CPU per accepted command (submitter + its PostgreSQL backend), this tree",
            cpu_per_command("new"),
            "ms",
            label,
            cpu_per_command("old"),
            goal=("<=", 0.2),
            note=f"lower is better; issue 30's goal: 1/5 of commit a467144; of this tree's, "
            f"{backend_per_command():.2f} ms in its PostgreSQL backend"
            + (
                f"; the relay's publishing of the timed commands' rows adds {relay_ms:.2f} ms per "
                "command, apart (CPU of its passes and their backend)"
                if relay_ms is not None
                else ""
            ),
        ),
        Row(
            "store",
            "CPU per command / bare psycopg transaction of the same statements",
            cpu_per_command("new"),
            "ms",
            "a bare psycopg transaction of the command's statements (no Django), same state",
            bare[0],
            goal=("<=", 2.0),
            note=f"lower is better; the bare transaction's {bare[1]:.2f} ms in its PostgreSQL backend; "
            f"{bare[2]} commands replayed",
        ),
        Row(
            "store",
            "commands/s, 1 client, one connection, this tree",
            rate("new"),
            "commands/s",
            label,
            rate("old"),
            goal=(">=", 5.0),
            note=note,
        ),
        Row(
            "store",
            "queries per accepted command (median; BEGIN not counted, COMMIT counted)",
            new_q[0],
            "queries",
            label,
            old_q[0],
            note="lower is better",
        ),
        Row(
            "store",
            "write-ahead log per accepted command (PostgreSQL, mean)",
            wal_per_command("new"),
            "bytes",
            label,
            wal_per_command("old"),
            note="lower is better: what every commit writes and flushes to disk",
        ),
        Row(
            "store",
            "queries per accepted command (median) vs the issue's budget",
            new_q[0],
            "queries",
            "budget: lock + head, events, command row, outbox rows, seat clocks, commit",
            float(BUDGET),
            goal=("<=", 1.0),
        ),
    ]


def bare_per_command(runs: list[dict]) -> tuple[float, float, int]:
    """(CPU ms per command of the bare psycopg replays, of which in their backend, commands) over
    the `runs` that have one."""
    replays = [r["replay"] for r in runs if "replay" in r]
    commands = sum(r["commands"] for r in replays)
    return (
        1000 * sum(r["cpu_seconds"] for r in replays) / commands,
        1000 * sum(r["backend_cpu_seconds"] for r in replays) / commands,
        commands,
    )


def compare(commits: list[str], *, seconds: float, rounds: int) -> list[dict]:
    """Each of `commits` measured `rounds` times, in turn (commit 1, 2, ..., 1, 2, ...), each on
    its `git archive` and a database of its own, with the bare replay; one summary a commit:
    {"commit", "cpu_ms", "backend_ms", "bare_ms", "ratio", "rate", "queries", "runs"}."""
    from bench.clock import median
    from bench.environment import _recreate_database, prepare

    env = prepare()
    sides: dict[str, list[dict]] = {commit: [] for commit in commits}
    with tempfile.TemporaryDirectory(prefix="inis-bench-compare-") as tmp:
        roots, envs = {}, {}
        for commit in commits:
            root = export(commit, tempfile.mkdtemp(dir=tmp))
            if root is None:
                raise SystemExit(f"no git export of {commit}")
            roots[commit] = root
            envs[commit] = replace(env, database_url=env.database_url.rstrip("/") + "_" + commit.lower())
            _recreate_database(envs[commit])
        for turn in range(rounds):
            for commit in commits:
                run = run_side(roots[commit], envs[commit], seconds, migrate=turn == 0, replay=True)
                sides[commit].append(run)
    summaries = []
    for commit, runs in sides.items():
        commands = sum(r["commands"] for r in runs)
        cpu = 1000 * sum(r["cpu_seconds"] for r in runs) / commands
        bare = bare_per_command(runs)
        summaries.append(
            {
                "commit": commit,
                "cpu_ms": cpu,
                "backend_ms": 1000 * sum(r["backend_cpu_seconds"] for r in runs) / commands,
                "bare_ms": bare[0],
                "ratio": cpu / bare[0],
                "rate": commands / sum(r["seconds"] for r in runs),
                "queries": median([q for r in runs for q in r["queries"]]),
                "runs": [1000 * r["cpu_seconds"] / r["commands"] for r in runs],
            }
        )
    return summaries


def _compare_main(argv: list[str]) -> int:
    commits = argv[argv.index("--compare") + 1].split(",")
    seconds = float(argv[argv.index("--seconds") + 1]) if "--seconds" in argv else 10.0
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else 2
    summaries = compare(commits, seconds=seconds, rounds=rounds)
    print(json.dumps(summaries))
    first = summaries[0]["cpu_ms"]
    print(f"load average: {os.getloadavg()}")
    for s in summaries:
        print(
            f"{s['commit']}: CPU {s['cpu_ms']:.2f} ms/command ({s['cpu_ms'] / first:.3f} of {commits[0]}), "
            f"backend {s['backend_ms']:.2f}; bare psycopg {s['bare_ms']:.2f}, ratio {s['ratio']:.2f}; "
            f"{s['rate']:.1f} commands/s; queries {s['queries']}; runs {[round(r, 2) for r in s['runs']]}"
        )
    return 0


def _child(argv: list[str]) -> int:
    root = argv[argv.index("--root") + 1]
    seconds = float(argv[argv.index("--seconds") + 1])
    sys.path[0] = root  # not bench/, whose module names (mail, tasks, rules...) would shadow others
    import django

    django.setup()
    if "--migrate" in argv:
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
    from inis_pbem.celery import app

    app.conf.task_default_queue = os.environ["BENCH_QUEUE"]
    app.conf.task_always_eager = False
    print(json.dumps(measure(seconds, replay="--replay" in argv)))
    return 0


if __name__ == "__main__":
    sys.exit(_compare_main(sys.argv[1:]) if "--compare" in sys.argv else _child(sys.argv[1:]))
