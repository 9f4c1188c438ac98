"""How much inbound mail without a reply address of ours is stored: a cap a day per sender, and
a budget a day for the whole site's mail from strangers.

Every message that reaches the inbound webhook or the pipe is stored (`inbound.receive`) until
the sweep empties it, INBOUND_KEEP_DAYS after it was processed. A post may hold 12 MiB
(INBOUND_POST_MAX_BYTES) of text, so without a cap one sender could fill the database: a
thousand such posts are 12 GiB. So a message that carries no valid reply address of ours (a
seat's, or the open tables' list's: `_ours`) is counted before it is stored:

- per sender, by the mailbox its From reaches (`players.email_addresses.mailbox_key`: case, a
  `+tag` and look-alike spellings of the domain are one sender, so no spelling gets a fresh
  cap): at most INBOUND_MAILS_PER_SENDER_PER_DAY (20) messages and
  INBOUND_MIB_PER_SENDER_PER_DAY (50) MiB a day;
- then, when the From is no account's address (a stranger), against
  INBOUND_STRANGERS_MIB_PER_DAY (256) MiB a day for all strangers together: a flood from
  forged senders, each under its own cap, stops there.

A seat's reply is never counted (it must always be read, whoever sends it); an account's
address is never refused for strangers' mail, only for more mail in its own name than its
cap allows (a forger using that very address can spend it; players write to the plain
address only for `list`, `my data` and `erase my account`). Beyond a cap the message is not
stored nor answered (the webhook still answers the provider 200, the pipe exits 0, so neither
retries), and one log line says which cap, without the sender's address or any of its words
(docs/security.md). A message refused still counts: a sender over the cap stays over it.

The counts are `web.rate_limits` counters of one day (UTC), in Django's cache (Redis in
production, shared by the web processes and the pipe). While Redis cannot be reached, a message
is stored uncounted, with a log line: inbound mail never waits for Redis (docs/operations.md).
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.contrib.auth import get_user_model

from games.models import Seat
from players.email_addresses import canonical_address, mailbox_key
from players.signed_tokens import (
    BadToken,
    check_reply_token,
    check_tables_token,
    is_tables_token,
    read_reply_token,
    tables_token_user,
)
from web.rate_limits import count

logger = logging.getLogger(__name__)

DAY_SECONDS = 86_400
MIB = 1024 * 1024


class NotStored(Exception):
    """A message over a cap of `check`: not stored. The message says which cap (no address)."""


def check(*, token: str | None, sender: str, size: int) -> None:
    """Count a message about to be stored: `token`, the `+token` of our address it was sent to
    (None: none); `sender`, its From address; `size`, the bytes to be stored. Raises NotStored
    (and logs one line naming the cap, never the sender) when a cap of the module is passed."""
    if _ours(token):
        return
    # Imported here: a seat's reply never reaches the cache, so the pipe that reads it needs no
    # Redis client (nor what the client imports on the Python it runs on).
    from redis.exceptions import RedisError  # noqa: PLC0415

    try:
        refused = _cap_passed(sender, size)
    except RedisError as error:
        logger.warning(
            "Inbound mail of %s bytes stored uncounted: the cache cannot be reached (%s).",
            size,
            error.__class__.__name__,
        )
        return
    if refused is not None:
        logger.warning("Inbound mail of %s bytes not stored: over %s.", size, refused)
        raise NotStored(f"over {refused}")


def _cap_passed(sender: str, size: int) -> str | None:
    """Count the message (`check`) and return the cap it passes, in words, or None."""
    mailbox = mailbox_key(sender)
    if (
        count("inbound:sender-mails", mailbox, window_seconds=DAY_SECONDS)
        > settings.INBOUND_MAILS_PER_SENDER_PER_DAY
    ):
        return "its sender's messages of the day (INBOUND_MAILS_PER_SENDER_PER_DAY)"
    bytes_of_sender = count("inbound:sender-bytes", mailbox, window_seconds=DAY_SECONDS, by=size)
    if bytes_of_sender > settings.INBOUND_MIB_PER_SENDER_PER_DAY * MIB:
        return "its sender's bytes of the day (INBOUND_MIB_PER_SENDER_PER_DAY)"
    if _has_account(sender):
        return None
    bytes_of_strangers = count("inbound:strangers-bytes", "", window_seconds=DAY_SECONDS, by=size)
    if bytes_of_strangers > settings.INBOUND_STRANGERS_MIB_PER_DAY * MIB:
        return "the bytes of the day of all mail from strangers (INBOUND_STRANGERS_MIB_PER_DAY)"
    return None


def _ours(token: str | None) -> bool:
    """Whether `token` is a valid token of one of our reply addresses: a player's seat's (the
    seat as it is now: a token of a seat that changed hands is no longer valid) or the open
    tables' list's, for an account as it is now."""
    if token is None:
        return False
    try:
        if is_tables_token(token):
            user = get_user_model().objects.filter(pk=tables_token_user(token)).first()
            if user is None:
                return False
            check_tables_token(token, user.email)
            return True
        ref = read_reply_token(token)
        seat = Seat.objects.filter(pk=ref.seat_id, game_id=ref.game_id, is_bot=False).first()
        if seat is None:
            return False
        check_reply_token(token, seat.token)
    except BadToken:
        return False
    return True


def _has_account(sender: str) -> bool:
    """Whether `sender` is the address of an account (kept in its canonical form)."""
    address = canonical_address(sender)
    return bool(address) and get_user_model().objects.filter(email__iexact=address).exists()
