"""Standing orders are hidden like a hand (docs/standing-orders.md, docs/rulings.md).

The property: two games that differ only in one seat's standing orders read the same for every
other seat and for a spectator, in every channel (view, board, export, pages, history, emails, the
text of refused commands), up to the moves the orders played: in the second game the seat sends
those same moves itself, at the same points of the log. Only the timing tells (a ruling).

The position (the rulebook, "Clash"): green plays Warlord into the Valley, where blue has clans;
blue may answer the attack, vote on peace, withdraw to the Cove; orange looks on.
"""

from __future__ import annotations

import uuid

import pytest
from hypothesis import HealthCheck, Phase, example, given, settings
from hypothesis import strategies as st

from games import rules, store
from games.models import Command
from games.play.standing_orders import set_order
from games.services import SeatSpec, create_game, submit_command
from games.store.verification import verify_game
from tests.faults.test_hidden_reactions import _seen_by

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SEATS = ("green", "blue", "orange")
POSITION = {
    "territories": {
        "valley": {"cell": [0, 0], "clans": {"green": 3, "blue": 2}},
        "cove": {"cell": [1, 0], "clans": {"blue": 2}},
        "plains": {"cell": [0, 1], "clans": {"green": 1}},
        "hills": {"cell": [-1, 0], "clans": {"orange": 2}},
    },
    "capital": "plains",
    "brenn": "green",
    "flock": "clockwise",
    "turn": "green",
    "opened": True,
    "phase": "season",
    "round": 1,
    "hands": {
        "green": ["act_warlord", "act_new_clans"],
        "blue": ["act_geis", "act_sanctuary"],
        "orange": ["act_festival"],
    },
}
ORDERS = (
    {"kind": "attack", "answer": "remove"},
    {"kind": "attack", "answer": "discard", "cards": ["act_sanctuary"]},
    {"kind": "peace", "agree": False},
    {"kind": "peace", "agree": True},
    {"kind": "withdraw", "to": ["cove"]},
    {"kind": "triskel", "card": "act_geis"},
    {"kind": "pass_until"},
    {"kind": "stand_in", "decision": "maneuver"},
    {"kind": "stand_in", "decision": "own_triskel"},
    {"kind": "stand_in", "decision": "setup"},
    {"kind": "stand_in", "decision": "card_choices"},
)
STEPS = 14


def _game(orders) -> object:
    game = create_game(
        seats=[SeatSpec(email=f"{c}.{uuid.uuid4().hex[:8]}@example.org") for c in SEATS],
        seed="hidden-orders",
        setup=POSITION,
        options={"reaction_mode": "holders"},
        play_bots=False,
    )
    blue = game.seats.get(colour="blue")
    for order in orders:
        set_order(game, blue, order)
    return game


def _choose(state, colour, step) -> dict:
    """The moves of the players themselves, the same in both games: green attacks blue, proposes
    peace once, then plays on; everyone else takes the first option listed."""
    legal = [c for c in rules.legal_commands(state, colour) if c["type"] not in ("moor", "set_policy")]
    preferred = {
        "green": [
            {"type": "play", "card": "act_warlord", "territory": "valley"},
            {"type": "attack", "target": "blue"},
        ]
    }
    if colour == "green" and step == 3 and {"type": "propose_peace"} in legal:
        return {"type": "propose_peace"}
    for command in preferred.get(colour, []):
        if command in legal:
            return command
    return next((c for c in legal if c["type"] == "decline"), legal[0])


def _played_with_orders(orders):
    """Game A: blue holds `orders`; everybody else, and blue where no order answers, plays
    `_choose`. Returns the game and its commands as (seat colour, body, client_seq, key)."""
    game = _game(orders)
    seats = {s.colour: s for s in game.seats.all()}
    for step in range(STEPS):
        state, seq = store.load(game)
        if rules.is_over(state):
            break
        colour = rules.pending(state)[0].seat
        result = submit_command(
            game=game, seat=seats[colour], command=_choose(state, colour, step), expected_seq=seq
        )
        assert result.accepted, result.message
    return game, [
        (c.seat.colour, c.body, c.client_seq, c.command_id or "")
        for c in Command.objects.filter(game=game).select_related("seat").order_by("first_seq")
    ]


def _played_by_hand(commands):
    """Game B: no orders; the same commands, blue sending itself what its orders played."""
    game = _game(())
    seats = {s.colour: s for s in game.seats.all()}
    for colour, body, client_seq, key in commands:
        if key.startswith("forced:"):
            continue  # played by the service in this game too
        result = submit_command(game=game, seat=seats[colour], command=body, expected_seq=client_seq)
        assert result.accepted and not result.rebased, result.message
    return game


# Each example is two games and every channel of three viewers: a few examples, no shrinking.
@settings(
    max_examples=3,
    deadline=None,
    phases=[Phase.explicit, Phase.reuse, Phase.generate],
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(orders=st.lists(st.sampled_from(ORDERS), min_size=1, max_size=4, unique_by=lambda o: o["kind"]))
# Blue's maneuver made by the stand-in bot (after removing a clan by order), in every run.
@example(orders=[{"kind": "attack", "answer": "remove"}, {"kind": "stand_in", "decision": "maneuver"}])
def test_no_channel_tells_another_seat_that_blue_holds_orders(orders):
    game_a, commands = _played_with_orders(orders)
    game_b = _played_by_hand(commands)
    state_a, state_b = store.load(game_a)[0], store.load(game_b)[0]
    assert state_a.seq == state_b.seq
    for viewer in ("green", "orange", None):
        seen_a, seen_b = _seen_by(game_a, viewer, state_a), _seen_by(game_b, viewer, state_b)
        for channel in seen_a:
            assert seen_a[channel] == seen_b[channel], (
                f"{viewer or 'a spectator'}'s {channel} tells blue's orders {orders}"
            )
    assert verify_game(game_a).ok and verify_game(game_b).ok


def test_the_orders_played_in_the_property_games(db):
    """The property above is not empty: blue's orders answer some of its decisions there."""
    _game_a, commands = _played_with_orders(
        [{"kind": "attack", "answer": "remove"}, {"kind": "peace", "agree": False}]
    )
    played = [body for _c, body, _s, key in commands if key.startswith("order:")]
    assert {"type": "attack_response", "choice": "remove"} in played
    assert all(
        body in ({"type": "attack_response", "choice": "remove"}, {"type": "peace_vote", "agree": False})
        for body in played
    )


def test_the_stand_in_bot_plays_blues_maneuver_in_the_property_games(db):
    """The explicit example above is not empty either: the bot makes blue's maneuver there."""
    _game_a, commands = _played_with_orders(
        [{"kind": "attack", "answer": "remove"}, {"kind": "stand_in", "decision": "maneuver"}]
    )
    played = [body["type"] for _c, body, _s, key in commands if key.startswith("order:")]
    assert played[0] == "attack_response"
    assert set(played[1:]) & {"attack", "withdraw", "propose_peace", "end_clash", "play"}
