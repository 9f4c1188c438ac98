"""The strong bot: the hard bot's candidates raced on more deals than the hard bot plays.

A search over determinizations (the deals of information-set Monte Carlo search, Cowling,
Powley & Whitehouse 2012): each deal gives the cards hidden from the seat at random,
consistent with what it sees (`rules.deal_hidden(known, seat, rng)`), and every command
compared is played on the same deal and the same seed (common random numbers: chance favours
none of them), then every seat's next decisions with the light policy, scored by the hard bot's
score (the victory race and the Action cards' worth in hand, `games.bots.hard.rollout_values`).

1. The hard bot's step: the same prudent options, draft and settled decisions
   (`games.bots.hard.prepare`); the search is spent on the Season's turns and the clashes.
2. The candidates: the hard bot's shortlist, the `SHORTLIST` best commands of its whole-turn
   look-ahead on one deal (`games.bots.hard.shortlist`), each command charged first the threat
   it leaves standing (`threat`: a rival meeting a victory condition beyond the bot's own, or
   as many while it will be the Brenn at the next check, wins the next Assembly unless stopped;
   the rollouts often show another seat stopping it, which a strong player does not count on).
3. The hard bot's own `DEALS` deals are played for every candidate: on them the leader is the
   best by the hard bot's total (the whole-turn score, less the threat, and those rollouts),
   which is the hard bot's choice when nothing threatens.
4. More deals while the budget lasts (`Budget`: CPU seconds, optionally a count of deals), for
   the candidates still racing: one leaves the race once it is clearly worse than the leader
   (its mean paired difference below zero by `RACE` standard errors), and the search ends when
   one is left. The leader is the best by the hard bot's total, its rollouts' share the mean
   of every deal played.

So it never has less evidence than the hard bot, and spends the rest on the commands still in
doubt. The hard bot's choice is itself a coin toss between close commands: with another
generator it sends another command at about half its searched decisions (11 positions of a
game, `tests/bots/test_strong_bot.py`'s kind). The tree search this replaces lost to the hard
bot (1 of 8 games against three of it at 0.5 s a decision): about 50 iterations of short
rollouts scored on the race alone, and the most visited command played, noisier than the hard
bot's own estimate.

Bounded by deals alone it is deterministic for a generator and an information set; bounded by
seconds it looks as far as the machine allows. A clash's decisions get `CLASH_SHARE` of the
seconds. Rulebook sources: Victory Conditions, Deeds, End of the Game (the score, via
`games.bots.race`); Season (a pass may end it, `games.bots.prudence.pass_risk`).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, replace

from games import rules

from .hard import DEALS, SHORTLIST, prepare, rollout_values, shortlist
from .lookahead import LIMIT, play
from .prudence import pass_risk

# What a rival's victory condition met costs, over its race value (race-score units).
DANGER = 1.5
# The rules' seed of the play that shows the threat a command leaves (the same for every command).
THREAT_SEED = 39
# CPU seconds a decision, the worker's default (the settings' BOT_STRONG_MS).
DEFAULT_SECONDS = 2.0
# A candidate leaves the race once its mean paired gain over the leader is below zero by
# `RACE` standard errors; the search ends when one is left, and after `MAX_DEALS` deals.
RACE = 2.0
MAX_DEALS = 64
# The decisions of a clash (maneuvers, answers to an Attack, Citadel, peace) weigh less than a
# Season turn: they search this share of the budget.
CLASH_SHARE = 0.5


@dataclass(frozen=True)
class Budget:
    """How long the strong bot searches a decision: `seconds` of CPU time and, when set, at most
    `iterations` deals (the hard bot's `DEALS` are always played: they give its own choice), and
    never more than `max_deals`. `race`: whether a candidate clearly worse than the leader
    leaves the race (`RACE`); off, every candidate is played on every deal (the bench's
    comparison of searches, `bench.strong_search`)."""

    seconds: float = DEFAULT_SECONDS
    iterations: int | None = None
    max_deals: int = MAX_DEALS
    race: bool = True


@dataclass(frozen=True)
class Verdict:
    """What a search found: the `command` chosen, the hard bot's choice from its own deals
    (`anchor`), and the `deals` played for the chosen command."""

    command: rules.Command
    anchor: rules.Command
    deals: int


def threat(state, seat: str) -> float:
    """What the rivals' victory conditions threaten `seat` with (race-score units, 0 or more):
    `DANGER` for each condition the best-placed rival meets beyond `seat`'s own (one more when
    that rival is already a Pretender), and for a rival meeting as many (at least one) who will
    be the Brenn at the next Assembly's check: such a rival wins the next Assembly unless
    stopped (rulebook, Victory Conditions; End of the Game: "if the Brenn is among the tied
    players, he wins the game"). Public facts only."""
    mine = rules.conditions_met(state, seat)
    brenn = next_brenn(state)
    worst = 0.0
    for rival in state.seats:
        if rival == seat:
            continue
        theirs = rules.conditions_met(state, rival)
        ahead = theirs - mine
        if ahead > 0 or (ahead == 0 and theirs > 0 and rival == brenn):
            worst = max(worst, DANGER * (max(ahead, 1) + (rival in state.pretenders)))
    return worst


def next_brenn(state) -> str | None:
    """Who will be the Brenn when the next Assembly checks for victory: the Capital's chieftain,
    or the Brenn now when it has none (rulebook, Assembly, step 1: the title passes to the
    Capital territory's chieftain)."""
    chief = state.chieftain(state.capital) if state.capital in state.territories else None
    return chief or state.brenn


def _clearly_worse(values: list[float], leader: list[float], offset: float) -> bool:
    """Whether `values`' mean paired difference from `leader` (the same deals), plus `offset`,
    is below zero by `RACE` standard errors."""
    diffs = [v - a + offset for v, a in zip(values, leader)]
    n = len(diffs)
    if n < 2:
        return False
    mean = sum(diffs) / n
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean + RACE * math.sqrt(variance / n) < 0.0


def search(known, seat: str, options: list[rules.Command], rng: random.Random, budget: Budget) -> Verdict:
    """The strong bot's search on `known` (`seat`'s information set) among `options` within
    `budget` (the steps of the module's docstring)."""
    started = time.process_time()
    deals = [rules.deal_hidden(known, seat, rng) for _ in range(DEALS)]
    # A rival left meeting a victory condition the command could have taken away is a threat
    # the look-ahead and the rollouts may not show (the other seats' light policy often takes
    # it away for the bot): each command is charged the threat just after it, on the first deal
    # (`DEALS` times: the weight of the rollouts in the total), before the best are shortlisted.
    # Without a threat the shortlist is the hard bot's.
    ranked = []
    for score, command in shortlist(deals[0], seat, options, rng, LIMIT):
        charge = threat(play(deals[0], seat, command, THREAT_SEED) or known, seat)
        ranked.append((score - DEALS * charge, charge, command))
    ranked.sort(key=lambda entry: -entry[0])
    scored = [(score, command) for score, _charge, command in ranked[:SHORTLIST]]
    charged = [charge for _score, charge, _command in ranked[:SHORTLIST]]
    if len(scored) <= 1:
        only = scored[0][1] if scored else options[0]
        return Verdict(only, only, 0)
    commands = [command for _score, command in scored]
    risk = pass_risk(known, seat)
    samples: list[list[float]] = [[] for _ in commands]
    for deal in deals:
        for k, rolled in enumerate(rollout_values(deal, seat, commands, rng, risk)):
            samples[k].append(rolled)

    def total(k: int) -> float:
        # The hard bot's total (the whole-turn score and `DEALS` rollouts), its rollouts'
        # share taken from every deal played, less the threat the command leaves (in `scored`).
        return scored[k][0] + DEALS * sum(samples[k]) / len(samples[k])

    def leader() -> int:
        return max(racing, key=lambda k: (total(k), -k))

    racing = list(range(len(commands)))
    anchor = commands[leader()]
    most = budget.max_deals
    limit = most if budget.iterations is None else max(DEALS, min(most, budget.iterations))
    done = DEALS
    while done < limit:
        best = leader()
        racing = [
            k
            for k in racing
            if k == best
            or not budget.race
            or not _clearly_worse(samples[k], samples[best], charged[best] - charged[k])
        ]
        if len(racing) == 1:
            break
        spent = time.process_time() - started
        # A deal costs about what the others did: one that would end past the budget is not begun.
        if budget.iterations is None and spent + spent / (done + 1) > budget.seconds:
            break
        deal = rules.deal_hidden(known, seat, rng)
        values = rollout_values(deal, seat, [commands[k] for k in racing], rng, risk)
        for k, v in zip(racing, values):
            samples[k].append(v)
        done += 1
    return Verdict(commands[leader()], anchor, done)


def strong_verdict(known, seat: str, rng: random.Random, budget: Budget | None = None) -> Verdict:
    """The strong bot's decision for `seat` on its information set `known` (`rules.deal_hidden`),
    searching within `budget` (default `Budget()`: `DEFAULT_SECONDS` of CPU), with what the
    search found (`Verdict`: 0 deals when the hard bot's step settled it, or one candidate was
    left). Raises LookupError when `seat` has nothing to decide."""
    prepared = prepare(known, seat, rng)
    if prepared.settled is not None:
        return Verdict(prepared.settled, prepared.settled, 0)
    budget = budget or Budget()
    if "season_turn" not in prepared.kinds:
        budget = replace(budget, seconds=budget.seconds * CLASH_SHARE)
    return search(known, seat, prepared.options, rng, budget)


def strong_command(known, seat: str, rng: random.Random, budget: Budget | None = None) -> rules.Command:
    """The strong bot's command for `seat` on its information set `known` (`strong_verdict`'s).
    Raises LookupError when `seat` has nothing to decide."""
    return strong_verdict(known, seat, rng, budget).command


__all__ = [
    "DEFAULT_SECONDS",
    "Budget",
    "Verdict",
    "next_brenn",
    "search",
    "strong_command",
    "strong_verdict",
    "threat",
]
