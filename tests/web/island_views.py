"""Hand-built public views of the island, for the tests that draw it (`web.board_svg.island_svg`)
without playing a game to the position they need."""

from __future__ import annotations


def island_view(territories: dict[str, dict], seats: list[str]) -> dict:
    """A public view shaped like `rules.view_for`'s, holding only what the island's drawing reads.

    `territories`: territory id → {"cell": [column, row], "clans": {colour: count}, "chieftain":
    colour or None}; Sanctuaries and Citadels default to 0. `seats`: the clans' colours in seat
    order; the first holds the Brenn. No Capital, no Festival, no Deed, no Pretender token.
    """
    return {
        "territories": {
            tid: {"sanctuaries": 0, "citadels": 0, **territory} for tid, territory in territories.items()
        },
        "seats": list(seats),
        "deeds": {},
        "pretenders": [],
        "brenn": seats[0],
        "flock": "clockwise",
        "capital": None,
        "festival": None,
    }
