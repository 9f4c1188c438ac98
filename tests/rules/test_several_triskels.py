"""Several Triskel cards for one trigger (docs/rulings.md, "Several Triskel cards for one trigger").

Rulebook, Phase 2, Reminder on Triskel cards: "One or more Triskel cards can be played in response
to the same action." Nothing limits a player to one. From rules revision 2, a player whose Triskel
card was played in a window is asked again in the same window, once that card has resolved,
while it holds another card that answers the same trigger; a decline ends its answers. Games of
revision 1 keep one answer per player and window: their audit decides every recorded command
again.
"""

from __future__ import annotations

import pytest

from games.rules import asks_triskel, pending, redact, speaking, view_for

from .positions import Table, types
from .triskel_positions import trigger

ANOTHER = "Your Triskel card has been played: you may play another one in response to the same moment."

# Green moves 2 clans into the Hills, where blue has 2, and attacks blue.
HILLS = """
    hills   0,0  blue 2
    valley  1,0  green 3
    plains  0,1  orange 1
    cove   -1,0  white 1
"""


def attack_that_removes(reactions: str, revision: int = 2) -> Table:
    """Green, holding Raid and Bard, has attacked blue in the Hills and blue has removed a clan:
    the window right after green's maneuver is open, every earlier one declined."""
    table = Table(
        HILLS,
        capital="valley",
        flock="clockwise",
        hands={"green": ["act_migration", "act_raid", "act_bard"], "blue": ["act_druid"]},
        options={"reactions": reactions, "rules_revision": revision},
    )
    table.play("green", "act_migration", **{"from": "valley", "moves": {"hills": 2}})
    table.auto_decline = False
    table.do("green", "attack", target="blue")
    table.do("blue", "attack_response", choice="remove")
    return table


def triskel_decisions(table: Table, seat: str) -> list:
    return [d for d in pending(table.state) if d.seat == seat and asks_triskel(d)]


def others_decline(table: Table, seat: str) -> list:
    """Every Triskel question of a seat other than `seat` is declined until `seat` is asked or
    no window is open; returns the events."""
    events: list = []
    while not triskel_decisions(table, seat):
        others = [d for d in pending(table.state) if asks_triskel(d) and d.seat != seat]
        if not others:
            return events
        assert others[0].seat is not None
        events += table.do(others[0].seat, "decline")
    return events


def played(events) -> list[tuple[str, str]]:
    """(seat, card) of every Triskel card revealed as played in `events`."""
    return [
        (p["seat"], p["card"]) for e in events if e.type == "ReactionsRevealed" for p in e.payload["plays"]
    ]


@pytest.mark.parametrize("reactions", ["public", "holders"])
def test_the_attacker_plays_raid_then_bard_after_one_maneuver(reactions):
    """Raid: "right after you have performed an Attack maneuver: take 1 Action card at random from
    the hand of the attacked player"; Bard: "after 1 of your maneuvers removes 1 or more opposing
    clans: gain 1 Deed". Both answer green's attack that removed blue's clan, and the rulebook
    lets green play both: after its Raid has resolved it is asked again, and plays the Bard."""
    table = attack_that_removes(reactions)
    events = others_decline(table, "green")
    assert trigger(table) == "after_maneuver"
    events += table.do("green", "react", card="act_raid")
    events += others_decline(table, "green")  # blue's maneuver, folded; a Geis question on Raid
    (decision,) = triskel_decisions(table, "green")
    assert decision.context["trigger"] == "after_maneuver"
    assert decision.prompt == (
        "Triskel: you have performed a maneuver in the clash. Play a Triskel card in response, "
        "or decline. " + ANOTHER
    )
    legal = table.legal("green")
    assert {"type": "react", "card": "act_bard"} in legal
    assert {"type": "react", "card": "act_raid"} not in legal  # played already
    # Its first answer covered the rest of the clash step: nothing is said ahead now.
    assert not any("then" in command for command in legal)
    events += table.do("green", "react", card="act_bard")
    events += others_decline(table, "green")
    assert played(events) == [("green", "act_raid"), ("green", "act_bard")]
    assert table.state.deeds["green"] == 1
    assert "act_raid" not in table.hand("green") and "act_bard" not in table.hand("green")
    assert "act_druid" in table.hand("green")  # taken by the Raid
    if reactions == "public":
        # Asked on public facts: green holds an Action card, which could have been Warlord.
        assert [c for c in table.legal("green") if c["type"] == "react"] == []
        table.do("green", "decline")
    # Green holds no other answer: the clash goes on to blue's maneuver.
    assert not triskel_decisions(table, "green")
    assert [(d.seat, d.kind) for d in pending(table.state)] == [("blue", "maneuver")]


def test_who_is_asked_again_stays_hidden_in_the_holders_mode():
    """In a game whose windows ask only holders, who is asked again is as hidden as who was asked
    first: the others read "waiting for possible Triskel reactions", and no event names green
    to them but the public reveal of the card it played."""
    table = attack_that_removes("holders")
    others_decline(table, "green")
    events = table.do("green", "react", card="act_raid")
    events += others_decline(table, "green")
    assert triskel_decisions(table, "green")
    for seat in ("blue", "orange", "white", None):
        assert [d["seat"] for d in view_for(table.state, seat)["pending"]] == [None]
    asked_again = [e for e in events if e.type == "ReactionsAsked"][-1]
    assert asked_again.payload == {"seats": ["green"]}
    for seat in ("blue", "orange", "white"):
        assert redact(asked_again, seat).payload == {"redacted": True}
    answer = table.do("green", "react", card="act_bard")[0]
    assert answer.type == "ReactionAnsweredPrivately"
    assert redact(answer, "white").payload == {"redacted": True}


@pytest.mark.parametrize("reactions", ["public", "holders"])
def test_a_decline_ends_the_players_answers(reactions):
    """Green plays Raid, then declines when asked again: its Bard stays in hand, unplayed, and
    the clash goes on."""
    table = attack_that_removes(reactions)
    others_decline(table, "green")
    table.do("green", "react", card="act_raid")
    others_decline(table, "green")
    events = table.do("green", "decline")
    assert "DeedGained" not in types(events)
    assert "act_bard" in table.hand("green")
    others_decline(table, "green")
    assert not triskel_decisions(table, "green")
    assert [(d.seat, d.kind) for d in pending(table.state)] == [("blue", "maneuver")]


@pytest.mark.parametrize("reactions", ["public", "holders"])
def test_rules_revision_1_keeps_one_card_per_player_and_window(reactions):
    """A game begun under rules revision 1 keeps the rule it was played with: after the Raid,
    green is not asked again and its Bard stays in hand."""
    table = attack_that_removes(reactions, revision=1)
    others_decline(table, "green")
    events = table.do("green", "react", card="act_raid")
    events += others_decline(table, "green")
    assert not triskel_decisions(table, "green")
    assert played(events) == [("green", "act_raid")]
    assert "act_bard" in table.hand("green")
    assert table.state.deeds["green"] == 0


# -- after you play a Season card: Valley, then Lost Vale ----------------------------------------

# The Lost Vale touches the Moor.
SEASON_ISLAND = """
    moor        0,0    green 3  blue 2
    valley      1,0    green 2
    plains      0,1    blue 2  orange 1
    lost_vale   -1,0   green 1
"""


def season_card_played(reactions: str, revision: int = 2) -> Table:
    """Green, holding the Valley and Lost Vale, has played New Clans; the windows up to the one
    "after you play a Season card" are declined."""
    table = Table(
        SEASON_ISLAND,
        seats=("green", "blue", "orange"),
        capital="plains",
        decline=False,
        hands={"green": ["act_new_clans", "adv_valley", "adv_lost_vale"], "blue": ["act_druid"]},
        options={"reactions": reactions, "rules_revision": revision},
    )
    table.play("green", "act_new_clans", territories=["moor", "moor"])
    while trigger(table) not in (None, "after_season_card"):
        for d in [d for d in pending(table.state) if asks_triskel(d)]:
            assert d.seat is not None
            table.do(d.seat, "decline")
    return table


@pytest.mark.parametrize("reactions", ["public", "holders"])
def test_valley_then_lost_vale_after_one_season_card(reactions):
    """The Valley and Lost Vale both answer "after you play a Season card": green plays the
    Valley, is asked again, and plays Lost Vale for the same Season card."""
    table = season_card_played(reactions)
    assert trigger(table) == "after_season_card"
    valley = next(c for c in table.legal("green") if c.get("card") == "adv_valley")
    events = table.do("green", valley)
    events += others_decline(table, "green")  # The Dagda's question on the Valley, if any
    (decision,) = triskel_decisions(table, "green")
    assert decision.prompt.endswith(ANOTHER)
    with speaking("fr"):
        (french,) = triskel_decisions(table, "green")
    assert french.prompt.endswith(
        "Votre carte Triskel a été jouée : vous pouvez en jouer une autre en réaction au même moment."
    )
    lost_vale = [c for c in table.legal("green") if c.get("card") == "adv_lost_vale"]
    assert lost_vale
    assert not [c for c in table.legal("green") if c.get("card") == "adv_valley"]
    events += table.do("green", lost_vale[0])
    events += others_decline(table, "green")
    assert played(events) == [("green", "adv_valley"), ("green", "adv_lost_vale")]
    assert "adv_valley" not in table.hand("green") and "adv_lost_vale" not in table.hand("green")


@pytest.mark.parametrize("reactions", ["public", "holders"])
def test_rules_revision_1_plays_only_the_valley(reactions):
    table = season_card_played(reactions, revision=1)
    table.do("green", next(c for c in table.legal("green") if c.get("card") == "adv_valley"))
    others_decline(table, "green")
    assert not triskel_decisions(table, "green")
    assert "adv_lost_vale" in table.hand("green")
