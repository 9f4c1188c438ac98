"""Does the strong bot's search find what its own estimate prefers? (issue 39), rules alone.

The strong bot (`games.bots.strong`) races the hard bot's shortlist on more deals than the hard
bot plays, dropping a candidate once it is clearly worse (`RACE` standard errors, looked at
after every deal). This tool takes `--positions` searched decisions of random 4-player games
(a Season turn or a clash's decision with more than two legal commands, nobody meeting a
victory condition: `tests.bots.test_strong_bot.searched_positions`) and compares, on each:

- the command of a long search (`--truth` deals, every candidate on every deal, none dropped,
  another generator): the best by the estimate both bots use, as well as it can be known;
- the strong bot's, bounded by `--deals` deals (its race, as it plays);
- the same search with no candidate dropped (every candidate on every deal): whether the race's
  repeated looks drop the best;
- the hard bot's own choice (the strong bot's anchor: its `DEALS` deals).

Rows: the share of positions where each agrees with the long search, the hard bot's share as
the baseline. No goal: it says whether the strong bot's search, or the estimate it optimises,
limits how it plays (a search that finds its estimate's best command, and still wins no more
games than the hard bot, points at the estimate).

    python -m bench.strong_search [--positions 12] [--deals 64] [--truth 256] [--write]

About 40 s of CPU a position with the defaults (502 s for 12 on 2026-11-29).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from dataclasses import dataclass

from bench.table import Row
from games import rules
from games.bots import strong

SECTION = "bots"
# The deals of the long search, and of the strong bot's (its `MAX_DEALS`).
TRUTH_DEALS = 256
DEALS = strong.MAX_DEALS
POSITIONS = 12


@dataclass(frozen=True)
class Agreement:
    """Of `positions` searched decisions, how many times each search sent the long search's
    command: the strong bot's race (`race`), the same with no candidate dropped (`plain`), the
    hard bot (`hard`); `cpu`, the CPU seconds spent."""

    positions: int
    race: int
    plain: int
    hard: int
    cpu: float


def _verdict(state, seat: str, seed: int, deals: int, *, drop: bool) -> strong.Verdict:
    """The strong bot's search on `seat`'s information set in `state`, bounded by `deals` deals
    alone (its `MAX_DEALS` raised to them), dropping clearly worse candidates or none."""
    budget = strong.Budget(
        seconds=float("inf"), iterations=deals, max_deals=max(deals, strong.MAX_DEALS), race=drop
    )
    return strong.strong_verdict(rules.deal_hidden(state, seat), seat, random.Random(seed), budget)


def agreement(positions: int, deals: int, truth: int, seed: str = "strong-search") -> Agreement:
    """Compare the searches of the module's docstring on `positions` searched decisions."""
    from tests.bots.test_strong_bot import searched_positions

    found = searched_positions(seed, every=7)[:positions]
    started = time.process_time()
    race = plain = hard = 0
    for n, (state, seat) in enumerate(found):
        best = _verdict(state, seat, n + 1000, truth, drop=False).command
        raced = _verdict(state, seat, n, deals, drop=True)
        race += raced.command == best
        hard += raced.anchor == best
        plain += _verdict(state, seat, n, deals, drop=False).command == best
    return Agreement(len(found), race, plain, hard, time.process_time() - started)


def rows(found: Agreement, deals: int, truth: int) -> list[Row]:
    """The three rows of `found`, against the hard bot's share."""
    n = found.positions
    hard = 100 * found.hard / n
    note = (
        f"{n} searched decisions of random 4-player games (rounds 1-3); the long search: {truth} deals, "
        f"every candidate on each; {found.cpu:.0f} s CPU"
    )
    figures = (
        (f"strong search ({deals} deals) agrees with a {truth}-deal search", found.race),
        (f"the same with no candidate dropped agrees with a {truth}-deal search", found.plain),
    )
    return [
        Row(SECTION, figure, 100 * count / n, "%", "the hard bot's choice agrees", hard, note=note)
        for figure, count in figures
    ]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.strong_search", description=__doc__.split("\n")[0])
    parser.add_argument("--positions", type=int, default=POSITIONS)
    parser.add_argument("--deals", type=int, default=DEALS, help=f"the strong bot's deals (default {DEALS})")
    parser.add_argument("--truth", type=int, default=TRUTH_DEALS, help="the long search's deals")
    parser.add_argument("--write", action="store_true", help="merge the rows into bench/RESULTS.md")
    args = parser.parse_args(argv)
    from bench.bots import report

    found = agreement(args.positions, args.deals, args.truth)
    summary = "rows of `python -m bench.strong_search` (the rules alone: no database, no Redis)"
    return report(
        rows(found, args.deals, args.truth), args.write, argv, summary=summary, tool="strong_search"
    )


if __name__ == "__main__":
    sys.exit(main())
