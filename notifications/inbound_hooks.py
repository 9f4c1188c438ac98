"""Mail that is not a reply to a seat, answered by a higher room: the registry `inbound` asks.

`notifications.inbound` ties a reply to a seat by the token in its address. Mail sent to the
plain inbound address, or to a reply address another room hands out (the open tables' list,
`community.mail`), may hold a command of that room (`list`, `join N`, `leave N`: docs/email-commands.md).
The room registers a handler in its `AppConfig.ready()`; `inbound` calls it, inside the
message's transaction, before it reads the token as a seat's. The answer is sent by `inbound`,
under the same cap as every answer to mail without a seat's token.

A handler that locks rows (a table, the gathering's log) registers with it `locks_first`, which
`inbound` calls in the message's transaction before it locks the message's own row: the lock
order of the whole service is an account, the games, the tables, the gathering's log, the
stored emails, then the outbox rows and news lines (an erasure takes them in that order,
`players.erasure`), and a message that took
its row first and then waited for a table that an erasure holds, while the erasure waits to
empty that message, would wait for ever (PostgreSQL fails one of the two).
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
# locks_first(token or None, the text the sender wrote, the sender's address): take the row locks
# the handler's answer to this message will take, in the service's lock order (the module), or
# none when the message is not for it. The message is read without its row's lock: what it
# names is only a guess, which the handler reads again under the locks.
LocksFirst = Callable[[str | None, str, str], None]
_handlers: list[Handler] = []
_locks_first: list[LocksFirst] = []


def register_unseated_mail(handler: Handler, *, locks_first: LocksFirst | None = None) -> None:
    """Ask `handler` about every message before it is read as a reply to a seat; `locks_first`:
    what it locks, taken before the message's row (the module)."""
    if handler not in _handlers:
        _handlers.append(handler)
    if locks_first is not None and locks_first not in _locks_first:
        _locks_first.append(locks_first)


def take_locks_first(token: str | None, text: str, sender: str) -> None:
    """Take, in the caller's transaction, the locks every handler registered to take before the
    row of the message (`token`, `text`, `sender`) is locked."""
    for locks_first in _locks_first:
        locks_first(token, text, sender)


def answer_unseated(token: str | None, text: str, sender: str) -> UnseatedAnswer | None:
    """The first handler's answer to this message, or None when none takes it."""
    for handler in _handlers:
        answer = handler(token, text, sender)
        if answer is not None:
            return answer
    return None
