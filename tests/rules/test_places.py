"""Where a new territory may go, worded so that a player finds the place on the island.

Rulebook, Components: "A new territory is always placed adjacent to at least two territories."
Exploration (the Brenn places the new territory) and Tailtu's Land name such places. Their
options once read "Put the new territory at 1,-1": coordinates that neither the game page's map
nor the email's list of territories shows (games/rules/places.py).
"""

from __future__ import annotations

import pytest

from games import rules
from games.rules.island import NEIGHBOUR_STEPS
from games.rules.places import place_phrase
from web.board_svg import hex_centre

from .positions import Table

ISLAND = """
    valley  0,0  green 2
    cove    1,0  blue 1
    plains  0,1  orange 1
"""


def exploring() -> Table:
    table = Table(ISLAND, capital="valley", brenn="green", hands={"green": ["act_exploration"]})
    table.play("green", "act_exploration")
    assert table.decision("green").kind == "territory_cell"
    return table


def test_each_place_for_the_new_territory_names_where_it_is_and_what_it_touches():
    """The Brenn places the new territory of an Exploration: each option says the direction
    from a territory, the other territories the place touches, and the place's coordinates
    (which an email reply may give), and no two options read alike."""
    table = exploring()
    worded = [rules.describe_command(table.state, c) for c in table.legal("green")]
    assert worded == [
        "Put the new territory south-west of the Valley, also touching the Plains (place -1,1)",
        "Put the new territory north-east of the Valley, also touching the Cove (place 1,-1)",
        "Put the new territory east of the Plains, also touching the Cove (place 1,1)",
    ]
    with rules.speaking("fr"):
        assert rules.describe_command(table.state, {"type": "territory_cell", "cell": "1,-1"}) == (
            "Poser le nouveau territoire au nord-est de la Vallée, touchant aussi l'Anse (case 1,-1)"
        )


@pytest.mark.parametrize("step", NEIGHBOUR_STEPS)
def test_the_direction_is_the_one_on_the_map(step):
    """North is up on the island as the game page draws it: the word for each of the six places
    around a territory matches where the map puts that place."""
    table = Table("valley 0,0 green 1", capital="valley")
    words = place_phrase(table.state, list(step)).split(" of the Valley")[0]
    (x0, y0), (x, y) = hex_centre(0, 0), hex_centre(*step)
    north_south = "north" if y < y0 - 1 else "south" if y > y0 + 1 else ""
    east_west = "east" if x > x0 + 1 else "west" if x < x0 - 1 else ""
    assert words == "-".join(part for part in (north_south, east_west) if part)


def test_tailtus_land_places_its_tile_in_words_too():
    """Tailtu's Land puts a territory tile drawn by its player on a place of the island: the
    option names the tile and the place in the same words."""
    table = Table(ISLAND, capital="valley")
    assert rules.describe_command(
        table.state, {"type": "place_territory", "territory": "moor", "cell": "-1,1"}
    ) == ("Put the Moor south-west of the Valley, also touching the Plains (place -1,1)")


def test_a_place_refused_is_answered_with_the_places_allowed_in_words():
    """A reply naming a place the rules refuse ("cell 5,5": it touches no territory) is told
    which places are allowed, in the same words as the options."""
    table = exploring()
    with pytest.raises(rules.IllegalCommand) as refused:
        rules.decide(
            table.state,
            "green",
            {"type": "territory_cell", "cell": "5,5"},
            rng=rules.rng_for(table.seed, table.state.seq),
        )
    assert "north-east of the Valley, also touching the Cove (place 1,-1)" in str(refused.value)
    assert "east of the Plains, also touching the Cove (place 1,1)" in str(refused.value)
