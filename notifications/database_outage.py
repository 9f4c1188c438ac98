"""Riding out a database blip (a restart, a failover, connections terminated) in the steps that
must not be lost to one: a reply piped by the mail server, and the record that an email was
handed to its provider (docs/operations.md, "Mail handed to the provider").

The step is tried again on fresh connections for about DATABASE_WAIT seconds, after a pause
doubling from DATABASE_PAUSE to DATABASE_PAUSE_MAX; then its last error is raised."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TypeVar

from django.db import InterfaceError, OperationalError, connections

logger = logging.getLogger(__name__)

DATABASE_WAIT = 30.0  # seconds
DATABASE_PAUSE = 0.5  # seconds, the first pause
DATABASE_PAUSE_MAX = 4.0  # seconds

Result = TypeVar("Result")


def is_database_outage(error: BaseException | None) -> bool:
    """Whether `error` (or an error it was raised from) says the database cannot be reached or
    dropped the connection: Django's OperationalError or InterfaceError (psycopg's, wrapped)."""
    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, (OperationalError, InterfaceError)):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


def through_database_outage(step: Callable[[], Result], *, what: str) -> Result:
    """`step()`, tried again on fresh connections while the database is out of reach
    (`is_database_outage`), for about DATABASE_WAIT seconds; its result. `what` names the step
    in the log. The step must be safe to repeat. Raises the step's last error, and at once any
    error that is not an outage."""
    deadline = time.monotonic() + DATABASE_WAIT
    pause = DATABASE_PAUSE
    while True:
        try:
            return step()
        except Exception as error:
            if not is_database_outage(error) or time.monotonic() + pause > deadline:
                raise
            logger.warning("%s: the database cannot be reached; trying again in %.1f s", what, pause)
        connections.close_all()  # a terminated connection is opened afresh
        time.sleep(pause)
        pause = min(2 * pause, DATABASE_PAUSE_MAX)
