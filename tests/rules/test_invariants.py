"""Property tests: thousands of random legal games keep every invariant of the game.

Run depth comes from the hypothesis profile (tests/conftest.py): at least 100 games in CI and
locally, 3,000 with HYPOTHESIS_PROFILE=deep.
"""

import functools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import fold, is_over, pending
from games.rules.assembly import draft_cards_in_front
from games.rules.cards import cards_in_play
from games.rules.catalog import (
    ADVANTAGE_OF,
    BUILDING_SUPPLIES,
    CLANS_PER_PLAYER,
    EPIC_TALES,
    action_cards_for,
)
from games.rules.engine import evolve
from games.rules.simulate import play_game

pytestmark = pytest.mark.slow  # whole games, a hundred of them in the first test


@functools.cache
def every_card(players: int, territories: frozenset) -> frozenset:
    """Every card of a game of `players` on the island of `territories` (ids)."""
    expected = set(action_cards_for(players)) | {c.id for c in EPIC_TALES}
    return frozenset(expected | {ADVANTAGE_OF[t] for t in territories})


def check_state(state, settled=True):
    """The invariants of the issue, checked on one state; `settled`: between two commands."""
    # 12 clans per player between board and reserve (counted in one pass over the island: this
    # runs after every event of a hundred games).
    on_board = dict.fromkeys(state.seats, 0)
    for territory in state.territories.values():
        for seat, clans in territory["clans"].items():
            on_board[seat] += clans
    for frame in state.stack:
        if frame["kind"] == "clash":
            for seat, clans in frame.get("cauldron", {}).items():
                on_board[seat] += clans
    for seat in state.seats:
        assert state.reserve[seat] >= 0
        assert state.reserve[seat] + on_board[seat] == CLANS_PER_PLAYER, seat
    # Every card in exactly one place.
    places = []
    for seat in state.seats:
        places += state.hands[seat]
    places += state.action_deck + state.action_discard + state.epic_deck + state.epic_discard
    places += state.advantage_display + state.advantage_played + cards_in_play(state)
    places += list(state.in_front)
    if state.set_aside:
        places.append(state.set_aside)
    for seat in state.draft:
        if seat != "_plan":
            places += draft_cards_in_front(state, seat)
    assert len(places) == len(set(places)), sorted(c for c in places if places.count(c) > 1)
    if state.round >= 1 and state.phase != "setup":
        expected = every_card(len(state.seats), frozenset(state.territories))
        assert set(places) == expected, expected ^ set(places)
    # Buildings within the supply.
    supply = BUILDING_SUPPLIES[state.options["buildings"]]
    for kind in ("citadels", "sanctuaries"):
        placed = sum(d[kind] for d in state.territories.values())
        assert state.supply[kind] >= 0 and placed + state.supply[kind] == supply[kind]
    # Exactly one Brenn.
    assert state.brenn in state.seats
    # Somebody must decide until the game ends.
    if settled:
        assert is_over(state) or pending(state)


def play_and_check(players, seed, setup):
    def check(state, events):
        check_state(state)

    state, events = play_game(players, seed, setup=setup, max_rounds=25, check=check)
    # Event by event too, and the fold of the log equals the incremental state.
    replay = fold([])
    for event in events:
        evolve(replay, event)
        if replay.phase != "setup":
            check_state(replay, settled=False)
    assert replay.to_json() == state.to_json()
    assert fold([e.to_json() for e in events]).to_json() == state.to_json()
    return state


# Whole games are the slowest examples of the suite: CI's profile plays 30 (about 30 s of CPU,
# which keeps .ci/run within its 15 minutes), a local run 60, and the "deep" profile thousands.
@settings(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    max_examples=max(30, settings.default.max_examples),
)
@given(
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(0, 10**9),
    setup=st.sampled_from(["random", "discovery"]),
)
def test_random_games_keep_every_invariant(players, seed, setup):
    """'Property tests play thousands of random legal games ... and check after every event.'"""
    play_and_check(players, str(seed), setup)


def test_some_random_games_end_in_a_victory():
    """Random legal play elects a High King in most games (the bot takes Pretender tokens)."""
    winners = sum(play_and_check(4, f"victory-{i}", "random").winner is not None for i in range(6))
    assert winners >= 3


def test_every_point_of_the_log_can_be_shown():
    """The web's time travel shows the island after any event, even between two events of one
    command: `view_for` and `render_board` work on every prefix of the log."""
    from games.rules import render_board, view_for

    for players in (2, 3, 4):
        _, events = play_game(players, f"time-travel-{players}", max_rounds=8)
        state = fold([])
        for event in events:
            evolve(state, event)
            view_for(state, state.seats[0] if state.seats else None)
            view_for(state, None)
            render_board(state, None)
