"""Playing a game forward with a light policy: the hard bot's rollouts and finished turns.

The light policy is the easy bot's one-move look-ahead over at most `ROLLOUT_LIMIT` sampled
commands. `rollout` plays every seat's next decisions with it and scores the victory race where
it stops; `finish_turn` plays only the decisions that follow a command until the next Season
turn or draft pick (where the tile of an Exploration goes, the maneuvers of a Conquest's clash,
the card a Druid takes), so that a command is judged by what it leads to, not by a half-played
card.

A move a card only offers (Scouts & Spies: "then you may move 1 or more of your clans [...],
which can start a clash"; Tailtiu's land) is weighed against skipping it over the rest of the
turn (`weigh_skip`): one move ahead, clans moved into a clash look present there, before the
clash drives them out. Without that, a bot holding Scouts & Spies saw its play lead into a lost
clash, passed instead, and lost the card at the Season's end. Rulebook sources: Season (a turn),
Clash (maneuvers), Victory Conditions (the score).
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


def _step(state, rng: random.Random, score: Score, weigh: bool = True):
    """`state` after one seat deciding plays the light policy's command (a seat drawn by `rng`
    when several decide), or None when nobody decides or the rules refuse the command. With
    `weigh`, a move the seat may skip is weighed against the skip (`weigh_skip`)."""
    deciding = sorted({d.seat for d in rules.pending(state)})
    if not deciding:
        return None
    mover = deciding[0] if len(deciding) == 1 else rng.choice(deciding)
    command = light_command(state, mover, rng, score)
    seed = rng.getrandbits(64)
    after = play(state, mover, command, seed)
    if weigh and after is not None and not command.get("skip"):
        skip = next((o for o in rules.legal_commands(state, mover) if o.get("skip")), None)
        if skip is not None:
            return weigh_skip(state, mover, after, skip, seed, score)
    return after


def weigh_skip(state, seat: str, moved, skip: rules.Command, seed: int, score: Score):
    """Of `moved` (`state` after `seat`'s optional move) and `state` after `skip`, the one whose
    finished turn (`finish_turn`, the same seed for both) `score`s better for `seat`, finished;
    `moved` finished when the rules refuse the skip. A player who may skip a move does not make
    one that loses it the clash it starts (rulebook, Scouts & Spies: "you may move")."""
    finished = finish_turn(moved, random.Random(seed), score=score, weigh=False)
    skipped = play(state, seat, skip, seed)
    if skipped is None:
        return finished
    unmoved = finish_turn(skipped, random.Random(seed), score=score, weigh=False)
    return unmoved if score(unmoved, seat) > score(finished, seat) else finished


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


def finish_turn(
    state, rng: random.Random, limit: int = TURN_DECISIONS, score: Score = race_score, weigh: bool = True
):
    """The state once the decisions pending on `state` are played with the light policy on
    `score` up to the next Season turn or draft pick (`TURN_BOUNDARIES`), the end of the game,
    or `limit` decisions; `state` itself when nothing follows (not changed either way). With
    `weigh`, a move a seat may skip is weighed against the skip (`weigh_skip`, which finishes
    the turn itself without weighing again)."""
    for _ in range(limit):
        if state.phase == "over":
            break
        decisions = rules.pending(state)
        if not decisions or any(d.kind in TURN_BOUNDARIES for d in decisions):
            break
        after = _step(state, rng, score, weigh)
        if after is None:
            break
        state = after
    return state
