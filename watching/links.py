"""Signed links of followers' emails: one-click unsubscribe (RFC 2369 / RFC 8058).

A link names a person (their `auth.User` id) and either one game or all of them, signed with
Django's `Signer` (HMAC under SECRET_KEY, a salt of its own): `<user id>-<game id or "all">:<sig>`.
It needs no sign-in — a mail provider's one-click POST carries no cookie — and it only ever ends
following, so a forwarded link can do no more than stop that person's digest.
"""

from __future__ import annotations

import re

from django.conf import settings
from django.core import signing
from django.urls import reverse
from django.utils.translation import gettext as _

SALT = "watching.unsubscribe"
_VALUE = re.compile(r"^(\d{1,12})-(\d{1,12}|all)$")


class BadLink(Exception):
    """The link was not made here, or was damaged."""


def _signer() -> signing.Signer:
    # Made when used, not at import: the URL map imports this module, and the production checks
    # must be able to report an empty SECRET_KEY (inis_pbem.E001) rather than fail on it.
    return signing.Signer(salt=SALT)


def unsubscribe_token(*, user_id: int, game_id: int | None = None) -> str:
    """The token of a link that unfollows game `game_id` (None: every game) for `user_id`."""
    return _signer().sign(f"{int(user_id)}-{'all' if game_id is None else int(game_id)}")


def read_unsubscribe_token(token: str) -> tuple[int, int | None]:
    """(user id, game id or None for every game) of a token; raises BadLink."""
    try:
        value = _signer().unsign(token)
    except signing.BadSignature:
        raise BadLink(_("This link is not valid.")) from None
    match = _VALUE.match(value)
    if match is None:
        raise BadLink(_("This link is not valid."))
    return int(match[1]), None if match[2] == "all" else int(match[2])


def unsubscribe_url(*, user_id: int, game_id: int | None = None) -> str:
    """The absolute address of the unsubscribe link (SITE_URL)."""
    return settings.SITE_URL + reverse(
        "watching:unsubscribe", args=[unsubscribe_token(user_id=user_id, game_id=game_id)]
    )
