"""Timing helpers: repeat a piece of work for a time budget and give its rate or latencies."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable


def rate(work: Callable[[], int], *, seconds: float, min_runs: int = 1) -> float:
    """Items per second: calls `work()` (which returns how many items it did) until `seconds`
    have passed and at least `min_runs` calls were made; sums items over wall time."""
    done, runs = 0, 0
    start = time.perf_counter()
    while True:
        done += work()
        runs += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds and runs >= min_runs:
            return done / elapsed


def percentile(samples: list[float], q: float) -> float:
    """The q-th percentile (0-100) of `samples`, linear between the closest ranks."""
    ordered = sorted(samples)
    if len(ordered) == 1:
        return ordered[0]
    k = (len(ordered) - 1) * q / 100
    lo = int(k)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def median(samples: list[float]) -> float:
    return statistics.median(samples)
