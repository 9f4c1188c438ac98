"""Playing a game forward with a light policy: the hard bot's rollouts and finished turns.

The light policy is the easy bot's one-move look-ahead over at most `ROLLOUT_LIMIT` sampled
commands. `rollout` plays every seat's next decisions with it and scores the victory race where
it stops; `finish_turn` plays only the decisions that follow a command until the next Season
turn or draft pick (where the tile of an Exploration goes, the maneuvers of a Conquest's clash,
the card a Druid takes), so that a command is judged by what it leads to, not by a half-played
card. Rulebook sources: Season (a turn), Clash (maneuvers), Victory Conditions (the score).
"""

from __future__ import annotations

import random

from games import rules

from .lookahead import Score, best_command, play, sample_commands
from .race import race_score

HORIZON = 24
ROLLOUT_LIMIT = 6
# The decisions that begin a new turn: a finished turn stops before them.
TURN_BOUNDARIES = frozenset({"season_turn", "draft"})
# Decisions a finished turn plays at most (a clash of several maneuvers and its Triskel windows).
TURN_DECISIONS = 12


def light_command(state, seat: str, rng: random.Random, score: Score = race_score) -> dict:
    """The rollout policy: one-move look-ahead on `score` over at most `ROLLOUT_LIMIT` sampled
    commands."""
    options = rules.legal_commands(state, seat)
    if len(options) == 1:
        return options[0]
    sampled = sample_commands(options, rng, ROLLOUT_LIMIT)
    command, _value = best_command(state, seat, sampled, rng, score)
    return command


def _step(state, rng: random.Random, score: Score):
    """`state` after one seat deciding plays the light policy's command (a seat drawn by `rng`
    when several decide), or None when nobody decides or the rules refuse the command."""
    deciding = sorted({d.seat for d in rules.pending(state)})
    if not deciding:
        return None
    mover = deciding[0] if len(deciding) == 1 else rng.choice(deciding)
    command = light_command(state, mover, rng, score)
    return play(state, mover, command, rng.getrandbits(64))


def rollout(state, seat: str, rng: random.Random, horizon: int = HORIZON, score: Score = race_score) -> float:
    """`seat`'s `score` after every seat plays `horizon` decisions with the light policy on
    `score`, from `state` (not changed), or fewer: a rollout stops at the game's end and at the
    next draft (the next Season's cards are dealt at random on every deal, and would only add
    noise)."""
    for _ in range(horizon):
        if state.phase == "over" or any(d.kind == "draft" for d in rules.pending(state)):
            break
        after = _step(state, rng, score)
        if after is None:
            break
        state = after
    return score(state, seat)


def finish_turn(state, rng: random.Random, limit: int = TURN_DECISIONS, score: Score = race_score):
    """The state once the decisions pending on `state` are played with the light policy on
    `score` up to the next Season turn or draft pick (`TURN_BOUNDARIES`), the end of the game,
    or `limit` decisions; `state` itself when nothing follows (not changed either way)."""
    for _ in range(limit):
        if state.phase == "over":
            break
        decisions = rules.pending(state)
        if not decisions or any(d.kind in TURN_BOUNDARIES for d in decisions):
            break
        after = _step(state, rng, score)
        if after is None:
            break
        state = after
    return state
