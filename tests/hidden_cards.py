"""What a card's own text lets a seat see, for the tests that look for hidden cards in what a
player reads (emails, pages, exports)."""

from __future__ import annotations


def shown_by_the_card(colour: str | None, state) -> set[str]:
    """Cards a card's text shows `colour` at this decision: while it chooses the set-aside card
    with Cathbad's Word ("You, not chance, choose which Action card is set aside this Assembly"),
    the Action deck (docs/rulings.md, Assembly and draft)."""
    frame = state.top() or {}
    if colour is not None and frame.get("choice") == "cathbad_set_aside" and frame.get("cathbad") == colour:
        return set(state.action_deck)
    return set()
