"""docs/positions.md: the described position the guide shows, copied as it is, starts a game, and
the game starts where the position says (green's Season turn, green's hand as written)."""

from __future__ import annotations

import json
import re
from pathlib import Path

from games import rules

GUIDE = Path(__file__).resolve().parents[2] / "docs" / "positions.md"


def the_guides_position() -> dict:
    block = re.search(r"```json\n(.*?)```", GUIDE.read_text(), re.S)
    assert block, "docs/positions.md shows a JSON position"
    return json.loads(block.group(1))


def test_the_guides_example_starts_a_game_where_it_says():
    position = the_guides_position()
    state = rules.fold(rules.start_game(["green", "blue"], seed="positions-doc", setup=position))
    assert [(d.seat, d.kind) for d in rules.pending(state)] == [("green", "season_turn")]
    assert sorted(state.hands["green"]) == sorted(position["hands"]["green"])
    assert state.territories["valley"]["clans"] == {"green": 2, "blue": 1}
    assert state.capital == "valley" and state.brenn == "green"
