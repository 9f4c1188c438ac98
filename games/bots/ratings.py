"""Each bot level's rating on the players' scale, as the bench's arena last measured it.

`python -m bench.bots --arena` plays the levels against each other and the bench's sparring
partner and rates them with the players' function (docs/ratings.md, "The bots' ratings"); it
writes `RATINGS_FILE`, which is committed: the lobby names each level with its figure, read
here. The numbers are the arena's, never written by hand.
"""

from __future__ import annotations

import json
from pathlib import Path

RATINGS_FILE = Path(__file__).with_name("ratings.json")


def strongest_level(cpu_seconds: float, strong_seconds: float, path: Path | None = None) -> str:
    """The best-rated level (`level_ratings`) whose CPU time a decision stays within
    `cpu_seconds` at the 99th percentile: the arena's measured figure for a level bounded by
    counts, and for "strong", whose search stops at its budget, `strong_seconds` plus what it
    overran its budget by in the arena. "hard" when the file is missing or says no CPU time.
    path: default `RATINGS_FILE`."""
    path = path or RATINGS_FILE
    if not path.exists():
        return "hard"
    data = json.loads(path.read_text())
    levels = data.get("levels", {})
    fitting = []
    for level, entry in levels.items():
        if "cpu_p99_s" not in entry:
            continue
        p99 = float(entry["cpu_p99_s"])
        if level == "strong":
            p99 = strong_seconds + max(0.0, p99 - float(data.get("strong_budget_s", p99)))
        if p99 <= cpu_seconds:
            fitting.append((int(entry["rating"]), level))
    return max(fitting)[1] if fitting else "hard"


def level_ratings(path: Path | None = None) -> dict[str, int]:
    """{level: figure (mu - 3 sigma, rounded points of the players' scale)} of every level the
    arena rated; {} when the file is missing (no arena run yet). Raises ValueError on a file
    that is not the arena's JSON. path: default `RATINGS_FILE`."""
    path = path or RATINGS_FILE
    if not path.exists():
        return {}
    data = json.loads(path.read_text())
    try:
        return {level: int(entry["rating"]) for level, entry in data["levels"].items()}
    except (KeyError, TypeError, AttributeError) as error:
        raise ValueError(f"{path.name} is not the arena's ratings file: {error!r}") from error


__all__ = ["RATINGS_FILE", "level_ratings", "strongest_level"]
