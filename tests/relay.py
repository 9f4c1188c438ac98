"""The outbox relay in a thread of the test process (`running_relay`), for the tests that send
tasks through a real broker: with a broker, commands leave their tasks to the relay."""

from __future__ import annotations

import threading
from contextlib import contextmanager

from django.db import connection

from inis_pbem import relay


@contextmanager
def running_relay():
    """Run `inis_pbem.relay.run` in a thread until the block ends (on this process's Celery
    configuration: the broker and queue the test set)."""
    stop = threading.Event()

    def loop():
        try:
            relay.run(stop)
        finally:
            connection.close()

    thread = threading.Thread(target=loop, name="relay", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join(timeout=30)
