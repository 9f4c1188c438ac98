"""The easy bot: one-move look-ahead scored by the victory race (`games.bots.race`).

It plays each of its legal commands (at most `LIMIT`, sampled evenly across kinds of command
when there are more) on one deal of the hidden cards consistent with what its seat sees, and
keeps the command after which its race score is best; ties are broken by its generator. Peace
in a clash, which one move does not show, is proposed and agreed to when it serves the seat
(`games.bots.prudence.peace_serves`); the instigator winning its clash does not withdraw
(`games.bots.prudence.idle_withdraw`).
"""

from __future__ import annotations

import random
from collections.abc import Callable

from games import rules

from .prudence import idle_peace, idle_withdraw, peace_serves
from .race import race_score

# How good a state is for a seat: (state, seat) -> a number, higher is better.
Score = Callable[..., float]

# Commands tried per decision: a Migration can be split over territories thousands of ways.
LIMIT = 40
# Scores closer than this are a tie.
EPSILON = 1e-9


def sample_commands(options: list, rng: random.Random, limit: int) -> list:
    """At most `limit` of `options`, every kind (type and card) kept when `limit` allows, in
    `options`' order."""
    if len(options) <= limit:
        return options
    kinds: dict = {}
    for i, option in enumerate(options):
        kinds.setdefault((option["type"], option.get("card", "")), []).append(i)
    share = max(1, limit // len(kinds))
    chosen = []
    for indices in kinds.values():
        chosen.extend(indices if len(indices) <= share else rng.sample(indices, share))
    return [options[i] for i in sorted(chosen)]


# Triskel windows settled (everyone declining) after a command before it is scored.
WINDOWS = 4


def play(state, seat: str, command: rules.Command, seed: int):
    """The state after `seat` sends `command` and every Triskel window it opens is declined (a
    copy; `state` is unchanged), or None when the rules refuse the command on this deal. `seed`
    seeds the rules' generator (the same for every command compared, so that chance favours
    none of them). A card's effect waits for the window its play opens (rulebook, Triskel), so
    without settling it a look-ahead would see no card do anything."""
    rng = random.Random(seed)
    try:
        events = rules.decide(state, seat, command, rng=rng)
    except rules.CommandError:
        return None
    after = rules.apply_events(state.clone(), events)
    for _ in range(WINDOWS):
        decisions = rules.pending(after)
        # A window folded into a seat's maneuver is declined too: the maneuver is then asked.
        if not decisions or not all(rules.asks_triskel(d) for d in decisions):
            break
        for decision in decisions:
            try:
                events = rules.decide(after, decision.seat, DECLINE, rng=rng)
            except rules.CommandError:
                return after
            rules.apply_events(after, events)
    return after


DECLINE = {"type": "decline"}


def best_command(
    state, seat: str, options: list, rng: random.Random, score: Score = race_score
) -> tuple[dict, float]:
    """The command of `options` after which `seat`'s `score` (default the race score) on
    `state` is best, and that score. `state` is one whole deal (nothing hidden from the
    search)."""
    seed = rng.getrandbits(64)
    best, best_score = [], None
    for command in options:
        after = play(state, seat, command, seed)
        if after is None:
            continue
        value = score(after, seat)
        if best_score is None or value > best_score + EPSILON:
            best, best_score = [command], value
        elif value >= best_score - EPSILON:
            best.append(command)
    if not best:
        return options[0], float("-inf")
    return (best[0] if len(best) == 1 else rng.choice(best)), best_score


def options_to_decide(known, seat: str) -> list:
    """`seat`'s legal commands on `known`; raises LookupError when it has nothing to decide."""
    options = rules.legal_commands(known, seat)
    if not options:
        raise LookupError(f"{seat} has nothing to decide")
    return options


PEACE = {"type": "propose_peace"}


def easy_command(known, seat: str, rng: random.Random) -> dict:
    """The easy bot's command for `seat` on its information set `known` (`rules.deal_hidden`).
    Peace is judged apart (`prudence.peace_serves`): a look-ahead sees nothing change after a
    proposal or a vote, as after an Attack still to be answered, and would break the tie at
    random. So the bot proposes peace just before its own maneuver when it serves it, never
    otherwise (`prudence.idle_peace`), and agrees to a proposal exactly when it serves it. The
    same look-ahead sees an Attack and a withdrawal that keeps the chieftainship as equal: the
    instigator with the most clans in the territory does not withdraw (`prudence.idle_withdraw`).
    Raises LookupError when `seat` has nothing to decide."""
    options = options_to_decide(known, seat)
    options = [
        o for o in options if not idle_peace(known, seat, o) and not idle_withdraw(known, seat, o)
    ] or options
    if len(options) == 1:
        return options[0]
    if PEACE in options:
        return dict(PEACE)
    if any(o["type"] == "peace_vote" for o in options):
        return {"type": "peace_vote", "agree": peace_serves(known, seat)}
    deal = rules.deal_hidden(known, seat, rng)
    command, _score = best_command(deal, seat, sample_commands(options, rng, LIMIT), rng)
    return command
