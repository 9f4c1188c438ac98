"""The headers of a received email, read without failing on a malformed one.

A received message (`anymail.inbound.AnymailInboundMessage`, Python's `email` package with its
default policy) parses a header when it is read, and Python's header parser raises on some
malformed values (`Message-ID: <>`, an address with an unclosed domain literal such as
`bob@[10.0.0.1`: IndexError, AttributeError). Anybody can send such an email to the reply
address, and a real reply may carry one in a header we do not need (a mangled Cc). Read through
here, a header that cannot be parsed counts as absent: the message is kept by the hash of its
bytes, answered if its other headers say whose it is, and never jams the mail server's pipe or a
provider's webhook with a retry that can never succeed (docs/email-commands.md, "Every reply is
answered"; docs/security.md).
"""

from __future__ import annotations

import logging
from email.errors import MessageError

logger = logging.getLogger(__name__)

# What Python's header parser raises on malformed values (bpo-, "_header_value_parser").
UNREADABLE = (IndexError, AttributeError, TypeError, ValueError, LookupError, MessageError)


def header(message, name: str) -> str:
    """The header `name` of `message` as text; "" when it is absent or cannot be parsed (logged,
    without its value, which a stranger wrote)."""
    try:
        value = message.get(name)
    except UNREADABLE as error:
        logger.info(
            "a received message's %s header cannot be read (%s): taken as absent", name, type(error).__name__
        )
        return ""
    return "" if value is None else str(value)


def header_values(message, name: str) -> list[str]:
    """Every value of the header `name` of `message`, as text; [] when absent or when one cannot
    be parsed (then none is taken: a mangled header says nothing reliable)."""
    try:
        return [str(value) for value in message.get_all(name) or []]
    except UNREADABLE as error:
        logger.info(
            "a received message's %s header cannot be read (%s): taken as absent", name, type(error).__name__
        )
        return []


def has_header(message, name: str) -> bool:
    """Whether `message` carries the header `name`, readable or not."""
    return name in message
