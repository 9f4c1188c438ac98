"""The Celery application: reads CELERY_* Django settings, finds `tasks.py` in every app (and in
the play room's package, `games/play/tasks.py`).

Start a worker with `celery -A inis_pbem worker -l info` (and `celery -A inis_pbem beat` for the
periodic outbox sweep). Both refuse to start on settings the production checks refuse, as
gunicorn and manage.py do (`refuse_unsafe_settings` below).
"""

import os

from celery import Celery, signals

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "inis_pbem.settings")

app = Celery("inis_pbem")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
app.autodiscover_tasks(["games.play"])


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


@signals.worker_init.connect
@signals.beat_init.connect
def refuse_unsafe_settings(**kwargs):
    """Before a worker or beat starts: run the system checks and exit with status 1 (the checks'
    report on standard error) on any Error, as gunicorn and every manage.py command refuse. Why: the worker
    writes most emails, and Celery only logs the checks' errors; a worker started without the
    deployment's SITE_URL (with DEBUG off) would put http://127.0.0.1:8000 links in every email
    it writes, without a word. With DEBUG on the checks report nothing (development).

    Only a worker started by the `celery worker` command (celery.apps.worker.Worker) is checked,
    and beat: a worker embedded in another process (celery.contrib.testing's, in the tests)
    runs under that process's settings, which are not a deployment's."""
    import sys

    from celery.apps.worker import Worker
    from celery.worker import WorkController
    from django.core.management.base import SystemCheckError

    sender = kwargs.get("sender")
    if isinstance(sender, WorkController) and not isinstance(sender, Worker):
        return

    # Imported here: this module loads with the settings, before Django is set up, and the
    # checks need the app registry.
    from inis_pbem.checks import refuse_unsafe_settings as refuse

    try:
        refuse()
    except SystemCheckError as report:
        # Celery logs and ignores what a signal handler raises; only an exit stops the start.
        print(report, file=sys.stderr)
        raise SystemExit(1) from None
