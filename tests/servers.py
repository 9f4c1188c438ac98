"""Which servers `./scripts/test` runs the tests on: PostgreSQL and Redis when they answer on their
default ports, SQLite (and no broker) otherwise, so a developer runs locally what production runs.

`python tests/servers.py` prints the shell lines `scripts/test` evaluates: an `export` of
DATABASE_URL and REDIS_URL for each server that answers, and an `echo` of the run's first line
("Tests on PostgreSQL (127.0.0.1:5432) and Redis (127.0.0.1:6379)"). A DATABASE_URL or REDIS_URL
already set wins and is not probed (`.ci/run` sets both). No Django here: it runs before the tests.
"""

from __future__ import annotations

import os
import shlex
import socket
import sys
from dataclasses import dataclass
from urllib.parse import urlsplit

POSTGRES = ("127.0.0.1", 5432)
REDIS = ("127.0.0.1", 6379)
# The URLs CI sets (`.ci/run`); pytest-django makes test_inis_gw0, test_inis_gw1... from the name.
DATABASE_URL = "postgres://postgres@127.0.0.1:5432/inis"
REDIS_URL = "redis://127.0.0.1:6379/0"


@dataclass(frozen=True)
class Choice:
    """The servers of a run: `environ`, the variables to set (name to URL); `line`, what the run
    says first."""

    environ: dict[str, str]
    line: str


def where(url: str) -> str:
    """host:port/name of a URL, without its user or password."""
    parts = urlsplit(url)
    return f"{parts.hostname}:{parts.port}{parts.path}" if parts.port else f"{parts.hostname}{parts.path}"


def choose(environ: dict[str, str], *, postgres: str | None, redis: str | None) -> Choice:
    """The servers to run on. `environ`: the variables already set; `postgres`, `redis`: None when
    the server answered the probe on its default port, else why not (a short phrase), ignored
    when its URL is set in `environ`."""
    chosen: dict[str, str] = {}
    skipped = []
    if environ.get("DATABASE_URL"):
        url = environ["DATABASE_URL"]
        engine = "PostgreSQL" if url.startswith("postgres") else urlsplit(url).scheme
        database = f"{engine} (DATABASE_URL: {where(url)})"
    elif postgres is None:
        chosen["DATABASE_URL"] = DATABASE_URL
        database = f"PostgreSQL ({POSTGRES[0]}:{POSTGRES[1]})"
    else:
        database = f"SQLite (PostgreSQL {postgres})"
        skipped.append("PostgreSQL")
    if environ.get("REDIS_URL"):
        broker = f"and Redis (REDIS_URL: {where(environ['REDIS_URL'])})"
    elif redis is None:
        chosen["REDIS_URL"] = REDIS_URL
        broker = f"and Redis ({REDIS[0]}:{REDIS[1]})"
    else:
        broker = f"without Redis ({redis})"
        skipped.append("Redis")
    line = f"Tests on {database} {broker}"
    if skipped:
        line += f": the {' and '.join(skipped)} tests are skipped"
    return Choice(chosen, line)


def redis_probe(host: str = REDIS[0], port: int = REDIS[1], timeout: float = 1.0) -> str | None:
    """None when a Redis answers PING at host:port, else why not."""
    try:
        with socket.create_connection((host, port), timeout=timeout) as conn:
            conn.sendall(b"PING\r\n")
            answer = conn.recv(64)
    except OSError:
        return f"not answering on {host}:{port}"
    return None if answer.startswith(b"+PONG") else f"on {host}:{port} not answering PING"


def postgres_probe(url: str = DATABASE_URL, timeout: int = 2) -> str | None:
    """None when PostgreSQL accepts `url`'s user without a password, its database made if missing
    (as `.ci/run` makes it); else why not."""
    import psycopg  # installed with the test requirements; imported here so --help needs none
    from psycopg import sql

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    try:
        with psycopg.connect(
            parts._replace(path="/postgres").geturl(), connect_timeout=timeout, autocommit=True
        ) as conn:
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", (name,)).fetchone() is None:
                conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
    except psycopg.OperationalError as error:
        if not port_open(parts.hostname or POSTGRES[0], parts.port or POSTGRES[1]):
            return f"not answering on {parts.hostname}:{parts.port}"
        return f"on {parts.hostname}:{parts.port} refusing {parts.username} ({str(error).splitlines()[0]})"
    return None


def port_open(host: str, port: int) -> bool:
    """Whether anything accepts a connection at host:port."""
    try:
        socket.create_connection((host, port), timeout=1.0).close()
    except OSError:
        return False
    return True


def shell(choice: Choice) -> str:
    """The lines `scripts/test` evaluates."""
    exports = [f"export {name}={shlex.quote(value)}" for name, value in choice.environ.items()]
    return "\n".join([*exports, f"echo {shlex.quote(choice.line)}"])


def main() -> int:
    environ = dict(os.environ)
    postgres = None if environ.get("DATABASE_URL") else postgres_probe()
    redis = None if environ.get("REDIS_URL") else redis_probe()
    print(shell(choose(environ, postgres=postgres, redis=redis)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
