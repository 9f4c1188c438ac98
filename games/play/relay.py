"""What the command path leaves for the relay: with a broker, nothing leaves a command's
transaction but rows (the outbox's, `notifications.outbox`, and a game's `bots_due_at`), and the
relay process (`inis_pbem.relay`, `manage.py relay_outbox`) publishes them as tasks once they
are committed; without one (development, most tests: Celery runs tasks in-process), the tasks
run at the commit, in this process, as they always did.
"""

from __future__ import annotations

from datetime import timedelta

from celery import current_app
from django.db import connection
from django.utils import timezone

from games.store import sql as store_sql
from games.store.models import Game


def through_relay() -> bool:
    """True when tasks go to a broker, so the relay publishes them; False when Celery runs them
    in-process (`task_always_eager`: no REDIS_URL), at the commit."""
    return not current_app.conf.task_always_eager


def mark_bots_due(game_id: int, *, after_seconds: int = 0) -> None:
    """Inside the transaction that gave a bot seat of the game a decision: make its bot moves
    due `after_seconds` (seconds) after the transaction's time (one UPDATE of the game row,
    which the command has locked). Due at once, PostgreSQL's trigger wakes the relay at the
    commit; due later, the relay finds them by its poll (RELAY_POLL) once the time has come."""
    # CURRENT_TIMESTAMP is the transaction's time, which the wake-up trigger compares with now().
    due = "CURRENT_TIMESTAMP"
    params: list = [game_id]
    if after_seconds:
        if connection.vendor == "postgresql":
            due, params = "CURRENT_TIMESTAMP + make_interval(secs => %s)", [after_seconds, game_id]
        else:
            due, params = "%s", [timezone.now() + timedelta(seconds=after_seconds), game_id]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {store_sql.table(Game)} SET {store_sql.quote('bots_due_at')} = {due}, "
            f"{store_sql.quote('bots_publishes')} = 0 WHERE id = %s",
            params,
        )
