"""The bots' ratings the lobby shows come from the arena's committed file (docs/ratings.md,
"The bots' ratings"): every level a host can seat carries a number on the players' scale."""

from __future__ import annotations

import json

from games.bots import LEVELS
from games.bots.ratings import RATINGS_FILE, level_ratings


def test_the_arena_rated_every_level_a_host_can_seat():
    ratings = level_ratings()
    assert set(LEVELS) <= set(ratings), f"{RATINGS_FILE.name} lacks {set(LEVELS) - set(ratings)}"


def test_the_file_says_how_it_was_measured_and_ranks_the_hard_bot_above_the_easy_one():
    data = json.loads(RATINGS_FILE.read_text())
    assert data["command"].startswith("python -m bench.bots --arena") and data["games"] > 0
    for entry in data["levels"].values():
        # The figure shown is the conservative one: the estimate less three uncertainties.
        assert abs(entry["rating"] - (entry["mu"] - 3 * entry["sigma"])) <= 1
    ratings = level_ratings()
    assert ratings["hard"] > ratings["easy"] > ratings["random"]
