"""WSGI entry point: `gunicorn inis_pbem.wsgi`."""
import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "inis_pbem.settings")

application = get_wsgi_application()
