"""docs/positions.md, "What is refused": a described position that is malformed or impossible
is refused by `start_game` with an InvalidCommand naming what is wrong and what is allowed —
never accepted to crash later, never a Python traceback (docs/rules-api.md: `start_game`
"Raises `InvalidCommand` on a bad configuration")."""

from __future__ import annotations

import copy
from typing import Any

import pytest

from games.rules import InvalidCommand, start_game

# The guide's own example (docs/positions.md), which starts a game.
GOOD: dict[str, Any] = {
    "territories": {
        "valley": {"cell": [0, 0], "clans": {"green": 2, "blue": 1}, "sanctuaries": 1, "citadels": 0},
        "cove": {"cell": [1, 0], "clans": {"blue": 3}},
    },
    "capital": "valley",
    "brenn": "green",
    "flock": "clockwise",
    "festival": None,
    "hands": {"green": ["act_migration", "ep_eriu"], "blue": ["act_new_clans"]},
    "deeds": {"green": 1},
    "pretenders": [],
    "epic_deck": None,
    "epic_discard": [],
    "action_discard": [],
    "set_aside": None,
    "tile_stack": None,
    "advantage": {"adv_cove": "played"},
    "round": 1,
    "phase": "season",
    "turn": "green",
    "opened": True,
    "passes": 0,
}


def changed(path: tuple, value) -> dict:
    position = copy.deepcopy(GOOD)
    place: Any = position
    for key in path[:-1]:
        place = place[key]
    place[path[-1]] = value
    return position


def refusal(position) -> str:
    with pytest.raises(InvalidCommand) as info:
        start_game(["green", "blue"], seed="refused", setup=position)
    return str(info.value)


def test_the_guides_example_is_accepted():
    assert start_game(["green", "blue"], seed="refused", setup=copy.deepcopy(GOOD))


@pytest.mark.parametrize(
    "path, value, words",
    [
        # Cards and tiles that would crash the game when drawn, or be in two places at once.
        (("epic_deck",), ["ep_nonsense"], ["Unknown card 'ep_nonsense' (epic_deck)", "docs/cards.md"]),
        (("epic_deck",), ["ep_eriu"], ["ep_eriu is both in hands.green and in epic_deck"]),
        (("epic_deck",), ["act_bard"], ["act_bard cannot be in epic_deck", "only Epic Tale cards"]),
        (("action_discard",), ["ep_tuans_memory"], ["only Action cards"]),
        (("tile_stack",), ["atlantis"], ["Unknown territory 'atlantis' in tile_stack", "forest"]),
        (("tile_stack",), ["cove"], ["tile_stack: cove is on the island", "territories not in play"]),
        (("tile_stack",), ["forest", "forest"], ["tile_stack: forest is twice in the tile stack"]),
        (("action_discard",), ["act_raid"], ["action_discard: act_raid is used only with 4 players"]),
        (("festival",), "forest", ["festival must be null or a territory on the island: valley, cove"]),
        # Counts out of range.
        (("territories", "cove", "clans"), {"blue": -1}, ["territories.cove.clans.blue", "0 or more"]),
        (("territories", "valley", "sanctuaries"), -1, ["territories.valley.sanctuaries", "0 or more"]),
        (("passes",), 99, ["passes must be a whole number from 0 to 1"]),
        (("round",), 0, ["round must be a whole number, 1 or more"]),
        (("advantage", "adv_cove"), "lost", ["advantage.adv_cove must be one of display, played"]),
        (("advantage", "adv_forest"), "played", ["adv_valley, adv_cove"]),
        (("flock",), "up", ["flock must be one of clockwise, counterclockwise"]),
        (("pretenders",), ["green", "green"], ["pretenders: green holds at most one Pretender token"]),
        (("hands", "orange"), ["act_bard"], ["hands: 'orange' is not a seated colour", "green, blue"]),
        (("opened",), "yes", ["opened must be true or false"]),
        (("foo",), 1, ["Unknown key 'foo' in position", "territories, capital"]),
        # Wrong JSON types, which raised AttributeError, ValueError or TypeError.
        (("hands",), ["ep_eriu"], ['hands must be an object, such as {"green": ["act_bard"]}']),
        (("territories", "cove", "clans"), [1], ["territories.cove.clans must be an object"]),
        (("advantage",), ["adv_cove"], ["advantage must be an object"]),
        (("territories", "cove"), 5, ["territories.cove must be an object with the keys cell, clans"]),
        (("territories", "cove", "clans"), {"blue": "x"}, ["territories.cove.clans.blue", "whole number"]),
        (("deeds", "green"), "x", ["deeds.green must be a whole number"]),
        (("round",), "x", ["round must be a whole number"]),
        (("deeds", "green"), True, ["deeds.green must be a whole number"]),
        (
            ("territories", "cove", "cell"),
            [[1], 0],
            ["territories.cove.cell must be a cell [q, r] of two whole"],
        ),
        (
            ("territories", "cove", "cell"),
            [1.0, 0],
            ["territories.cove.cell must be a cell [q, r] of two whole"],
        ),
        # Impossible islands, supplies and phases: the path of the field at fault, then why.
        (("territories", "cove", "cell"), [0, 0], ["territories.cove.cell: valley is on that cell already"]),
        (
            ("territories", "cove", "cell"),
            [3, 3],
            ["territories.valley.cell: valley touches no other territory"],
        ),
        (
            ("territories", "cove", "clans"),
            {"blue": 12},
            ["territories: blue has more than 12 clans on the island"],
        ),
        (
            ("territories", "cove", "sanctuaries"),
            9,
            ["territories: More buildings on the island than the supply holds (8 Citadels, 9 Sanctuaries)"],
        ),
        (("capital",), "forest", ["capital must be a territory on the island: valley, cove"]),
        (("phase",), "assembly", ["hands.green: At the start of an Assembly no Action card is in a hand"]),
    ],
)
def test_a_malformed_or_impossible_position_is_refused_in_words(path, value, words):
    """docs/positions.md: "`start_game` checks the whole position before anything is recorded
    and raises `InvalidCommand` at the first thing wrong, naming the field by its path in the
    JSON ... and what is allowed there"."""
    message = refusal(changed(path, value))
    for word in words:
        assert word in message, message


def test_a_territory_given_as_a_number_is_refused_in_words():
    position = copy.deepcopy(GOOD)
    position["territories"][5] = {"cell": [0, 1]}
    assert "Unknown territory 5 in territories: the territories are cove, forest" in refusal(position)


@pytest.mark.parametrize("changes", [{"turn": "blue"}, {"passes": 1}])
def test_a_season_not_opened_is_at_the_brenns_opening_turn(changes):
    """Rulebook, Season: "The Brenn begins the Season by playing the first card, which must be a
    Season card." A position whose Season is not `opened` yet is at that first turn: another
    seat's turn, or passes before it, never happened then (docs/positions.md); such a position
    used to ask blue to open the Season "As Brenn"."""
    position = {**copy.deepcopy(GOOD), "opened": False, **changes}
    assert refusal(position) == (
        "opened: false is the Brenn's opening turn: turn must be the Brenn (green) and passes 0."
    )
