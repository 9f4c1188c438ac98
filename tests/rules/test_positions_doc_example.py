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


def test_a_position_of_territories_and_capital_takes_the_documented_defaults():
    """docs/positions.md: "Only `territories` and `capital` are required", the others left out
    as the guide lists them: the first seat is Brenn and plays, the flock clockwise, nothing in
    hand, no Deed, no Pretender, decks and the tile stack shuffled, Advantage cards on display,
    round 1 of a Season already opened, no pass yet; a territory without clans nor buildings."""
    position = {
        "territories": {"valley": {"cell": [0, 0], "clans": {"blue": 1}}, "cove": {"cell": [1, 0]}},
        "capital": "valley",
    }
    state = rules.fold(rules.start_game(["blue", "green"], seed="positions-doc", setup=position))
    assert (state.brenn, state.flock, state.festival, state.round, state.phase) == (
        "blue",
        "clockwise",
        None,
        1,
        "season",
    )
    assert state.hands == {"blue": [], "green": []} and state.deeds == {"blue": 0, "green": 0}
    assert state.pretenders == [] and state.set_aside is None
    assert state.action_discard == [] and state.epic_discard == []
    assert len(state.epic_deck) == len([c for c in rules.CARDS if c.startswith("ep_")])
    assert sorted(state.tile_stack) == sorted(set(rules.TERRITORY_INFO) - {"valley", "cove"})
    assert sorted(state.advantage_display) == ["adv_cove", "adv_valley"]
    assert state.territories["cove"] == {"cell": [1, 0], "clans": {}, "sanctuaries": 0, "citadels": 0}
    season = state.top()
    assert season is not None and season["kind"] == "season"
    assert (season["turn"], season["opened"], season["passes"]) == ("blue", True, 0)
    assert [(d.seat, d.kind) for d in rules.pending(state)] == [("blue", "season_turn")]


def test_each_seat_sees_its_own_hand_and_counts_of_everything_hidden():
    """docs/positions.md: "The whole position is one event, `PositionDescribed`, visible to the
    server only; each seat sees its own hand and counts of everything hidden": the other hands,
    the decks, the face-down discard and the Action card set aside (Cathbad's Word, the Cove)
    — that one is there, not which it is."""
    position = {**the_guides_position(), "set_aside": "act_bard", "action_discard": ["act_druid"]}
    events = rules.start_game(["green", "blue"], seed="positions-doc", setup=position)
    (described,) = [e for e in events if e.type == "PositionDescribed"]
    assert described.visibility == ()
    for seat in ("blue", None):
        seen = rules.redact(described, seat).payload
        assert "act_bard" not in str(seen) and "act_druid" not in str(seen)
        assert "ep_eriu" not in str(seen)  # green's Epic Tale
        assert seen["hands"]["green"] == {"count": 2}
        assert seen["counts"] == {"tile_stack": 14, "epic_deck": 29, "action_discard": 1, "set_aside": 1}
    assert rules.redact(described, "blue").payload["hands"]["blue"] == ["act_new_clans"]
