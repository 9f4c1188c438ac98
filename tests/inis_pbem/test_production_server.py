"""gunicorn, started as production starts it (`gunicorn inis_pbem.wsgi`, DEBUG off), refuses the
settings that `manage.py check` refuses, and serves with safe ones: no sign-in links in a public
mailbox, no webhook acting on anybody's posts.

Each case starts a real gunicorn on 127.0.0.1 (a free port), bounded in time, and stops it.
"""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
GUNICORN = Path(sys.executable).with_name("gunicorn")

SAFE_ENV = {
    "DJANGO_SETTINGS_MODULE": "inis_pbem.settings",
    "DJANGO_DEBUG": "0",
    "SECRET_KEY": "k3y-" + "x9Q2vL7pR4tZ8wN1bM6cF3hJ5kD0sG" * 2,
    # Never connected to at start-up: the checks read the settings only.
    "DATABASE_URL": "postgres://inis:secret@127.0.0.1:5432/inis_never_opened",
    "REDIS_URL": "redis://127.0.0.1:6379/6",
    "EMAIL_BACKEND": "anymail.backends.postmark.EmailBackend",
    "ANYMAIL_POSTMARK_SERVER_TOKEN": "tok",
    "ANYMAIL_WEBHOOK_SECRET": "inbound:Zq8vL2pX7rT4wN9bM1cF",
    "DJANGO_ALLOWED_HOSTS": "inis.example.org",
    "SITE_URL": "https://inis.example.org",
}
CONFIG_PREFIXES = ("DJANGO_", "DATABASE_URL", "REDIS_URL", "SECRET_KEY", "SITE_URL", "EMAIL_BACKEND",
                   "ANYMAIL_", "SECURE_", "DEFAULT_FROM_EMAIL", "INBOUND_EMAIL")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Gunicorn:
    """`gunicorn inis_pbem.wsgi` on 127.0.0.1:<free port> with `env` over the safe settings
    (a value None removes the variable)."""

    def __init__(self, tmp_path: Path, **env):
        base = {k: v for k, v in os.environ.items() if not k.startswith(CONFIG_PREFIXES)}
        merged = {**base, **SAFE_ENV, **env}
        self.env = {k: v for k, v in merged.items() if v is not None}
        self.port = free_port()
        self.log = tmp_path / "gunicorn.log"
        self.process = None

    def __enter__(self):
        self.process = subprocess.Popen(
            [str(GUNICORN), "inis_pbem.wsgi", "--bind", f"127.0.0.1:{self.port}", "--workers", "1",
             "--timeout", "30", "--graceful-timeout", "5", "--no-control-socket"],
            cwd=ROOT, env=self.env, stdout=subprocess.DEVNULL, stderr=self.log.open("w"),
            start_new_session=True,
        )
        return self

    def __exit__(self, *exc):
        if self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(timeout=10)

    def exit_code(self, timeout: float = 60) -> int | None:
        """The exit status once gunicorn stopped by itself, or None if it still runs after
        `timeout` seconds."""
        try:
            return self.process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            return None

    def output(self) -> str:
        return self.log.read_text()

    def get(self, path: str, *, timeout: float = 60) -> tuple[int, str]:
        """(status, body) of GET `path` as an https request for the allowed host, once gunicorn
        answers (retried until it listens, at most `timeout` seconds)."""
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}{path}",
            headers={"Host": "inis.example.org", "X-Forwarded-Proto": "https"})
        deadline = time.monotonic() + timeout
        while True:
            try:
                with urllib.request.urlopen(request, timeout=10) as response:
                    return response.status, response.read().decode()
            except urllib.error.HTTPError as error:
                return error.code, error.read().decode()
            except (urllib.error.URLError, ConnectionError):
                if self.process.poll() is not None:
                    raise AssertionError(f"gunicorn stopped: {self.output()}") from None
                if time.monotonic() > deadline:
                    raise AssertionError(f"gunicorn did not answer: {self.output()}") from None
                time.sleep(0.2)


pytestmark = pytest.mark.skipif(not GUNICORN.exists(), reason="gunicorn is not installed")


@pytest.mark.parametrize("env, error", [
    ({"ANYMAIL_WEBHOOK_SECRET": None}, "inis_pbem.E007"),
    ({"EMAIL_BACKEND": None}, "inis_pbem.E004"),
    ({"SECRET_KEY": None}, "inis_pbem.E001"),
    ({"DATABASE_URL": None}, "inis_pbem.E002"),
    ({"REDIS_URL": None}, "inis_pbem.E003"),
    ({"SITE_URL": "http://inis.example.org"}, "inis_pbem.E006"),
    ({"DJANGO_ALLOWED_HOSTS": "*"}, "inis_pbem.E008"),
    ({"SECURE_HSTS_SECONDS": "0"}, "inis_pbem.E009"),
    ({"SECURE_SSL_REDIRECT": "0"}, "inis_pbem.E010"),
])
def test_gunicorn_refuses_to_start_with_a_refused_setting(tmp_path, env, error):
    with Gunicorn(tmp_path, **env) as server:
        code = server.exit_code(timeout=60)
        assert code is not None and code != 0, f"gunicorn kept serving: {server.output()}"
        assert error in server.output()


def test_gunicorn_serves_with_safe_settings_and_no_development_mailbox(tmp_path):
    with Gunicorn(tmp_path) as server:
        status, body = server.get("/signin/")
        assert status == 200 and "email" in body.lower(), server.output()
        assert server.get("/dev/mailbox/")[0] == 404
        assert server.process.poll() is None
