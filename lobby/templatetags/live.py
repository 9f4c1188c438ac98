"""Template tags of the lobby's live pages (lobby/live.py): the version a page was rendered at.

`{% load live %}` then `{% home_live_version user as v %}` ("My games") or
`{% proposal_live_version proposal.pk as v %}` (a game being gathered). The game page takes its
version from `web.pages.GamePage.live_version` instead, read with the state it shows.
"""

from django import template

from lobby import live

register = template.Library()


@register.simple_tag
def home_live_version(user) -> str:
    """The version of `user`'s "My games" now (`lobby.live.home_version`)."""
    return live.home_version(user)[0]


@register.simple_tag
def proposal_live_version(proposal_id: int) -> str:
    """The version of the game being gathered now (`lobby.live.proposal_version`)."""
    return live.proposal_version(proposal_id) or ""
