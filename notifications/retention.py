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

The lines of news emails and digests (`NewsItem`: table talk's words among them, in clear) are
the bodies of emails too: a line mailed (in a news email, a digest or a prompt) goes with its
email, OUTBOX_KEEP_DAYS after it was mailed; a line still waiting stays for the email that
will carry it, but not past EMAIL_BODY_KEEP_DAYS (a digest goes every day: a line that old waits
for nothing, its player having stopped the news or changed their delivery).

Whatever those leave (failed outbox rows kept for the operator, an installation that keeps
sent mail longer), no stored email keeps its body more than EMAIL_BODY_KEEP_DAYS (90 by
default, docs/privacy.md): `purge_bodies` empties the subject, bodies and error of outbox rows
written that long ago and no longer to send, keeping their Message-ID, kind, status and times,
the raw message, sender and detail of inbound emails received that long ago and no longer
to process, keeping their Message-ID and status, and deletes the news lines written that long ago.
"""

from __future__ import annotations

from datetime import timedelta

from django.db.models import Q
from django.utils import timezone

from notifications.models import DevEmail, InboundEmail, NewsItem, Outbox

PRUNE_BATCH = 5_000


def prune_outbox(*, keep_days: int, now=None) -> int:
    """Delete the outbox rows sent more than `keep_days` days ago, those skipped (never sent)
    and those folded (an acceptance said inside the seat's next email, which was sent) written
    that long ago, and the news lines mailed that long ago, at most PRUNE_BATCH of each; returns
    how many rows were deleted."""
    cutoff = (now or timezone.now()) - timedelta(days=keep_days)
    old = Q(status=Outbox.Status.SENT, sent_at__lt=cutoff) | Q(
        status__in=(Outbox.Status.SKIPPED, Outbox.Status.FOLDED), created_at__lt=cutoff
    )
    ids = list(Outbox.objects.filter(old).order_by().values_list("pk", flat=True)[:PRUNE_BATCH])
    if ids:
        Outbox.objects.filter(pk__in=ids).delete()
    return len(ids) + _delete_news(Q(mailed_at__lt=cutoff))


def _delete_news(old: Q) -> int:
    """Delete at most PRUNE_BATCH news lines matching `old`; returns how many."""
    ids = list(NewsItem.objects.filter(old).order_by().values_list("pk", flat=True)[:PRUNE_BATCH])
    if ids:
        NewsItem.objects.filter(pk__in=ids).delete()
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
    at most PRUNE_BATCH outbox rows and PRUNE_BATCH inbound ones; delete the news lines (mailed
    or waiting, at most PRUNE_BATCH) and the development mailbox's emails that old. Returns how
    many rows were emptied or deleted (the development mailbox's aside)."""
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
    lines = _delete_news(Q(created_at__lt=cutoff))
    DevEmail.objects.filter(created_at__lt=cutoff).delete()
    return len(outbox) + len(inbound) + lines
