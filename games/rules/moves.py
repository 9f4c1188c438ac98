"""Enumerating ways to split clans over territories (for legal commands of moving cards)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


def splits(total: int, targets: Iterable[str]) -> list[dict[str, int]]:
    """Every way to put exactly `total` clans on `targets`: list of {territory: count >= 1}."""
    targets = list(targets)
    out: list[dict[str, Any]] = []

    def walk(i: int, left: int, acc: dict[str, int]) -> None:
        if left == 0:
            out.append(dict(acc))
            return
        if i == len(targets):
            return
        for n in range(left, -1, -1):
            if n:
                acc[targets[i]] = n
            walk(i + 1, left - n, acc)
            acc.pop(targets[i], None)

    if total > 0:
        walk(0, total, {})
    return out


def gatherings(total: int, sources: dict[str, Any]) -> list[dict[str, Any]]:
    """Every way to take exactly `total` clans from `sources` ({territory: available})."""
    names = list(sources)
    out: list[dict[str, Any]] = []

    def walk(i: int, left: int, acc: dict[str, int]) -> None:
        if left == 0:
            out.append(dict(acc))
            return
        if i == len(names):
            return
        for n in range(min(left, sources[names[i]]), -1, -1):
            if n:
                acc[names[i]] = n
            walk(i + 1, left - n, acc)
            acc.pop(names[i], None)

    if total > 0:
        walk(0, total, {})
    return out
