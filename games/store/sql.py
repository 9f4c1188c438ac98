"""Model rows read and written by SQL written out by hand, on the hot paths.

A command's append and a prompt's delivery read a row with the rows it refers to in one query,
and insert or update rows in one statement each: building those queries with the ORM cost more
than running them (bench: the command path, the prompt delivery). What is read and written here
equals what the ORM would read and write, because the ORM's own field methods do the converting:

- `Columns`: the select list of one model under a table alias, and its instance rebuilt from
  those columns of a result row with the converters a queryset applies (JSON decoded, SQLite's
  text dates and 0/1 booleans made datetimes and booleans);
- `insert_values` / `saved`: one row's placeholders and parameters as an INSERT sends them, and
  the instance marked as saved once the database gave its id;
- `update`: some fields of a saved instance, in one UPDATE.
"""
from __future__ import annotations

from django.db import connection


class Columns:
    """The concrete columns of `model` under the SQL alias `alias`, in a result row at `offset`.

    `sql()` is the select list (`alias."col", ...`); `build(row)` the instance (Model.from_db:
    not `adding`, its database set) from `row[offset:offset + len(self)]`, or None when the
    primary key there is NULL (a LEFT JOIN that found nothing).
    """

    def __init__(self, model, alias: str, offset: int = 0):
        self.model, self.alias, self.offset = model, alias, offset
        self.fields = list(model._meta.concrete_fields)
        self._attnames = [f.attname for f in self.fields]
        self._pk_index = next(i for i, f in enumerate(self.fields) if f.primary_key)
        self._converters = None  # per connection vendor, on first use

    def __len__(self) -> int:
        return len(self.fields)

    def sql(self) -> str:
        """`alias."column", ...` in the order `build` reads them."""
        quote = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{quote(f.column)}" for f in self.fields)

    def after(self) -> int:
        """The offset of the next model's columns in the same row."""
        return self.offset + len(self.fields)

    def build(self, row):
        """The `model` instance of this model's columns in `row` (a sequence), or None."""
        values = list(row[self.offset:self.offset + len(self.fields)])
        if values[self._pk_index] is None:
            return None
        for index, converters, expression in self._converters_now():
            value = values[index]
            for convert in converters:
                value = convert(value, expression, connection)
            values[index] = value
        return self.model.from_db(connection.alias, self._attnames, values)

    def _converters_now(self) -> list:
        if self._converters is None or self._converters[0] != connection.vendor:
            found = []
            for index, field in enumerate(self.fields):
                expression = field.get_col(self.alias)
                converters = connection.ops.get_db_converters(expression) + field.get_db_converters(connection)
                if converters:
                    found.append((index, converters, expression))
            self._converters = (connection.vendor, found)
        return self._converters[1]


def insert_values(obj, fields) -> tuple[str, list]:
    """`(placeholders, params)` of `obj`'s `fields` as an INSERT sends them (`pre_save`, then
    `get_db_prep_save`: `auto_now_add` times set, JSON dumped)."""
    params = [f.get_db_prep_save(f.pre_save(obj, True), connection) for f in fields]
    return "(" + ", ".join(["%s"] * len(params)) + ")", params


def saved(obj, pk) -> None:
    """Mark `obj` as saved with the primary key `pk`, as `save` and `bulk_create` leave it."""
    obj.pk = pk
    obj._state.adding, obj._state.db = False, connection.alias


def update(obj, names: list[str]) -> None:
    """Save the fields `names` of the saved instance `obj` in one UPDATE, as
    `obj.save(update_fields=names)` does without the ORM's building of the statement (no
    signals are sent: the models written this way have no receivers)."""
    quote = connection.ops.quote_name
    fields = [obj._meta.get_field(name) for name in names]
    params = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {quote(obj._meta.db_table)} SET "
                       f"{', '.join(quote(f.column) + ' = %s' for f in fields)} "
                       f"WHERE {quote(obj._meta.pk.column)} = %s", [*params, obj.pk])


def quote(name: str) -> str:
    """`name` (a table or column) quoted for the connection's database."""
    return connection.ops.quote_name(name)


def table(model) -> str:
    """The quoted table name of `model`."""
    return quote(model._meta.db_table)


def lock_clause(alias: str) -> str:
    """` FOR UPDATE OF <alias>` where the database locks the rows of one table of a join
    (PostgreSQL); "" elsewhere (SQLite has one writer at a time, settings/database.py)."""
    return f" FOR UPDATE OF {alias}" if connection.features.has_select_for_update_of else ""


def largest_id() -> int:
    """The largest value the database's 64-bit ids (BigAutoField) can hold: a larger number from
    an address is no row, never a database error."""
    return connection.ops.integer_field_range("BigAutoField")[1]
