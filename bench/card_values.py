"""The Action cards' worth at the draft: the table `games.bots.card_worth.CARD_VALUES` (issue 28).

Plays `GAMES` 4-player games of easy bots with the rules alone (Triskel windows asked of their
holders, the service's default). At every Season turn where passing is allowed and every
Triskel window, for each Action card the deciding seat may play there, it plays the card with
each of its targets (at most `TARGETS`, sampled across kinds) on the true state, finishes the
turn with the light policy (`games.bots.rollouts.finish_turn`) and scores the victory race
(`games.bots.race`); the card's gain is its best score less the score of a pass (a decline in a
window) finished the same way, all from one seed. Geis and Raid, Triskel cards only, are
measured in the windows alone.
Each gain is clipped to ±`CLIP` (a play that decides the game outright would otherwise weigh
like a hundred good turns), and a card's value is the mean of its gains.

    python -m bench.card_values [--games N]    # prints the table and each card's count

This is a measuring tool, not the service: it reads the whole state (it is no seat), and its
output is pasted into `games/bots/card_worth.py` by hand, with the date and the count of turns.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time

from games import bots, rules
from games.bots.lookahead import play, sample_commands
from games.bots.race import race_score
from games.bots.rollouts import finish_turn

SEATS = ["green", "blue", "orange", "white"]
GAMES = 60
MAX_ROUNDS = 20
TARGETS = 8
CLIP = 3.0
MEASURED = frozenset({"season_turn", "reaction"})


def finished_score(state, seat: str, command: rules.Command, seed: int) -> float | None:
    """`seat`'s race score once `command` is played and its turn finished, or None if refused."""
    after = play(state, seat, command, seed)
    if after is None:
        return None
    return race_score(finish_turn(after, random.Random(seed)), seat)


def card_gains(state, seat: str, rng: random.Random) -> dict[str, float]:
    """For each Action card `seat` may play now: its best finished score less a pass's or a
    decline's (one seed for all); empty when `seat` may do neither."""
    options = rules.legal_commands(state, seat)
    passes = [option for option in options if option["type"] in ("pass", "decline")]
    if not passes:
        return {}
    seed = rng.getrandbits(64)
    reference = finished_score(state, seat, passes[0], seed)
    if reference is None:
        return {}
    by_card: dict[str, list] = {}
    for option in options:
        card = str(option.get("card", ""))
        if option["type"] in ("play", "react") and card and rules.CARDS[card].type == "action":
            by_card.setdefault(card, []).append(option)
    gains = {}
    for card, plays in by_card.items():
        scores = [finished_score(state, seat, c, seed) for c in sample_commands(plays, rng, TARGETS)]
        accepted = [s for s in scores if s is not None]
        if accepted:
            gains[card] = max(accepted) - reference
    return gains


def measure(games: int) -> dict[str, list[float]]:
    """Every card's clipped gains over `games` games of easy bots."""
    gains: dict[str, list[float]] = {}
    for i in range(games):
        seed = f"card-values-{i}"
        state = rules.fold(rules.start_game(SEATS, seed=seed, options={"reactions": "holders"}))
        chooser = random.Random(seed)
        measuring = random.Random(f"{seed}:measure")
        while not rules.is_over(state) and state.round <= MAX_ROUNDS:
            seat = chooser.choice(sorted({d.seat for d in rules.pending(state) if d.seat is not None}))
            if any(d.seat == seat and d.kind in MEASURED for d in rules.pending(state)):
                for card, gain in card_gains(state, seat, measuring).items():
                    gains.setdefault(card, []).append(max(-CLIP, min(CLIP, gain)))
            command = bots.choose(state, seat, "easy", rules.rng_for(f"{seed}:bot:{seat}", state.seq))
            for event in rules.decide(state, seat, command, rng=rules.rng_for(seed, state.seq)):
                rules.evolve(state, event)
    return gains


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.card_values", description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=GAMES)
    args = parser.parse_args(argv)
    started = time.process_time()
    gains = measure(args.games)
    print("CARD_VALUES: dict[str, float] = {")
    for card, values in sorted(gains.items(), key=lambda kv: -statistics.mean(kv[1])):
        print(f'    "{card}": {statistics.mean(values):.3f},  # {len(values)} turns')
    print("}")
    turns = sum(map(len, gains.values()))
    print(f"{args.games} games, {turns} card plays measured, {time.process_time() - started:.0f} s CPU")
    return 0


if __name__ == "__main__":
    sys.exit(main())
