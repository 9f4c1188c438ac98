"""The strong bot: information-set Monte Carlo tree search from the seat's view.

ISMCTS (Cowling, Powley & Whitehouse, "Information Set Monte Carlo Tree Search", 2012), in its
single-observer, multi-player form: one tree of commands, keyed by who decides and what they
send, searched over many determinizations. Each iteration

1. deals the cards hidden from the seat at random, consistent with what it sees
   (`rules.deal_hidden(known, seat, rng)`): another possible truth each time;
2. walks down the tree on that deal: at each node the seat deciding (the bot or a rival) picks,
   among its commands legal on this deal, the one of best upper confidence bound on *its own*
   reward (UCB1 with availability counts: a command counts as tried-for only on the deals where
   it was legal), and the Triskel windows a command opens are declined
   (`games.bots.lookahead.play`);
3. adds one new command to the tree, then plays `ROLLOUT_STEPS` more decisions with the cheap
   rollout policy (`games.bots.rollouts.light_command`: a one-move look-ahead over a few sampled
   commands), stopping at the end of the game and at the next draft;
4. scores every seat on the victory race (`evaluate`) and adds it along the path.

The root holds the `ROOT_LIMIT` best commands of the hard bot's whole-turn look-ahead, each
seeded with its score as `PRIOR` visits (progressive bias); the command tried most is played. The evaluation is the hard bot's score (the race
of `games.bots.race` and the Action cards' worth in hand, `games.bots.card_worth`) with the
threats a strong player watches (`threat`): a rival meeting a victory condition wins the next
Assembly unless stopped (rulebook, Victory Conditions; End of the Game), and since rivals
decide in the tree with their own reward, a Conquest or Attack that makes a rival chieftain of
6 opposing clans is seen the move the rival could make it.

Before the search, the moves a strong player does not make are left out
(`games.bots.prudence`), the draft keeps the Action cards worth most
(`games.bots.card_worth.draft_command`), and decisions that only finish a turn (where a tile
goes, which clan moves) take the hard bot's whole-turn look-ahead: the search is spent on the
Season's turns and the clashes (`games.bots.hard.SEARCHED`).

Its work is bounded by a `Budget`: CPU seconds (`time.process_time`) and, optionally, a count of
iterations. Bounded by iterations alone it is deterministic for a generator and an information
set; bounded by seconds it plays as deep as the machine allows. A clash's decisions get
`CLASH_SHARE` of the seconds, and the search stops early on a clear choice (`SURE`).
"""

from __future__ import annotations

import json
import math
import random
import time
from dataclasses import dataclass, field, replace
from typing import cast

from games import rules

from .card_worth import hand_worth
from .hard import prepare, turn_scores
from .lookahead import LIMIT, play, sample_commands
from .prudence import pass_risk, prudent_options
from .race import race_value
from .rollouts import light_command

# CPU seconds a decision, the worker's default (the settings' BOT_STRONG_SECONDS).
DEFAULT_SECONDS = 2.0
# Commands considered at the root (the best of the whole-turn look-ahead), and at a deeper node
# (sampled across kinds); the look-ahead's score counts as `PRIOR` visits of a root command.
ROOT_LIMIT = 6
PRIOR = 3
NODE_LIMIT = 8
# Decisions played by the rollout policy after the tree's leaf.
ROLLOUT_STEPS = 6
# UCB1's exploration constant, for rewards between 0 and 1.
EXPLORATION = 0.7
# A race score of this size is a near-certain win: rewards are tanh(score / SCALE).
SCALE = 3.0
# The search stops early once it has run `SURE_AFTER` iterations and one command holds `SURE`
# of them: a clear choice needs no more CPU, which keeps the median decision short.
SURE_AFTER = 64
SURE = 0.6
# The decisions of a clash (maneuvers, answers to an Attack, Citadel, peace) weigh less than a
# Season turn: they search this share of the budget.
CLASH_SHARE = 0.25
# What a rival's victory condition met costs, on the race's scale, over its race value.
DANGER = 1.5


@dataclass(frozen=True)
class Budget:
    """How long the strong bot searches a decision: `seconds` of CPU time and, when set, at most
    `iterations` iterations (the search stops at the first reached; it always runs one)."""

    seconds: float = DEFAULT_SECONDS
    iterations: int | None = None


@dataclass
class Node:
    """A command in the tree: sent by `mover`; its `visits`, the `total` reward of `mover` over
    them, and `available`: the iterations in which it was legal when its parent was reached."""

    mover: str = ""
    command: rules.Command | None = None
    visits: int = 0
    total: float = 0.0
    available: int = 0
    children: dict[str, Node] = field(default_factory=dict)


def threat(state, seat: str) -> float:
    """What the rivals' victory conditions threaten `seat` with (race-score units, 0 or more):
    `DANGER` for each condition the best-placed rival meets beyond `seat`'s own (one more when
    that rival is already a Pretender). Public facts only."""
    mine = rules.conditions_met(state, seat)
    worst = 0.0
    for rival in state.seats:
        if rival == seat:
            continue
        ahead = rules.conditions_met(state, rival) - mine
        if ahead > 0:
            worst = max(worst, DANGER * (ahead + (rival in state.pretenders)))
    return worst


def evaluate(state) -> dict[str, float]:
    """Every seat's reward on `state`, between -1 and 1: 1 for the winner and -1 for the others
    once the game is over, else tanh of its race value and hand worth, less the best rival's
    and the rivals' threat (`threat`), over `SCALE`."""
    if state.phase == "over":
        return {s: 1.0 if s == state.winner else -1.0 for s in state.seats}
    values = {s: race_value(state, s) + hand_worth(state, s) for s in state.seats}
    rewards = {}
    for seat in state.seats:
        best_other = max(v for s, v in values.items() if s != seat)
        score = values[seat] - best_other - threat(state, seat)
        rewards[seat] = math.tanh(score / SCALE)
    return rewards


def _key(mover: str, command: rules.Command) -> str:
    return mover + json.dumps(command, sort_keys=True, default=str)


def _ucb(child: Node) -> float:
    mean = child.total / child.visits
    return mean + EXPLORATION * math.sqrt(math.log(max(child.available, 1)) / child.visits)


def _deciding(state, rng: random.Random) -> str | None:
    """The seat that decides next on `state` (drawn by `rng` when several do), or None when the
    search stops there: the game over, a draft (next Season's cards), nobody deciding."""
    if state.phase == "over":
        return None
    decisions = rules.pending(state)
    if not decisions or any(d.kind == "draft" for d in decisions):
        return None
    seats = sorted({d.seat for d in decisions if d.seat is not None})
    if not seats:
        return None
    return seats[0] if len(seats) == 1 else rng.choice(seats)


def _select(node: Node, state, mover: str, options: list, rng: random.Random):
    """(child, state after it, whether the child is new) for one step down from `node` on this
    deal: a command legal here and never tried first, else the best bound of those tried;
    (None, state, False) when the rules accept none of `options` on this deal."""
    candidates = list(options)
    rng.shuffle(candidates)
    tried = [(c, node.children[_key(mover, c)]) for c in candidates if _key(mover, c) in node.children]
    untried = [c for c in candidates if _key(mover, c) not in node.children]
    for _child_command, child in tried:
        child.available += 1
    seed = rng.getrandbits(64)
    for command in untried:
        after = play(state, mover, command, seed)
        if after is not None:
            child = node.children[_key(mover, command)] = Node(mover, command, available=1)
            return child, after, True
    for command, child in sorted(tried, key=lambda pair: -_ucb(pair[1])):
        after = play(state, mover, command, seed)
        if after is not None:
            return child, after, False
    return None, state, False


def _rollout(state, rng: random.Random):
    for _ in range(ROLLOUT_STEPS):
        mover = _deciding(state, rng)
        if mover is None:
            break
        command = cast(rules.Command, light_command(state, mover, rng))
        after = play(state, mover, command, rng.getrandbits(64))
        if after is None:
            break
        state = after
    return state


def _iterate(root: Node, known, seat: str, root_options: list, rng: random.Random, pass_cost: float) -> None:
    """One iteration: a deal, a walk down the tree, one new node, a rollout, the rewards added
    along the path (a pass at the root less `pass_cost`: the Action cards it may lose)."""
    state = rules.deal_hidden(known, seat, rng)
    path = []
    node, mover, options = root, seat, root_options
    while True:
        child, state, new = _select(node, state, mover, options, rng)
        if child is None:
            break
        path.append(child)
        if new:
            break
        node = child
        next_mover = _deciding(state, rng)
        if next_mover is None:
            break
        mover = next_mover
        options = sample_commands(
            prudent_options(state, mover, rules.legal_commands(state, mover)), rng, NODE_LIMIT
        )
    rewards = evaluate(_rollout(state, rng))
    root.visits += 1
    for depth, child in enumerate(path):
        child.visits += 1
        child.total += rewards[child.mover]
        if depth == 0 and child.command is not None and child.command["type"] == "pass":
            child.total -= pass_cost


def _sure(root: Node, done: int) -> bool:
    """Whether one command of `root` holds `SURE` of `done` (at least `SURE_AFTER`) iterations."""
    if done < SURE_AFTER or done % 8:
        return False
    return max(child.visits for child in root.children.values()) >= SURE * done


def _seeded_root(known, seat: str, options: list[rules.Command], rng: random.Random):
    """(root, its commands): the `ROOT_LIMIT` best of `options` by the hard bot's whole-turn
    look-ahead on one deal (`games.bots.hard.turn_scores`), each child starting with `PRIOR`
    visits of that score (progressive bias: a few iterations cannot tell a dozen commands apart,
    so the search refines the look-ahead's ranking rather than starting from nothing)."""
    root = Node(seat)
    deal = rules.deal_hidden(known, seat, rng)
    scored = turn_scores(deal, seat, sample_commands(options, rng, LIMIT), rng)
    ranked = sorted((-score, rng.random(), i) for i, (score, _command) in enumerate(scored))[:ROOT_LIMIT]
    if not ranked:
        return root, sample_commands(options, rng, ROOT_LIMIT)
    root_options = []
    for negative, _tie, i in ranked:
        command = scored[i][1]
        reward = PRIOR * math.tanh(-negative / SCALE)
        root.children[_key(seat, command)] = Node(seat, command, PRIOR, reward, PRIOR)
        root_options.append(command)
    return root, root_options


def search(
    known, seat: str, options: list[rules.Command], rng: random.Random, budget: Budget
) -> tuple[rules.Command, Node]:
    """The command of `options` the search tries most from `known` (`seat`'s information set)
    within `budget`, and the search tree's root (its children: the commands tried)."""
    # The look-ahead that seeds the root counts in the budget: it bounds the whole decision.
    started = time.process_time()
    root, root_options = _seeded_root(known, seat, options, rng)
    pass_cost = math.tanh(pass_risk(known, seat) / SCALE)
    done = 0
    while True:
        _iterate(root, known, seat, root_options, rng, pass_cost)
        done += 1
        if budget.iterations is not None and done >= budget.iterations:
            break
        if time.process_time() - started >= budget.seconds or _sure(root, done):
            break
    if not root.children:
        return options[0], root
    best = max(root.children.values(), key=lambda c: (c.visits, c.total / max(c.visits, 1)))
    return best.command or options[0], root


def strong_command(known, seat: str, rng: random.Random, budget: Budget | None = None) -> rules.Command:
    """The strong bot's command for `seat` on its information set `known` (`rules.deal_hidden`),
    searching within `budget` (default `Budget()`: `DEFAULT_SECONDS` of CPU). Raises LookupError
    when `seat` has nothing to decide."""
    prepared = prepare(known, seat, rng)
    if prepared.settled is not None:
        return prepared.settled
    options, kinds = prepared.options, prepared.kinds
    budget = budget or Budget()
    if "season_turn" not in kinds:
        budget = replace(budget, seconds=budget.seconds * CLASH_SHARE)
    command, _root = search(known, seat, options, rng, budget)
    return command


__all__ = ["DEFAULT_SECONDS", "Budget", "evaluate", "search", "strong_command", "threat"]
