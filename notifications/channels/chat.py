"""The chat channel (through apprise, not hand-written clients): a decision's note to the
player's private chat target (`players.ChatTarget`: an ntfy topic, a Telegram or Matrix chat...).

The note is the push's (`decision_note`: only what the seat may see), with the seat's page as
its last line. apprise says whether the chat service took it; a refusal, a 5xx or a time-out
(CHAT_TIMEOUT seconds) raises ChatFailed for the outbox's retries, then FAILED with the admin's
"send again". A row whose player has no target any more is done: there is nobody to tell.
A table's public news goes the same way to the game's table channel (`table_news`).
"""

from __future__ import annotations

import apprise
from django.conf import settings

from notifications.channels import table_news
from notifications.channels.decision_note import note_for
from notifications.models import Outbox
from players.email_addresses import canonical_address
from players.models import ChatTarget


class ChatFailed(Exception):
    """The chat service did not take the message (retried)."""


def target_of(email: str) -> ChatTarget | None:
    """The chat target of the Player of `email`, or None."""
    return ChatTarget.objects.filter(player__email=canonical_address(email)).first()


def send(row: Outbox) -> None:
    """The channel's sender: the row's note to its player's chat target (kept on the row as its
    subject and text). Raises ChatFailed when the chat service did not take it. A table's
    public news (kind TABLE_NEWS) goes to its game's table channel (`table_news.send`)."""
    if row.kind == Outbox.Kind.TABLE_NEWS:
        table_news.send(row)
        return
    target = target_of(row.to_email)
    if target is None:
        return
    note = note_for(row)
    row.subject, row.body_text = note.title, f"{note.body}\n{note.url}"
    Outbox.objects.filter(pk=row.pk).update(subject=row.subject, body_text=row.body_text)
    chat = apprise.Apprise()
    if not chat.add(target.url):
        raise ChatFailed("the chat target's address is no longer one apprise takes")
    if not chat.notify(title=row.subject, body=row.body_text, timeout=settings.CHAT_TIMEOUT):
        raise ChatFailed("the chat service did not take the message (refused, 5xx or time-out)")
