"""The providers' tracking webhooks (anymail's, at /anymail/<provider>/tracking/): a report about
an outbox email records that the provider has it (`Outbox.provider_seen_at`), so that a message
handed over by a delivery that stopped before recording SENT is not sent again
(`notifications.outbox.deliver`, with MAIL_TRACKING on).

Each email carries its outbox id as anymail metadata (`outbox`); the providers whose anymail
tracking webhook gives the metadata back are listed in docs/operations.md.
"""

from __future__ import annotations

import logging

from anymail.signals import tracking
from django.dispatch import receiver
from django.utils import timezone

from notifications.models import Outbox

logger = logging.getLogger(__name__)

# Reports that say the provider never took the message (it may be sent again); any other
# (queued, sent, delivered, deferred, bounced, rejected, opened...) says it did.
NOT_TAKEN = {"failed", "unknown"}


@receiver(tracking, dispatch_uid="notifications.tracking.provider_has_it")
def provider_has_it(sender, event, esp_name: str, **kwargs) -> bool:
    """Anymail's tracking signal: mark the outbox row named by the event's metadata as reported
    by the provider. Returns True when a row was marked; a report about no row of ours (another
    sender's mail, a row already pruned, metadata lost) changes nothing."""
    if event.event_type in NOT_TAKEN:
        return False
    outbox_id = str((event.metadata or {}).get("outbox", ""))
    if not (outbox_id.isdigit() and len(outbox_id) <= 18):  # an id, never a database error
        return False
    marked = Outbox.objects.filter(pk=int(outbox_id)).update(provider_seen_at=timezone.now())
    if not marked:
        logger.info("%s tracking report %s about no outbox row", esp_name, event.event_type)
    return bool(marked)
