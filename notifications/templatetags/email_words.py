"""`{% load email_words %}{{ others|colours_and }}`: seat colours in words joined with " and "
("blue and white"; in French "bleu et blanc"), for the emails' sentences."""

from __future__ import annotations

from django import template
from django.utils.translation import gettext as _

from games.rules import colour_name

register = template.Library()


@register.filter
def colours_and(values) -> str:
    """Seat colours in the active language, joined with " and "."""
    return _(" and ").join(colour_name(v) for v in values or [])
