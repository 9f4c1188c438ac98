"""`manage.py relay_outbox`: the outbox relay (`inis_pbem.relay`), run beside the web and the
worker (docs/operations.md)."""

from __future__ import annotations

import signal
import threading

from django.core.management.base import BaseCommand

from inis_pbem import relay


class Command(BaseCommand):
    help = (
        "Publish committed emails and bot moves to the Celery broker, woken by PostgreSQL's "
        "NOTIFY (every RELAY_POLL seconds otherwise). Stops on SIGTERM or Ctrl-C."
    )

    def add_arguments(self, parser):
        parser.add_argument("--once", action="store_true", help="publish what is due now, then exit")

    def handle(self, *args, once: bool = False, **options):
        stop = threading.Event()
        for signum in (signal.SIGTERM, signal.SIGINT):
            signal.signal(signum, lambda *_: stop.set())
        relay.run(stop, once=once)
