"""Redis goes down for 5 seconds under `scripts/serve-production` while the worker sends an
email, and comes back empty: the service goes on sending.

The worker runs 2 processes (the default) and one of them is sending (a provider that takes 4 s
a message, tests/faults/mailer.py), so the worker's main process is reading the queue while it
holds a task not yet acknowledged. kombu 5.7.0 then exits the worker ("Unrecoverable error:
AttributeError: 'NoneType' object has no attribute 'hostname'", docs/operations.md, "When Redis
goes down"); serve-production starts that worker again alone, as systemd's `Restart=` does,
instead of stopping every process. The email written after Redis is back is sent, and each
email is handed over once. A process that cannot start (gunicorn's port taken) still stops the
service: it is not started again and again.

Real PostgreSQL (the test database, committed), a redis-server of the test's own on a free port,
the five processes of serve-production with production settings (DJANGO_DEBUG=0).
"""

from __future__ import annotations

import socket
import subprocess
import time
import uuid

import pytest

from notifications import outbox
from notifications.models import Outbox
from notifications.prompts import RenderedEmail
from tests.faults.mailer import read_log
from tests.faults.processes import REPO, Production, assert_each_prompt_sent_once, wait_until
from tests.faults.test_serve_production import server_env

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,  # serve-production's five processes, and Redis down 5 s
]


def notice(name: str) -> Outbox:
    """A notice to a player, written (and committed) as the service writes one: the relay
    publishes it and the worker sends it."""
    return outbox.enqueue(
        kind=Outbox.Kind.NOTICE,
        to_email=f"{name}@example.org",
        email=RenderedEmail(
            subject=f"Inis: {name}",
            text="Your table is ready.",
            html="",
            headers={"Message-ID": f"<{name}-{uuid.uuid4().hex}@inis.example.org>"},
        ),
        seq=0,
    )


def seconds_running(pid: int) -> int:
    out = subprocess.run(["ps", "-o", "etimes=", "-p", str(pid)], capture_output=True, text=True).stdout
    return int(out.strip() or 0)


def test_the_service_sends_again_after_redis_was_down_5_seconds(own_redis, broker_at, tmp_path):
    queue = f"redis-down-{uuid.uuid4().hex[:8]}"
    broker_at(own_redis.url, queue)  # the emails this test writes are the relay's to publish
    log = tmp_path / "mail.log"
    env = {
        **server_env(tmp_path, queue),
        "REDIS_URL": own_redis.url,
        "EMAIL_BACKEND": "tests.faults.mailer.RecordingBackend",
        "FAULT_MAIL_LOG": str(log),
        "FAULT_MAIL_DELAY": "4",
        "WORKER_CONCURRENCY": "2",
        "PYTHONPATH": str(REPO),
        "RESTART_AFTER": "10",  # (30 by default) so that the test need not wait as long
    }
    server = Production(tmp_path, env)
    server.start()
    try:
        wait_until(server.serving, timeout=120, what="gunicorn to listen", interval=0.2)
        worker = server.started(f"-Q {queue} ")
        # Past its start: a process that stops sooner stops the service instead (RESTART_AFTER).
        wait_until(lambda: seconds_running(worker) >= 12, timeout=30, what="the worker to have run 12 s")

        first = notice("first")
        wait_until(
            lambda: any(
                e["event"] == "start" and e["message_id"] == first.headers["Message-ID"]
                for e in read_log(log)
            ),
            timeout=90,
            what="the worker to start sending the first email",
        )
        own_redis.stop()
        time.sleep(5)
        own_redis.start()

        second = notice("second")
        wait_until(
            lambda: (
                server.serving() and Outbox.objects.filter(pk=second.pk, status=Outbox.Status.SENT).exists()
            ),
            timeout=120,
            what="the email written after Redis came back to be sent",
            interval=0.5,
        )
        assert_each_prompt_sent_once([Outbox.objects.get(pk=first.pk), Outbox.objects.get(pk=second.pk)], log)
    finally:
        server.kill()


def test_a_process_that_cannot_start_stops_the_service(tmp_path):
    """The other side of the rule: gunicorn refused at its start (its port taken) is not started
    again and again; serve-production stops the others and exits with its status."""
    env = server_env(tmp_path, f"cannot-start-{uuid.uuid4().hex[:8]}")
    server = Production(tmp_path, env)
    taken = socket.socket()
    taken.bind(("127.0.0.1", server.port))
    taken.listen()
    try:
        server.start()
        status = server.process.wait(timeout=120)
        assert status != 0
        assert "serve-production: web stopped after" in server.output(), server.output()
        assert "started again" not in server.output()
        wait_until(lambda: not server.group_alive(), timeout=60, what="every process to stop")
    finally:
        server.kill()
        taken.close()
