"""Every signed token the site hands out, in one place: one scheme, one salt per purpose.

The scheme is Django's (`django.core.signing`): an HMAC-SHA256 under SECRET_KEY, checked against
SECRET_KEY_FALLBACKS too (so a key is rotated by moving it there), whose salt names the purpose.
A token made for one purpose never passes for another: its salt differs, so its signature does
not match. The purposes:

| purpose | salt | form | acts for |
|---|---|---|---|
| reply address | `notifications.reply:<seat secret>` | `<game>.<seat>.<seq>.<24 hex>` | ever (the reply must still answer the open decision `seq`) |
| seat link | `games.seat_link:<game>:<seat secret>` | `<seat>.<time>.<signature>` (`TimestampSigner`) | SEAT_LINK_DAYS days |
| a player's email links | `players.email_links` | `<player>.<signature>` | ever (preferences, unsubscribe from news) |
| unfollow link | `watching.unsubscribe` | `<user>-<game or "all">:<signature>` | ever (a follower's digest) |
| erasure confirmation | `players.erasure:<account's email>` | `<user>.<time>.<signature>` (`TimestampSigner`) | ERASURE_LINK_HOURS hours, until the account is erased (docs/privacy.md) |
| open tables' reply address | `community.tables:<account's email>` | `t<user>.<24 hex>` | ever, for joining open tables only (docs/open-tables.md) |
| invitation's answer | `lobby.invitation:<invitee's email>` | `<invitation>.<signature>` | while that invitation waits for its answer from that address, at a table still gathering: it answers that invitation only, signing nobody in |
| "my data" download | `players.my_data:<account's email>` | `<user>.<time>.<signature>` (`TimestampSigner`) | MY_DATA_LINK_DAYS days, until the account's email changes: the archive's download only |

Where the salt holds the seat's secret (`Seat.token`), a host giving the seat to somebody else
(a new secret) ends the old player's tokens. Each form is made only here, and refused before the
database is asked when it is not of its form.

The reply address is the one exception to Django's own writing of the signature (URL-safe
base 64, 43 characters): it travels in an email address's local part, which is at most 64
characters (RFC 5321) and whose case some mail systems change. So it carries the same HMAC
(Django's `salted_hmac` with the Signer's own key derivation) cut to 96 bits and written in
lower-case hex: 27 characters plus the digits of the three ids (`REPLY_TOKEN_MAX`, 63, with
12-digit ids; 51 with ids of up to 8 digits, which leaves 12 characters for INBOUND_EMAIL's
local part before the "+": `notifications.tokens.reply_address`).

The sign-in link (`?sesame=`, `sign_in_query`) is django-sesame's: a well-kept library whose
tokens are a keyed BLAKE2b MAC under keys derived from SECRET_KEY and SECRET_KEY_FALLBACKS (as
strong as Django's HMAC, and rotated the same way), carrying the time they were made
(SIGN_IN_LINK_DAYS) and revoked when the account's email changes; its backend and middleware
sign the reader in. Its older format, built on `django.core.signing`, uses SHA-1 and is
deprecated by the library, so the project keeps the current one (docs/security.md).

Grace: a player's email links were written, until November 2026, as the reply address is (hex,
salt `notifications.player`). Those links in emails already sent keep opening their pages until
`LEGACY_EMAIL_LINKS_UNTIL`; every email since carries the new form. Reply addresses, seat links
and unfollow links kept their form and salt, so every one already sent acts as before.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

from django.core import signing
from django.utils import timezone
from django.utils.crypto import salted_hmac

REPLY_SALT = "notifications.reply"
SEAT_LINK_SALT = "games.seat_link"
EMAIL_LINKS_SALT = "players.email_links"
UNFOLLOW_SALT = "watching.unsubscribe"
TABLES_SALT = "community.tables"
LEGACY_EMAIL_LINKS_SALT = "notifications.player"
ERASURE_SALT = "players.erasure"
INVITATION_SALT = "lobby.invitation"
MY_DATA_SALT = "players.my_data"
# How long the link answering a "my data" email downloads the archive (days).
MY_DATA_LINK_DAYS = 7
# How long a link confirming an account's erasure acts (hours).
ERASURE_LINK_HOURS = 24

# A player's email links of the old form open their pages until then (UTC), and no longer after.
LEGACY_EMAIL_LINKS_UNTIL = datetime(2027, 6, 1, tzinfo=UTC)

_HEX_SIGNATURE = 24  # characters: 96 bits
_ID = r"\d{1,12}"
_REPLY_TOKEN = re.compile(rf"({_ID})\.({_ID})\.({_ID})\.[0-9a-f]{{{_HEX_SIGNATURE}}}")
REPLY_TOKEN_MAX = 3 * 12 + 3 + _HEX_SIGNATURE  # 63 characters
# `<seat id>.<base-62 time>.<base-64 signature>`: the form of `seat_link_token`.
SEAT_LINK_TOKEN = re.compile(rf"({_ID})\.[0-9A-Za-z]{{1,12}}\.[A-Za-z0-9_-]{{20,100}}")
_EMAIL_LINKS_TOKEN = re.compile(rf"({_ID})\.[A-Za-z0-9_-]{{43}}")
_LEGACY_EMAIL_LINKS_TOKEN = re.compile(rf"({_ID})\.[0-9a-f]{{{_HEX_SIGNATURE}}}")
_UNFOLLOW_TOKEN = re.compile(rf"{_ID}-(?:{_ID}|all):[A-Za-z0-9_-]{{43}}")
_TABLES_TOKEN = re.compile(rf"t({_ID})\.[0-9a-f]{{{_HEX_SIGNATURE}}}")
_UNFOLLOW_VALUE = re.compile(rf"({_ID})-({_ID}|all)")


class BadToken(Exception):
    """A token that does not act. `reason` is one of:
    "damaged": not of the form of its purpose (cut, changed, or another purpose's form);
    "forged": of the right form, but its signature does not match: tampered with, made for
    another purpose, seat or game, or its seat changed hands since;
    "expired": its signature matches, but it is older than its purpose allows.
    The message (English, for logs and the operator) says which; pages and emails tell the
    player in their own words."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason


class _HexSigner(signing.Signer):
    """Django's Signer, its signature written in lower-case hex and cut to 96 bits: for an
    email address's local part (case-proof, short)."""

    def signature(self, value, key=None):
        key = key or self.key
        return salted_hmac(self.salt + "signer", value, key, algorithm="sha256").hexdigest()[:_HEX_SIGNATURE]


def _unsign(signer: signing.Signer, token: str, what: str, **max_age) -> str:
    try:
        return signer.unsign(token, **max_age)
    except signing.SignatureExpired:
        raise BadToken("expired", f"the {what} ran out") from None
    except signing.BadSignature:
        raise BadToken("forged", f"the {what}'s signature does not match") from None


# -- reply addresses ------------------------------------------------------------------------


@dataclass(frozen=True)
class ReplyToken:
    """What a reply address says: the game's id, the seat's id (`Seat.pk`) and the decision's seq."""

    game_id: int
    seat_id: int
    seq: int


def _reply_signer(seat_secret: str) -> _HexSigner:
    return _HexSigner(sep=".", salt=f"{REPLY_SALT}:{seat_secret}")


def reply_token(*, game_id: int, seat_id: int, seq: int, seat_secret: str) -> str:
    """The reply address's token `<game>.<seat>.<seq>.<24 hex>` (lower case, at most
    REPLY_TOKEN_MAX = 63 characters) for the decision at `seq` of seat `seat_id` (`Seat.pk`) of
    game `game_id`; `seat_secret` is the seat's `Seat.token`."""
    return _reply_signer(seat_secret).sign(f"{int(game_id)}.{int(seat_id)}.{int(seq)}")


def read_reply_token(token: str) -> ReplyToken:
    """What a reply token claims (game, seat, seq), not yet verified: the seat's secret is needed
    for that (`check_reply_token`). Any case is read (mail systems may change it). Raises
    BadToken("damaged") when it is not of the form."""
    match = _REPLY_TOKEN.fullmatch(token.strip().lower())
    if not match:
        raise BadToken("damaged", "malformed reply token")
    return ReplyToken(int(match[1]), int(match[2]), int(match[3]))


def check_reply_token(token: str, seat_secret: str) -> None:
    """Raises BadToken ("damaged" or "forged") unless `token` was made by `reply_token` for the
    seat whose secret is `seat_secret` (constant-time comparison, by `Signer.unsign`)."""
    read_reply_token(token)
    _unsign(_reply_signer(seat_secret), token.strip().lower(), "reply token")


# -- the open tables' reply address ----------------------------------------------------------


def _tables_signer(email: str) -> _HexSigner:
    return _HexSigner(sep=".", salt=f"{TABLES_SALT}:{email.strip().lower()}")


def tables_token(*, user_id: int, email: str) -> str:
    """The token `t<user>.<24 hex>` of the reply address of the open tables' list sent to the
    account `user_id` whose email is `email`: a reply to it joins tables for that account (the
    reply proves the mailbox, as a sign-in link does). The account's email is in the salt, so a
    changed email ends it."""
    return "t" + _tables_signer(email).sign(str(int(user_id)))


def is_tables_token(token: str) -> bool:
    """Whether `token` has the form of `tables_token` (not yet verified)."""
    return bool(_TABLES_TOKEN.fullmatch(token.strip().lower()))


def tables_token_user(token: str) -> int:
    """The account a tables token claims, not yet verified (`check_tables_token`). Raises
    BadToken("damaged") when it is not of the form."""
    match = _TABLES_TOKEN.fullmatch(token.strip().lower())
    if not match:
        raise BadToken("damaged", "malformed tables token")
    return int(match[1])


def check_tables_token(token: str, email: str) -> None:
    """Raises BadToken unless `token` was made by `tables_token` for the account whose email is
    `email` now."""
    tables_token_user(token)
    _unsign(_tables_signer(email), token.strip().lower()[1:], "tables token")


# -- seat links -----------------------------------------------------------------------------


def _seat_link_signer(game_id: int, seat_secret: str) -> signing.TimestampSigner:
    # "." as separator keeps the token one URL path segment.
    return signing.TimestampSigner(sep=".", salt=f"{SEAT_LINK_SALT}:{int(game_id)}:{seat_secret}")


def seat_link_token(*, game_id: int, seat_id: int, seat_secret: str) -> str:
    """A new seat link token `<seat id>.<time>.<signature>` (at most ~70 URL-safe characters)
    for the seat `seat_id` (`Seat.pk`) of game `game_id`; `seat_secret` is its `Seat.token`."""
    return _seat_link_signer(game_id, seat_secret).sign(str(int(seat_id)))


def seat_of_link(token: str) -> int:
    """The seat id (`Seat.pk`) a seat link token claims, not yet verified (`check_seat_link`).
    Raises BadToken("damaged") when the token is not of the form of a seat link."""
    match = SEAT_LINK_TOKEN.fullmatch(token)
    if match is None:
        raise BadToken("damaged", "not of the form of a seat link")
    return int(match[1])


def check_seat_link(token: str, *, game_id: int, seat_secret: str, max_age: timedelta) -> None:
    """Raises BadToken ("damaged", "forged" or "expired") unless `token` was made by
    `seat_link_token` for game `game_id` and the seat whose secret is `seat_secret`, less than
    `max_age` ago."""
    seat_of_link(token)
    _unsign(_seat_link_signer(game_id, seat_secret), token, "seat link", max_age=max_age)


# -- a player's email links (preferences, unsubscribe from news) -----------------------------


def email_links_token(player_id: int) -> str:
    """The token of a Player's links in every email's footer (`/email/preferences/<token>/`,
    `/email/unsubscribe/<token>/`): `<player id>.<43 URL-safe characters>`. It does not expire."""
    return signing.Signer(sep=".", salt=EMAIL_LINKS_SALT).sign(str(int(player_id)))


def read_email_links_token(token: str, *, now: datetime | None = None) -> int:
    """The Player id of an email links token; raises BadToken ("damaged", "forged", or "expired"
    for a token of the old form after LEGACY_EMAIL_LINKS_UNTIL; `now` defaults to the time)."""
    token = str(token).strip()
    if _EMAIL_LINKS_TOKEN.fullmatch(token):
        return int(_unsign(signing.Signer(sep=".", salt=EMAIL_LINKS_SALT), token, "link"))
    if _LEGACY_EMAIL_LINKS_TOKEN.fullmatch(token.lower()):
        if (now or timezone.now()) >= LEGACY_EMAIL_LINKS_UNTIL:
            raise BadToken("expired", "a link of the old form, no longer accepted")
        signer = _HexSigner(sep=".", salt=LEGACY_EMAIL_LINKS_SALT)
        return int(_unsign(signer, token.lower(), "link"))
    raise BadToken("damaged", "not of the form of a player's email link")


# -- unfollow links (followers' digests) -------------------------------------------------------


def unfollow_token(*, user_id: int, game_id: int | None = None) -> str:
    """The token of a link that unfollows game `game_id` (None: every game) for the person
    `user_id` (`auth.User` id): `<user id>-<game id or "all">:<signature>`. It does not expire."""
    game = "all" if game_id is None else str(int(game_id))
    return signing.Signer(salt=UNFOLLOW_SALT).sign(f"{int(user_id)}-{game}")


def read_unfollow_token(token: str) -> tuple[int, int | None]:
    """(user id, game id or None for every game) of an unfollow token; raises BadToken
    ("damaged" or "forged")."""
    if not _UNFOLLOW_TOKEN.fullmatch(str(token)):
        raise BadToken("damaged", "not of the form of an unfollow link")
    value = _unsign(signing.Signer(salt=UNFOLLOW_SALT), str(token), "unfollow link")
    match = _UNFOLLOW_VALUE.fullmatch(value)
    if match is None:
        raise BadToken("damaged", "not of the form of an unfollow link")
    return int(match[1]), None if match[2] == "all" else int(match[2])


# -- erasure confirmation ----------------------------------------------------------------------


def _erasure_signer(email: str) -> signing.TimestampSigner:
    return signing.TimestampSigner(sep=".", salt=f"{ERASURE_SALT}:{email.strip().lower()}")


def erasure_token(*, user_id: int, email: str) -> str:
    """The token of the link that confirms the erasure of account `user_id` (address `email`):
    `<user>.<time>.<signature>`, acting ERASURE_LINK_HOURS hours. Its salt holds the address,
    so it dies with the erasure (which empties it)."""
    return _erasure_signer(email).sign(str(int(user_id)))


def erasure_token_user(token: str) -> int:
    """The account an erasure token names, before it is checked; BadToken("damaged") when it is
    not of the form."""
    match = SEAT_LINK_TOKEN.fullmatch(token or "")
    if match is None:
        raise BadToken("damaged", "the erasure link is not of its form")
    return int(match[1])


def check_erasure_token(token: str, *, email: str) -> None:
    """Raise BadToken ("damaged", "forged", "expired") unless `token` confirms the erasure of
    the account of `email` and is younger than ERASURE_LINK_HOURS."""
    erasure_token_user(token)
    _unsign(_erasure_signer(email), token, "erasure link", max_age=timedelta(hours=ERASURE_LINK_HOURS))


# -- an invitation's answer -------------------------------------------------------------------


def _invitation_signer(email: str) -> signing.Signer:
    return signing.Signer(sep=".", salt=f"{INVITATION_SALT}:{email.strip().lower()}")


def invitation_token(*, invitation_id: int, email: str) -> str:
    """The token of the link in an invitation email (`/invitation/<token>/`), which lets its
    holder see the table and accept or decline invitation `invitation_id` (`lobby.Invitation`)
    asked of `email`, and nothing else: `<invitation>.<43 URL-safe characters>`. The address is
    in the salt, so the link dies when the host gives the seat to somebody else (or the invitee
    erases their account); it has no clock of its own: the invitation's answer ends it
    (`lobby.views.invitation`)."""
    return _invitation_signer(email).sign(str(int(invitation_id)))


def invitation_token_id(token: str) -> int:
    """The invitation an invitation token names, before it is checked
    (`check_invitation_token`); BadToken("damaged") when it is not of the form."""
    match = _EMAIL_LINKS_TOKEN.fullmatch(token or "")
    if match is None:
        raise BadToken("damaged", "the invitation link is not of its form")
    return int(match[1])


def check_invitation_token(token: str, *, email: str) -> None:
    """Raise BadToken ("damaged", "forged") unless `token` was made by `invitation_token` for
    its invitation asked of `email`."""
    invitation_token_id(token)
    _unsign(_invitation_signer(email), token, "invitation link")


# -- the "my data" download ---------------------------------------------------------------------


def _my_data_signer(email: str) -> signing.TimestampSigner:
    return signing.TimestampSigner(sep=".", salt=f"{MY_DATA_SALT}:{email.strip().lower()}")


def my_data_token(*, user_id: int, email: str) -> str:
    """The token of the link answering a "my data" email (`/email/my-data/<token>/`), which
    downloads the archive of account `user_id` (address `email`) and does nothing else:
    `<user>.<time>.<signature>`, acting MY_DATA_LINK_DAYS days. Its salt holds the address, so
    a changed address (or an erasure, which empties it) ends it."""
    return _my_data_signer(email).sign(str(int(user_id)))


def my_data_token_user(token: str) -> int:
    """The account a "my data" token names, before it is checked (`check_my_data_token`);
    BadToken("damaged") when it is not of the form."""
    match = SEAT_LINK_TOKEN.fullmatch(token or "")
    if match is None:
        raise BadToken("damaged", "the data link is not of its form")
    return int(match[1])


def check_my_data_token(token: str, *, email: str) -> None:
    """Raise BadToken ("damaged", "forged", "expired") unless `token` downloads the data of the
    account of `email` and is younger than MY_DATA_LINK_DAYS."""
    my_data_token_user(token)
    _unsign(_my_data_signer(email), token, "data link", max_age=timedelta(days=MY_DATA_LINK_DAYS))


# -- sign-in links ----------------------------------------------------------------------------


def sign_in_query(user) -> str:
    """`?sesame=<token>`: the query that signs `user` in (django-sesame, see above), valid
    SIGN_IN_LINK_DAYS days and until the account's email changes."""
    # Imported here: sesame reads SECRET_KEY when imported, and the production checks must be
    # able to load the URLs (hence this module) to report an empty SECRET_KEY themselves.
    from sesame.utils import get_query_string

    return get_query_string(user)
