"""Bots row: the memory of a real Celery worker playing a game of hard bots (issue 28).

`bench.bots` plays its matches with the rules alone, in the bench's own process. This row
measures what an operator runs: a Celery worker process (`bench.mail.Worker`, one child: its
prefork pool of one) playing a 4-player game of `hard` bots created through the service
(`services.create_game`), every move through the worker's `games.tasks.play_bots` with the
bench publishing what each commit queued, as the outbox relay does (`inis_pbem.relay`). Every
half second it reads the resident memory of the worker's processes (/proc); the figure is the
highest resident memory any one of them reached (the child that plays the bots), against the
issue's 300 MB. The game is played until it ends, or for `SECONDS` (`QUICK_SECONDS` with
--quick) of the worker's time: a worker's memory is reached in the first rounds (the code, a game's
states and the bots' search), the rest repeats them.

    python -m bench.bot_worker [--quick]       # this row alone (after preparing the bench database)
    python -m bench.bot_worker --level strong --seconds 300 --write   # strong bots, into RESULTS.md
    python -m bench --only bots                # with the bots section
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from games.bots import LEVELS

SECTION = "bots"
SECONDS = 600
QUICK_SECONDS = 120
MEMORY_GOAL_MB = 300.0


def worker_memory_mb(pid: int) -> dict[int, float]:
    """{pid: resident MB} of the process `pid` and its descendants, read from /proc (Linux, as
    the bench's CPU figures); processes gone meanwhile are left out ({} when `pid` is gone)."""
    found: dict[int, float] = {}
    waiting = [pid]
    while waiting:
        current = waiting.pop()
        try:
            status = Path(f"/proc/{current}/status").read_text()
            children = [
                int(child)
                for task in Path(f"/proc/{current}/task").iterdir()
                for child in (task / "children").read_text().split()
            ]
        except (FileNotFoundError, ProcessLookupError):
            continue
        rss_kib = next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
        found[current] = rss_kib / 1024
        waiting.extend(children)
    return found


def play_through_worker(*, seconds: float, level: str = "hard") -> dict:
    """A 4-player game of `level` bots played by a real worker for at most `seconds`.

    Returns {"peak_mb": the highest resident MB of one worker process, "peaks": {pid: MB},
    "commands": bot commands played, "round": the round reached, "over": whether the game
    ended, "seconds": wall seconds played}. Raises RuntimeError when the worker dies."""
    from bench.mail import Worker
    from games import services
    from games.models import Command, Game
    from inis_pbem import relay

    peaks: dict[int, float] = {}
    with Worker(concurrency=1) as worker:
        game = services.create_game(
            seats=[services.SeatSpec(is_bot=True, bot_level=level) for _ in range(4)],
            seed=f"bench-bot-worker-{level}",
        )
        started = time.monotonic()
        sampled = 0.0
        while time.monotonic() - started < seconds:
            relay.publish_all_due()
            if time.monotonic() - sampled >= 0.5:
                sampled = time.monotonic()
                for pid, mb in worker_memory_mb(worker.process.pid).items():
                    peaks[pid] = max(peaks.get(pid, 0.0), mb)
                game.refresh_from_db()
                if game.status == Game.Status.OVER:
                    break
            if worker.process.poll() is not None:
                raise RuntimeError(f"the bench worker died: {worker.process.stderr.read().decode()[-2000:]}")
            time.sleep(0.05)
        played = time.monotonic() - started
        from games import store

        state, _seq = store.load(game)
        commands = Command.objects.filter(game=game).count()
    return {
        "peak_mb": max(peaks.values(), default=0.0),
        "peaks": peaks,
        "commands": commands,
        "round": state.round,
        "over": game.status == Game.Status.OVER,
        "seconds": played,
    }


def rows(*, quick: bool, level: str = "hard", seconds: float | None = None) -> list:
    """The row: the peak resident memory of a worker process playing bots of `level` (the
    strong bot at the worker's `BOT_STRONG_MS` budget), for `seconds` (default `SECONDS`,
    `QUICK_SECONDS` with quick) or until the game ends."""
    from bench.table import Row

    seconds = seconds or (QUICK_SECONDS if quick else SECONDS)
    result = play_through_worker(seconds=seconds, level=level)
    ended = "the game ended" if result["over"] else f"stopped after {result['seconds']:.0f} s"
    return [
        Row(
            SECTION,
            "memory of a worker playing bots (peak RSS of one worker process)"
            + ("" if level == "hard" else f", {level}"),
            result["peak_mb"],
            "MB",
            "the issue's most",
            MEMORY_GOAL_MB,
            goal=("<=", 1.0),
            note=f"a Celery worker (prefork, 1 child) playing a 4-player game of {level} bots: "
            f"{result['commands']} commands, round {result['round']}, {ended}; "
            f"processes: {', '.join(f'{mb:.0f} MB' for mb in sorted(result['peaks'].values()))}",
        )
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bot_worker", description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help=f"{QUICK_SECONDS} s of play, not {SECONDS}")
    parser.add_argument("--level", default="hard", choices=LEVELS, help="the bots' level (default hard)")
    parser.add_argument("--seconds", type=float, help="seconds of play (default: as --quick says)")
    parser.add_argument("--write", action="store_true", help="merge the row into bench/RESULTS.md")
    args = parser.parse_args(argv)
    from bench import environment
    from bench.bots import report

    env = environment.prepare()
    found = rows(quick=args.quick, level=args.level, seconds=args.seconds)
    return report(
        found,
        args.write,
        argv,
        summary="the row of `python -m bench.bot_worker` alone",
        machine=environment.machine(env),
        tool="bot_worker",
    )


if __name__ == "__main__":
    sys.exit(main())
