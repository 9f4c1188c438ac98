"""When the read models are fed: after the commit of every write to a log they read.

With a broker, the relay (`inis_pbem.relay`, woken by the insert's NOTIFY) feeds them on its
next pass, and the sweep as a last resort; the writer's request pays nothing. Without one
(development, most tests: Celery's `task_always_eager`, `games.play.relay.through_relay`), they are fed in-process at the commit, as
every task then is.
"""

from __future__ import annotations

from django.db import transaction

from community.tasks import feed_projections
from games.play.relay import through_relay


def feed_after_commit() -> None:
    """Inside a transaction that appended to a log: feed the read models after it commits (only
    without a broker; with one, the relay does)."""
    if not through_relay():
        transaction.on_commit(feed_projections.delay, robust=True)
