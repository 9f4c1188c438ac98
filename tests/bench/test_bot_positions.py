"""The paired check on positions (issue 39; bench/bot_positions.py): the decisions where the
strong bot and the hard bot differ, kept so they can be replayed, and each choice played out."""

from __future__ import annotations

import json

from bench import bot_positions
from games import bots, rules

# Cheap opponents and finishers, and a strong bot bounded by deals: a position in seconds, the
# same every run.
LEVELS = ("strong", "easy", "easy", "easy")
FIXED = bots.Budget(seconds=float("inf"), iterations=12)


def test_a_saved_position_replays_to_the_decision_where_the_two_bots_differ(tmp_path, capsys):
    played = bot_positions.collect_game(0, levels=LEVELS, budget=FIXED, max_positions=1)
    game = json.loads(json.dumps(played))  # as saved and read back
    [position] = game["positions"]
    state = bot_positions.replay(game, position["at"])
    seat = position["seat"]
    assert game["seats"][seat] == "strong"
    assert position["strong"] != position["hard"]
    legal = rules.legal_commands(state, seat)
    assert position["strong"] in legal and position["hard"] in legal
    assert bot_positions.rechoose(game, position, FIXED) == position["strong"]

    # Both choices played out from there, on the same seeds.
    judged = bot_positions.judge_position(game, position, k=2, level="easy")
    assert all(len(judged["wins"][side]) == 2 for side in ("strong", "hard"))
    same = bot_positions.judge_position(game, position, k=2, level="easy", strong=position["hard"])
    assert same["wins"]["strong"] == same["wins"]["hard"]
    assert bot_positions.summary([same])["mean_difference"] == 0.0

    path = tmp_path / "game-0.json"
    path.write_text(json.dumps(game))
    saved = tmp_path / "judged.json"
    args = ["judge", str(path), "--k", "1", "--finish", "easy", "--save", str(saved)]
    assert bot_positions.main(args) == 0
    figures = json.loads(saved.read_text())["figures"]
    assert figures["positions"] == 1 and figures["continuations"] == 1
    assert "1 positions, 1 continuations a choice" in capsys.readouterr().out
