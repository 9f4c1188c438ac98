"""Template filters of the decision forms (templates/games/_decision.html): the values a player
posted, so that a refused form comes back as they filled it.

`{% load decision_form %}` then `{{ request.POST|posted:"f:moves:cove" }}` (one value, "" when
absent) or `{% if value in request.POST|posted_list:"f:keep" %}` (a ticked list).
"""

from django import template

register = template.Library()


@register.filter
def posted(post, name: str) -> str:
    """The value posted under `name` ("" when there is none, or on a GET)."""
    return post.get(name, "") if hasattr(post, "get") else ""


@register.filter
def posted_list(post, name: str) -> list:
    """Every value posted under `name` (ticked boxes); [] when there is none."""
    return post.getlist(name) if hasattr(post, "getlist") else []
