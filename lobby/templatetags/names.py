"""`{{ email|player_name }}`: the name other players read for the person of an address
(`players.display_names.name_for`: their chosen display name, else the part before the "@"),
never the address itself; `{{ email|public_player_name }}`: the name strangers read (no part of
the address: "a player with no name yet"); `{{ name|profile_link:player_id }}`: that name linked
to their profile.
"""

from django import template
from django.urls import reverse
from django.utils.html import format_html

from players.display_names import name_for, needs_name, public_name

register = template.Library()


@register.filter
def player_name(email: str) -> str:
    """The display name of the person of `email` (one query)."""
    return name_for(email or "")


@register.filter
def public_player_name(email: str) -> str:
    """The name strangers read for the person of `email` (`players.display_names.public_name`):
    at an open table, to its host too for a player who joined. One query."""
    return public_name(email or "")


@register.filter
def profile_link(name: str, player_id: int | None) -> str:
    """`name` as a link to the profile of the account `player_id` (escaped HTML, safe to put in a
    `blocktranslate`), or `name` alone for None: a profile hidden from this reader, a bot."""
    if player_id is None:
        return name
    return format_html('<a href="{}">{}</a>', reverse("community:profile", args=[player_id]), name)


@register.filter
def invitee_for_host(email: str) -> str:
    """An invitee as their host reads them: the display name they chose, else the address the
    host typed (the host knows it; the part before the "@" would only hide which invitee it is).
    For the host's eyes only: other players read `player_name`. One query."""
    return email if needs_name(email or "") else name_for(email or "")
