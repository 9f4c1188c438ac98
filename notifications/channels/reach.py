"""Push first, email after: the rows a decision's prompt is written as, by channel.

For a seat whose player has web push on (WEB_PUSH, and a device: `players.PushSubscription`),
a decision is pushed at once, and its email waits the player's `email_after_push` seconds
(`Outbox.not_before`): answered meanwhile (from the push, the page or a reply), the email is
SKIPPED as stale, like any prompt whose decision moved on. 0 sends the email with the push;
None ("never") writes no email for the decision. Without push, the email alone, at once.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings

from notifications.models import Outbox
from players.email_addresses import canonical_address
from players.models import Player

# The keys of a prompt's outbox item that its push row takes too.
_PUSHED_KEYS = ("kind", "to_email", "seq", "game", "seat", "decision_seq")


def with_pushes(items: list[dict], *, now) -> list[dict]:
    """The outbox items (`notifications.outbox.enqueue_all`'s dicts) `items` with, for each
    PROMPT whose player has a push device, a web push row of the same decision first and the
    email held until `now` + the player's `email_after_push` (left out when "never"). With
    WEB_PUSH off, `items` as they are, and no query; else one query when there is a prompt."""
    prompts = [item for item in items if item["kind"] == Outbox.Kind.PROMPT and item.get("channel") is None]
    if not (settings.WEB_PUSH and prompts):
        return items
    delays = dict(
        Player.objects.filter(
            email__in={canonical_address(item["to_email"]) for item in prompts},
            push_subscriptions__isnull=False,
        )
        .distinct()
        .values_list("email", "email_after_push")
    )
    expanded: list[dict] = []
    for item in items:
        address = canonical_address(item["to_email"])
        if item not in prompts or address not in delays:
            expanded.append(item)
            continue
        expanded.append(
            {**{key: item[key] for key in _PUSHED_KEYS if key in item}, "channel": Outbox.Channel.WEB_PUSH}
        )
        delay = delays[address]
        if delay is None:  # never: push only
            continue
        expanded.append({**item, "not_before": now + timedelta(seconds=delay)} if delay > 0 else item)
    return expanded
