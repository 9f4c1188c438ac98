"""Template tags of the lobby's live pages (lobby/live.py): the version a page was rendered at.

`{% load live %}` then `{% home_live_version user as v %}` ("My games") or
`{% proposal_live_version proposal.pk as v %}` (a game being gathered). The game page takes its
version from `web.pages.GamePage.live_version` instead, read with the state it shows.
`{% head_viewer_token user %}`: the token naming the page's signed-in viewer to its head
(`web.head_viewer`), rendered for each request (these pages are never kept).
"""

from django import template

from lobby import live
from web import head_viewer

register = template.Library()


@register.simple_tag
def home_live_version(user) -> str:
    """The version of `user`'s "My games" now (`lobby.live.home_version`)."""
    return live.home_version(user.pk)[0]


@register.simple_tag
def head_viewer_token(user) -> str:
    """A fresh token naming `user` to the page's head (`web.head_viewer.issue`); "" for a visitor."""
    return head_viewer.issue(user.pk) if user.is_authenticated else ""


@register.simple_tag
def proposal_live_version(proposal_id: int) -> str:
    """The version of the game being gathered now (`lobby.live.proposal_version`)."""
    return live.proposal_version(proposal_id) or ""
