"""`legal_commands` and `decide` agree, in random positions (property tests).

Rules API: `legal_commands(state, seat)` lists "every fully specified command the seat may send
now". So every listed command must be accepted by `decide`, and a seat with nothing to decide has
nothing listed. The positions are random islands, clans, buildings and Action cards in hand, in
the middle of a Season; a few random legal commands are then played (clashes, windows, choices),
checking the same at every step. The number of positions comes from the hypothesis profile
(tests/conftest.py).
"""

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.rules import (
    CommandError,
    decide,
    describe_command,
    evolve,
    fold,
    is_over,
    legal_commands,
    only_pass,
    pending,
    rng_for,
    start_game,
)
from games.rules.catalog import action_cards_for
from games.rules.island import neighbour_cells

from .positions import SEATS

TERRITORIES = [
    "cove",
    "forest",
    "highlands",
    "hills",
    "iron_mine",
    "lost_vale",
    "meadows",
    "misty_lands",
    "moor",
    "plains",
    "salt_mine",
    "valley",
]


@st.composite
def positions(draw):
    """A described Season position (docs/positions.md) and its seats."""
    seats = list(SEATS[: draw(st.integers(2, 4))])
    names = draw(st.permutations(TERRITORIES))[: draw(st.integers(2, 7))]
    cells = [(0, 0)]
    while len(cells) < len(names):
        free = sorted({n for c in cells for n in neighbour_cells(c)} - set(cells))
        cells.append(draw(st.sampled_from(free)))
    left = {s: 12 for s in seats}
    territories = {}
    for name, cell in zip(names, cells):
        clans = {}
        for seat in seats:
            n = min(left[seat], draw(st.integers(0, 3)))
            if n:
                clans[seat] = n
                left[seat] -= n
        territories[name] = {
            "cell": list(cell),
            "clans": clans,
            "sanctuaries": draw(st.integers(0, 1)),
            "citadels": draw(st.integers(0, 1)),
        }
    deck = draw(st.permutations(action_cards_for(len(seats))))
    hands, at = {}, 0
    for seat in seats:
        n = draw(st.integers(0, 4))
        hands[seat] = list(deck[at : at + n])
        at += n
    brenn, opened = draw(st.sampled_from(seats)), draw(st.booleans())
    position = {
        "territories": territories,
        "capital": names[0],
        "hands": hands,
        "brenn": brenn,
        # A Season not opened yet is at the Brenn's opening turn (docs/positions.md).
        "turn": draw(st.sampled_from(seats)) if opened else brenn,
        "opened": opened,
        "flock": draw(st.sampled_from(["clockwise", "counterclockwise"])),
        "action_discard": list(deck[at : at + draw(st.integers(0, 2))]),
    }
    return seats, position


def check_listed_commands_are_accepted(state, seed, rng):
    """Every seat awaited has legal commands and each (a sample of) is accepted and can be said
    in words (`describe_command`); the others have none."""
    awaited = {d.seat for d in pending(state)}
    assert awaited or is_over(state)
    for seat in state.seats:
        listed = legal_commands(state, seat)
        # Rules API: only_pass tells, without listing them, that the pass is all there is.
        assert only_pass(state, seat) == (listed == [{"type": "pass"}]), (seat, listed[:3])
        if seat not in awaited:
            assert listed == [], (seat, listed[:3])
            continue
        assert listed, f"{seat} must decide but no command is legal"
        for command in rng.sample(listed, min(len(listed), 12)):
            assert describe_command(state, command)
            try:
                decide(state, seat, command, rng=rng_for(seed, state.seq))
            except CommandError as error:
                raise AssertionError(f"{seat}: listed {command} refused: {error}") from None


@settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(positions(), st.integers(0, 2**32))
def test_every_listed_command_is_accepted(case, number):
    """Rules API: legal_commands lists "every fully specified command the seat may send now"."""
    seats, position = case
    seed = f"legal-{number}"
    events = start_game(seats, seed=seed, setup=position)
    state = fold(events)
    rng = random.Random(number)
    for _ in range(25):
        check_listed_commands_are_accepted(state, seed, rng)
        if is_over(state) or state.phase != "season":
            break
        seat = rng.choice(sorted({d.seat for d in pending(state)}))
        new = decide(state, seat, rng.choice(legal_commands(state, seat)), rng=rng_for(seed, state.seq))
        for event in new:
            evolve(state, event)
        events += new
    assert fold([e.to_json() for e in events]).to_json() == state.to_json()
