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
    counts; for "strong", whose search stops at its budget, the 99th percentile a match measured
    at exactly `strong_seconds` a decision (`strong_cpu_p99`) when there is one, else
    `strong_seconds` plus what it overran its budget by in the arena (an upper bound: it overruns
    where the hard bot's own work, which it always does first, takes longer than its budget,
    which a longer budget covers). "hard" when the file is missing or says no CPU time.
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
            measured = strong_cpu_p99(data, strong_seconds)
            overran = max(0.0, p99 - float(data.get("strong_budget_s", p99)))
            p99 = measured if measured is not None else strong_seconds + overran
        if p99 <= cpu_seconds:
            fitting.append((int(entry["rating"]), level))
    return max(fitting)[1] if fitting else "hard"


# The key of `RATINGS_FILE` under which matches of the strong bot record its CPU time a decision
# at their budget: {"<seconds>": {"cpu_median_s", "cpu_p99_s", "decisions", "measured", "command"}}.
STRONG_CPU_KEY = "strong_cpu_by_budget"


def budget_key(seconds: float) -> str:
    """The key of a budget of `seconds` CPU seconds in `STRONG_CPU_KEY` ("2", "0.5")."""
    return f"{seconds:g}"


def strong_cpu_p99(data: dict, seconds: float) -> float | None:
    """The strong bot's 99th percentile of CPU seconds a decision that a match measured at a
    budget of exactly `seconds` (`STRONG_CPU_KEY` of the ratings file's `data`), or None."""
    entry = data.get(STRONG_CPU_KEY, {}).get(budget_key(seconds))
    return None if entry is None else float(entry["cpu_p99_s"])


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


__all__ = [
    "RATINGS_FILE",
    "STRONG_CPU_KEY",
    "budget_key",
    "level_ratings",
    "strong_cpu_p99",
    "strongest_level",
]
