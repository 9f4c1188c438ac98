"""Model instances read by one written-out query that joins several tables.

The hot paths (a command's append, a prompt's delivery) read a row together with the rows it
refers to in one query written out in SQL: building such a query with the ORM cost more than
running it (bench: the command path, the prompt delivery). `Columns` gives the select list of one
model under a table alias and rebuilds its instance from those columns of a result row, with the
converters the ORM itself applies (JSON decoded, SQLite's text dates and 0/1 booleans turned into
datetimes and booleans), so that what is read equals what a queryset would give.
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
        return self.model.from_db(connection.alias, [f.attname for f in self.fields], values)

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
