"""Celery task of following: a person's daily follower digest (`watching.digest`)."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from watching import digest


@shared_task(autoretry_for=(OperationalError,), retry_backoff=True, retry_backoff_max=60, max_retries=5)
def send_follower_digest(user_id: int) -> int:
    """Write the follower digest of `user_id` when due (`watching.digest.send_follower_digest`)."""
    return digest.send_follower_digest(user_id)
