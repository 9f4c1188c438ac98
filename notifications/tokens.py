"""Reply addresses: where a game email's reply goes, and the token in it.

A reply address is `<local>+<token>@<domain>` (INBOUND_EMAIL gives local part and domain); the
token (`players.signed_tokens.reply_token`, where every signed token is made) names the game,
the seat (`Seat.pk`) and the `seq` of the decision the email was about, signed under a salt
holding the seat's secret, so when a host gives the seat to somebody else the old player's
reply addresses stop acting. Only whoever received the email knows the address, so the token,
not the From header, says who is acting.
"""

from __future__ import annotations

from email.utils import parseaddr

from django.conf import settings

from players.signed_tokens import reply_token

# RFC 5321: an address's local part is at most 64 characters.
LOCAL_PART_MAX = 64


def inbound_parts() -> tuple[str, str]:
    """(local part, domain) of INBOUND_EMAIL, the address replies go to."""
    _name, address = parseaddr(settings.INBOUND_EMAIL)
    local, _, domain = address.partition("@")
    return local, domain


def reply_address(*, game_id: int, seat_id: int, seq: int, seat_secret: str) -> str:
    """The seat's reply address for the decision at `seq`: `local+<token>@domain`.

    Its local part is INBOUND_EMAIL's, "+" and the token: 27 characters plus the digits of the
    three ids, so it fits in LOCAL_PART_MAX (64) for a local part of up to 12 characters while
    each id has at most 8 digits (a hundred million games)."""
    local, domain = inbound_parts()
    token = reply_token(game_id=game_id, seat_id=seat_id, seq=seq, seat_secret=seat_secret)
    return f"{local}+{token}@{domain}"


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
