"""The hard bot: the cards' measured worth, whole-turn look-ahead, and determinized rollouts.

- Its score is the victory race (`games.bots.race`) plus what the Action cards in its hand are
  worth while the Season lasts (`games.bots.card_worth.worth_score`).
- Before any search, the moves a strong player does not make are left out, and a pass on a
  Season turn is charged the Action cards it may lose, or left out when it only delays a card
  that gains something (`games.bots.prudence`).
- The draft (rulebook, Assembly, step 6): it keeps the Action cards worth most
  (`games.bots.card_worth.draft_command`).
- Every other decision is first judged by a whole-turn look-ahead: each legal command (at most
  `LIMIT`, sampled across kinds) is played on one deal of the hidden cards consistent with what
  its seat sees, the turn it opens is finished with the light policy
  (`games.bots.rollouts.finish_turn`: where the tile of an Exploration goes, the clash of a
  Conquest), and its score is taken. A one-move look-ahead sees no card whose effect needs a
  further choice do anything.
- For the Season's turns and the clashes (`SEARCHED`), the `SHORTLIST` best of that look-ahead
  are searched further: on `DEALS` deals (determinizations, as in information-set Monte Carlo
  search), each is played and every seat's next `HORIZON` decisions with the light policy
  (`games.bots.rollouts.rollout`). The best total wins, the whole-turn score counting as one
  more rollout: a rollout through the next draft is noisy, and four of them alone too often
  prefer a pass to an Exploration.

The same rules' generator seeds every command's play on a deal, so chance favours none of them.
Its work is bounded by these counts, not by a clock, so it is deterministic for a generator and
an information set.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games import rules

from .card_worth import draft_command, worth_score
from .lookahead import EPSILON, LIMIT, options_to_decide, play, sample_commands
from .prudence import delays, free_play, pass_only_delays, pass_risk, prudent_options
from .race import race_score
from .rollouts import HORIZON, finish_turn, rollout

SHORTLIST = 4
DEALS = 4
# The decisions worth a search: the Season's turns and the clashes.
SEARCHED = frozenset({"season_turn", "maneuver", "attack_response", "citadel", "peace_vote"})
# A command the rules refuse on a deal scores below any game lost.
REFUSED = -1000.0


def turn_scores(
    deal, seat: str, options: list[rules.Command], rng: random.Random
) -> list[tuple[float, rules.Command]]:
    """`(score once the turn is finished, command)` for each command of `options` that the
    rules accept on `deal` (one whole deal: nothing hidden from the search), in `options`' order.
    Every command's play and finished turn draw from one seed. A pass costs its risk
    (`prudence.pass_risk`). When a pass only delays (`prudence.pass_only_delays`) and a free
    play (`prudence.free_play`) gains something on the race once its turn is finished, the
    commands that only delay (`prudence.delays`: the pass, an Action card played for no effect)
    are left out: that play is never worse, and the search cannot tell them apart (its rollouts
    play the card on the seat's next turn, and the card's worth is within their noise)."""
    seed = rng.getrandbits(64)
    risk = pass_risk(deal, seat)
    now = race_score(deal, seat)
    scored = []
    gains = False
    for command in options:
        after = play(deal, seat, command, seed)
        if after is not None:
            finished = finish_turn(after, random.Random(seed), score=worth_score)
            penalty = risk if command["type"] == "pass" else 0.0
            scored.append((worth_score(finished, seat) - penalty, command))
            gains = gains or (free_play(command) and race_score(finished, seat) > now + EPSILON)
    if gains and pass_only_delays(deal, seat):
        scored = [(score, command) for score, command in scored if not delays(command)]
    return scored


def turn_command(known, seat: str, options: list[rules.Command], rng: random.Random) -> rules.Command:
    """The command of `options` whose finished turn scores best on one deal of `known` (ties
    broken by `rng`); `options[0]` when the rules accept none on that deal."""
    deal = rules.deal_hidden(known, seat, rng)
    scored = turn_scores(deal, seat, sample_commands(options, rng, LIMIT), rng)
    if not scored:
        return options[0]
    top = max(score for score, _command in scored)
    best = [command for score, command in scored if score >= top - EPSILON]
    return best[0] if len(best) == 1 else rng.choice(best)


@dataclass(frozen=True)
class Prepared:
    """What a searching level knows before it searches (`prepare`): `options`, the commands a
    strong player may make (`prudence.prudent_options`); `kinds`, the kinds of the decisions
    pending for the seat; `settled`, the command when no search is needed, else None."""

    options: list[rules.Command]
    kinds: frozenset[str]
    settled: rules.Command | None


def prepare(known, seat: str, rng: random.Random) -> Prepared:
    """The step the hard and strong bots share before they search, on `seat`'s information set
    `known`: leave out the moves a strong player does not make (`prudence`), and settle what
    needs no search: a single option, the draft (the Action cards worth most,
    `card_worth.draft_command`; rulebook, Assembly, step 6), and any decision outside `SEARCHED`
    (where a tile goes, which clan moves: the whole-turn look-ahead, `turn_command`). Raises
    LookupError when `seat` has nothing to decide."""
    options = prudent_options(known, seat, options_to_decide(known, seat))
    kinds = frozenset(decision.kind for decision in rules.pending_for(known, seat) if decision.seat == seat)
    if len(options) == 1:
        return Prepared(options, kinds, options[0])
    if "draft" in kinds:
        picked = draft_command(options, rng)
        if picked is not None:
            return Prepared(options, kinds, picked)
    if not kinds & SEARCHED:
        return Prepared(options, kinds, turn_command(known, seat, options, rng))
    return Prepared(options, kinds, None)


def hard_command(known, seat: str, rng: random.Random) -> rules.Command:
    """The hard bot's command for `seat` on its information set `known` (`rules.deal_hidden`).
    Raises LookupError when `seat` has nothing to decide."""
    prepared = prepare(known, seat, rng)
    if prepared.settled is not None:
        return prepared.settled
    deals = [rules.deal_hidden(known, seat, rng) for _ in range(DEALS)]
    scored = shortlist(deals[0], seat, prepared.options, rng, SHORTLIST)
    if len(scored) <= 1:
        return scored[0][1] if scored else prepared.options[0]
    commands = [command for _score, command in scored]
    totals = [score for score, _command in scored]
    risk = pass_risk(known, seat)
    for deal in deals:
        for k, value in enumerate(rollout_values(deal, seat, commands, rng, risk)):
            totals[k] += value
    best = max(range(len(commands)), key=lambda k: (totals[k], -k))
    return commands[best]


def shortlist(
    deal, seat: str, options: list[rules.Command], rng: random.Random, width: int
) -> list[tuple[float, rules.Command]]:
    """The `width` best of `options` (at most `LIMIT`, sampled across kinds) by the whole-turn
    look-ahead on `deal` (`turn_scores`), best first, with their scores; those the rules refuse
    on `deal` left out."""
    scored = turn_scores(deal, seat, sample_commands(options, rng, LIMIT), rng)
    # Equal scores are common: the shortlist takes them in a random order, not the order of
    # the legal commands.
    ranked = sorted((-score, rng.random(), i) for i, (score, _command) in enumerate(scored))
    return [scored[i] for _score, _tie, i in ranked[:width]]


def rollout_values(
    deal, seat: str, commands: list[rules.Command], rng: random.Random, risk: float
) -> list[float]:
    """Each of `commands` played on `deal` (one whole deal) and every seat's next `HORIZON`
    decisions with the light policy (`rollouts.rollout`), scored by `worth_score` for `seat`,
    a pass less `risk` (`prudence.pass_risk`), a command the rules refuse `REFUSED`; one seed
    drawn from `rng` for every command, so that chance favours none of them."""
    deal_seed = rng.getrandbits(64)
    values = []
    for command in commands:
        after = play(deal, seat, command, deal_seed)
        if after is None:
            values.append(REFUSED)
            continue
        value = rollout(after, seat, random.Random(deal_seed), score=worth_score)
        values.append(value - (risk if command["type"] == "pass" else 0.0))
    return values


__all__ = [
    "DEALS",
    "HORIZON",
    "SEARCHED",
    "SHORTLIST",
    "Prepared",
    "hard_command",
    "prepare",
    "rollout_values",
    "shortlist",
    "turn_command",
]
