"""The Celery application: reads CELERY_* Django settings, finds `tasks.py` in every app.

Start a worker with `celery -A inis_pbem worker -l info` (and `celery -A inis_pbem beat` for the
periodic outbox sweep).
"""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "inis_pbem.settings")

app = Celery("inis_pbem")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
