"""The board the game management commands print (docs/management-commands.md)."""

from __future__ import annotations

from games import rules
from games.models import Game


def board_text(game: Game, state: rules.GameState, colour: str | None) -> str:
    """`rules.render_board` as `colour` (None: a spectator) sees `state`, a point of `game`; once
    `game` is over, every other seat's hand too, one line each: `Hand of COLOUR: <cards>`
    ("once the game is over everything is shown", docs/management-commands.md, as the game page
    shows every hand), even at an earlier point of the game (`replay_game`)."""
    board = rules.render_board(state, colour)
    if not game.is_over:
        return board
    hands = []
    for seat in state.seats:
        if seat != colour:
            cards = (
                ", ".join(rules.card_name(c) for c in _cards_in_hand(rules.view_for(state, seat))) or "empty"
            )
            hands.append(f"Hand of {seat}: {cards}")
    return "\n".join([board, *hands])


def _cards_in_hand(view: dict) -> list[str]:
    """The cards in the hand of the seat whose `rules.view_for` this is: its `hand`, and during
    the draft the draft's cards it holds (`kept` + `held` + `choices`, docs/rules-api.md), which
    the board's count of its hand includes."""
    draft = view.get("draft") or {}
    return [*view["hand"], *draft.get("kept", ()), *draft.get("held", ()), *(draft.get("choices") or ())]
