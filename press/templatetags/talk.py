"""Template tag of table talk: `{% load talk %}{% talk_for_page game page.seat user as talk %}`:
the lines a reader may read, each with who wrote it and to whom in words ("Ann (blue)", "to
you alone": `press.addressees`, in the page's language), and whom the seat may write to.

The game page includes templates/press/_panel.html, which reads the messages here so that the
page's own view (web/views.py) need not know about talk.
"""

from __future__ import annotations

from dataclasses import dataclass

from django import template
from django.utils.translation import gettext as _

from games.rules import players_named
from games.story.names import player_name
from players.display_names import seat_names
from press import selectors
from press.addressees import addressee_list, party_words
from press.muting import muted_colours
from press.services import MAX_CHARS

register = template.Library()


@dataclass(frozen=True)
class ShownLine:
    """A message as the page shows it to one reader: `line` (a `press.selectors.TalkLine`),
    `author` ("You", "Ann (blue)", "blue") and `to` ("to everyone", "to you alone", "to Bob
    (red) alone"), in the page's language."""

    line: selectors.TalkLine
    author: str
    to: str


@register.simple_tag
def talk_for_page(game, seat, viewer=None) -> dict:
    """{"lines": the messages `seat` (None: a spectator or a visitor) may read, oldest first
    (`press.selectors.talk_for_page`), as `ShownLine`s, but those of players its reader blocked
    (`muted_colours`: the seat's player, else the signed-in `viewer`, a Django user); "others":
    [(colour, its player's name with the colour)] of the seats the seat may write to alone
    (players, never bots); "max_chars": the longest message}. Reads the seats' names (one
    query) when there is a line or a seat to write to."""
    colour = seat.colour if seat is not None else None
    # A bot reads no table talk: it is never offered as an addressee.
    others = [s.colour for s in game.seats.all() if s.colour != colour and not s.is_bot] if colour else []
    lines = selectors.talk_for_page(game=game, colour=colour)
    # Hidden when shown, after the cache: the kept lines are the seat's whatever it blocks.
    viewer_id = viewer.pk if getattr(viewer, "is_authenticated", False) else None
    muted = muted_colours(game, seat, viewer_id)
    if muted:
        lines = [line for line in lines if line.sender not in muted]
    names = seat_names(game.seats.all()) if lines or others else {}
    with players_named(names):
        return {
            "lines": [_shown(line, colour) for line in lines],
            "others": [(c, player_name(c)) for c in others],
            "max_chars": MAX_CHARS,
        }


def _shown(line: selectors.TalkLine, reader: str | None) -> ShownLine:
    """`line` as `reader` (a colour; None: a spectator) reads it, inside `players_named`."""
    author = party_words(line.sender, reader=reader, named=line.named, capital=True)
    if line.to is None:
        return ShownLine(line, author, _("to everyone"))
    return ShownLine(
        line, author, _("to {who} alone").format(who=addressee_list(line.to, reader, named=line.named))
    )
