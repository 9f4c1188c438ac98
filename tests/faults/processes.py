"""Processes for the fault tests (and the faults bench, bench/faults.py): a Redis server of the
test's own, a Celery worker process, the outbox relay process, `scripts/serve-production`
(`Production`), polling, and the check that no prompt was lost or doubled (fixtures:
tests/faults/conftest.py).

The shared Redis on 6379 is never stopped: tests that stop a broker start their own
redis-server on a free port. Workers are real `celery worker` processes running against the test
database (the tests using them commit: `django_db(transaction=True)`).
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

from django.db import connection

REPO = Path(__file__).resolve().parents[2]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_until(predicate, *, timeout: float, what: str, interval: float = 0.05):
    """Poll `predicate()` until it is truthy (returned) or `timeout` seconds pass (AssertionError)."""
    deadline = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        time.sleep(interval)


def children(pid: int) -> list[tuple[int, str]]:
    """(pid, command line) of each process whose parent is `pid` (none when it is gone)."""
    out = subprocess.run(
        ["ps", "-ww", "-o", "pid=,args=", "--ppid", str(pid)], capture_output=True, text=True
    ).stdout
    return [
        (int(line.split(None, 1)[0]), line.split(None, 1)[1]) for line in out.splitlines() if line.strip()
    ]


class RedisServer:
    """A redis-server process on `port`, stoppable and restartable (no persistence)."""

    def __init__(self, tmp_path: Path):
        self.port = free_port()
        self.dir = tmp_path
        self.process = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.dir),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_until(self.ping, timeout=20, what="redis-server to answer")

    def ping(self) -> bool:
        import redis

        try:
            return redis.Redis(port=self.port, socket_timeout=1).ping()
        except redis.RedisError:
            return False

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=20)
        self.process = None


def database_url_for_processes() -> str:
    """The test database's address, for the processes a test starts."""
    settings = connection.settings_dict
    return (
        f"postgres://{settings['USER']}:{settings['PASSWORD'] or ''}@{settings['HOST']}:"
        f"{settings['PORT'] or 5432}/{settings['NAME']}"
    )


class Worker:
    """A `celery -A inis_pbem worker` process (prefork, 1 child) on `broker_url` and `queue`,
    against the test database, sending mail through tests.faults.mailer.RecordingBackend."""

    def __init__(self, *, broker_url: str, queue: str, mail_log: Path, env: dict):
        self.broker_url, self.queue, self.mail_log, self.extra_env = broker_url, queue, mail_log, env
        self.process = None

    def start(self) -> None:
        env = dict(
            os.environ,
            DATABASE_URL=database_url_for_processes(),
            REDIS_URL=self.broker_url,
            EMAIL_BACKEND="tests.faults.mailer.RecordingBackend",
            FAULT_MAIL_LOG=str(self.mail_log),
            DB_CONN_MAX_AGE="60",
            **self.extra_env,
        )
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "inis_pbem",
                "worker",
                "-P",
                "prefork",
                "-c",
                "1",
                "-Q",
                self.queue,
                "-n",
                f"fault-{uuid.uuid4().hex[:8]}@%h",
                "-l",
                "WARNING",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            cwd=REPO,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

    def children(self) -> list[int]:
        """Pids of the worker's pool processes (the ones that run tasks)."""
        out = subprocess.run(
            ["ps", "-o", "pid=", "--ppid", str(self.process.pid)], capture_output=True, text=True
        ).stdout
        return [int(p) for p in out.split()]

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        os.killpg(self.process.pid, signal.SIGTERM)
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)


class Relay:
    """A `manage.py relay_outbox` process on `broker_url` and `queue`, against the test database,
    polling every second and publishing a lost task again after 1 s, 2 s, up to 4 s (`env`
    overrides)."""

    def __init__(self, *, broker_url: str, queue: str, env: dict):
        self.broker_url, self.queue, self.extra_env = broker_url, queue, env
        self.process = None

    def start(self) -> None:
        env = dict(
            os.environ,
            DATABASE_URL=database_url_for_processes(),
            REDIS_URL=self.broker_url,
            CELERY_QUEUE=self.queue,
            RELAY_POLL="1",
            OUTBOX_REPUBLISH_AFTER="1",
            OUTBOX_REPUBLISH_MAX="4",
            **self.extra_env,
        )
        self.process = subprocess.Popen(
            [sys.executable, "manage.py", "relay_outbox"],
            cwd=REPO,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=10)


def assert_each_prompt_sent_once(rows, mail_log: Path) -> None:
    """Every outbox row ended sent (or skipped as stale, where the outbox does that) and the
    provider accepted each sent row's message exactly once and no other message."""
    from tests.faults.mailer import read_log

    sent = [e["message_id"] for e in read_log(mail_log) if e["event"] == "sent"]
    statuses = {row.pk: row.status for row in rows}
    assert set(statuses.values()) <= {"sent", "skipped"}, statuses
    expected = sorted(row.headers["Message-ID"] for row in rows if row.status == "sent")
    assert sorted(sent) == expected, "a prompt was lost or sent twice"


SERVE_PRODUCTION = REPO / "scripts" / "serve-production"


class Production:
    """`scripts/serve-production` with `env`, in a process group of its own (so that nothing it
    started can outlive the test)."""

    def __init__(self, tmp_path: Path, env: dict):
        self.port = free_port()
        self.log = tmp_path / "serve-production.log"
        self.env = {**env, "BIND": f"127.0.0.1:{self.port}"}
        self.process = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            [str(SERVE_PRODUCTION)],
            cwd=REPO,
            env=self.env,
            stdout=self.log.open("a"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def output(self) -> str:
        return self.log.read_text(errors="replace")[-4000:]

    def serving(self) -> bool:
        assert self.process.poll() is None, f"serve-production stopped: {self.output()}"
        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                return True
        except OSError:
            return False

    def group_alive(self) -> bool:
        try:
            os.killpg(self.process.pid, 0)
            return True
        except ProcessLookupError:
            return False

    def kill(self) -> None:
        if self.process is not None and self.group_alive():
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def started(self, marker: str) -> int:
        """The pid of the process the script started whose command line holds `marker` (e.g.
        "gunicorn", "beat", "-Q <queue> " for the worker). Raises LookupError when none."""
        for pid, args in children(self.process.pid):
            if marker in args:
                return pid
        raise LookupError(f"no process {marker!r} under serve-production: {self.output()}")

    def kill_children_of(self, marker: str) -> int:
        """SIGKILL the processes that the process `marker` (`started`) started: gunicorn's
        workers, the Celery worker's pool (their parent starts new ones); how many."""
        killed = children(self.started(marker))
        for pid, _args in killed:
            os.kill(pid, signal.SIGKILL)
        return len(killed)
