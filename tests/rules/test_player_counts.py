"""2- and 3-player games: the Discovery islands, the Flock of Crows with 2 players, the Brenn's
tie-break between two Pretenders, and a 2-player Season's end.

Rulebook, Discovery Scenario; 2-Player Rules; Phase 1: The Assembly (steps 1 and 2); End of the
Game; Phase 2: The Season. The 2- and 3-player drafts are in test_assembly.py.
"""

import pytest

from games.rules import fold, start_game
from games.rules.island import neighbour_cells

from .positions import SEATS, Table, first, types
from .triskel_positions import by_seed

DISCOVERY_BOTTOM = {"meadows", "misty_lands", "forest", "gates", "highlands", "mountains"}


@pytest.mark.parametrize(
    "players, start",
    [(2, ["valley", "cove"]), (3, ["valley", "cove", "plains"])],
)
def test_the_discovery_island_of_two_and_three_players(players, start):
    """Discovery Scenario: "use these territories: 2 players: Valley and Cove; 3 players: Valley,
    Cove and Plains [...] search for these tiles: Meadows, Misty Lands, Forest, Gates of Tír Na
    Nóg, Highlands and Mountains. Shuffle these tiles and place them facedown to create the
    bottom of the stack." Each starting tile touches the others (with 3 players, two others)."""
    events = start_game(list(SEATS[:players]), seed=f"discovery-{players}", setup="discovery")
    state = fold(events)
    assert sorted(state.territories) == sorted(start)
    cells = {tid: tuple(d["cell"]) for tid, d in state.territories.items()}
    for tid, cell in cells.items():
        touching = [other for other, c in cells.items() if c in neighbour_cells(cell)]
        assert len(touching) == players - 1, tid
    stack = first(events, "TileStackFormed").payload["tiles"]
    assert len(stack) == 16 - players
    assert set(stack[-6:]) == DISCOVERY_BOTTOM  # the first tile of the list is the top


GATES_OF_TWO = """
    gates   0,0  green 2  blue 1
    valley  1,0  blue 2
"""


def two_player_assembly(seed: str) -> Table:
    return Table(
        GATES_OF_TWO,
        seats=("green", "blue"),
        capital="valley",
        brenn="blue",
        phase="assembly",
        flock="clockwise",
        seed=seed,
    )


def test_two_players_toss_the_flock_of_crows_for_the_gates_alone():
    """2-Player Rules: "the Flock of Crows token is not used except for resolving the Gates of
    Tír Na Nóg's territory effect": it is still tossed at the Assembly, and when it lands on
    the other side, each player present in the Gates "loses 1 of their clans from this territory
    and draws 1 Epic Tale card", the Brenn first."""
    table = by_seed(two_player_assembly, lambda t: t.state.flock == "counterclockwise", prefix="two-gates")
    assert [e.payload["seat"] for e in table.events if e.type == "GatesOpened"] == ["blue", "green"]
    assert table.clans("gates") == {"green": 1}
    for seat in ("green", "blue"):
        assert len([c for c in table.hand(seat) if c.startswith("ep_")]) == 1

    kept = by_seed(two_player_assembly, lambda t: t.state.flock == "clockwise", prefix="two-gates")
    assert "GatesOpened" not in types(kept.events)
    assert kept.clans("gates") == {"green": 2, "blue": 1}


def test_two_pretenders_tied_the_brenn_named_at_step_one_wins():
    """Assembly step 1, "The chieftain of the Capital territory becomes the Brenn", comes before
    step 2, Check for Victory; End of the Game: "In case of tie for meeting the most victory
    conditions: if the Brenn is among the tied players, he wins the game." With 2 players, two
    Pretenders tied: green, chieftain of the Capital, takes the Brenn from blue and so wins."""
    table = Table(
        """
        moor    0,0  green 1  blue 1  sanctuaries 6
        valley  1,0  green 2
    """,
        seats=("green", "blue"),
        capital="valley",
        brenn="blue",
        phase="assembly",
        pretenders=["green", "blue"],
    )
    assert types(table.events).index("BrennAssigned") < types(table.events).index("VictoryChecked")
    assert first(table.events, "VictoryChecked").payload == {
        "scores": {"green": 1, "blue": 1},
        "winner": "green",
    }
    assert table.state.brenn == "green" and table.state.winner == "green"


def test_a_two_player_season_ends_when_both_pass_in_a_row():
    """Phase 2: "The Brenn begins the Season by playing the first card [...] This continues [...]
    until all players have consecutively passed, which ends the Season phase." With 2 players,
    a pass answered by the other player's pass ends it, and the next Assembly deals again:
    "The Brenn deals three cards facedown to each player"."""
    table = Table(
        """
        moor    0,0  green 2
        valley  1,0  blue 2
    """,
        seats=("green", "blue"),
        capital="valley",
        brenn="blue",
        opened=False,
        hands={"blue": ["act_new_clans", "act_bard"], "green": ["act_festival"]},
    )
    table.play("blue", "act_new_clans", territories=["valley", "valley"])
    table.do("green", "pass")
    table.play("blue", "act_bard")  # a card played between two passes: the count starts again
    events = table.do("green", "pass")
    assert "SeasonEnded" not in types(events)
    events = table.do("blue", "pass")
    assert "SeasonEnded" in types(events)
    dealt = [(e.payload["seat"], len(e.payload["cards"])) for e in events if e.type == "ActionCardsDealt"]
    assert dealt == [("blue", 3), ("green", 3)]
