"""The database emptied after each transactional test: only the tables that hold rows.

pytest-django empties the database after a transactional test (`transaction=True`,
`live_server`) with Django's `flush`, which TRUNCATEs every table (44: a file made anew for
each table and index) and then writes the content types and permissions again (post_migrate):
some 150 to 300 ms a test, a third of the time of such a test, though a test writes to a few
tables. `flush_tables_holding_rows` leaves the database as that flush does — every table empty
but the content types and permissions, which every test starts with — by a DELETE of the rows
of the tables that hold some, in one transaction with the triggers off (`session_replication_role
= replica`: the log's append-only triggers and the foreign keys' checks, which have nothing to
check once every row is gone). The content types and permissions are kept when they are the
rows the last full flush left (their count and highest id unchanged). Otherwise, with
reset_sequences, on another database than PostgreSQL or for a user who may not switch the
triggers off (not a superuser), Django's flush runs.
"""

from __future__ import annotations

from collections.abc import Callable

from django.db import connections, transaction

from tests.log_triggers import switched_off

# The tables migrate fills (post_migrate), which every test starts with.
KEPT = ("django_content_type", "auth_permission")

# Per test database (its name): KEPT's fingerprint as the last full flush left it, and whether
# the tests' user may switch the triggers off.
_KEPT_FINGERPRINT: dict[str, tuple] = {}
_SUPERUSER: dict[str, bool] = {}


def _superuser(connection) -> bool:
    name = connection.settings_dict["NAME"]
    if name not in _SUPERUSER:
        with connection.cursor() as cursor:
            cursor.execute("SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
            _SUPERUSER[name] = bool(cursor.fetchone()[0])
    return _SUPERUSER[name]


def _holding_rows(connection, tables: list[str]) -> tuple[set[str], tuple]:
    """(the tables among `tables` that hold a row but KEPT's, the fingerprint of KEPT's rows:
    their count and highest id), in one query."""
    held = " UNION ALL ".join(
        f"SELECT '{name}' WHERE EXISTS (SELECT 1 FROM \"{name}\")" for name in tables if name not in KEPT
    )
    fingerprint = ", ".join(
        f'(SELECT count(*) FROM "{name}"), (SELECT max(id) FROM "{name}")' for name in KEPT
    )
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT {fingerprint}")
        kept = tuple(cursor.fetchone())
        cursor.execute(held)
        return {row[0] for row in cursor.fetchall()}, kept


def flush_tables_holding_rows(handle: Callable, command, log_triggers: tuple[str, ...], **options):
    """Django's flush command's `handle(command, **options)` in effect, on PostgreSQL faster (the
    module's docstring). `log_triggers`: the URIs ("app.Model:name") of the log's TRUNCATE
    triggers, switched off while Django's flush runs."""
    connection = connections[options.get("database", "default")]
    if (
        connection.vendor != "postgresql"
        or options.get("reset_sequences", True)
        or not _superuser(connection)
    ):
        with switched_off(*log_triggers):
            return handle(command, **options)
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    held, kept = _holding_rows(connection, tables)
    if kept != _KEPT_FINGERPRINT.get(connection.settings_dict["NAME"]):
        # The first flush of this connection, or a test changed the content types or
        # permissions: Django's flush writes them again, and what it leaves is remembered.
        with switched_off(*log_triggers):
            result = handle(command, **options)
        _KEPT_FINGERPRINT[connection.settings_dict["NAME"]] = _holding_rows(connection, tables)[1]
        return result
    if held:
        with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
            cursor.execute("SET LOCAL session_replication_role = replica")
            for name in sorted(held):
                cursor.execute(f'DELETE FROM "{name}"')
    return None
