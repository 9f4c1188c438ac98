"""Where an empty place of the island is, in words a player can find on the map.

A new territory goes on an empty place touching at least two territories (rulebook, Components;
Exploration; Tailtu's Land). The rules name such a place by its axial coordinates ("1,-1"),
which nobody can read off the island: the page's map and the email's list of territories show
no coordinates. So a place is worded by a territory it touches and the direction from it, as
the island is drawn (north up, the territories' points up), then the other territories it
touches, then its coordinates, which an email reply may still give ("cell 1,-1"):
"south-east of the Highlands, also touching the Swamp (place 1,1)".
"""

from __future__ import annotations

from collections.abc import Sequence

from .island import cell_key, neighbour_cells, parse_cell
from .language import _, gettext_noop, listed, territory_phrase
from .state import GameState

# The direction from a territory to the place one step away (`island.NEIGHBOUR_STEPS`), as the
# island is drawn: `web.board_svg.hex_centre` puts q to the east and r to the south-east.
DIRECTIONS = {
    (1, 0): gettext_noop("east {of_the_territory}"),
    (1, -1): gettext_noop("north-east {of_the_territory}"),
    (0, -1): gettext_noop("north-west {of_the_territory}"),
    (-1, 0): gettext_noop("west {of_the_territory}"),
    (-1, 1): gettext_noop("south-west {of_the_territory}"),
    (0, 1): gettext_noop("south-east {of_the_territory}"),
}


def place_phrase(state: GameState, cell: str | Sequence[int]) -> str:
    """The place `cell` (`"q,r"` or a pair) in words, in the active language: the direction
    from the first territory it touches (in the order of their places, so the same whatever the
    language), the other territories it touches by name (each territory named once), and its
    coordinates; the coordinates alone when it touches no territory (a place the rules would
    refuse). Raises ValueError for a cell that is not "q,r"."""
    q, r = parse_cell(cell)
    placed = {tuple(d["cell"]): tid for tid, d in state.territories.items()}
    touched = sorted((c, placed[c]) for c in neighbour_cells((q, r)) if c in placed)
    key = cell_key((q, r))
    if not touched:
        return _("at the place {cell}").format(cell=key)
    (tq, tr), first = touched[0]
    direction = _(DIRECTIONS[(q - tq, r - tr)]).format(of_the_territory=territory_phrase(first, "of"))
    others = sorted(territory_phrase(tid) for _cell, tid in touched[1:])
    if not others:
        return _("{direction} (place {cell})").format(direction=direction, cell=key)
    return _("{direction}, also touching {territories} (place {cell})").format(
        direction=direction, territories=listed(others), cell=key
    )


__all__ = ["DIRECTIONS", "place_phrase"]
