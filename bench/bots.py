"""Bots rows: how well and how fast the bots of `games.bots` play (issue 28), rules alone.

Each match is a set of 4-player games played with the rules alone (`rules.decide` + `evolve`,
no database; Triskel windows ask "holders", the service's default), one bot level per seat,
the seats turned by one place each game so that every level sits in every seat. A seat deciding
is drawn from the game's seed when several decide at once (a draft). A game still going after
`MAX_ROUNDS` rounds counts as won by nobody.

- the share of games won by the first level against three of the second (`easy vs 3 random`,
  `hard vs 3 random`, `hard vs 3 easy`, `hard vs 3 sparring`), against a fair share (1 in 4);
- the median rounds a game of four hard bots lasts, against 8 (the issue's range: 4 to 8);
- the CPU seconds (`time.process_time`) of a hard bot's decision, median and 99th percentile,
  against the issue's 1 s and 5 s; the peak memory (ru_maxrss) of this process playing them,
  against 300 MB.

    python -m bench --only bots [--quick]            # the whole section
    python -m bench.bots hard,random,random,random --games 100   # one match, its rows printed
    python -m bench.bots hard,sparring,sparring,sparring --games 100 --write   # and into RESULTS.md
    python -m bench.bots --arena --games 40          # the levels' ratings (games/bots/ratings.json)

Every match and the arena may seat the bench's sparring partner (`bench.sparring`, level
"sparring"), a one-ply greedy bot no level is tuned on. The arena (`arena`) plays games of four
of `ARENA_LEVELS`, every set of four in turn and the seats turned, rates them in order with the
players' rating function (`community.ratings.rate`: the winner first, the others tied) and
writes each level's figure to `games.bots.ratings.RATINGS_FILE`, which the lobby shows.

The full section plays 100 games a match (`GAMES`), which takes hours of CPU with hard bots on
this machine; `--quick` plays `QUICK_GAMES`.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import math
import os
import platform
import random
import resource
import statistics
import sys
import time
from datetime import UTC, datetime
from itertools import combinations
from pathlib import Path

from bench.sparring import LEVEL as SPARRING
from bench.sparring import sparring_command
from bench.table import Row, markdown
from games import bots, rules
from games.bots import hard as bots_hard
from games.bots.ratings import STRONG_CPU_KEY, budget_key
from games.bots.strong import strong_verdict

SECTION = "bots"
SEATS = ["green", "blue", "orange", "white"]
GAMES = 100
QUICK_GAMES = 4
MAX_ROUNDS = 30
MATCHES = (
    ("easy vs 3 random", ("easy", "random", "random", "random"), 0.85),
    ("hard vs 3 random", ("hard", "random", "random", "random"), 0.97),
    ("hard vs 3 easy", ("hard", "easy", "easy", "easy"), 0.50),
    # Issue 39: against a bot it was never tuned on.
    ("hard vs 3 sparring", ("hard", SPARRING, SPARRING, SPARRING), 0.40),
    ("strong vs 3 hard", ("strong", "hard", "hard", "hard"), 0.45),
    ("strong vs 3 sparring", ("strong", SPARRING, SPARRING, SPARRING), 0.50),
)
# The strong bot's CPU seconds a decision in the bench (`--budget`): the worker's default
# (`games.bots.strong.DEFAULT_SECONDS`); a shorter one keeps a match within a night.
BUDGET = bots.Budget()
# The strong bot's CPU goals (issue 39): the median and the 99th percentile of a decision.
STRONG_CPU_GOALS = (0.5, 2.5)
FAIR_SHARE = 0.25
# What a part saved before parts said their niceness says of it.
NICE_UNKNOWN = "unknown"
# The code a match's games depend on: the rules, the bots and the sparring partner. A part saved
# says its fingerprint (`code_fingerprint`), so that parts played in different sessions merge only
# when the same code played them.
CODE_ROOTS = ("games/rules", "games/bots", "bench/sparring.py")


# Every level a match may seat: the product's and the bench's sparring partner.
ALL_LEVELS = (*bots.LEVELS, SPARRING)


def decide(
    state, seat: str, level: str, rng: random.Random, budget=BUDGET, searches: list | None = None
) -> rules.Command | dict:
    """`seat`'s command by the bot of `level` (one of `ALL_LEVELS`): `games.bots.choose` (the
    strong bot within `budget`), or the bench's sparring partner (`bench.sparring`). The strong
    bot's decision is `games.bots.choose`'s, taken through `strong_verdict` so that, for each
    decision it searched, `[changed, deals]` is appended to `searches`: whether its search sent
    another command than the hard bot's own choice (its anchor), and the deals it played."""
    if level == SPARRING:
        return sparring_command(state, seat, rng)
    if level != "strong":
        return bots.choose(state, seat, level, rng, budget)
    verdict = strong_verdict(rules.deal_hidden(state, seat), seat, rng, budget)
    if verdict.deals and searches is not None:
        searches.append([verdict.command != verdict.anchor, verdict.deals])
    return verdict.command


def play_game(
    levels, seed: str, think_times: dict, budget=BUDGET, searches: list | None = None
) -> tuple[str | None, int]:
    """One game with the bot of `levels[i]` in seat i (the strong bot within `budget`, a
    `games.bots.Budget`); returns (the winner's level or None, the round it ended in). The CPU
    seconds of each decision are appended to `think_times[level]`; the strong bot's searches to
    `searches` (`decide`)."""
    seats = SEATS[: len(levels)]
    by_seat = dict(zip(seats, levels))
    state = rules.fold(rules.start_game(seats, seed=seed, options={"reactions": "holders"}))
    chooser = random.Random(seed)
    while not rules.is_over(state) and state.round <= MAX_ROUNDS:
        seat = chooser.choice(sorted({d.seat for d in rules.pending(state) if d.seat is not None}))
        level = by_seat[seat]
        started = time.process_time()
        command = decide(state, seat, level, rules.rng_for(f"{seed}:bot:{seat}", state.seq), budget, searches)
        think_times.setdefault(level, []).append(time.process_time() - started)
        for event in rules.decide(state, seat, command, rng=rules.rng_for(seed, state.seq)):
            rules.evolve(state, event)
    return (by_seat[state.winner] if state.winner else None), state.round


def play_match(
    levels, games: int, *, name: str = "", first: int = 0, progress: bool = False, budget=BUDGET
) -> dict:
    """`games` games of `levels` (game numbers `first`, `first` + 1, ...: each its own seed), the
    seats turned by one place each game, the strong bot within `budget`; with `progress`, a line
    on stderr after each game. Returns
    `{"wins": {level: n}, "rounds": [...], "think_times": {level: [s, ...]}, "searches":
    [[changed, deals], ...]}` (the strong bot's searched decisions, `decide`)."""
    wins: dict = {}
    rounds = []
    think_times: dict = {}
    searches: list = []
    for i in range(first, first + games):
        turn = i % len(levels)
        turned = list(levels[turn:]) + list(levels[:turn])
        started = time.process_time()
        seed = f"bots-{name or ','.join(levels)}-{i}"
        winner, last_round = play_game(turned, seed, think_times, budget, searches)
        if winner:
            wins[winner] = wins.get(winner, 0) + 1
        rounds.append(last_round)
        if progress:
            print(
                f"game {i}: won by {winner or 'nobody'} in round {last_round}, "
                f"{time.process_time() - started:.0f} s CPU; wins so far {wins}",
                file=sys.stderr,
                flush=True,
            )
    return {"wins": wins, "rounds": rounds, "think_times": think_times, "searches": searches}


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


def rounds_row(games: int, rounds: list, level: str = "hard") -> Row:
    """The median rounds of four bots of `level` playing each other (the hard bot's by default)."""
    median_rounds = statistics.median(rounds)
    return Row(
        SECTION,
        f"{level} vs 3 {level}: median rounds a game",
        median_rounds,
        "rounds",
        "the issue's most",
        8.0,
        goal=("<=", 1.0),
        note=f"{games} games; at least 4: {'yes' if median_rounds >= 4 else 'NO'}; "
        f"mean {statistics.mean(rounds):.1f}",
    )


def cpu_rows(hard_times: list, level: str = "hard", goals: tuple[float, float] = (1.0, 5.0)) -> list[Row]:
    """A bot's CPU time a decision (the hard bot's by default): median and 99th percentile,
    against `goals` (seconds: the most for the median, for the 99th percentile)."""
    searched = [t for t in hard_times if t >= 0.001]
    return [
        Row(
            SECTION,
            f"CPU seconds a decision ({level}): median",
            statistics.median(hard_times),
            "s",
            "the issue's most",
            goals[0],
            goal=("<=", 1.0),
            note=f"{len(hard_times)} decisions of every match; those that searched (≥ 1 ms, "
            f"{len(searched)}): median {statistics.median(searched) if searched else 0:.2f} s",
        ),
        Row(
            SECTION,
            f"CPU seconds a decision ({level}): p99",
            percentile(hard_times, 0.99),
            "s",
            "the issue's most",
            goals[1],
            goal=("<=", 1.0),
            note=f"max {max(hard_times):.2f} s",
        ),
    ]


def search_row(searches: list, budget: float) -> Row:
    """The share of the strong bot's searched decisions (`decide`'s `[changed, deals]`) where
    its search sent another command than the hard bot's choice, with the deals it played: what
    its budget buys over the hard bot's `DEALS` deals. No goal: it explains the match's share."""
    changed = sum(1 for was_changed, _deals in searches if was_changed)
    deals = [d for _changed, d in searches]
    return Row(
        SECTION,
        f"strong, budget {budget:g} s: searched decisions where the search changed the hard bot's choice",
        100 * changed / len(searches),
        "%",
        note=f"{changed} of {len(searches)}; deals a searched decision: median {statistics.median(deals):g}, "
        f"mean {statistics.mean(deals):.1f} (the hard bot plays {bots_hard.DEALS})",
    )


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
        note="the process (the largest of a split match), after every game it played",
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


# The arena's levels: the product's and the sparring partner. Bots' accounts on the scale are
# negative, so that no player's account is one of them.
ARENA_LEVELS = ALL_LEVELS
ARENA_GAMES = 40


def arena_games(games: int, levels=ARENA_LEVELS, budget=BUDGET, first: int = 0) -> dict:
    """Games `first` to `first` + `games` - 1 of the arena: game i seats the (i mod n)-th set of
    four of `levels` (all of them when fewer), the seats turned by one place each round of the
    sets. Returns `{"games": [[i, seated levels, winner or None], ...], "think_times": {level:
    [s, ...]}}` (JSON: a part of a split arena, `--save`)."""
    tables = list(combinations(levels, min(4, len(levels))))
    played = []
    think_times: dict = {}
    for i in range(first, first + games):
        table = tables[i % len(tables)]
        turn = (i // len(tables)) % len(table)
        seated = table[turn:] + table[:turn]
        winner, _round = play_game(seated, f"arena-{i}", think_times, budget)
        played.append([i, list(seated), winner])
    return {"games": played, "think_times": think_times}


def arena(games: int, levels=ARENA_LEVELS, budget=BUDGET, parts: list | None = None) -> dict:
    """`games` 4-player games of `levels` (`arena_games`; or the games of `parts`, as
    `arena_games` returns them), rated one after the other, in the order of their numbers, with
    `community.ratings.rate` (needs Django set up: the players' function reads a model module).
    Returns `{"ratings": {level: Rating}, "wins": {level: n}, "played": {level: n},
    "think_times": {level: [s, ...]}}`."""
    from community.ratings import rate

    parts = parts or [arena_games(games, levels, budget)]
    ids = {level: -(n + 1) for n, level in enumerate(levels)}
    ratings: dict = {}
    wins: dict = {}
    played: dict = {}
    think_times: dict = {}
    for part in parts:
        for level, times in part["think_times"].items():
            think_times.setdefault(level, []).extend(times)
    for _i, seated, winner in sorted(game for part in parts for game in part["games"]):
        for level in seated:
            played[level] = played.get(level, 0) + 1
        if winner:
            wins[winner] = wins.get(winner, 0) + 1
        ratings.update(rate(ratings, {ids[level]: 1 if winner in (None, level) else 2 for level in seated}))
    return {
        "ratings": {level: ratings[ids[level]] for level in levels if ids[level] in ratings},
        "wins": wins,
        "played": played,
        "think_times": think_times,
    }


def arena_rows(result: dict, games: int) -> list[Row]:
    """One row a level: its rating (mu - 3 sigma), with its wins, mu, sigma and CPU a decision."""
    rows = []
    for level, rating in result["ratings"].items():
        times = result["think_times"].get(level, [0.0])
        rows.append(
            Row(
                SECTION,
                f"arena: {level} bot's rating",
                round(rating.ordinal),
                "points",
                note=f"won {result['wins'].get(level, 0)} of {result['played'][level]} games; "
                f"mu {rating.mu:.0f}, sigma {rating.sigma:.0f}; CPU a decision median "
                f"{statistics.median(times) * 1000:.1f} ms, p99 {percentile(times, 0.99) * 1000:.0f} ms; "
                f"{games} games of 4 of {', '.join(result['ratings'])}",
            )
        )
    return rows


def write_ratings(result: dict, games: int, path=None, budget=BUDGET) -> Path:
    """Write the arena's figures to `path` (default `games.bots.ratings.RATINGS_FILE`), the file
    the lobby reads, with each level's CPU seconds a decision (median, 99th percentile; the
    strong bot within `budget`); returns its path."""
    from games.bots.ratings import RATINGS_FILE

    path = Path(path or RATINGS_FILE)
    levels = {
        level: {
            "rating": round(r.ordinal),
            "mu": round(r.mu, 1),
            "sigma": round(r.sigma, 1),
            "games": r.games,
            "cpu_median_s": round(statistics.median(result["think_times"].get(level, [0.0])), 4),
            "cpu_p99_s": round(percentile(result["think_times"].get(level, [0.0]), 0.99), 4),
        }
        for level, r in result["ratings"].items()
    }
    data = {
        "measured": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": f"python -m bench.bots --arena --games {games} --budget {budget.seconds:g}",
        "games": games,
        "strong_budget_s": budget.seconds,
        "levels": levels,
    }
    # What matches measured of the strong bot's CPU time at their budgets is theirs: kept.
    if path.exists():
        kept = json.loads(path.read_text()).get(STRONG_CPU_KEY)
        if kept:
            data[STRONG_CPU_KEY] = kept
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path


def record_strong_cpu(part: dict, path=None) -> Path:
    """Record in `path` (default `games.bots.ratings.RATINGS_FILE`) the strong bot's CPU seconds
    a decision in the match `part` (`played`, `merged`), under its budget (`STRONG_CPU_KEY`):
    what `games.bots.ratings.strongest_level` reads to know whether the strong bot fits the
    stand-in's CPU budget at the worker's setting. A match against other levels than the one
    recorded replaces it only with a higher 99th percentile: the most demanding opponents
    measured are the figure a CPU budget must hold (the strong bot thinks longer against hard
    bots than against the sparring partner). Returns the path."""
    from games.bots.ratings import RATINGS_FILE

    path = Path(path or RATINGS_FILE)
    data = json.loads(path.read_text()) if path.exists() else {"levels": {}}
    times = part["think_times"]["strong"]
    p99 = round(percentile(times, 0.99), 4)
    recorded = data.get(STRONG_CPU_KEY, {}).get(budget_key(part["budget"]))
    if recorded and not recorded["match"].startswith(f"{part['levels']},") and recorded["cpu_p99_s"] >= p99:
        return path
    data.setdefault(STRONG_CPU_KEY, {})[budget_key(part["budget"])] = {
        "cpu_median_s": round(statistics.median(times), 4),
        "cpu_p99_s": p99,
        "decisions": len(times),
        "match": f"{part['levels']}, {part['games']} games",
        "measured": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        # The match as one command (a split one was played in parts, then merged).
        "command": f"python -m bench.bots {part['levels']} --games {part['games']} --budget {part['budget']:g}",
    }
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path


def run_arena(games: int, write: bool, budget=BUDGET, parts: list | None = None) -> list[Row]:
    """Set Django up, play the arena (the strong bot within `budget`; or rate the games of
    `parts`, a split arena's, `arena_games`), write the ratings file; its rows."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "inis_pbem.settings")
    import django

    django.setup()
    result = arena(games, budget=budget, parts=parts)
    games = sum(len(part["games"]) for part in parts) if parts else games
    path = write_ratings(result, games, budget=budget)
    print(f"ratings written to {path}", file=sys.stderr)
    return arena_rows(result, games)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.bots", description="One match of bots, or the arena."
    )
    parser.add_argument("levels", nargs="?", help="the levels seat by seat, e.g. hard,random,random,random")
    parser.add_argument(
        "--games", type=int, default=None, help=f"default {GAMES}, with --arena {ARENA_GAMES}"
    )
    parser.add_argument(
        "--first", type=int, default=0, help="number of the first game (to split a match over processes)"
    )
    parser.add_argument("--arena", action="store_true", help="the round robin of every level, rated")
    parser.add_argument("--write", action="store_true", help="merge the rows into bench/RESULTS.md")
    parser.add_argument(
        "--budget",
        type=float,
        default=BUDGET.seconds,
        help=f"the strong bot's CPU seconds a decision (default {BUDGET.seconds:g})",
    )
    parser.add_argument("--save", help="also save the part's games to this JSON file (a split match)")
    parser.add_argument("--merge", nargs="+", help="no games: the rows of the parts saved by --save")
    args = parser.parse_args(argv)
    if args.arena:
        budget = bots.Budget(seconds=args.budget)
        if args.save:  # a part of a split arena: its games, not rated
            part = arena_games(args.games or ARENA_GAMES, budget=budget, first=args.first)
            Path(args.save).write_text(json.dumps({**part, "budget": args.budget}))
            return 0
        parts = [json.loads(Path(path).read_text()) for path in args.merge or ()]
        if any(part["budget"] != args.budget for part in parts):
            parser.error(f"--merge: every part must be at budget {args.budget:g}")
        rows = run_arena(args.games or ARENA_GAMES, args.write, budget, parts or None)
        return report(rows, args.write, argv)
    if not args.levels:
        parser.error("the levels of a match, or --arena")
    levels = tuple(args.levels.split(","))
    if any(level not in ALL_LEVELS for level in levels) or not 2 <= len(levels) <= 4:
        parser.error(f"2 to 4 levels among {', '.join(ALL_LEVELS)}")
    part = merged(args.merge, args.levels, args.budget) if args.merge else played(levels, args)
    if args.save:
        # To the microsecond: a part kept in bench/history/parts/ stays small.
        times = {level: [round(t, 6) for t in ts] for level, ts in part["think_times"].items()}
        Path(args.save).write_text(json.dumps({**part, "think_times": times}))
    rows = match_rows(levels, part)
    print(f"wins: {part['wins']}; rounds: {part['rounds']}; {part['cpu']:.0f} s CPU")
    if args.write and "strong" in part["think_times"]:
        path = record_strong_cpu(part)
        print(f"the strong bot's CPU a decision at {part['budget']:g} s written to {path}", file=sys.stderr)
    return report(rows, args.write, argv)


# Files built from tracked sources (`compilemessages` makes the .mo from the .po): not hashed.
BUILT_SUFFIXES = frozenset({".mo", ".pyc"})


def code_fingerprint(root: Path | None = None) -> str:
    """The first 12 hex digits of the SHA-256 of every file under `CODE_ROOTS` of `root` (this
    checkout by default; path and content, in path order; Python's caches and compiled message
    catalogues left out, which a checkout may or may not have built from the same sources): the
    same for two checkouts exactly when the rules, the bots and the sparring partner are the same."""
    root = root or Path(__file__).resolve().parent.parent
    digest = hashlib.sha256()
    for name in CODE_ROOTS:
        top = root / name
        files = [top] if top.is_file() else sorted(top.rglob("*"))
        for path in files:
            if path.is_file() and "__pycache__" not in path.parts and path.suffix not in BUILT_SUFFIXES:
                digest.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:12]


def played(levels, args) -> dict:
    """Play the match of `args` (its games from `args.first`); the part as `--save` writes it:
    the `play_match` result with the games, the budget, the load before and after, the CPU
    seconds spent and the peak RSS (MB)."""
    started = time.process_time()
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    games = args.games or GAMES
    budget = bots.Budget(seconds=args.budget)
    result = play_match(levels, games, first=args.first, progress=True, budget=budget)
    return {
        **result,
        "levels": args.levels,
        "games": games,
        "first": [args.first],
        "budget": args.budget,
        "loads": [f"{load} at start, {' '.join(f'{x:.1f}' for x in os.getloadavg())} at end"],
        "cpu": time.process_time() - started,
        "peak_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "nice": os.nice(0),
        "code": code_fingerprint(),
    }


def merged(paths: list[str], levels: str, budget: float) -> dict:
    """The parts saved at `paths` (by `--save`) as one match; raises SystemExit when one is of
    another match or budget."""
    parts = [json.loads(Path(path).read_text()) for path in paths]
    if any(p["levels"] != levels or p["budget"] != budget for p in parts):
        raise SystemExit(f"--merge: every part must be the match {levels} at budget {budget:g}")
    codes = sorted({p.get("code", NICE_UNKNOWN) for p in parts})
    if len(codes) > 1:
        raise SystemExit(
            f"--merge: the parts were played by different code of the rules and bots ({', '.join(codes)}):"
            " merge only parts of the same code"
        )
    think_times: dict = {}
    wins: dict = {}
    for p in parts:
        for level, times in p["think_times"].items():
            think_times.setdefault(level, []).extend(times)
        for level, won in p["wins"].items():
            wins[level] = wins.get(level, 0) + won
    return {
        "wins": wins,
        "rounds": [r for p in parts for r in p["rounds"]],
        "think_times": think_times,
        # Parts saved before the searches were kept have none.
        "searches": [s for p in parts for s in p.get("searches", [])],
        "levels": levels,
        "games": sum(p["games"] for p in parts),
        "first": sorted(f for p in parts for f in p["first"]),
        "budget": budget,
        "loads": [load for p in parts for load in p["loads"]],
        "cpu": sum(p["cpu"] for p in parts),
        "peak_mb": max(p["peak_mb"] for p in parts),
        "nice": sorted({p.get("nice", NICE_UNKNOWN) for p in parts}, key=str),
        "code": codes[0],
    }


def match_rows(levels, part: dict) -> list[Row]:
    """The rows of a match played or merged (`played`, `merged`): the share won, the median
    rounds of a self-play, the CPU a decision of each bot, the peak memory of a process."""
    games, budget = part["games"], part["budget"]
    rows = []
    if len(set(levels[1:])) == 1 and levels[0] != levels[1]:
        name = f"{levels[0]} vs {len(levels) - 1} {levels[1]}"
        goal = next((g for n, _l, g in MATCHES if n == name), FAIR_SHARE)
        row = share_row(name, levels, games, goal, part)
        interval = f"; 95% interval {wilson(part['wins'].get(levels[0], 0), games)}"
        rows.append(dataclasses.replace(row, note=row.note + interval))
    if len(set(levels)) == 1 and levels[0] in ("hard", "strong"):
        rows.append(rounds_row(games, part["rounds"], levels[0]))
    if "strong" in part["think_times"]:
        rows += cpu_rows(part["think_times"]["strong"], f"strong, budget {budget:g} s", STRONG_CPU_GOALS)
    if part.get("searches"):
        rows.append(search_row(part["searches"], budget))
    if "hard" in part["think_times"]:
        rows += cpu_rows(part["think_times"]["hard"])
    if SPARRING in part["think_times"]:
        rows += cpu_rows(part["think_times"][SPARRING], SPARRING)
    rows.append(dataclasses.replace(memory_row(), value=part["peak_mb"]))
    # Every row says what it was measured under: the match, its games, the strong bot's budget,
    # the load of each process at its start and end (other processes share the cores).
    nice = part.get("nice", NICE_UNKNOWN)
    nice = "/".join(str(n) for n in nice) if isinstance(nice, list) else str(nice)
    said = (
        f"; match {part['levels']}, {games} games in {len(part['first'])} process(es) under nice {nice}, "
        f"code {part.get('code', NICE_UNKNOWN)}, "
        f"{part['cpu']:.0f} s CPU; strong budget {budget:g} s CPU a decision; "
        f"load {'; '.join(part['loads'])}"
    )
    return [dataclasses.replace(row, note=row.note + said) for row in rows]


def wilson(won: int, games: int) -> str:
    """The Wilson 95% interval of a share `won` of `games`, in percent ("15-38%")."""
    z = 1.96
    share = won / games
    centre = (share + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(share * (1 - share) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return f"{100 * (centre - half):.0f}-{100 * (centre + half):.0f}%"


def report(
    rows: list[Row],
    write: bool,
    argv,
    *,
    summary: str | None = None,
    machine: dict | None = None,
    tool: str = "bots",
) -> int:
    """Print `rows`; with `write`, merge them into bench/RESULTS.md (`bench.__main__.write_results`),
    the run said by `summary` on `machine` (default: the rules alone, `rules_only_machine`), its
    command `python -m bench.<tool> argv`."""
    table = markdown(rows)
    print(table)
    if write:
        from bench.__main__ import write_results

        write_results(
            str(Path(__file__).with_name("RESULTS.md")),
            rows,
            table,
            summary or "rows of `python -m bench.bots` alone (the rules alone: no database, no Redis)",
            machine or rules_only_machine(),
            [tool, *(argv if argv is not None else sys.argv[1:])],
        )
    return 0


def rules_only_machine() -> dict:
    """The machine's facts `write_results` records, for rows measured without PostgreSQL or
    Redis (which are named as not used)."""
    with open("/proc/meminfo") as meminfo:
        total_kib = int(next(line for line in meminfo if line.startswith("MemTotal")).split()[1])
    return {
        "cores": os.cpu_count(),
        "cpu": platform.processor(),
        "memory_gib": round(total_kib / 1024 / 1024, 1),
        "postgresql": "not used",
        "redis": "not used",
        "python": platform.python_version(),
        "load": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }


if __name__ == "__main__":
    sys.exit(main())
