"""The Django project: settings, URLs, the Celery app and start-up checks."""

# Loading the Celery app with Django makes `@shared_task` bind to it (and to its settings).
from .celery import app as celery_app

__all__ = ("celery_app",)
