"""The benchmark's own world: a fresh PostgreSQL database (never a test database), Redis, Django.

`prepare()` must run before anything imports Django models: it sets the environment that
`inis_pbem.settings` reads, drops and re-creates the bench database, migrates it and returns the
connection settings the baselines use.
"""

from __future__ import annotations

import os
import platform
import subprocess
from dataclasses import dataclass
from urllib.parse import urlsplit

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/inis_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/0"
# The bench's own queue names: a worker of the service on the same Redis never takes them, and
# the bench never takes the service's.
QUEUE = "inis-bench"


@dataclass(frozen=True)
class Environment:
    """database_url: the bench database (dropped and created by `prepare`); redis_url: the broker;
    conninfo: the same database as a libpq keyword string (psycopg, pgbench's PG* variables)."""

    database_url: str
    redis_url: str

    @property
    def parts(self):
        return urlsplit(self.database_url)

    @property
    def dbname(self) -> str:
        return self.parts.path.lstrip("/")

    @property
    def conninfo(self) -> str:
        p = self.parts
        info = f"host={p.hostname or '127.0.0.1'} port={p.port or 5432} user={p.username or 'postgres'} dbname={self.dbname}"
        if p.password:
            info += f" password={p.password}"
        return info

    def pg_env(self) -> dict:
        """The PG* variables for pgbench / psql pointing at the bench database."""
        p = self.parts
        env = dict(
            os.environ,
            PGHOST=p.hostname or "127.0.0.1",
            PGPORT=str(p.port or 5432),
            PGUSER=p.username or "postgres",
            PGDATABASE=self.dbname,
        )
        if p.password:
            env["PGPASSWORD"] = p.password
        return env


def prepare(*, database_url: str | None = None, redis_url: str | None = None) -> Environment:
    """Point Django at the bench database and Redis, re-create the database, migrate it.

    Refuses a database whose name does not contain "bench", so that a typo cannot drop the
    service's or the tests' database.
    """
    env = Environment(
        database_url=database_url or os.environ.get("BENCH_DATABASE_URL") or DEFAULT_DATABASE_URL,
        redis_url=redis_url or os.environ.get("BENCH_REDIS_URL") or DEFAULT_REDIS_URL,
    )
    if "bench" not in env.dbname:
        raise SystemExit(f"refusing to drop {env.dbname!r}: the bench database's name must contain 'bench'")
    os.environ["DATABASE_URL"] = env.database_url
    os.environ["REDIS_URL"] = env.redis_url
    os.environ["EMAIL_BACKEND"] = "anymail.backends.test.EmailBackend"
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "inis_pbem.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    _recreate_database(env)

    import django
    from django.core.management import call_command

    django.setup()
    call_command("migrate", verbosity=0)
    from inis_pbem.celery import app

    app.conf.task_default_queue = QUEUE
    app.conf.task_always_eager = False
    return env


def _recreate_database(env: Environment) -> None:
    import psycopg

    admin = env.conninfo.replace(f"dbname={env.dbname}", "dbname=postgres")
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{env.dbname}" WITH (FORCE)')
        conn.execute(f'CREATE DATABASE "{env.dbname}"')


def machine(env: Environment) -> dict:
    """What the figures were measured on: cores, memory, PostgreSQL, Redis, Python versions, and
    the load average when the table was written (the machine is shared)."""
    import psycopg
    import redis

    with psycopg.connect(env.conninfo) as conn:
        pg = conn.execute("SHOW server_version").fetchone()[0]
    info = redis.Redis.from_url(env.redis_url).info("server")
    with open("/proc/meminfo") as meminfo:
        total_kib = int(next(line for line in meminfo if line.startswith("MemTotal")).split()[1])
    cpu = ""
    try:
        cpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        cpu = next(
            (line.split(":", 1)[1].strip() for line in cpu.splitlines() if line.startswith("Model name")), ""
        )
    except OSError:
        pass
    return {
        "cores": os.cpu_count(),
        "cpu": cpu,
        "memory_gib": round(total_kib / 1024 / 1024, 1),
        "postgresql": pg,
        "redis": info.get("redis_version"),
        "python": platform.python_version(),
        "load": " ".join(f"{x:.2f}" for x in os.getloadavg()),
    }
