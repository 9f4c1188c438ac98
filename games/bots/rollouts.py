"""The hard bot: determinized rollouts of a light easy policy (flat Monte Carlo over a shortlist).

For a decision with several legal commands, it shortlists the `SHORTLIST` best by the easy
bot's one-move look-ahead, then, on `DEALS` deals of the hidden cards consistent with what its
seat sees (determinizations, as in information-set Monte Carlo search), plays each shortlisted
command and every seat's next `HORIZON` decisions with the light policy (one-move look-ahead
over at most `ROLLOUT_LIMIT` sampled commands), and scores the race where the rollout stops.
The command with the best total wins; the same rules' generator seeds every command's rollout
on a deal, so chance favours none of them. Its work is bounded by these counts, not by a clock,
so it is deterministic for a generator and an information set.
"""

from __future__ import annotations

import random

from games import rules

from .lookahead import LIMIT, best_command, easy_command, play, sample_commands
from .race import race_score

SHORTLIST = 4
DEALS = 4
HORIZON = 24
ROLLOUT_LIMIT = 6
# The decisions worth a search: the Season's turns and the clashes. The others (the draft,
# Triskel windows, where a tile or a clan goes) are played by the easy bot's look-ahead.
SEARCHED = frozenset({"season_turn", "maneuver", "attack_response", "citadel", "peace_vote"})


def light_command(state, seat: str, rng: random.Random) -> dict:
    """The rollout policy: one-move look-ahead over at most `ROLLOUT_LIMIT` sampled commands."""
    options = rules.legal_commands(state, seat)
    if len(options) == 1:
        return options[0]
    command, _score = best_command(state, seat, sample_commands(options, rng, ROLLOUT_LIMIT), rng)
    return command


def rollout(state, seat: str, rng: random.Random, horizon: int = HORIZON) -> float:
    """`seat`'s race score after every seat plays `horizon` decisions (or the game ends) with the
    light policy, from `state` (changed in place)."""
    for _ in range(horizon):
        if state.phase == "over":
            break
        deciding = sorted({d.seat for d in rules.pending(state)})
        if not deciding:
            break
        mover = deciding[0] if len(deciding) == 1 else rng.choice(deciding)
        command = light_command(state, mover, rng)
        after = play(state, mover, command, rng.getrandbits(64))
        if after is None:
            break
        state = after
    return race_score(state, seat)


def hard_command(known, seat: str, rng: random.Random) -> dict:
    """The hard bot's command for `seat` on its information set `known` (`rules.deal_hidden`).
    Raises LookupError when `seat` has nothing to decide."""
    options = rules.legal_commands(known, seat)
    if not options:
        raise LookupError(f"{seat} has nothing to decide")
    if len(options) == 1:
        return options[0]
    kinds = {decision.kind for decision in rules.pending_for(known, seat) if decision.seat == seat}
    if not kinds & SEARCHED:
        return easy_command(known, seat, rng)
    deals = [rules.deal_hidden(known, seat, rng) for _ in range(DEALS)]
    sampled = sample_commands(options, rng, LIMIT)
    seed = rng.getrandbits(64)
    ranked = []
    for i, command in enumerate(sampled):
        after = play(deals[0], seat, command, seed)
        if after is not None:
            # Equal look-ahead scores are common (a card whose effect waits for a clash): the
            # shortlist takes them in a random order, not the order of the legal commands.
            ranked.append((-race_score(after, seat), rng.random(), i))
    if not ranked:
        return options[0]
    ranked.sort()
    shortlist = [sampled[i] for _score, _tie, i in ranked[:SHORTLIST]]
    if len(shortlist) == 1:
        return shortlist[0]
    totals = [0.0] * len(shortlist)
    for deal in deals:
        deal_seed = rng.getrandbits(64)
        for k, command in enumerate(shortlist):
            after = play(deal, seat, command, deal_seed)
            if after is None:
                totals[k] -= rules.VICTORY_TARGET * 100
                continue
            totals[k] += rollout(after, seat, random.Random(deal_seed))
    best = max(range(len(shortlist)), key=lambda k: (totals[k], -k))
    return shortlist[best]
