"""Bots rows: how well and how fast the bots of `games.bots` play (issue 28), rules alone.

Each match is a set of 4-player games played with the rules alone (`rules.decide` + `evolve`,
no database; Triskel windows ask "holders", the service's default), one bot level per seat,
the seats turned by one place each game so that every level sits in every seat. A seat deciding
is drawn from the game's seed when several decide at once (a draft). A game still going after
`MAX_ROUNDS` rounds counts as won by nobody.

- the share of games won by the first level against three of the second (`easy vs 3 random`,
  `hard vs 3 random`, `hard vs 3 easy`), against a fair share (1 in 4);
- the median rounds a game of four hard bots lasts, against 8 (the issue's range: 4 to 8);
- the CPU seconds (`time.process_time`) of a hard bot's decision, median and 99th percentile,
  against the issue's 1 s and 5 s; the peak memory (ru_maxrss) of this process playing them,
  against 300 MB.

    python -m bench --only bots [--quick]            # the whole section
    python -m bench.bots hard,random,random,random --games 100   # one match, its rows printed

The full section plays 100 games a match (`GAMES`), which takes hours of CPU with hard bots on
this machine; `--quick` plays `QUICK_GAMES`.
"""

from __future__ import annotations

import argparse
import random
import resource
import statistics
import sys
import time

from bench.table import Row, markdown
from games import bots, rules

SECTION = "bots"
SEATS = ["green", "blue", "orange", "white"]
GAMES = 100
QUICK_GAMES = 4
MAX_ROUNDS = 30
MATCHES = (
    ("easy vs 3 random", ("easy", "random", "random", "random"), 0.85),
    ("hard vs 3 random", ("hard", "random", "random", "random"), 0.97),
    ("hard vs 3 easy", ("hard", "easy", "easy", "easy"), 0.50),
)
FAIR_SHARE = 0.25


def play_game(levels, seed: str, think_times: dict) -> tuple[str | None, int]:
    """One game with the bot of `levels[i]` in seat i; returns (the winner's level or None, the
    round it ended in). The CPU seconds of each decision are appended to `think_times[level]`."""
    seats = SEATS[: len(levels)]
    by_seat = dict(zip(seats, levels))
    state = rules.fold(rules.start_game(seats, seed=seed, options={"reactions": "holders"}))
    chooser = random.Random(seed)
    while not rules.is_over(state) and state.round <= MAX_ROUNDS:
        seat = chooser.choice(sorted({d.seat for d in rules.pending(state) if d.seat is not None}))
        level = by_seat[seat]
        started = time.process_time()
        command = bots.choose(state, seat, level, rules.rng_for(f"{seed}:bot:{seat}", state.seq))
        think_times.setdefault(level, []).append(time.process_time() - started)
        for event in rules.decide(state, seat, command, rng=rules.rng_for(seed, state.seq)):
            rules.evolve(state, event)
    return (by_seat[state.winner] if state.winner else None), state.round


def play_match(levels, games: int, *, name: str = "", first: int = 0) -> dict:
    """`games` games of `levels` (game numbers `first`, `first` + 1, ...: each its own seed), the
    seats turned by one place each game. Returns
    `{"wins": {level: n}, "rounds": [...], "think_times": {level: [s, ...]}}`."""
    wins: dict = {}
    rounds = []
    think_times: dict = {}
    for i in range(first, first + games):
        turn = i % len(levels)
        turned = list(levels[turn:]) + list(levels[:turn])
        winner, last_round = play_game(turned, f"bots-{name or ','.join(levels)}-{i}", think_times)
        if winner:
            wins[winner] = wins.get(winner, 0) + 1
        rounds.append(last_round)
    return {"wins": wins, "rounds": rounds, "think_times": think_times}


def percentile(values: list, share: float) -> float:
    """The value below which `share` (0 to 1) of `values` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def share_row(name: str, levels, games: int, goal: float, result: dict) -> Row:
    """The share of games the first level (the one bot of its kind) won."""
    won = result["wins"].get(levels[0], 0)
    return Row(
        SECTION,
        f"{name}: share of 4-player games won",
        100.0 * won / games,
        "%",
        "a fair share (1 in 4)",
        100.0 * FAIR_SHARE,
        goal=(">=", goal / FAIR_SHARE),
        note=f"{won} of {games} games, seats turned; goal {goal:.0%}; "
        f"median {statistics.median(result['rounds']):g} rounds",
    )


def rounds_row(games: int, rounds: list) -> Row:
    """The median rounds of the hard bots' self-play."""
    median_rounds = statistics.median(rounds)
    return Row(
        SECTION,
        "hard vs 3 hard: median rounds a game",
        median_rounds,
        "rounds",
        "the issue's most",
        8.0,
        goal=("<=", 1.0),
        note=f"{games} games; at least 4: {'yes' if median_rounds >= 4 else 'NO'}; "
        f"mean {statistics.mean(rounds):.1f}",
    )


def cpu_rows(hard_times: list) -> list[Row]:
    """A hard bot's CPU time a decision: median and 99th percentile."""
    searched = [t for t in hard_times if t >= 0.001]
    return [
        Row(
            SECTION,
            "CPU seconds a decision (hard): median",
            statistics.median(hard_times),
            "s",
            "the issue's most",
            1.0,
            goal=("<=", 1.0),
            note=f"{len(hard_times)} decisions of every match; those that searched (≥ 1 ms, "
            f"{len(searched)}): median {statistics.median(searched) if searched else 0:.2f} s",
        ),
        Row(
            SECTION,
            "CPU seconds a decision (hard): p99",
            percentile(hard_times, 0.99),
            "s",
            "the issue's most",
            5.0,
            goal=("<=", 1.0),
            note=f"max {max(hard_times):.2f} s",
        ),
    ]


def memory_row() -> Row:
    """Peak resident memory of this process, which played every game of the section."""
    peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
    return Row(
        SECTION,
        "memory of a process playing bots (peak RSS)",
        peak_mb,
        "MB",
        "the issue's most",
        300.0,
        goal=("<=", 1.0),
        note="this process, after every game it played",
    )


def run(*, quick: bool = False, games: int | None = None) -> list[Row]:
    """The section's rows: every match of `MATCHES` and the hard self-play, `games` games each
    (default `GAMES`, `QUICK_GAMES` with quick)."""
    games = games or (QUICK_GAMES if quick else GAMES)
    rows = []
    hard_times: list = []
    for name, levels, goal in MATCHES:
        result = play_match(levels, games, name=name)
        rows.append(share_row(name, levels, games, goal, result))
        hard_times += result["think_times"].get("hard", [])
    self_play = play_match(("hard",) * 4, games, name="hard vs 3 hard")
    hard_times += self_play["think_times"]["hard"]
    rows.append(rounds_row(games, self_play["rounds"]))
    rows += cpu_rows(hard_times)
    rows.append(memory_row())
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bots", description="One match of bots.")
    parser.add_argument("levels", help="the levels seat by seat, e.g. hard,random,random,random")
    parser.add_argument("--games", type=int, default=GAMES)
    parser.add_argument(
        "--first", type=int, default=0, help="number of the first game (to split a match over processes)"
    )
    args = parser.parse_args(argv)
    levels = tuple(args.levels.split(","))
    if any(level not in bots.LEVELS for level in levels) or not 2 <= len(levels) <= 4:
        parser.error(f"2 to 4 levels among {', '.join(bots.LEVELS)}")
    started = time.process_time()
    result = play_match(levels, args.games, first=args.first)
    rows = []
    if len(set(levels[1:])) == 1 and levels[0] != levels[1]:
        name = f"{levels[0]} vs {len(levels) - 1} {levels[1]}"
        goal = next((g for n, _l, g in MATCHES if n == name), FAIR_SHARE)
        rows.append(share_row(name, levels, args.games, goal, result))
    if set(levels) == {"hard"}:
        rows.append(rounds_row(args.games, result["rounds"]))
    if "hard" in result["think_times"]:
        rows += cpu_rows(result["think_times"]["hard"])
    rows.append(memory_row())
    print(markdown(rows))
    print(f"wins: {result['wins']}; rounds: {result['rounds']}; {time.process_time() - started:.0f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
