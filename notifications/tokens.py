"""Signed tokens carried by emails: the per-seat reply address, and the player's links.

A reply address is `<local>+<game>.<seat>.<seq>.<signature>@<domain>` (INBOUND_EMAIL gives local
part and domain): the game, the seat (`Seat.pk`) and the `seq` of the decision the email was
about, signed with `django.core.signing` (HMAC-SHA256 under SECRET_KEY, truncated to 96 bits and
written in lower-case hex, because some mail systems change the case of addresses and a local
part is at most 64 characters). The signature's salt includes the seat's secret token, so when a
host gives the seat to somebody else (a new token), the old player's reply addresses stop acting.
Only whoever received the email knows the address, so the token, not the From header, says who
is acting.

Player links (`/email/unsubscribe/<token>/`, `/email/preferences/<token>/`) carry the Player's id
signed the same way, under another salt.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.utils import parseaddr

from django.conf import settings
from django.core import signing
from django.utils.crypto import salted_hmac

SIGNATURE_HEX = 24  # 96 bits
_TOKEN = re.compile(r"^(\d{1,12})\.(\d{1,12})\.(\d{1,12})\.([0-9a-f]{%d})$" % SIGNATURE_HEX)


class BadToken(Exception):
    """A token that is malformed or whose signature does not match (tampered or forged)."""


class _HexSigner(signing.Signer):
    """`signing.Signer` whose signature is lower-case hex (case-proof), truncated."""

    def signature(self, value, key=None):
        key = key or self.key
        return salted_hmac(self.salt + "signer", value, key, algorithm="sha256").hexdigest()[:SIGNATURE_HEX]


def _reply_signer(seat_secret: str) -> _HexSigner:
    return _HexSigner(sep=".", salt=f"notifications.reply:{seat_secret}")


def _player_signer() -> _HexSigner:
    return _HexSigner(sep=".", salt="notifications.player")


@dataclass(frozen=True)
class ReplyToken:
    """What a reply address says: the game's id, the seat's id (`Seat.pk`) and the decision's seq."""

    game_id: int
    seat_id: int
    seq: int


def inbound_parts() -> tuple[str, str]:
    """(local part, domain) of INBOUND_EMAIL, the address replies go to."""
    _name, address = parseaddr(settings.INBOUND_EMAIL)
    local, _, domain = address.partition("@")
    return local, domain


def make_reply_token(*, game_id: int, seat_id: int, seq: int, seat_secret: str) -> str:
    """The signed token `<game>.<seat>.<seq>.<24 hex>` (lower case, at most 63 characters).
    seat_secret: the seat's `Seat.token`."""
    return _reply_signer(seat_secret).sign(f"{int(game_id)}.{int(seat_id)}.{int(seq)}")


def reply_address(*, game_id: int, seat_id: int, seq: int, seat_secret: str) -> str:
    """The seat's reply address for the decision at `seq`: `local+<token>@domain`."""
    local, domain = inbound_parts()
    token = make_reply_token(game_id=game_id, seat_id=seat_id, seq=seq, seat_secret=seat_secret)
    return f"{local}+{token}@{domain}"


def parse_reply_token(token: str) -> ReplyToken:
    """What a token claims (game, seat, seq), not yet verified: the seat's secret is needed for
    that (`check_reply_token`). Raises BadToken when it is malformed."""
    match = _TOKEN.match(token.strip().lower())
    if not match:
        raise BadToken("malformed reply token")
    game_id, seat_id, seq, _sig = match.groups()
    return ReplyToken(int(game_id), int(seat_id), int(seq))


def check_reply_token(token: str, seat_secret: str) -> None:
    """Raises BadToken unless `token` was signed for the seat whose secret is `seat_secret`
    (constant-time comparison, by `signing.Signer.unsign`)."""
    try:
        _reply_signer(seat_secret).unsign(token.strip().lower())
    except signing.BadSignature:
        raise BadToken("the reply token's signature does not match") from None


def token_in_address(address: str) -> str | None:
    """The `+token` part of `address` when it is one of our reply addresses (same local part and
    domain as INBOUND_EMAIL, compared without case), else None. A plus part that is not a
    well-formed token is returned as it is (so that a tampered one is reported, not ignored)."""
    _name, address = parseaddr(address or "")
    local, _, domain = address.rpartition("@")
    base, plus, token = local.partition("+")
    our_local, our_domain = inbound_parts()
    if not plus or base.lower() != our_local.lower() or domain.lower() != our_domain.lower():
        return None
    return token


def player_token(player_id: int) -> str:
    """The signed token of a Player's links (unsubscribe, preferences)."""
    return _player_signer().sign(str(int(player_id)))


def read_player_token(token: str) -> int:
    """The Player id of a player token; raises BadToken."""
    try:
        value = _player_signer().unsign(str(token).strip().lower())
    except signing.BadSignature:
        raise BadToken("the link's signature does not match") from None
    if not value.isdigit():
        raise BadToken("malformed link")
    return int(value)
