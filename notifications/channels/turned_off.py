"""A push or chat row delivered after the operator turned its channel off (WEB_PUSH,
CHAT_TARGETS): docs/notifications.md, "When a device stops": "If the operator turned push or
chat off, a device or a chat address kept from before reaches nobody and does not count as
left."

The rows are written only while the channel is on (`reach.with_pushes`, the table news of
`notifications.receivers`), but a row written before the switch, or FAILED and sent again by
the sweep or the admin, reaches its sender afterwards: the sender asks `is_off` first and, for
a channel turned off, posts nothing and closes the row (`close`) as the outbox closes a row it
will not send (SKIPPED, never retried). A prompt's player then gets the decision's email as
when their last device is removed (`reach.email_when_no_device_is_left`): with nothing else on
that reaches them, an email waiting for its delay comes at once, and a "never" decision's email
is written then, so that no decision reaches its player by no channel.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import transaction

from notifications.channels import reach
from notifications.models import Outbox
from players.email_addresses import canonical_address
from players.models import ChatTarget, Player, PushSubscription

logger = logging.getLogger(__name__)


def is_off(channel: str) -> bool:
    """Whether the operator turned `channel` (an `Outbox.Channel`) off: WEB_PUSH for web push,
    CHAT_TARGETS for chat (a player's chat and the table channels). Email is never off."""
    if channel == Outbox.Channel.WEB_PUSH:
        return not settings.WEB_PUSH
    if channel == Outbox.Channel.CHAT:
        return not settings.CHAT_TARGETS
    return False


def close(row: Outbox) -> None:
    """Close the handed-over `row` of a channel turned off (`is_off`) without posting it: SKIPPED
    (if still PENDING), so that neither the outbox nor the sweep tries it again; for a prompt,
    its player's emails as when their last device is gone (`reach.email_when_no_device_is_left`,
    which does nothing while a channel still on reaches them). The outbox's last step, marking a
    PENDING row SENT, then leaves it as it is. Raises what the database raised."""
    with transaction.atomic():
        Outbox.objects.filter(pk=row.pk, status=Outbox.Status.PENDING).update(
            status=Outbox.Status.SKIPPED, handed_at=None, retry_at=None
        )
        logger.info("outbox %s: not sent, its channel (%s) is turned off", row.pk, row.channel)
        if row.kind != Outbox.Kind.PROMPT:
            return
        player_id = Player.objects.filter(email=canonical_address(row.to_email)).values_list("pk", flat=True)
        if not (found := player_id.first()):
            return
        # What no longer counts as left, standing for the device or chat target removed.
        gone = PushSubscription if row.channel == Outbox.Channel.WEB_PUSH else ChatTarget
        reach.email_when_no_device_is_left(sender=gone, instance=gone(player_id=found))
