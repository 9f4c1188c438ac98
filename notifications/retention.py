"""What the sweep forgets: sent mail and the bodies of processed inbound mail after some days.

Every command writes its emails to the outbox with their whole bodies (rendered when the
command is played), so the outbox grows faster than the event log; inbound emails keep the
message as received. Neither is part of the game's record (the event log is), and nothing
reads old rows: the answer quota looks back an hour, news emails a minute, the sweep's rescue of
lost tasks OUTBOX_RESEND_AFTER seconds. So the sweep (`notifications.tasks.sweep`) deletes outbox
rows OUTBOX_KEEP_DAYS after they were sent (or written, for those skipped), and empties the raw message of inbound emails
processed more than INBOUND_KEEP_DAYS ago; an inbound row itself stays (a small one), so that a
provider that delivers an old message again is still recognised by its Message-ID and nothing is
played twice. Failed outbox rows stay for the operator, pending ones are still to be sent, and
inbound emails not yet processed keep their message. Each call does at most PRUNE_BATCH rows, so
that one sweep never holds a long write; a backlog goes in a few minutes.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from notifications.models import InboundEmail, Outbox

PRUNE_BATCH = 5_000


def prune_outbox(*, keep_days: int, now=None) -> int:
    """Delete the outbox rows sent more than `keep_days` days ago, and those skipped (never
    sent) and written that long ago, at most PRUNE_BATCH; returns how many."""
    cutoff = (now or timezone.now()) - timedelta(days=keep_days)
    old = Q(status=Outbox.Status.SENT, sent_at__lt=cutoff) | Q(
        status=Outbox.Status.SKIPPED, created_at__lt=cutoff
    )
    ids = list(Outbox.objects.filter(old).order_by().values_list("pk", flat=True)[:PRUNE_BATCH])
    if ids:
        Outbox.objects.filter(pk__in=ids).delete()
    return len(ids)


def forget_inbound(*, keep_days: int, now=None) -> int:
    """Empty the raw message of inbound emails processed more than `keep_days` days ago, at most
    PRUNE_BATCH; returns how many. Their Message-ID, sender, status and outcome stay."""
    cutoff = (now or timezone.now()) - timedelta(days=keep_days)
    ids = list(
        InboundEmail.objects.filter(processed_at__lt=cutoff)
        .exclude(status=InboundEmail.Status.RECEIVED)
        .exclude(raw=b"")
        .order_by()
        .values_list("pk", flat=True)[:PRUNE_BATCH]
    )
    if ids:
        InboundEmail.objects.filter(pk__in=ids).update(raw=b"")
    return len(ids)
