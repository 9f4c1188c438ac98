"""Where the strong bot and the hard bot differ, which choice wins more? (issue 39), rules alone.

A match of the strong bot against three hard bots (`bench.bots`) costs some 150 s of CPU a game
and tells a change apart from the baseline only over a hundred games. This tool looks at the
decisions that make the difference, and plays out only those:

1. `collect`: games of the match (`bench.bots.play_match`'s seeds and seats, game `--first` on),
   and at every decision of the strong seat, the hard bot's command for the same seat, view and
   generator (`bench.bots.decide`). A decision where the two differ is a *position*. Each game is
   saved as JSON: the commands sent, seat by seat, from the game's start (the rules draw from the
   game's seed, so replaying them gives the same states), and its positions (the index of the
   decision in those commands, both choices, the kinds of decision pending, the strong bot's
   deals).
2. `judge`: from the true state of each position, the strong choice and the hard choice are
   played, then the game is finished by four bots of `--finish` (the hard bot), `--k` times each
   (continuation r draws the rules and every bot from the seed `<position>:judge:<r>`, the same
   for both choices: common random numbers). The Action deck is shuffled again at every
   Assembly from that seed, and the bots' generators differ, so the continuations differ; with
   `--redeal` the cards hidden from the deciding seat are also dealt again for each continuation
   (`rules.deal_hidden` from its view, the same deal for both choices). A game not over after
   `bench.bots.MAX_ROUNDS` counts as won by nobody. `--rechoose` asks the strong bot of this
   checkout for its choice again (its seat's view, its generator, `--budget`), to judge a
   changed strong bot on the same positions against the same hard choice.

Per position: the deciding seat's wins out of `--k` with each choice. Overall: the positions
where the strong choice won more, fewer, as many; the mean paired difference of the win share
(strong less hard; positions are the units) with its 95% interval (Student's t); the CPU seconds
(`time.process_time`) spent.

    python -m bench.bot_positions collect --games 4 --first 0 --budget 0.5 --out DIR
    python -m bench.bot_positions judge DIR/*.json --k 4 [--save judged.json] [--rechoose]

With the defaults a position costs about 2 x k hard-bot continuations, some 20-50 s of CPU each
at the match's code (a whole game of four hard bots: about 50 s).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from pathlib import Path

from bench.bots import BUDGET, MAX_ROUNDS, SEATS, code_fingerprint, decide
from games import bots, rules

LEVELS = ("strong", "hard", "hard", "hard")
FINISH = "hard"
K = 4
# A position whose choices' win shares differ by at least this much is read as clearly
# better or worse for the strong choice (`clear`).
CLEAR = 0.5


def match_seed(levels, game: int) -> str:
    """The seed of game `game` of the match of `levels` as `python -m bench.bots` plays it."""
    return f"bots-{','.join(levels)}-{game}"


def seated(levels, game: int) -> dict:
    """Seat to level in game `game` (the seats turned by one place a game, `play_match`)."""
    turn = game % len(levels)
    turned = list(levels[turn:]) + list(levels[:turn])
    return dict(zip(SEATS[: len(levels)], turned))


def start(seats, seed: str):
    """The state at the start of a game of `seats` with `seed`, as the bench plays it."""
    return rules.fold(rules.start_game(list(seats), seed=seed, options={"reactions": "holders"}))


def send(state, seat: str, command, seed: str) -> None:
    """Apply `seat`'s `command` to `state` (changed), the rules drawing from `seed` at its seq."""
    for event in rules.decide(state, seat, command, rng=rules.rng_for(seed, state.seq)):
        rules.evolve(state, event)


def collect_game(
    game: int, levels=LEVELS, budget=BUDGET, max_positions: int | None = None, think: str = "strong"
) -> dict:
    """Play game `game` of the match of `levels` (its seed and seats as `bench.bots` plays it);
    at each decision of the `think` level's seat, the hard bot's command is asked too, on the
    same view with the same generator. Returns the game as `collect` saves it: `commands` (every
    `[seat, command]` sent, in order), `positions` (`at`: the index of the decision in
    `commands`, `seat`, `round`, `kinds`, `strong` and `hard` commands, the strong bot's
    `deals`), the winner's level, `cpu` seconds. With `max_positions`, the game stops once it
    has found that many."""
    started = time.process_time()
    seed = match_seed(levels, game)
    by_seat = seated(levels, game)
    state = start(by_seat, seed)
    chooser = random.Random(seed)
    commands: list = []
    found: list = []
    while not rules.is_over(state) and state.round <= MAX_ROUNDS:
        if max_positions is not None and len(found) >= max_positions:
            break
        seat = chooser.choice(sorted({d.seat for d in rules.pending(state) if d.seat is not None}))
        bot_seed = f"{seed}:bot:{seat}"
        searches: list = []
        command = decide(state, seat, by_seat[seat], rules.rng_for(bot_seed, state.seq), budget, searches)
        if by_seat[seat] == think:
            hard = bots.choose(state, seat, "hard", rules.rng_for(bot_seed, state.seq))
            if hard != command:
                kinds = sorted({d.kind for d in rules.pending_for(state, seat) if d.seat == seat})
                found.append(
                    {
                        "at": len(commands),
                        "seat": seat,
                        "round": state.round,
                        "kinds": kinds,
                        "strong": command,
                        "hard": hard,
                        "deals": searches[0][1] if searches else 0,
                    }
                )
        commands.append([seat, command])
        send(state, seat, command, seed)
    return {
        "levels": ",".join(levels),
        "game": game,
        "seed": seed,
        "seats": by_seat,
        "budget": budget.seconds,
        "code": code_fingerprint(),
        "winner": by_seat[state.winner] if state.winner else None,
        "rounds": state.round,
        "cpu": time.process_time() - started,
        "commands": commands,
        "positions": found,
    }


def replay(game: dict, at: int):
    """The true state of `game` (as `collect_game` returns it) before its decision `at`."""
    state = start(game["seats"], game["seed"])
    for seat, command in game["commands"][:at]:
        send(state, seat, command, game["seed"])
    return state


def finish(state, seed: str, level: str = FINISH) -> str | None:
    """The seat that wins once four bots of `level` finish the game from `state` (changed), every
    draw from `seed`; None when nobody has won after `MAX_ROUNDS` rounds."""
    chooser = random.Random(seed)
    while not rules.is_over(state) and state.round <= MAX_ROUNDS:
        seat = chooser.choice(sorted({d.seat for d in rules.pending(state) if d.seat is not None}))
        command = bots.choose(state, seat, level, rules.rng_for(f"{seed}:bot:{seat}", state.seq))
        send(state, seat, command, seed)
    return state.winner


def judge_position(
    game: dict, position: dict, k: int = K, level: str = FINISH, redeal: bool = False, strong=None
) -> dict:
    """Wins of the deciding seat out of `k` continuations after each choice (`strong`, by default
    the position's own, and its `hard`), paired on seeds (the module's docstring); with the
    CPU seconds it took."""
    started = time.process_time()
    seat = position["seat"]
    before = replay(game, position["at"])
    strong = position["strong"] if strong is None else strong
    wins: dict[str, list[int]] = {"strong": [], "hard": []}
    for r in range(k):
        seed = f"{game['seed']}:{position['at']}:judge:{r}"
        dealt = rules.deal_hidden(before, seat, random.Random(seed)) if redeal else before
        for side, command in (("strong", strong), ("hard", position["hard"])):
            state = dealt.clone()
            send(state, seat, command, seed)
            wins[side].append(int(finish(state, seed, level) == seat))
    return {
        "game": game["game"],
        "at": position["at"],
        "seat": seat,
        "round": position["round"],
        "kinds": position["kinds"],
        "strong": strong,
        "hard": position["hard"],
        "wins": wins,
        "cpu": time.process_time() - started,
    }


def rechoose(game: dict, position: dict, budget=BUDGET) -> rules.Command | dict:
    """The strong bot's choice at `position` by this checkout's code, on the seat's view with the
    generator the match gave it, within `budget`."""
    state = replay(game, position["at"])
    seat = position["seat"]
    return decide(state, seat, "strong", rules.rng_for(f"{game['seed']}:bot:{seat}", state.seq), budget)


def t_quantile(df: int) -> float:
    """Student's t 97.5% quantile for `df` degrees of freedom (Cornish-Fisher, within 1% from 3)."""
    z = 1.959964
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


def difference(judged: dict) -> float:
    """The strong choice's win share less the hard choice's at a judged position; 0 when the two
    choices are the same (nothing played: `--rechoose` found the hard choice)."""
    strong, hard = judged["wins"]["strong"], judged["wins"]["hard"]
    return statistics.mean(strong) - statistics.mean(hard) if strong else 0.0


def summary(judged: list[dict]) -> dict:
    """The overall figures of judged positions (`judge_position`)."""
    diffs = [difference(j) for j in judged]
    n = len(diffs)
    mean = statistics.mean(diffs) if diffs else 0.0
    half = t_quantile(n - 1) * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else math.inf
    return {
        "positions": n,
        "better": sum(d > 0 for d in diffs),
        "worse": sum(d < 0 for d in diffs),
        "same": sum(d == 0 for d in diffs),
        "clearly_worse": sum(d <= -CLEAR for d in diffs),
        "clearly_better": sum(d >= CLEAR for d in diffs),
        "strong_wins": sum(sum(j["wins"]["strong"]) for j in judged),
        "hard_wins": sum(sum(j["wins"]["hard"]) for j in judged),
        "continuations": sum(len(j["wins"]["strong"]) for j in judged),
        "mean_difference": mean,
        "interval": [mean - half, mean + half],
        "cpu": sum(j["cpu"] for j in judged),
    }


def describe(judged: dict) -> str:
    """One line of a judged position."""
    s, h = judged["wins"]["strong"], judged["wins"]["hard"]
    return (
        f"game {judged['game']} #{judged['at']} {judged['seat']} round {judged['round']} "
        f"{'/'.join(judged['kinds'])}: strong {sum(s)}/{len(s)} {json.dumps(judged['strong'])} | "
        f"hard {sum(h)}/{len(h)} {json.dumps(judged['hard'])} ({judged['cpu']:.0f} s)"
    )


def report(figures: dict) -> str:
    """The overall figures as lines."""
    low, high = figures["interval"]
    return (
        f"{figures['positions']} positions, {figures['continuations']} continuations a choice: the strong "
        f"choice won more at {figures['better']}, fewer at {figures['worse']}, as many at {figures['same']} "
        f"(clearly: better {figures['clearly_better']}, worse {figures['clearly_worse']}); wins "
        f"{figures['strong_wins']} against {figures['hard_wins']}; mean difference of the win share "
        f"{figures['mean_difference']:+.3f} (95% interval {low:+.3f} to {high:+.3f}); "
        f"{figures['cpu']:.0f} s CPU"
    )


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bot_positions", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="step", required=True)
    gather = commands.add_parser("collect", help="play games and keep the positions where the choices differ")
    gather.add_argument("--games", type=int, default=1)
    gather.add_argument("--first", type=int, default=0)
    gather.add_argument(
        "--budget", type=float, default=BUDGET.seconds, help="the strong bot's CPU s a decision"
    )
    gather.add_argument("--out", required=True, help="a folder: one JSON file a game")
    weigh = commands.add_parser("judge", help="play out both choices of the saved positions")
    weigh.add_argument("games", nargs="+", help="files saved by collect")
    weigh.add_argument("--k", type=int, default=K, help="continuations a choice")
    weigh.add_argument("--finish", default=FINISH, help="the level of the four bots that finish the game")
    weigh.add_argument("--redeal", action="store_true", help="deal the deciding seat's hidden cards again")
    weigh.add_argument("--rechoose", action="store_true", help="the strong choice by this checkout's bot")
    weigh.add_argument("--budget", type=float, default=None, help="with --rechoose (default: the game's)")
    weigh.add_argument("--only", help="positions as GAME:AT,GAME:AT (default: all)")
    weigh.add_argument("--save", help="write the judged positions and figures to this JSON file")
    args = parser.parse_args(argv)
    if args.step == "collect":
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        for game in range(args.first, args.first + args.games):
            played = collect_game(game, budget=bots.Budget(seconds=args.budget))
            path = out / f"game-{game}.json"
            path.write_text(json.dumps(played, separators=(",", ":")) + "\n")
            print(
                f"game {game}: {len(played['positions'])} positions, won by {played['winner'] or 'nobody'}, "
                f"{played['cpu']:.0f} s CPU -> {path}",
                flush=True,
            )
        return 0
    only = set(args.only.split(",")) if args.only else None
    judged = []
    for name in args.games:
        game = json.loads(Path(name).read_text())
        budget = bots.Budget(seconds=args.budget if args.budget is not None else game["budget"])
        for position in game["positions"]:
            if only is not None and f"{game['game']}:{position['at']}" not in only:
                continue
            strong = rechoose(game, position, budget) if args.rechoose else None
            if strong is not None and strong == position["hard"]:
                # The same choice: a difference of 0, nothing to play.
                judged.append(judge_position(game, position, 0, args.finish, args.redeal, strong))
            else:
                judged.append(judge_position(game, position, args.k, args.finish, args.redeal, strong))
            print(describe(judged[-1]), flush=True)
            if args.save:  # after every position: a long run stopped keeps what it judged
                save(args.save, judged)
    print(report(summary(judged)))
    return 0


def save(path: str, judged: list[dict]) -> None:
    """Write the judged positions and their overall figures to `path` (JSON)."""
    Path(path).write_text(json.dumps({"figures": summary(judged), "positions": judged}, indent=1) + "\n")


if __name__ == "__main__":
    sys.exit(main())
