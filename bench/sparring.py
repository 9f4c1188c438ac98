"""The sparring partner: a bot of the bench's own that no level of `games.bots` is tuned on.

A one-ply, determinized, victory-race greedy bot (issue 39): a seat's information set in
(`rules.deal_hidden(state, seat)`: nothing hidden from the seat is read), a legal command out.
For each legal command (at most `LIMIT`, sampled across kinds), on each of `DEALS` deals of the
hidden cards consistent with the seat's view, it plays the command (the Triskel windows it
opens declined, `games.bots.lookahead.play`) and scores the victory race
(`games.bots.race.race_score`: territories, chieftainships of 6 opposing clans, Sanctuaries,
Deeds, Pretender tokens, the Brenn's tie-break), and keeps the command of the best total, ties
broken by its generator. It looks one command ahead and no further: a player who thinks one
move ahead. About a millisecond a decision (`python -m bench.bots --arena` prints it).

    python -m bench.bots hard,sparring,sparring,sparring --games 40
"""

from __future__ import annotations

import random

from games import rules
from games.bots.lookahead import EPSILON, play, sample_commands
from games.bots.race import race_score

LEVEL = "sparring"
# Deals of the hidden cards each command is scored on, and commands tried a decision.
DEALS = 2
LIMIT = 24
# A command the rules refuse on a deal (it needed a card the deal moved) scores below any loss.
REFUSED = -1000.0


def sparring_command(state, seat: str, rng: random.Random) -> rules.Command:
    """The sparring bot's command for `seat` on `state` (hidden information included: reduced to
    `seat`'s information set first). rng: the bot's own generator (the same generator state and
    information set give the same command). Raises LookupError when `seat` has nothing to
    decide."""
    known = rules.deal_hidden(state, seat)
    options = rules.legal_commands(known, seat)
    if not options:
        raise LookupError(f"{seat} has nothing to decide")
    if len(options) == 1:
        return options[0]
    sampled = sample_commands(options, rng, LIMIT)
    totals = [0.0] * len(sampled)
    for _deal in range(DEALS):
        deal = rules.deal_hidden(known, seat, rng)
        seed = rng.getrandbits(64)
        for i, command in enumerate(sampled):
            after = play(deal, seat, command, seed)
            totals[i] += REFUSED if after is None else race_score(after, seat)
    top = max(totals)
    best = [command for total, command in zip(totals, sampled) if total >= top - EPSILON]
    return best[0] if len(best) == 1 else rng.choice(best)
