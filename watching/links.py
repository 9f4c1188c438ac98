"""Signed links of followers' emails: one-click unsubscribe (RFC 2369 / RFC 8058).

A link names a person (their `auth.User` id) and either one game or all of them, signed by
`players.signed_tokens.unfollow_token` (where every signed token is made; a salt of its own):
`<user id>-<game id or "all">:<signature>`. It needs no sign-in — a mail provider's one-click
POST carries no cookie — and it only ever ends following, so a forwarded link can do no more
than stop that person's digest.
"""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _

from players.signed_tokens import BadToken, read_unfollow_token, unfollow_token


class BadLink(Exception):
    """The link was not made here, or was damaged."""


def unsubscribe_token(*, user_id: int, game_id: int | None = None) -> str:
    """The token of a link that unfollows game `game_id` (None: every game) for `user_id`."""
    return unfollow_token(user_id=user_id, game_id=game_id)


def read_unsubscribe_token(token: str) -> tuple[int, int | None]:
    """(user id, game id or None for every game) of a token; raises BadLink (its message, in
    the active language, is for the visitor)."""
    try:
        return read_unfollow_token(token)
    except BadToken:
        raise BadLink(_("This link is not valid.")) from None


def unsubscribe_url(*, user_id: int, game_id: int | None = None) -> str:
    """The absolute address of the unsubscribe link (SITE_URL)."""
    return settings.SITE_URL + reverse(
        "watching:unsubscribe", args=[unsubscribe_token(user_id=user_id, game_id=game_id)]
    )
