"""The Celery application: reads CELERY_* Django settings, finds `tasks.py` in every app.

Start a worker with `celery -A inis_pbem worker -l info` (and `celery -A inis_pbem beat` for the
periodic outbox sweep).
"""
import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "inis_pbem.settings")

app = Celery("inis_pbem")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@signals.task_postrun.connect
def close_broken_connections(sender=None, **kwargs):
    """After each task run by a worker: close the database connections that broke (a dropped
    connection must not outlive the task that found it) or outlived DB_CONN_MAX_AGE.

    Celery itself closes none (CELERY_DB_REUSE_MAX, settings/celery.py), so that a worker does
    not open a PostgreSQL connection per task. Tasks run in-process (eager) are left alone: they
    run inside the caller's transaction.
    """
    if sender is not None and getattr(sender.request, "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()
