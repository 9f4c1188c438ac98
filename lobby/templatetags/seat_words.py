"""`{% load seat_words %}{{ seat.colour|colour_word }}`: a seat colour as the page's reader reads
it ("green"; in French "vert", `rules.colour_name`). The colour itself stays data (URLs, form
values, CSS classes); only the word shown changes."""
from django import template

from games.rules import colour_name

register = template.Library()


@register.filter
def colour_word(colour) -> str:
    """The displayed word of `colour` in the active language; anything that is no seat colour
    (a bot, an empty value) as it is."""
    return colour_name(colour) if colour else ""
