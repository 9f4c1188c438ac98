"""The database, from DATABASE_URL.

Default: an SQLite file `db.sqlite3` at the repository root (git-ignored), for development only;
production uses PostgreSQL (`postgres://user:password@host:5432/name`), where the event table is
append-only by trigger (games.models.Event).

A connection kept between requests and tasks (DB_CONN_MAX_AGE) is checked before its first use in
each (CONN_HEALTH_CHECKS): one dropped meanwhile (a database restart, a failover, PgBouncer,
`pg_terminate_backend`) is opened again instead of failing that request or task.
"""

import dj_database_url

from inis_pbem.env import env_int, env_str

from .base import BASE_DIR

DATABASE_URL = env_str("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")

DATABASES = {
    "default": dj_database_url.parse(
        DATABASE_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 0), conn_health_checks=True
    ),
}

if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # SQLite has one writer at a time. BEGIN IMMEDIATE takes the write lock when a transaction
    # starts instead of upgrading a read lock later (which fails at once with "database is
    # locked" when two threads of the development server write together); the timeout makes a
    # second writer wait for the first.
    DATABASES["default"].setdefault("OPTIONS", {}).update({"transaction_mode": "IMMEDIATE", "timeout": 20})

if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Django's documented PostgreSQL options (psycopg 3): every statement's parameters are bound
    # by the server ("Server-side parameters binding"), not quoted into its text by the driver,
    # and psycopg prepares a statement run `prepare_threshold` times on one connection, so that
    # later runs are not parsed again (bench: the command path). A negative DB_PREPARE_THRESHOLD
    # never prepares: for a pooler in transaction mode that does not keep prepared statements.
    _prepare = env_int("DB_PREPARE_THRESHOLD", 5)
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {"server_side_binding": True, "prepare_threshold": _prepare if _prepare >= 0 else None}
    )
