"""WSGI entry point: `gunicorn inis_pbem.wsgi`.

The system checks run here as they do with every management command, before the first request
handler is built: with DEBUG off, a setting they refuse (no webhook secret, the development
mailbox, SQLite, no SECRET_KEY...) stops the server before it serves anything, instead of
serving with it (gunicorn reports the checks' errors, then "Worker failed to boot", and exits).
"""

import os

import django
from django.core.handlers.wsgi import WSGIHandler

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "inis_pbem.settings")

# What django.core.wsgi.get_wsgi_application does, with the checks between its two steps.
django.setup(set_prefix=False)

from inis_pbem.checks import refuse_unsafe_settings  # noqa: E402  (needs the apps loaded)

refuse_unsafe_settings()

application = WSGIHandler()
