"""Template tags of table talk: `{% load talk %}{% talk_for_page game page.seat as talk %}`.

The game page includes templates/press/_panel.html, which reads the messages here so that the
page's own view (games/views.py) need not know about talk.
"""
from django import template

from press import selectors
from press.services import MAX_CHARS

register = template.Library()


@register.simple_tag
def talk_for_page(game, seat) -> dict:
    """{"lines": the messages `seat` (None: a visitor without a seat) may read, oldest first
    (`press.selectors.talk_for`); "others": the colours the seat may write to alone;
    "max_chars": the longest message}."""
    colour = seat.colour if seat is not None else None
    others = [s.colour for s in game.seats.all() if s.colour != colour] if colour else []
    return {"lines": selectors.talk_for(game=game, colour=colour), "others": others,
            "max_chars": MAX_CHARS}
