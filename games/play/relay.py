"""What the command path leaves for the relay: with a broker, nothing leaves a command's
transaction but rows (the outbox's, `notifications.outbox`, and a game's `bots_due_at`), and the
relay process (`inis_pbem.relay`, `manage.py relay_outbox`) publishes them as tasks once they
are committed; without one (development, most tests: Celery runs tasks in-process), the tasks
run at the commit, in this process, as they always did.
"""

from __future__ import annotations

from celery import current_app
from django.db import connection

from games.store import sql as store_sql
from games.store.models import Game


def through_relay() -> bool:
    """True when tasks go to a broker, so the relay publishes them; False when Celery runs them
    in-process (`task_always_eager`: no REDIS_URL), at the commit."""
    return not current_app.conf.task_always_eager


def mark_bots_due(game_id: int) -> None:
    """Inside the transaction that gave a bot seat of the game a decision: make its bot moves
    due at the commit's time (one UPDATE of the game row, which the command has locked; on
    PostgreSQL its trigger wakes the relay at the commit)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {store_sql.table(Game)} SET {store_sql.quote('bots_due_at')} = CURRENT_TIMESTAMP, "
            f"{store_sql.quote('bots_publishes')} = 0 WHERE id = %s",
            [game_id],
        )
