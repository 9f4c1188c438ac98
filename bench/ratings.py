"""Community: rebuild the ratings (`manage.py rebuild_projections ratings`, docs/ratings.md)
from 10,000 finished rated games.

    .venv/bin/python -m bench.ratings [--quick]      (alone: prepares the bench database first)

The games' ends are written straight into their log (`community.models.GameEnd`, as the
transaction that ends a game writes them): 4 seats each among 1,000 players, a winner, now and
then a seat left to the stand-in. The figure is the wall time of `community.projections
.rebuild("ratings")`, which empties the ratings and folds the whole log again, in seconds; the
goal is at most 60 s (a rebuild of 1,000 games with --quick, scaled to 10,000 in the note).
"""

from __future__ import annotations

import random
import sys
import time

GAMES = 10_000
PLAYERS = 1_000
GOAL_SECONDS = 60.0


def finished_games(count: int) -> None:
    """`count` rated games' ends in the log, drawn from a fixed seed."""
    from django.utils import timezone

    from community.models import GameEnd

    draw = random.Random(20261128)
    ended_at = timezone.now().isoformat()
    rows = []
    for game_id in range(1, count + 1):
        players = draw.sample(range(1, PLAYERS + 1), 4)
        colours = ["green", "blue", "orange", "white"]
        seats = [
            {"colour": colour, "player": player, "bot": None, "abandoned": draw.random() < 0.03}
            for colour, player in zip(colours, players)
        ]
        rows.append(
            GameEnd(
                game_id=game_id,
                payload={"winner": draw.choice(colours), "rated": True, "ended_at": ended_at, "seats": seats},
            )
        )
    GameEnd.objects.bulk_create(rows, batch_size=1_000)


def measure(*, quick: bool = False) -> dict:
    """{"seconds": the rebuild's wall time, "games": games folded, "rated": players rated}."""
    from community import projections
    from community.models import PlayerRating

    games = GAMES // 10 if quick else GAMES
    finished_games(games)
    started = time.perf_counter()
    folded = projections.rebuild("ratings")
    seconds = time.perf_counter() - started
    return {"seconds": seconds, "games": folded, "rated": PlayerRating.objects.count()}


def run(*, quick: bool = False) -> list:
    """The community row (bench.table.Row): the rebuild's seconds against the goal's 60 s."""
    from bench.table import Row

    s = measure(quick=quick)
    note = f"{s['games']} games' ends, {s['rated']} players rated"
    if s["games"] != GAMES:
        note += f"; about {s['seconds'] * GAMES / s['games']:.0f} s for {GAMES:,}"
    return [
        Row(
            "community",
            f"rebuild ratings from {GAMES:,} finished games",
            s["seconds"],
            "s",
            baseline_name="goal",
            baseline=GOAL_SECONDS,
            goal=("<=", 1.0),
            note=note,
        )
    ]


def main(argv: list[str]) -> int:
    from bench import environment
    from bench.table import markdown

    environment.prepare()
    print(markdown(run(quick="--quick" in argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
