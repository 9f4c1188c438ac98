"""Two database sessions at once, one per thread, on real PostgreSQL: the harness of the tests
of lock orders (an erasure against a reply, a table's change, a join...). One session pauses,
its locks taken, until the other waits for one of them (`until_waiting`), so that the two meet
in the order a deadlock needs; each thread closes its own connection."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

from django.db import connection

# How long a paused session waits for the other to wait on it (seconds): past it, the other went
# through first and never waited.
WAIT_SECONDS = 20
# How long the two threads may take in all (seconds) before the test fails as hung.
JOIN_SECONDS = 120


def waits_for_a_lock(pid: int) -> bool:
    """Whether the database session `pid` waits for a lock (pg_locks is read live, unlike the
    activity statistics, which a transaction reads once)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT EXISTS (SELECT 1 FROM pg_locks WHERE pid = %s AND NOT granted)", [pid])
        return bool(cursor.fetchone()[0])


def backend_pid() -> int:
    """The process id of this thread's database session (its connection opened if need be)."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return int(cursor.fetchone()[0])


def until_waiting(pids: dict, name: str, errors: list[str], never: str) -> None:
    """Return once the session `pids[name]` (set by its thread) waits for a lock, or after
    WAIT_SECONDS with `never` added to `errors` (it never waited: it went through first)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while name not in pids or not waits_for_a_lock(pids[name]):
        if time.monotonic() > deadline:
            errors.append(never)
            return
        time.sleep(0.05)


def run_together(*threads: threading.Thread) -> None:
    """Start `threads`, wait for them (JOIN_SECONDS at most) and fail if one is still running."""
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=JOIN_SECONDS)
    assert not any(thread.is_alive() for thread in threads), "a session still runs: hung on a lock"


def session(
    name: str,
    errors: list[str],
    work: Callable[[], object],
    *,
    pids: dict | None = None,
    after: threading.Event | None = None,
) -> threading.Thread:
    """A thread named `name` (not started) running `work()` on a database session of its own:
    with `pids`, its session's process id is first recorded as `pids[name]` (so that the other
    session may pause until this one waits for a lock, `until_waiting`); with `after`, it waits
    for that event (WAIT_SECONDS at most) before `work`. An error of `work` is added to `errors`
    as "<name>: <error>", for the test to report; the thread closes its connection."""

    def run() -> None:
        try:
            if pids is not None:
                pids[name] = backend_pid()
            if after is not None:
                assert after.wait(WAIT_SECONDS), f"{name} waited in vain for the other session"
            work()
        except Exception as error:  # reported by the test, not lost in the thread
            errors.append(f"{name}: {error!r}")
        finally:
            connection.close()

    return threading.Thread(target=run, name=name)
