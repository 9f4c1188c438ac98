"""`./scripts/test` runs on PostgreSQL and Redis when they answer on their default ports, and says
so in its first line; on SQLite otherwise; a DATABASE_URL or REDIS_URL already set wins
(tests/servers.py, README "Set up")."""

from __future__ import annotations

import os
import socket
import subprocess
import threading

from tests.servers import DATABASE_URL, REDIS_URL, choose, redis_probe, shell


def test_both_servers_answering_are_used_and_named_first():
    choice = choose({}, postgres=None, redis=None)
    assert choice.environ == {"DATABASE_URL": DATABASE_URL, "REDIS_URL": REDIS_URL}
    assert choice.line == "Tests on PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379)"


def test_without_postgresql_the_run_is_on_sqlite_and_says_what_is_skipped():
    choice = choose({}, postgres="not answering on 127.0.0.1:5432", redis=None)
    assert choice.environ == {"REDIS_URL": REDIS_URL}
    assert choice.line == (
        "Tests on SQLite (PostgreSQL not answering on 127.0.0.1:5432) and Redis (127.0.0.1:6379): "
        "the PostgreSQL tests are skipped"
    )
    neither = choose({}, postgres="not answering on 127.0.0.1:5432", redis="not answering on 127.0.0.1:6379")
    assert neither.environ == {}
    assert neither.line.endswith(": the PostgreSQL and Redis tests are skipped")


def test_urls_already_set_win_over_the_probe_and_hide_their_password():
    environ = {
        "DATABASE_URL": "postgres://ci:secret@db.example:5433/inis_ci",
        "REDIS_URL": "redis://127.0.0.1:6379/4",
    }
    choice = choose(environ, postgres="not answering", redis="not answering")
    assert choice.environ == {}
    assert choice.line == (
        "Tests on PostgreSQL (DATABASE_URL: db.example:5433/inis_ci) and Redis (REDIS_URL: 127.0.0.1:6379/4)"
    )
    assert "secret" not in choice.line


def test_the_shell_lines_export_the_urls_then_say_the_line():
    script = shell(choose({}, postgres=None, redis="not answering on 127.0.0.1:6379"))
    out = subprocess.run(
        ["bash", "-c", f'{script}\necho "$DATABASE_URL|${{REDIS_URL:-unset}}"'],
        capture_output=True,
        env={"PATH": os.environ["PATH"]},
        text=True,
        check=True,
    ).stdout
    assert out.splitlines() == [
        "Tests on PostgreSQL (127.0.0.1:5432) without Redis (not answering on 127.0.0.1:6379): the Redis tests are skipped",
        f"{DATABASE_URL}|unset",
    ]


def serve_once(answer: bytes) -> int:
    """A one-connection server on a free loopback port that answers `answer` to what it reads."""
    server = socket.create_server(("127.0.0.1", 0))

    def run():
        conn, _ = server.accept()
        with conn, server:
            conn.recv(64)
            conn.sendall(answer)

    threading.Thread(target=run, daemon=True).start()
    return server.getsockname()[1]


def test_redis_answers_only_when_it_says_pong():
    assert redis_probe("127.0.0.1", serve_once(b"+PONG\r\n")) is None
    port = serve_once(b"HTTP/1.1 400 Bad Request\r\n")
    assert redis_probe("127.0.0.1", port) == f"on 127.0.0.1:{port} not answering PING"
    closed = socket.create_server(("127.0.0.1", 0))
    free = closed.getsockname()[1]
    closed.close()
    assert redis_probe("127.0.0.1", free) == f"not answering on 127.0.0.1:{free}"
