"""The task that feeds the read models after a commit (`community.projections.feed`)."""

from __future__ import annotations

from celery import shared_task

from community import projections


@shared_task(name="community.tasks.feed_projections")
def feed_projections() -> int:
    """Fold every projection's unread log rows; returns how many. Idempotent."""
    return projections.feed()
