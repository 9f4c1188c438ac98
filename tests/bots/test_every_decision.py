"""Every bot level answers every kind of decision with a legal command (issue 28).

Random games of 2, 3 and 4 players (both Triskel modes, the discovery set-up too) reach every
decision kind of the rules: the draft, Season turns (plays with their targets, passes, Pretender
tokens, Deeds), Triskel reactions, clash maneuvers and the attack's answers, peace votes,
Citadels, card choices, where a tile goes, clan placements, keeping Epic Tales, the Mountains'
toll. At each, each deciding seat's bot must return one of `legal_commands` without raising.
"""

from __future__ import annotations

import random

import pytest

from games import bots, rules
from games.rules.simulate import play_game

# The kinds random games reach (others, such as The Dagda's Club's choice, are too rare to
# count on, and are still checked whenever they come).
EXPECTED_KINDS = {
    "draft",
    "season_turn",
    "reaction",
    "maneuver",
    "attack_response",
    "peace_vote",
    "citadel",
    "card_choice",
    "territory_cell",
    "place_clan",
    "clash_order",
    "keep_epic",
}


HARD_DECISIONS = 24


@pytest.mark.slow  # plays whole games
def test_every_level_answers_every_decision_kind_legally():
    seen: dict = {}
    checks = {"n": 0, "hard": 0}
    pick = random.Random(0)

    def check(state, events):
        if rules.is_over(state):
            return
        for decision in rules.pending(state):
            # `hard` thinks for up to a second: a few dozen of its decisions, spread over the games.
            hard = checks["hard"] < HARD_DECISIONS and pick.random() < 0.02
            checks["hard"] += hard
            level = "hard" if hard else pick.choice(["random", "easy"])
            command = bots.choose(state, decision.seat, level, random.Random(state.seq))
            assert command in rules.legal_commands(state, decision.seat), (decision, level, command)
            seen.setdefault(decision.kind, set()).add(command["type"])
            checks["n"] += 1

    for players, setup, reactions in (
        (2, "random", "public"),
        (3, "random", "holders"),
        (4, "random", "public"),
        (4, "discovery", "holders"),
        (2, "discovery", "holders"),
    ):
        for i in range(2):
            play_game(
                players,
                f"every-kind-{players}-{setup}-{i}",
                setup=setup,
                max_rounds=8,
                check=check,
                options={"reactions": reactions},
            )
    assert set(seen) >= EXPECTED_KINDS, EXPECTED_KINDS - set(seen)
    assert {"play", "pass", "pretender"} <= seen["season_turn"], seen["season_turn"]
    assert checks["n"] > 1000


def test_a_seat_with_nothing_to_decide_is_told_so():
    state = rules.fold(rules.start_game(["green", "blue", "orange"], seed="nothing"))
    idle = next(s for s in state.seats if s not in {d.seat for d in rules.pending(state)})
    for level in bots.LEVELS:
        with pytest.raises(LookupError):
            bots.choose(state, idle, level, random.Random(1))


def test_an_unknown_level_is_refused_with_the_levels():
    state = rules.fold(rules.start_game(["green", "blue"], seed="levels"))
    seat = rules.pending(state)[0].seat
    with pytest.raises(ValueError, match="random, easy, hard"):
        bots.choose(state, seat, "genius", random.Random(1))


def test_the_same_generator_gives_the_same_command():
    """Deterministic for a seed and a position: a simulation can be replayed."""
    states = []
    play_game(
        4, "replay", max_rounds=2, check=lambda s, e: states.append(s.clone()) if s.seq % 29 == 0 else None
    )
    for state in states[:5]:
        seat = rules.pending(state)[0].seat
        for level in ("easy", "hard"):
            assert bots.choose(state, seat, level, random.Random(7)) == bots.choose(
                state, seat, level, random.Random(7)
            )
