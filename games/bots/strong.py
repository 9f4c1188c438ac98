"""The strong bot: the hard bot's choice, overturned only on clear evidence from more deals.

A search over determinizations (the deals of information-set Monte Carlo search, Cowling,
Powley & Whitehouse 2012): each deal gives the cards hidden from the seat at random,
consistent with what it sees (`rules.deal_hidden(known, seat, rng)`), and every command
compared is played on the same deal and the same seed (common random numbers: chance favours
none of them), then every seat's next decisions with the light policy, scored by the hard bot's
score (the victory race and the Action cards' worth in hand, `games.bots.hard.rollout_values`).

1. The hard bot's step: the same prudent options, draft and settled decisions
   (`games.bots.hard.prepare`); the search is spent on the Season's turns and the clashes.
2. The candidates: the `WIDTH` best commands of the whole-turn look-ahead on one deal
   (`games.bots.hard.shortlist`), the hard bot's `SHORTLIST` and the next ones (widening).
3. The hard bot's choice first: its `DEALS` deals played for every candidate, and the best of
   its shortlist by its own totals (the whole-turn score and those rollouts) is the anchor.
4. More deals while the budget lasts (`Budget`: CPU seconds, optionally a count of deals),
   stopping early once no candidate can be clearly better than the anchor (`_settled`).
5. The anchor is kept unless another candidate's mean over the deals beats it by more than
   `CONFIDENCE` standard errors of the paired differences, and by `MARGIN`: a few noisy
   rollouts often prefer a command by chance, and an override on noise only makes the bot
   weaker than the hard one (bench, issue 39: the tree search that trusted its visit counts
   won 1 of 8 games against three hard bots).

Bounded by deals alone it is deterministic for a generator and an information set; bounded by
seconds it looks as far as the machine allows. A clash's decisions get `CLASH_SHARE` of the
seconds. Rulebook sources: Victory Conditions, Deeds, End of the Game (the score, via
`games.bots.race`); Season (a pass may end it, `games.bots.prudence.pass_risk`).
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from games import rules

from .hard import DEALS, SHORTLIST, prepare, rollout_values, shortlist
from .prudence import pass_risk

# CPU seconds a decision, the worker's default (the settings' BOT_STRONG_MS).
DEFAULT_SECONDS = 2.0
# Candidates compared: the hard bot's shortlist and the next best of its look-ahead.
WIDTH = SHORTLIST + 1
# The anchor is overturned only by a mean paired gain over at least `MIN_DEALS` deals of more
# than `CONFIDENCE` standard errors and `MARGIN` (race-score units: a quarter of an Action
# card's typical worth).
MIN_DEALS = 6
CONFIDENCE = 2.0
MARGIN = 0.1
# The search stops once every candidate's gain over the anchor is below zero by `SETTLED`
# standard errors (none can be clearly better), and after `MAX_DEALS` deals in any case.
SETTLED = 1.0
MAX_DEALS = 64
# The decisions of a clash (maneuvers, answers to an Attack, Citadel, peace) weigh less than a
# Season turn: they search this share of the budget.
CLASH_SHARE = 0.5


@dataclass(frozen=True)
class Budget:
    """How long the strong bot searches a decision: `seconds` of CPU time and, when set, at most
    `iterations` deals (the hard bot's `DEALS` are always played: the anchor needs them)."""

    seconds: float = DEFAULT_SECONDS
    iterations: int | None = None


@dataclass(frozen=True)
class Verdict:
    """What a search found: the `command` chosen, the hard bot's (`anchor`), the `deals`
    played, and the chosen command's mean gain over the anchor's rollouts (0 when kept)."""

    command: rules.Command
    anchor: rules.Command
    deals: int
    gain: float


def _gain(values: list[float], anchor: list[float]) -> tuple[float, float]:
    """(mean, standard error) of the paired differences `values` - `anchor` over the deals."""
    diffs = [v - a for v, a in zip(values, anchor)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean, math.inf
    variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean, math.sqrt(variance / n)


def _clearly_better(values: list[float], anchor: list[float]) -> float | None:
    """The mean gain of `values` over `anchor` when it is clear (see the module), else None."""
    if len(values) < MIN_DEALS:
        return None
    mean, error = _gain(values, anchor)
    return mean if mean > MARGIN and mean > CONFIDENCE * error else None


def _settled(samples: list[list[float]], a: int) -> bool:
    """Whether no candidate can be clearly better than the anchor `a`: each one's mean gain is
    below zero by `SETTLED` standard errors (after the first `DEALS` deals)."""
    if len(samples[a]) < DEALS:
        return False
    for k, values in enumerate(samples):
        if k == a:
            continue
        mean, error = _gain(values, samples[a])
        if mean + SETTLED * error >= 0.0:
            return False
    return True


def search(known, seat: str, options: list[rules.Command], rng: random.Random, budget: Budget) -> Verdict:
    """The strong bot's search on `known` (`seat`'s information set) among `options` within
    `budget` (the steps of the module's docstring)."""
    started = time.process_time()
    deals = [rules.deal_hidden(known, seat, rng) for _ in range(DEALS)]
    scored = shortlist(deals[0], seat, options, rng, WIDTH)
    if len(scored) <= 1:
        only = scored[0][1] if scored else options[0]
        return Verdict(only, only, 0, 0.0)
    commands = [command for _score, command in scored]
    risk = pass_risk(known, seat)
    samples: list[list[float]] = [[] for _ in commands]
    for deal in deals:
        for k, value in enumerate(rollout_values(deal, seat, commands, rng, risk)):
            samples[k].append(value)
    # The hard bot's choice: the best of its shortlist by the whole-turn score and its rollouts.
    first_totals = [scored[k][0] + sum(samples[k]) for k in range(min(SHORTLIST, len(commands)))]
    a = max(range(len(first_totals)), key=lambda k: (first_totals[k], -k))
    limit = MAX_DEALS if budget.iterations is None else max(DEALS, min(MAX_DEALS, budget.iterations))
    done = DEALS
    while done < limit and not _settled(samples, a):
        spent = time.process_time() - started
        # A deal costs about what the others did: one that would end past the budget is not begun.
        if budget.iterations is None and spent + spent / (done + 1) > budget.seconds:
            break
        deal = rules.deal_hidden(known, seat, rng)
        for k, value in enumerate(rollout_values(deal, seat, commands, rng, risk)):
            samples[k].append(value)
        done += 1
    # The whole-turn score counts as one more rollout, as for the hard bot: a candidate must
    # also beat the anchor's total with it.
    totals = [scored[k][0] + sum(samples[k]) for k in range(len(commands))]
    clear = []
    for k in range(len(commands)):
        gain = _clearly_better(samples[k], samples[a]) if k != a and totals[k] > totals[a] else None
        if gain is not None:
            clear.append((gain, -k))
    if not clear:
        return Verdict(commands[a], commands[a], done, 0.0)
    gain, negative = max(clear)
    return Verdict(commands[-negative], commands[a], done, gain)


def strong_command(known, seat: str, rng: random.Random, budget: Budget | None = None) -> rules.Command:
    """The strong bot's command for `seat` on its information set `known` (`rules.deal_hidden`),
    searching within `budget` (default `Budget()`: `DEFAULT_SECONDS` of CPU). Raises LookupError
    when `seat` has nothing to decide."""
    prepared = prepare(known, seat, rng)
    if prepared.settled is not None:
        return prepared.settled
    budget = budget or Budget()
    if "season_turn" not in prepared.kinds:
        budget = Budget(budget.seconds * CLASH_SHARE, budget.iterations)
    return search(known, seat, prepared.options, rng, budget).command


__all__ = ["DEFAULT_SECONDS", "Budget", "Verdict", "search", "strong_command"]
