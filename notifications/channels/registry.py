"""The channels' senders, by `Outbox.Channel`: each channel registers one at start-up
(`NotificationsConfig.ready()`, email first), and the delivery (`notifications.outbox.deliver`)
hands each row, written and marked handed over, to the sender of its channel. The once-only
hand-off, the retries with back-off and the admin's resend are the outbox's, the same for every
channel; a sender only sends.

A sender is a callable `send(row) -> None` that raises when the message did not leave (the
outbox records the failure and retries); it may keep on the row what it reached (`row.headers`),
and save it, so that a retry does not reach the same target twice.
"""

from __future__ import annotations

from collections.abc import Callable

from notifications.models import Outbox

Sender = Callable[[Outbox], None]

_SENDERS: dict[str, Sender] = {}


class UnknownChannel(LookupError):
    """A row names a channel no sender was registered for (a module left out of `ready()`)."""


def register(channel: str, sender: Sender) -> None:
    """Make `sender` the sender of `channel` (an `Outbox.Channel` value); registering a channel
    again replaces its sender (a test's stand-in)."""
    _SENDERS[channel] = sender


def sender_for(channel: str) -> Sender:
    """The sender registered for `channel`. Raises UnknownChannel."""
    try:
        return _SENDERS[channel]
    except KeyError:
        raise UnknownChannel(f"no sender is registered for the channel {channel!r}") from None


def send(row: Outbox) -> None:
    """Hand the written `row` to its channel's sender (see the module docstring)."""
    sender_for(row.channel)(row)


def registered() -> list[str]:
    """The channels with a sender, in the order they were registered."""
    return list(_SENDERS)
