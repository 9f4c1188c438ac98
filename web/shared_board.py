"""The island and the table's public facts (`templates/games/_board.html`) rendered once for every
reader whose pages the worker builds together after a move (`web.prerender`), instead of once a
reader.

What `_board.html` shows is public at the table, with two exceptions: the "(you)" beside the
viewer's own row, and, once the game is over, the other players' hands (the viewer's own is in
their hand panel). So the shared part is rendered from the board with no viewer (no seat marked,
no hand), a mark left in each row where "(you)" goes; each reader's copy puts "(you)" at their
own row's mark and drops the others. A game that is over is not shared (each page renders its
own board), nor is a board that differs in anything else: the part is kept under the public
board's whole `repr` (and the language), so two readers share it only when everything it reads
is the same. The fragment is kept in memory for one run only (a dict the caller holds), never in
a cache, and holds nothing seat-specific: it is what a viewer with no seat at the table, but
with the reader's profile links, would see.
"""

from __future__ import annotations

import re
from dataclasses import replace

from django.template.loader import render_to_string
from django.utils import translation
from django.utils.html import format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext

# The mark `_board.html` leaves where "(you)" goes, rendered with `viewer_marks`.
_MARK = "<!--inis-viewer:{colour}-->"
_MARKS = re.compile(r"<!--inis-viewer:[a-z]+-->")


def board_html(board, fragments: dict) -> SafeString | None:
    """`_board.html` of `board` (`web.pages.Board`, as its viewer sees it) as the live part
    includes it, rendered once per public board and language into `fragments` (a dict held for
    one run of pages: `web.prerender`) and given its viewer's "(you)"; None when the game is over
    (each page renders its own board then)."""
    if board.victory is not None or board.winner:
        return None
    viewer = next((s.colour for s in board.seats if s.is_viewer), None)
    public = replace(
        board,
        seats=[replace(s, is_viewer=False, hand=None) for s in board.seats],
        waiting_for=[],  # not read by _board.html: left out so that readers share the part
        turn_order=None,
    )
    key = (translation.get_language(), repr(public))
    html = fragments.get(key)
    if html is None:
        context = {"board": public, "hide_track": board.victory, "viewer_marks": True}
        html = fragments[key] = render_to_string("games/_board.html", context)
    if viewer is not None:
        html = html.replace(
            _MARK.format(colour=viewer), format_html(" <strong>{}</strong>", gettext("(you)"))
        )
    return mark_safe(_MARKS.sub("", html))  # noqa: S308 - our own render of public facts
