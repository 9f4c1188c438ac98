"""`{% time_left deadline as left %}`: the time left until `deadline` (a datetime) in words, now
(`web.pages.time_left`): "2 h 14 min left"."""

from django import template
from django.utils import timezone

from web.pages import time_left as words_left

register = template.Library()


@register.simple_tag
def time_left(deadline) -> str:
    """The countdown's words for `deadline` (an aware datetime), from the moment of rendering."""
    return words_left(deadline, timezone.now())
