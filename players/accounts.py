"""Players' accounts: the user behind a seat, and the link that signs them in.

A player is a Django user found by their email address (`normalise_email`: case and the
look-alike spellings of a domain do not matter), made on first use with the address as username
and email. There is no password: the sign-in email (asked for on /signin/) carries a link with a
django-sesame token (`sign_in_link`, made by `players.signed_tokens.sign_in_query`), valid
SESAME_MAX_AGE (settings/signin.py). It is the only email whose link signs in the whole account:
every other email carries a link of its own purpose only (a seat link, `players.seat_links`; an
invitation's answer, the "my data" download: `players.signed_tokens`) or a plain address.
"""

from __future__ import annotations

from urllib.parse import unquote, urlsplit

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from players.email_addresses import canonical_address
from players.signed_tokens import sign_in_query

# Django's username is at most 150 characters; an email address may be up to 254.
USERNAME_MAX = 150


def normalise_email(email: str) -> str:
    """`email` in the form it is kept in (`players.email_addresses.canonical_address`: trimmed,
    lower case, the domain as delivery writes it, so that "ana@exaｍple.org" with a full-width m
    is the account of ana@example.org, the mailbox it reaches); raises ValueError when it is not
    an email address."""
    email = canonical_address(email)
    try:
        validate_email(email)
    except ValidationError:
        raise ValueError(_("“{email}” is not an email address.").format(email=email)) from None
    return email


def user_for_email(email: str):
    """The user whose email is `email` (any case), made now if there is none.

    Raises ValueError for an invalid address. Safe against two requests making the same user at
    once: the loser of the race reads the winner's row.
    """
    email = normalise_email(email)
    User = get_user_model()
    existing = User.objects.filter(email__iexact=email).order_by("pk").first()
    if existing is not None:
        return existing
    username = email[:USERNAME_MAX]
    try:
        with transaction.atomic():
            user = User(username=username, email=email)
            user.set_unusable_password()
            user.save()
            return user
    except IntegrityError:
        return User.objects.get(username=username)


def account_for_sign_in(email: str):
    """The account of `email` as `user_for_email` finds or makes it, locked until the caller's
    transaction ends, as an erasure locks it first (docs/privacy.md): a sign-in that read an
    account erased before its lock was had writes nothing of it back (no preferences made again
    with its address, no link to it). The address then has no account: whoever signs in with
    it is a new person, and gets a new one. To be called in a transaction."""
    User = get_user_model()
    while True:  # again only after an erasure committed in between: a new account next time
        user = user_for_email(email)
        locked = User.objects.select_for_update(no_key=True).filter(pk=user.pk).first()
        if locked is not None and locked.email == user.email:
            return locked


def is_site_path(path) -> bool:
    """True when `path` is a path on this site and nothing else: it starts with one "/" (not
    "//" or "/\\", which browsers read as another host), holds no backslash and no control
    character, as written and once percent-decoded, and has no scheme or host of its own. What
    `sign_in_link` and the sign-in page's `next` accept."""
    if not isinstance(path, str) or not path.startswith("/"):
        return False
    # Django decodes a path before a view (or sesame's redirect, `request.path`) reads it: the
    # decoded form is checked too ("/%2F%2Fevil.example" is "///evil.example" there).
    for form in (path, unquote(path)):
        if form.startswith(("//", "/\\")) or "\\" in form:
            return False
        if any(ord(c) < 32 or ord(c) == 127 for c in form):
            return False
    parts = urlsplit(path)
    return not parts.scheme and not parts.netloc


def sign_in_link(user, path: str) -> str:
    """The absolute address of `path` (e.g. "/games/3/") that also signs `user` in to the whole
    account, for SIGN_IN_LINK_DAYS: for the sign-in email only (`lobby.mail.send_sign_in`), the
    one email a player asks for on /signin/ (docs/security.md). Any other email carries a link of
    its own purpose, which a forwarded copy cannot turn into the account.

    The token is removed from the address bar by the sesame middleware after sign-in. Raises
    ValueError unless `path` is a path on this site (`is_site_path`) and the built address has
    SITE_URL's scheme and host: the token must never travel to another host (SITE_URL +
    "@evil.example/" would name the host evil.example).
    """
    if not is_site_path(path):
        raise ValueError(_("A sign-in link leads only to a path on this site."))
    query = sign_in_query(user)
    if "?" in path:
        query = "&" + query.lstrip("?")
    url = f"{settings.SITE_URL}{path}{query}"
    site, built = urlsplit(settings.SITE_URL), urlsplit(url)
    if (built.scheme, built.netloc) != (site.scheme, site.netloc):
        raise ValueError(_("A sign-in link leads only to this site."))
    return url
