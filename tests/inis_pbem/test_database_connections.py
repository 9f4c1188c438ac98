"""A database connection dropped while a process keeps it (DB_CONN_MAX_AGE) fails nothing.

A Celery worker keeps its connection from one task to the next (settings/celery.py). When the
server drops it meanwhile (a restart, a failover, `pg_terminate_backend`), the next task must
open a new one before its first query (CONN_HEALTH_CHECKS), not fail on the dead one and wait
for its retry.
"""

from __future__ import annotations

import psycopg
import pytest
from django.core import mail
from django.db import connection

from inis_pbem.celery import close_broken_connections
from notifications.models import Outbox
from notifications.outbox import deliver

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _terminate(pid: int) -> None:
    s = connection.settings_dict
    with psycopg.connect(
        host=s["HOST"], port=s["PORT"] or 5432, user=s["USER"], dbname=s["NAME"], autocommit=True
    ) as admin:
        admin.execute("SELECT pg_terminate_backend(%s)", (pid,))


def _answer(to: str) -> Outbox:
    return Outbox.objects.create(
        kind=Outbox.Kind.ANSWER, seq=0, to_email=to, subject="Accepted", body_text="Your move was played."
    )


def test_a_connection_dropped_between_two_tasks_does_not_fail_the_second(monkeypatch):
    # As on a worker with DB_CONN_MAX_AGE=60: the connection outlives each task.
    monkeypatch.setitem(connection.settings_dict, "CONN_MAX_AGE", 60)
    connection.close()
    first, second = _answer("first@example.org"), _answer("second@example.org")

    assert deliver(first.pk)  # a task
    close_broken_connections()  # what the worker runs after each task: the connection is kept
    kept = connection.connection
    assert kept is not None
    _terminate(kept.info.backend_pid)  # the server drops it between the two tasks

    assert deliver(second.pk), "the task after the drop failed instead of reconnecting"
    assert connection.connection is not kept
    assert [m.to for m in mail.outbox] == [["first@example.org"], ["second@example.org"]]
    second.refresh_from_db()
    assert (second.status, second.attempts, second.last_error) == (Outbox.Status.SENT, 1, "")
