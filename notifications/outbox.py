"""The outbox: emails written with the events that caused them, delivered after the commit.

`enqueue` runs inside the caller's transaction; `deliver` sends one row at most once.
"""
from __future__ import annotations

import logging
from datetime import timedelta

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from notifications.models import Outbox
from notifications.prompts import RenderedEmail

logger = logging.getLogger(__name__)


def enqueue(game, seat, kind: str, seq: int, email: RenderedEmail) -> Outbox:
    """Write an outbox row for `seat` and schedule its delivery for after the commit."""
    row = Outbox.objects.create(
        game=game, seat=seat, kind=kind, seq=seq, to_email=seat.email,
        subject=email.subject, body_text=email.text, body_html=email.html, headers=email.headers,
    )
    from notifications.tasks import deliver as deliver_task  # tasks import this module

    row_id = row.pk
    # robust: a broker that is down must not fail a command that has committed; the periodic
    # `deliver_pending` sweep sends the row later.
    transaction.on_commit(lambda: deliver_task.delay(row_id), robust=True)
    return row


def deliver(outbox_id: int, *, final_attempt: bool = False) -> bool:
    """Send the row `outbox_id` if it is still pending; True when this call sent it.

    The row is locked (SELECT ... FOR UPDATE) from the status check until its status is SENT
    is committed, so two runs of the task at once send it once: the second waits, then finds it
    sent. A failed send rolls back (the row stays PENDING, `attempts` and `last_error` are
    recorded) and the error is raised again for the task's retry; with `final_attempt` the row
    is marked FAILED instead. Raises Outbox.DoesNotExist for an unknown id.
    """
    try:
        with transaction.atomic():
            row = Outbox.objects.select_for_update().get(pk=outbox_id)
            if row.status != Outbox.Status.PENDING:
                return False
            message = EmailMultiAlternatives(
                subject=row.subject,
                body=row.body_text,
                from_email=settings.DEFAULT_FROM_EMAIL,
                to=[row.to_email],
                headers=row.headers,
            )
            if row.body_html:
                message.attach_alternative(row.body_html, "text/html")
            message.send()
            row.status = Outbox.Status.SENT
            row.sent_at = timezone.now()
            row.attempts += 1
            row.last_error = ""
            row.save(update_fields=["status", "sent_at", "attempts", "last_error"])
            return True
    except Outbox.DoesNotExist:
        raise
    except Exception as error:
        Outbox.objects.filter(pk=outbox_id, status=Outbox.Status.PENDING).update(
            attempts=F("attempts") + 1,
            last_error=repr(error)[:2000],
            status=Outbox.Status.FAILED if final_attempt else Outbox.Status.PENDING,
        )
        logger.warning("outbox %s: delivery failed (final=%s): %r", outbox_id, final_attempt, error)
        raise


def pending_ids(*, older_than_seconds: int) -> list[int]:
    """Ids of PENDING rows written more than `older_than_seconds` ago (their enqueue was lost)."""
    cutoff = timezone.now() - timedelta(seconds=older_than_seconds)
    return list(
        Outbox.objects.filter(status=Outbox.Status.PENDING, created_at__lt=cutoff).values_list("pk", flat=True)
    )
