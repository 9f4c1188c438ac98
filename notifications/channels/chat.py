"""The chat channel (through apprise, not hand-written clients): a decision's note to the
player's private chat target (`players.ChatTarget`: an ntfy topic, a Telegram or Matrix chat...).

The note is the push's (`decision_note`: only what the seat may see), with the seat's page as
its last line. apprise says whether the chat service took it; a refusal, a 5xx or a time-out
(CHAT_TIMEOUT seconds) raises ChatFailed for the outbox's retries, then FAILED with the admin's
"send again". A row whose player has no target any more is done: there is nobody to tell.
A table's public news goes the same way to the game's table channel (`table_news`).

Just before each post the target's address is checked again (`chat_targets.plugin_to_send`: one
of the chat services offered, its server neither this site nor on a private network, as when it
was set; a name may lead elsewhere later): an address refused now raises ChatFailed, nothing is
posted. The post follows no redirect. A row delivered after the operator turned chat off
(CHAT_TARGETS) is posted nowhere (`turned_off`): its player's decision comes by email.
"""

from __future__ import annotations

from apprise.plugins.base import NotifyBase
from django.conf import settings

from games.models import TableChannel
from notifications.channels import chat_post, table_news, turned_off
from notifications.channels.decision_note import note_for
from notifications.models import Outbox
from players.chat_targets import TargetError, plugin_to_send
from players.email_addresses import canonical_address
from players.models import ChatTarget


class ChatFailed(Exception):
    """The chat service did not take the message (retried)."""


def target_of(email: str) -> ChatTarget | None:
    """The chat target of the Player of `email`, or None."""
    return ChatTarget.objects.filter(player__email=canonical_address(email)).first()


def _checked_now(url: str, what: str) -> NotifyBase:
    """The apprise plugin of `url`, checked just before the post (`plugin_to_send`). Raises
    ChatFailed, naming `what`, when the address is refused now."""
    try:
        return plugin_to_send(url)
    except TargetError as refused:
        raise ChatFailed(f"{what} is refused now, nothing was posted: {refused}") from None


def send(row: Outbox) -> None:
    """The channel's sender: the row's note to its player's chat target (kept on the row as its
    subject and text). Raises ChatFailed when the chat service did not take it, or when the
    target's address is refused now. A table's public news (kind TABLE_NEWS) goes to its game's
    table channel (`table_news.send`), whose address is checked here first. With chat turned off
    (CHAT_TARGETS), nothing is posted: the row is closed (`turned_off.close`)."""
    if turned_off.is_off(Outbox.Channel.CHAT):
        turned_off.close(row)
        return
    if row.kind == Outbox.Kind.TABLE_NEWS:
        channel = (
            TableChannel.objects.filter(game_id=row.game_id).first() if row.game_id is not None else None
        )
        if channel is not None:
            _checked_now(channel.url, "the table channel's address")
        table_news.send(row)
        return
    target = target_of(row.to_email)
    if target is None:
        return
    plugin = _checked_now(target.url, "the chat target's address")
    note = note_for(row)
    row.subject, row.body_text = note.title, f"{note.body}\n{note.url}"
    Outbox.objects.filter(pk=row.pk).update(subject=row.subject, body_text=row.body_text)
    try:
        taken = chat_post.post(plugin, title=row.subject, body=row.body_text, timeout=settings.CHAT_TIMEOUT)
    except ValueError:
        raise ChatFailed("the chat target's address is no longer one apprise takes") from None
    if not taken:
        raise ChatFailed("the chat service did not take the message (refused, 5xx or time-out)")
