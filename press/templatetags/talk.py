"""Template tags of table talk: `{% load talk %}{% talk_for_page game page.seat as talk %}`, and
`{% addressees line seat %}` ("to blue alone", "to you alone": in the page's language).

The game page includes templates/press/_panel.html, which reads the messages here so that the
page's own view (web/views.py) need not know about talk.
"""

from django import template

from press import selectors
from press.addressees import addressee_list
from press.muting import muted_colours
from press.services import MAX_CHARS

register = template.Library()


@register.simple_tag
def talk_for_page(game, seat, viewer=None) -> dict:
    """{"lines": the messages `seat` (None: a spectator or a visitor) may read, oldest first
    (`press.selectors.talk_for_page`), but those of players its reader blocked (`muted_colours`:
    the seat's player, else the signed-in `viewer`, a Django user); "others": the colours the
    seat may write to alone (players, never bots); "max_chars": the longest message}."""
    colour = seat.colour if seat is not None else None
    # A bot reads no table talk: it is never offered as an addressee.
    others = [s.colour for s in game.seats.all() if s.colour != colour and not s.is_bot] if colour else []
    lines = selectors.talk_for_page(game=game, colour=colour)
    # Hidden when shown, after the cache: the kept lines are the seat's whatever it blocks.
    viewer_id = viewer.pk if getattr(viewer, "is_authenticated", False) else None
    muted = muted_colours(game, seat, viewer_id)
    return {
        "lines": [line for line in lines if line.sender not in muted] if muted else lines,
        "others": others,
        "max_chars": MAX_CHARS,
    }


@register.simple_tag
def addressees(line, seat) -> str:
    """Whom the private `line` (a `press.selectors.TalkLine`) was written to, as `seat`'s reader
    (None: a visitor) reads it: "to blue alone", "to you alone" (French: "à bleu seulement")."""
    from django.utils.translation import gettext as _

    return _("to {who} alone").format(who=addressee_list(line.to, seat.colour if seat is not None else None))
