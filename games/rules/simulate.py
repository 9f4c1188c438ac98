"""Random-legal-move games from the command line.

    python -m games.rules.simulate --players 4 --games 100 --seed 1

Prints how many games ended with a winner and the mean number of rounds and events. A game is
stopped (and counted as unfinished) after --max-rounds rounds: random play can go on forever.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from collections.abc import Callable
from typing import Any

from . import bot_command, decide, evolve, is_over, pending, rng_for, start_game
from .engine import fold
from .events import Event
from .state import GameState

SEATS = ["green", "blue", "orange", "white"]


def play_game(
    players: int,
    seed: str,
    *,
    setup: str = "random",
    max_rounds: int = 30,
    check: Callable[[GameState, list[Event]], object] | None = None,
    options: dict[str, Any] | None = None,
) -> tuple[GameState, list[Event]]:
    """Play one bot game; returns (state, events). `check(state, events)` runs after each command.
    options: `start_game`'s options, e.g. {"reactions": "holders"}."""
    events = start_game(SEATS[:players], seed=seed, setup=setup, options=options)
    state = fold(events)
    bot_rng = random.Random(seed)
    while not is_over(state) and state.round <= max_rounds:
        decisions = pending(state)
        if not decisions:
            raise AssertionError("no pending decision before the end of the game")
        seat = bot_rng.choice(sorted({d.seat for d in decisions if d.seat is not None}))
        command = bot_command(state, seat, bot_rng)
        new = decide(state, seat, command, rng=rng_for(seed, state.seq))
        for event in new:
            evolve(state, event)
        events.extend(new)
        if check:
            check(state, events)
    return state, events


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", default="1")
    parser.add_argument("--setup", choices=["random", "discovery"], default="random")
    parser.add_argument("--max-rounds", type=int, default=30)
    parser.add_argument(
        "--reactions",
        choices=["public", "holders"],
        default="public",
        help="who a Triskel window asks (docs/rules-api.md)",
    )
    args = parser.parse_args(argv)
    won, rounds, counts = 0, [], []
    for i in range(args.games):
        state, events = play_game(
            args.players,
            f"{args.seed}-{i}",
            setup=args.setup,
            max_rounds=args.max_rounds,
            options={"reactions": args.reactions},
        )
        won += state.winner is not None
        rounds.append(state.round)
        counts.append(len(events))
    print(
        f"{args.games} games, {args.players} players, {args.setup} setup: "
        f"{won} ended in a victory; mean {statistics.mean(rounds):.1f} rounds, "
        f"{statistics.mean(counts):.0f} events"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
