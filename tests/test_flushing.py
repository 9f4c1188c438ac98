"""The database emptied after a transactional test (tests/flushing.py): as Django's flush leaves
it, every table empty but the content types and permissions (the same rows), the log's triggers
on again; by emptying the tables that held rows alone, not every table."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth.models import Permission
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext

# The tables every test starts with rows in: what migrate wrote (post_migrate).
KEPT = ("django_content_type", "auth_permission")

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def flush() -> None:
    """The flush pytest-django runs after a transactional test."""
    call_command(
        "flush",
        verbosity=0,
        interactive=False,
        database="default",
        reset_sequences=False,
        allow_cascade=False,
        inhibit_post_migrate=False,
    )


def tables_holding_rows() -> set[str]:
    tables = connection.introspection.django_table_names(only_existing=True, include_views=False)
    with connection.cursor() as cursor:
        return {name for name in tables if cursor.execute(f'SELECT 1 FROM "{name}" LIMIT 1').fetchone()}


def kept_ids() -> tuple[list[int], list[int]]:
    """The ids of the content types and of the permissions."""
    return (
        list(ContentType.objects.order_by("id").values_list("id", flat=True)),
        list(Permission.objects.order_by("id").values_list("id", flat=True)),
    )


def test_the_flush_after_a_test_empties_the_tables_written_and_keeps_the_content_types(make_game, play):
    play(make_game(n_players=2, seed="flush"), 6)
    flush()
    kept = kept_ids()
    assert tables_holding_rows() == set(KEPT)

    play(make_game(n_players=3, seed="flush again"), 6)
    held = tables_holding_rows() - set(KEPT)
    assert {"games_game", "games_seat", "games_event"} <= held
    with CaptureQueriesContext(connection) as queries:
        flush()

    assert tables_holding_rows() == set(KEPT)
    assert kept_ids() == kept
    statements = [q["sql"] for q in queries.captured_queries]
    assert not [sql for sql in statements if sql.startswith("TRUNCATE")]
    assert {m.group(1) for sql in statements if (m := re.match(r'DELETE FROM "(\w+)"$', sql))} == held
    with connection.cursor() as cursor:
        cursor.execute("SELECT tgname, tgenabled FROM pg_trigger WHERE tgname LIKE %s", ["%no_truncate%"])
        triggers = cursor.fetchall()
        cursor.execute("SHOW session_replication_role")
        assert cursor.fetchone()[0] == "origin"  # the triggers fire again after the flush
    assert len(triggers) == 6 and all(enabled == "O" for _name, enabled in triggers), triggers
