"""The island: territory tiles on a hex grid (axial coordinates `(q, r)`).

Adjacency is neighbouring cells. A new territory goes on an empty cell touching at least two
territories in play (rulebook, Components: "A new territory is always placed adjacent to at least
two territories").
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

NEIGHBOUR_STEPS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def neighbour_cells(cell: Sequence[int]) -> list[tuple[int, int]]:
    """The six cells around `cell` (`(q, r)`)."""
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in NEIGHBOUR_STEPS]


def cell_key(cell: Sequence[int]) -> str:
    """`"q,r"`, the JSON-safe key of a cell."""
    return f"{cell[0]},{cell[1]}"


def parse_cell(text: object) -> tuple[int, int]:
    """Inverse of `cell_key`; also accepts a 2-list. Raises ValueError on anything else."""
    if isinstance(text, (list, tuple)) and len(text) == 2:
        return int(text[0]), int(text[1])
    q, r = str(text).split(",")
    return int(q.strip()), int(r.strip())


def open_cells(occupied: Iterable[Sequence[int]]) -> list[tuple[int, int]]:
    """Empty cells touching at least 2 occupied cells, sorted (the legal places for a new tile)."""
    occupied = {tuple(c) for c in occupied}
    counts: dict[tuple[int, int], int] = {}
    for cell in occupied:
        for n in neighbour_cells(cell):
            if n not in occupied:
                counts[n] = counts.get(n, 0) + 1
    return sorted(c for c, k in counts.items() if k >= 2)


def starting_layout(count: int, rng: random.Random | None) -> list[tuple[int, int]]:
    """Cells for the starting tiles: 2 touching, or 3–4 each touching at least 2 others.

    Rulebook, Setup ("Each tile must be adjacent to two other tiles"; the French rulebook makes it
    each tile touching two others with 3–4 players). With `rng=None` the layout is the fixed
    one used by the Discovery scenario. Returns `count` cells.
    """
    cells = [(0, 0), (1, 0)]
    while len(cells) < count:
        candidates = open_cells(cells)
        cells.append(candidates[0] if rng is None else rng.choice(candidates))
    if count == 4:
        # Each of 4 tiles must touch 2 others: the fourth cell closes a rhombus, never a line.
        assert all(sum(n in cells for n in neighbour_cells(c)) >= 2 for c in cells)
    return cells[:count]
