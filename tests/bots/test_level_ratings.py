"""The bots' ratings the lobby shows come from the arena's committed file (docs/ratings.md,
"The bots' ratings"): every level a host can seat carries a number on the players' scale."""

from __future__ import annotations

import json

from games.bots import LEVELS
from games.bots.ratings import RATINGS_FILE, level_ratings, strongest_level


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


def arena_file(tmp_path, strong_rating: int, strong_p99: float):
    """A ratings file as the arena writes it, the strong bot measured at 0.5 s a decision."""
    levels = {
        "easy": {"rating": 180, "mu": 1500.0, "sigma": 440.0, "games": 8, "cpu_p99_s": 0.02},
        "hard": {"rating": 500, "mu": 1840.0, "sigma": 447.0, "games": 8, "cpu_p99_s": 1.6},
        "strong": {
            "rating": strong_rating,
            "mu": 1900.0,
            "sigma": 450.0,
            "games": 8,
            "cpu_p99_s": strong_p99,
        },
    }
    path = tmp_path / "ratings.json"
    path.write_text(json.dumps({"games": 10, "strong_budget_s": 0.5, "levels": levels}))
    return path


def test_the_stand_in_takes_the_strong_bot_once_the_arena_rates_it_best_within_the_cpu_budget(tmp_path):
    """The stand-in and the demo play the best-rated level that thinks within 2.5 s a decision
    (docs/deadlines.md): the strong bot as soon as the arena rates it above the hard one, at the
    worker's 2 s a decision with what it overran its 0.5 s by in the arena."""
    assert strongest_level(2.5, 2.0, arena_file(tmp_path, 420, 0.9)) == "hard"
    assert strongest_level(2.5, 2.0, arena_file(tmp_path, 560, 0.9)) == "strong"
    # Overrunning 0.5 s by 0.6 s in the arena, it would take 2.6 s at 2 s: too slow.
    assert strongest_level(2.5, 2.0, arena_file(tmp_path, 560, 1.1)) == "hard"
