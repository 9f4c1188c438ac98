"""Bots that play Inis: the brains behind bot seats, stand-ins and simulations (pure Python).

One entry point, `choose(state, seat, level, rng)`. The state is reduced at once to what `seat`
may know (`rules.deal_hidden(state, seat)`: every card hidden from it dealt again in a canonical
order), and nothing else of it is read, so a bot never decides on a hidden card; where it
thinks ahead it deals the hidden cards at random from its own generator (determinization).
Levels (`LEVELS`): "random" (`rules.bot_command`, a random legal command), "easy" (one-move
look-ahead scored by the victory race, `games.bots.lookahead`), "hard" (a measured draft, a
whole-turn look-ahead and determinized rollouts, `games.bots.hard`), "strong" (the hard bot's
candidates raced on more deals within a budget of CPU seconds, `games.bots.strong`). Rulebook sources:
Victory Conditions, Deeds, End of the Game (the score, `games.bots.race`).
"""

from __future__ import annotations

import random

from games import rules

from .hard import hard_command
from .lookahead import easy_command
from .strong import Budget, strong_command

# From the weakest to the strongest.
LEVELS = ("random", "easy", "hard", "strong")


def choose(state, seat: str, level: str, rng: random.Random, budget: Budget | None = None) -> dict:
    """A legal command for `seat`'s pending decision, chosen by the bot of `level`.

    state: a `rules.GameState` (hidden information included: it is reduced to `seat`'s
    information set before anything reads it); seat: a colour; level: one of `LEVELS`; rng: the
    bot's own generator (the same generator state and the same information set give the same
    command). budget: how long "strong" searches (default `Budget()`, 2 CPU seconds; bounded by
    iterations alone it is deterministic like the other levels); the other levels ignore it.
    Raises ValueError for an unknown level, LookupError when `seat` has nothing to decide. CPU:
    "random" and "easy" well under 10 ms; "hard" about a second at most; "strong" about its budget,
    or the hard bot's time when that is longer (it always has the hard bot's choice first;
    bench/bots.py).
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}: one of {', '.join(LEVELS)}")
    known = rules.deal_hidden(state, seat)
    if level == "random":
        return rules.bot_command(known, seat, rng)
    if level == "easy":
        return easy_command(known, seat, rng)
    if level == "hard":
        return hard_command(known, seat, rng)
    return strong_command(known, seat, rng, budget)


__all__ = ["LEVELS", "Budget", "choose"]
