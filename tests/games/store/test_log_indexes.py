"""The indexes of the tables every command writes: each one is written with every row, so none may
be there that another index already serves, and the seat clocks' columns that commands update
carry none (PostgreSQL updates a row in place, a HOT update that writes no index, only when no
indexed column changes; a clock's deadline changes with every new decision). Bench: WAL bytes
per command (bench/command_path.py).
"""

from __future__ import annotations

import pytest
from django.db import connection

from games.models import Command, Event
from games.play.models import SeatClock
from games.play.sql import CLOCK_FIELDS
from notifications.models import Outbox

pytestmark = pytest.mark.django_db


def _indexes(model) -> dict[str, tuple[list[str], bool]]:
    """{name: (columns, unique)} of the table's indexes (primary key included), as the database
    reports them."""
    with connection.cursor() as cursor:
        found = connection.introspection.get_constraints(cursor, model._meta.db_table)
    return {
        name: (info["columns"], bool(info["unique"] or info["primary_key"]))
        for name, info in found.items()
        if info["index"] or info["unique"] or info["primary_key"]
    }


def _has_own_opclass(name: str) -> bool:
    """True for a PostgreSQL index with an operator class of its own (Django's `_like` twin of an
    indexed text column, for LIKE lookups): it does what the plain index cannot."""
    if connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_get_indexdef(%s::regclass)", [connection.ops.quote_name(name)])
        return "_pattern_ops" in cursor.fetchone()[0]


@pytest.mark.parametrize("model", [Event, Command, SeatClock, Outbox], ids=lambda m: m._meta.db_table)
def test_no_index_of_the_command_path_is_served_by_another(model):
    """An index on (game) beside a unique index on (game, seq) only costs a write per row."""
    indexes = {name: found for name, found in _indexes(model).items() if not _has_own_opclass(name)}
    redundant = [
        (name, columns, other)
        for name, (columns, unique) in indexes.items()
        if not unique
        for other, (other_columns, _unique) in indexes.items()
        if other != name and other_columns[: len(columns)] == columns
    ]
    assert redundant == []


def test_the_clock_columns_every_command_updates_are_not_indexed():
    """A command that changes a seat's decision rewrites its clock's CLOCK_FIELDS."""
    columns = {SeatClock._meta.get_field(name).column for name in CLOCK_FIELDS}
    indexed = {name: found for name, (found, _unique) in _indexes(SeatClock).items() if columns & set(found)}
    assert indexed == {}
