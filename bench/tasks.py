"""The bench's own Celery task: the no-op baseline of the email rows (bench.mail).

Loaded by the bench's worker only (`celery -A inis_pbem worker -I bench.tasks`).
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings

COUNTER = "inis-bench:noop"
_client = None


@shared_task(ignore_result=True)
def noop() -> None:
    """Do nothing but say so: one INCR of COUNTER, the least a task can do to be counted."""
    global _client
    if _client is None:
        import redis

        _client = redis.Redis.from_url(settings.REDIS_URL)
    _client.incr(COUNTER)
