"""Garbled commands: `decide` answers anything with one of the command errors, never a crash.

Issue 3: "Errors: InvalidCommand (malformed), IllegalCommand (breaks a rule)... and no change to
the state." Commands here are legal ones with a field replaced by junk, or junk from scratch,
sent at random decision points of random games.
"""

from hypothesis import given, settings
from hypothesis import strategies as st

from games.rules import CommandError, decide, legal_commands, pending, rng_for
from games.rules.simulate import play_game

TYPES = [
    "play",
    "pass",
    "pretender",
    "draft",
    "attack",
    "withdraw",
    "citadel",
    "no_citadel",
    "propose_peace",
    "end_clash",
    "peace_vote",
    "attack_response",
    "attack_choice",
    "clash_order",
    "territory_cell",
    "scouts_move",
    "choose",
    "react",
    "decline",
    "set_policy",
    "moor",
    "give",
    "keep",
    "set_aside",
    "mountains_toll",
    "remove_clan",
    "place_territory",
    "tailtu_move",
    "choose_capital",
    "place_clan",
    "place_clans",
]
KEYS = [
    "type",
    "card",
    "territory",
    "territories",
    "moves",
    "from",
    "to",
    "count",
    "target",
    "choice",
    "agree",
    "keep",
    "cards",
    "cell",
    "opponent",
    "mode",
    "policy",
    "skip",
    "pay",
    "next",
    "discard",
    "placements",
    "remove",
    "owner",
    "instigator",
    "flip",
    "place",
]
JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 99)
    | st.floats(allow_nan=True)
    | st.sampled_from(["", "valley", "green", "act_geis", "ep_eriu", "adv_moor", "1,-1", "x"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["valley", "cove", "green", "", "plains"]), inner, max_size=3)
    ),
    max_leaves=6,
)

# A few positions at assorted decision points, made once.
POSITIONS = []


def _positions():
    if not POSITIONS:

        def keep(state, events):
            if len(events) % 97 == 0:
                POSITIONS.append(state.clone())

        for players in (2, 3, 4):
            play_game(players, f"fuzz-{players}", max_rounds=6, check=keep)
    return POSITIONS


@settings(deadline=None, max_examples=max(300, settings.default.max_examples))
@given(data=st.data())
def test_decide_answers_junk_with_a_command_error_and_changes_nothing(data):
    positions = _positions()
    state = positions[data.draw(st.integers(0, len(positions) - 1))]
    seats = sorted({d.seat for d in pending(state)}) or state.seats
    seat = data.draw(st.sampled_from(seats))
    legal = legal_commands(state, seat)
    if legal and data.draw(st.booleans()):
        command = dict(data.draw(st.sampled_from(legal)))
        command[data.draw(st.sampled_from(KEYS))] = data.draw(JUNK)
    else:
        command = data.draw(st.dictionaries(st.sampled_from(KEYS), JUNK, max_size=4))
        if data.draw(st.booleans()):
            command["type"] = data.draw(st.sampled_from(TYPES))
    before = state.to_json()
    try:
        decide(state, seat, command, rng=rng_for("fuzz", state.seq))
    except CommandError as error:
        assert str(error)
    assert state.to_json() == before
