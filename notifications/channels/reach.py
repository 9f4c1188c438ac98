"""Push first, email after: the rows a decision's prompt is written as, by channel.

For a seat whose player has web push on (WEB_PUSH, and a device: `players.PushSubscription`)
or a private chat target (CHAT_TARGETS, `players.ChatTarget`), a decision is pushed (and
chatted) at once, and its email waits the player's `email_after_push` seconds
(`Outbox.not_before`): answered meanwhile (from the push, the page or a reply), the email is
SKIPPED as stale, like any prompt whose decision moved on. 0 sends the email with the push;
None ("never") writes no email for the decision. Without push, the email alone, at once.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef

from notifications.models import Outbox
from players.email_addresses import canonical_address
from players.models import ChatTarget, Player, PushSubscription

# The keys of a prompt's outbox item that its push row takes too.
_PUSHED_KEYS = ("kind", "to_email", "seq", "game", "seat", "decision_seq")


def with_pushes(items: list[dict], *, now) -> list[dict]:
    """The outbox items (`notifications.outbox.enqueue_all`'s dicts) `items` with, for each
    PROMPT whose player has a push device (WEB_PUSH) or a chat target (CHAT_TARGETS), a web push
    row and a chat row of the same decision first, and the email held until `now` + the
    player's `email_after_push` (left out when "never"). With both off, `items` as they are and
    no query; else one query when there is a prompt."""
    prompts = [item for item in items if item["kind"] == Outbox.Kind.PROMPT and item.get("channel") is None]
    if not ((settings.WEB_PUSH or settings.CHAT_TARGETS) and prompts):
        return items
    reached = _reached({canonical_address(item["to_email"]) for item in prompts})
    expanded: list[dict] = []
    for item in items:
        found = reached.get(canonical_address(item["to_email"])) if item in prompts else None
        if found is None:
            expanded.append(item)
            continue
        channels, delay = found
        decision = {key: item[key] for key in _PUSHED_KEYS if key in item}
        expanded.extend({**decision, "channel": channel} for channel in channels)
        if delay is None:  # never: push and chat only
            continue
        expanded.append({**item, "not_before": now + timedelta(seconds=delay)} if delay > 0 else item)
    return expanded


def _reached(addresses: set[str]) -> dict[str, tuple[list[str], int | None]]:
    """{address: (the channels that reach its player first, their email_after_push)} for the
    players of `addresses` with a push device or a chat target, in one query."""
    found = Player.objects.filter(email__in=addresses).annotate(
        has_push=Exists(PushSubscription.objects.filter(player=OuterRef("pk"))),
        has_chat=Exists(ChatTarget.objects.filter(player=OuterRef("pk"))),
    )
    reached: dict[str, tuple[list[str], int | None]] = {}
    for email, has_push, has_chat, delay in found.values_list(
        "email", "has_push", "has_chat", "email_after_push"
    ):
        channels: list[str] = [Outbox.Channel.WEB_PUSH] if has_push and settings.WEB_PUSH else []
        channels += [Outbox.Channel.CHAT] if has_chat and settings.CHAT_TARGETS else []
        if channels:
            reached[email] = (channels, delay)
    return reached
