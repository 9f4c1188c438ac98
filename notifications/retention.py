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

Whatever those leave (failed outbox rows kept for the operator, an installation that keeps
sent mail longer), no stored email keeps its body more than EMAIL_BODY_KEEP_DAYS (90 by
default, docs/privacy.md): `purge_bodies` empties the subject, bodies and error of outbox rows
written that long ago and no longer to send, keeping their Message-ID, kind, status and times,
and the raw message, sender and detail of inbound emails received that long ago and no longer
to process, keeping their Message-ID and status.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from notifications.models import DevEmail, InboundEmail, Outbox

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


# Outbox rows still to send: their bodies are needed.
_TO_SEND = (Outbox.Status.PENDING, Outbox.Status.HELD)


def purge_bodies(*, keep_days: int, now=None) -> int:
    """Empty the bodies of stored emails older than `keep_days` days (see the module docstring),
    at most PRUNE_BATCH outbox rows and PRUNE_BATCH inbound ones; delete the development
    mailbox's that old. Returns how many rows were emptied."""
    cutoff = (now or timezone.now()) - timedelta(days=keep_days)
    outbox = list(
        Outbox.objects.filter(created_at__lt=cutoff)
        .exclude(status__in=_TO_SEND)
        .exclude(subject="", body_text="", body_html="")
        .order_by()
        .values_list("pk", "headers")[:PRUNE_BATCH]
    )
    for pk, headers in outbox:
        kept = {k: v for k, v in (headers or {}).items() if k == "Message-ID"}
        Outbox.objects.filter(pk=pk).update(
            subject="",
            body_text="",
            body_html="",
            headers=kept,
            render_spec=None,
            acceptance=None,
            last_error="",
        )
    inbound = list(
        InboundEmail.objects.filter(received_at__lt=cutoff)
        .exclude(status=InboundEmail.Status.RECEIVED)
        .exclude(raw=b"", from_email="", detail="")
        .order_by()
        .values_list("pk", flat=True)[:PRUNE_BATCH]
    )
    if inbound:
        InboundEmail.objects.filter(pk__in=inbound).update(raw=b"", from_email="", detail="")
    DevEmail.objects.filter(created_at__lt=cutoff).delete()
    return len(outbox) + len(inbound)
