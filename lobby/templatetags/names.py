"""`{{ email|player_name }}`: the name other players read for the person of an address
(`players.display_names.name_for`: their chosen display name, else the part before the "@"),
never the address itself."""

from django import template

from players.display_names import name_for

register = template.Library()


@register.filter
def player_name(email: str) -> str:
    """The display name of the person of `email` (one query)."""
    return name_for(email or "")
