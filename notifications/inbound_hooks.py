"""Mail that is not a reply to a seat, answered by a higher room: the registry `inbound` asks.

`notifications.inbound` ties a reply to a seat by the token in its address. Mail sent to the
plain inbound address, or to a reply address another room hands out (the open tables' list,
`community.mail`), may hold a command of that room (`list`, `join N`, `leave N`: docs/email-commands.md).
The room registers a handler in its `AppConfig.ready()`; `inbound` calls it, inside the
message's transaction, before it reads the token as a seat's. The answer is sent by `inbound`,
under the same cap as every answer to mail without a seat's token.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from notifications.prompts import RenderedEmail


@dataclass(frozen=True)
class UnseatedAnswer:
    """What a handler made of a message: its InboundEmail status ("accepted", "rejected"...), a
    line for the operators (`detail`, no address), the answer to send to the sender (None:
    none), and `to`: the address to send it to instead of the From line's, as it is spelled
    (an account's own address as stored: an answer meant for the account's owner only)."""

    status: str
    detail: str
    email: RenderedEmail | None
    to: str | None = None


# handler(token or None, the text the sender wrote, the sender's address) -> answer, or None
# when the message is not for it (then the seat's path goes on as before).
Handler = Callable[[str | None, str, str], UnseatedAnswer | None]
_handlers: list[Handler] = []


def register_unseated_mail(handler: Handler) -> None:
    """Ask `handler` about every message before it is read as a reply to a seat."""
    if handler not in _handlers:
        _handlers.append(handler)


def answer_unseated(token: str | None, text: str, sender: str) -> UnseatedAnswer | None:
    """The first handler's answer to this message, or None when none takes it."""
    for handler in _handlers:
        answer = handler(token, text, sender)
        if answer is not None:
            return answer
    return None
