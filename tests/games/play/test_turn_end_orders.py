"""A Triskel order "only when it concerns me" at the end of a Season turn (docs/standing-orders.md):
Oengus's Ploy ("at the end of any player's turn: you take the next turn") is asked about when the
turn that ended concerns its holder, or when the Season is about to end; otherwise the order
declines. Decided from public facts, on the rules alone (the orders' own code, unsaved orders)."""

from __future__ import annotations

import random

from games import rules
from games.play.models import StandingOrder
from games.play.standing_orders import decide_order
from tests.rules.positions import Table

ISLAND = """
    valley  0,0  green 2
    cove    1,0  blue 2
    plains  0,1  orange 1  white 1
    hills   1,1  white 2
"""
CONCERNED = StandingOrder(kind="triskel", key="all", body={"card": "all", "when": "concerned"}, since_seq=0)


def table_with_the_ploy(**position) -> Table:
    """Green holds Oengus's Ploy; blue's Season turn; every window stays open."""
    return Table(
        ISLAND,
        capital="plains",
        decline=False,
        flock="clockwise",
        turn="blue",
        options={"reactions": "holders"},
        hands={"green": ["ep_oengus_ploy"], "blue": ["act_new_clans", "act_migration"]},
        **position,
    )


def public(table: Table):
    log = [(n, rules.redact(e, None)) for n, e in enumerate(table.events, 1)]
    return lambda after, until: [(seq, e) for seq, e in log if after < seq <= until]


def order_outcome(table: Table):
    (decision,) = [d for d in rules.pending(table.state) if d.seat == "green"]
    assert decision.context["trigger"] == "turn_ended"
    return decide_order(public(table), table.state, "green", [CONCERNED])


def test_a_turn_far_from_my_clans_is_declined():
    table = table_with_the_ploy()
    table.play("blue", "act_new_clans", territories=["cove", "cove"])
    outcome = order_outcome(table)
    assert outcome is not None and outcome.command == {"type": "decline"}


def test_a_turn_that_moves_clans_into_my_territory_is_asked():
    table = table_with_the_ploy()
    table.play("blue", "act_migration", **{"from": "cove", "moves": {"valley": 1}})
    while [d for d in rules.pending(table.state) if d.context.get("trigger") != "turn_ended"]:
        d = rules.pending(table.state)[0]  # the clash in the Valley, its windows and maneuvers
        assert d.seat is not None
        table.do(d.seat, rules.bot_command(table.state, d.seat, random.Random(1)))
    assert order_outcome(table) is None


def test_the_end_of_a_season_about_to_end_is_asked():
    table = table_with_the_ploy(passes=2)
    table.do("blue", "pass")  # orange and white passed before: one more pass ends the Season
    assert order_outcome(table) is None
