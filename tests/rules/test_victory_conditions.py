"""victory.conditions_completed: which victory conditions a player meets (the game-over page
names them), spending Deeds as the rulebook says."""

from games.rules.victory import conditions_completed, conditions_met

from .positions import Table

# Blue: present in 4 territories with 5 Sanctuaries in all; chieftain over nobody.
LAYOUT = """
    moor    0,0  blue 1  sanctuaries 2
    plains  1,0  blue 1  sanctuaries 2
    valley  0,1  blue 1  sanctuaries 1
    hills   1,-1 blue 1
    cove   -1,0  green 1
    forest -1,1  orange 1
"""


def test_deeds_complete_the_nearest_conditions_first():
    """Deeds: "The blue player is present in four territories with a total of five Sanctuaries.
    He also has two Deed tokens. He can meet only one victory condition: being present in
    territories (4 + 2 Deed tokens) or being present where Sanctuaries are (5 + 1 Deed token).
    However, if he had three Deed tokens, he would meet both victory conditions." """
    two = Table(LAYOUT, capital="cove", brenn="green", deeds={"blue": 2}, phase="season")
    assert conditions_completed(two.state, "blue") == ["sanctuaries"]
    three = Table(LAYOUT, capital="cove", brenn="green", deeds={"blue": 3}, phase="season")
    assert sorted(conditions_completed(three.state, "blue")) == ["sanctuaries", "territories"]
    assert conditions_met(three.state, "blue") == 2


def test_a_condition_met_without_deeds_is_named():
    """ "Present in Six or More Territories: Add up the total number of territories where the
    player has one or more clans present (even if he is not the chieftain). If there are six or
    more, the player has met a victory condition." """
    table = Table(
        """
        moor    0,0  green 1
        plains  1,0  green 1
        valley  0,1  green 1
        hills   1,-1 green 1
        cove   -1,0  green 1
        forest -1,1  green 1  blue 2
    """,
        capital="cove",
        brenn="green",
        phase="season",
    )
    assert conditions_completed(table.state, "green") == ["territories"]
    assert conditions_completed(table.state, "blue") == []
