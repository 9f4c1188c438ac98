"""Celery tasks of notifications: deliver outbox rows (ids in, idempotent, retried)."""
from __future__ import annotations

from celery import shared_task

from notifications import outbox
from notifications.models import Outbox


@shared_task(
    bind=True,
    autoretry_for=(Exception,),
    dont_autoretry_for=(Outbox.DoesNotExist,),
    retry_backoff=True,  # 1 s, 2 s, 4 s ... with jitter
    retry_backoff_max=600,
    retry_jitter=True,
    max_retries=8,
)
def deliver(self, outbox_id: int) -> bool:
    """Send the outbox row `outbox_id` once (see `notifications.outbox.deliver`)."""
    return outbox.deliver(outbox_id, final_attempt=self.request.retries >= self.max_retries)


@shared_task
def deliver_pending() -> int:
    """Enqueue every row left PENDING for over five minutes (periodic, see settings/celery.py)."""
    ids = outbox.pending_ids(older_than_seconds=300)
    for outbox_id in ids:
        deliver.delay(outbox_id)
    return len(ids)
