"""A real server for the tests: `gunicorn inis_pbem.wsgi` started as production starts it (DEBUG
off, the production checks run when the WSGI application is built), and a small browser that
talks to it over real HTTP.

- `Gunicorn(tmp_path, **env)`: gunicorn on 127.0.0.1:<free port>, one worker, with `env` over
  SAFE_ENV (settings the production checks accept; a value None removes a variable). Every
  variable the app reads as configuration is dropped from the inherited environment first, so
  the developer's own settings never leak in. Used as a context manager; it stops gunicorn (the
  whole process group) on exit.
- `Browser(server)`: requests to that server as a browser behind the production proxy would
  send them (the allowed Host, `X-Forwarded-Proto: https`, an Origin on POSTs), keeping its
  cookies itself (they are Secure, and the connection to 127.0.0.1 is plain http).
- `RecordingEmailBackend`: an email backend for the server that makes no network call: each
  message it accepts is appended, as one JSON line, to the file named by LIVE_MAIL_LOG, so the
  test can read what a player would have received.

Every request has a time limit (REQUEST_SECONDS), and so has gunicorn's start.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from pathlib import Path
from urllib.parse import urlencode

from django.core.mail.backends.base import BaseEmailBackend

ROOT = Path(__file__).resolve().parents[1]
GUNICORN = Path(sys.executable).with_name("gunicorn")

HOST = "inis.example.org"
SITE_URL = f"https://{HOST}"

SAFE_ENV = {
    "DJANGO_SETTINGS_MODULE": "inis_pbem.settings",
    "DJANGO_DEBUG": "0",
    "SECRET_KEY": "k3y-" + "x9Q2vL7pR4tZ8wN1bM6cF3hJ5kD0sG" * 2,
    # Never connected to at start-up: the checks read the settings only.
    "DATABASE_URL": "postgres://inis:secret@127.0.0.1:5432/inis_never_opened",
    # The live servers' own Redis database: LIVE_REDIS_URL, so that two runs on one machine
    # (CI beside a developer's run) never share the servers' caches and rate limits.
    "REDIS_URL": os.environ.get("LIVE_REDIS_URL") or "redis://127.0.0.1:6379/6",
    "EMAIL_BACKEND": "anymail.backends.postmark.EmailBackend",
    "ANYMAIL_POSTMARK_SERVER_TOKEN": "tok",
    "ANYMAIL_WEBHOOK_SECRET": "inbound:Zq8vL2pX7rT4wN9bM1cF",
    "DJANGO_ALLOWED_HOSTS": HOST,
    "SITE_URL": SITE_URL,
}
# Variables the app reads as configuration (inis_pbem/settings/): dropped from the inherited
# environment, so that only SAFE_ENV and what a test passes configure the server.
CONFIG_PREFIXES = (
    "DJANGO_",
    "DATABASE_URL",
    "DB_CONN_",
    "REDIS_URL",
    "SECRET_KEY",
    "SITE_URL",
    "EMAIL_",
    "ANYMAIL_",
    "SECURE_",
    "DEFAULT_FROM_EMAIL",
    "INBOUND_EMAIL",
    "CELERY_",
    "SIGN_IN_",
    "SEAT_LINK_",
    "CLIENT_IP_HEADER",
    "OUTBOX_",
    "SNAPSHOT_EVERY",
    "LIVE_MAIL_LOG",
    "HEALTHZ_TOKEN",
    "HEAD_POLLS_",
    "VACATION_MAX_DAYS",
)

# The longest any one request to the server may take, in seconds.
REQUEST_SECONDS = 20


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
            [
                str(GUNICORN),
                "inis_pbem.wsgi",
                "--bind",
                f"127.0.0.1:{self.port}",
                "--workers",
                "1",
                "--timeout",
                "30",
                "--graceful-timeout",
                "5",
                "--no-control-socket",
            ],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=self.log.open("w"),
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

    def wait_until_serving(self, timeout: float = 60) -> None:
        """Return once gunicorn accepts connections; AssertionError (with its output) if it
        stopped, or still does not listen after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=2):
                    return
            except OSError:
                if self.process.poll() is not None:
                    raise AssertionError(f"gunicorn stopped: {self.output()}") from None
                if time.monotonic() > deadline:
                    raise AssertionError(f"gunicorn did not answer: {self.output()}") from None
                time.sleep(0.2)

    def get(self, path: str, *, timeout: float = 60) -> tuple[int, str]:
        """(status, body) of GET `path` as an https request for the allowed host, once gunicorn
        answers (waiting at most `timeout` seconds for it to listen)."""
        self.wait_until_serving(timeout)
        response = Browser(self).get(path)
        return response.status, response.text


@dataclass
class Response:
    """What the server answered: status, headers (every header, in order, names as sent),
    body (bytes) and the body as text."""

    status: int
    headers: list[tuple[str, str]]
    body: bytes

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", "replace")

    def header(self, name: str) -> str | None:
        """The first header called `name` (any case), or None."""
        return next((v for k, v in self.headers if k.lower() == name.lower()), None)

    def all(self, name: str) -> list[str]:
        return [v for k, v in self.headers if k.lower() == name.lower()]


@dataclass
class Browser:
    """One visitor of `server`, with its own cookies. Requests go to 127.0.0.1 as the production
    proxy would pass them on: Host the allowed host, `X-Forwarded-Proto: https`, and the
    client's address in `X-Real-IP` (`client_ip`, for a server started with
    CLIENT_IP_HEADER=X-Real-IP). Redirects are not followed."""

    server: Gunicorn
    client_ip: str = "203.0.113.7"
    https: bool = True
    cookies: dict[str, str] = field(default_factory=dict)
    set_cookies: list[str] = field(default_factory=list)  # every Set-Cookie header received

    def request(
        self, method: str, path: str, body: bytes | None = None, headers: dict | None = None
    ) -> Response:
        """Send one request (bounded by REQUEST_SECONDS) and keep the cookies it sets."""
        sent = {
            "Host": HOST,
            "User-Agent": "Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0",
            "X-Real-IP": self.client_ip,
            "Connection": "close",
        }
        if self.https:
            sent["X-Forwarded-Proto"] = "https"
        if self.cookies:
            sent["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        sent.update(headers or {})
        connection = http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=REQUEST_SECONDS)
        try:
            connection.request(method, path, body=body, headers=sent)
            answer = connection.getresponse()
            response = Response(answer.status, answer.getheaders(), answer.read())
        finally:
            connection.close()
        for value in response.all("Set-Cookie"):
            self.set_cookies.append(value)
            cookie = SimpleCookie()
            cookie.load(value)
            for name, morsel in cookie.items():
                if morsel["max-age"] == "0" or morsel.value == "":
                    self.cookies.pop(name, None)
                else:
                    self.cookies[name] = morsel.value
        return response

    def get(self, path: str, **headers) -> Response:
        return self.request("GET", path, headers=headers)

    def post(
        self,
        path: str,
        data: dict | list | None = None,
        *,
        body: bytes | None = None,
        content_type: str = "application/x-www-form-urlencoded",
        csrf_from: str | None = None,
        **headers,
    ) -> Response:
        """POST `data` (form-encoded) or `body`, with `Origin` this site as a browser sends it.
        `csrf_from`: a page to GET first, whose form's CSRF token is sent with the data (as
        a browser submitting that page's form would)."""
        if csrf_from is not None:
            token = self.csrf_token(csrf_from)
            data = [("csrfmiddlewaretoken", token), *(data.items() if isinstance(data, dict) else data or [])]
        if body is None:
            body = urlencode(data or {}, doseq=True).encode()
        return self.request(
            "POST",
            path,
            body=body,
            headers={"Content-Type": content_type, "Origin": SITE_URL, "Referer": SITE_URL + path, **headers},
        )

    def csrf_token(self, page: str) -> str:
        """The CSRF token of the first form on `page` (GET), as a browser would submit it."""
        response = self.get(page)
        match = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', response.text)
        assert match, f"no form with a CSRF token on {page} ({response.status})"
        return match.group(1)


def read_mail(path) -> list[dict]:
    """The messages RecordingEmailBackend accepted so far: {"to", "subject", "body", "html"}."""
    try:
        with open(path) as log:
            return [json.loads(line) for line in log if line.strip()]
    except FileNotFoundError:
        return []


class RecordingEmailBackend(BaseEmailBackend):
    """Accepts every message by appending it (recipients, subject, text and HTML bodies) as one
    JSON line to the file named by LIVE_MAIL_LOG: no network call, and the test reads what was
    sent with `read_mail`."""

    def send_messages(self, email_messages) -> int:
        with open(os.environ["LIVE_MAIL_LOG"], "a") as log:
            for message in email_messages:
                html = next(
                    (
                        content
                        for content, mime in getattr(message, "alternatives", [])
                        if mime == "text/html"
                    ),
                    "",
                )
                log.write(
                    json.dumps(
                        {
                            "to": list(message.to),
                            "subject": message.subject,
                            "body": message.body,
                            "html": html,
                        }
                    )
                    + "\n"
                )
        return len(email_messages)
