"""The store room's SQL written out by hand, on the hot paths, and the one place that touches
Django's internals for it (each such use is checked by tests/games/store/test_sql.py, which fails
when Django changes it). The rooms above build their own statements with the helpers here.
On PostgreSQL every statement is bound by the server and prepared once run often on a
connection: Django's documented OPTIONS `server_side_binding` and `prepare_threshold`
(inis_pbem/settings/database.py); the statements sent here type their parameters from their
context (a `%s::json`, a column compared or inserted).

A command's append and a prompt's delivery read a row with the rows it refers to in one query,
and insert or update rows in one statement each: building those queries with the ORM cost more
than running them (bench: the command path, the prompt delivery). What is read and written here
equals what the ORM would read and write, because the ORM's own field methods do the converting:

- `Columns`: the select list of one model under a table alias, and its instance rebuilt from
  those columns of a result row with the converters a queryset applies (JSON decoded, SQLite's
  text dates and 0/1 booleans made datetimes and booleans), made by `Model.from_db`;
- `insert_values` / `saved`: one row's placeholders and parameters as an INSERT sends them, and
  the instance marked as saved once the database gave its id;
- `json_values` / `json_document` / `recordset` (PostgreSQL): many rows as one JSON parameter,
  read back by `json_to_recordset` as the values the fields' own methods send (the outbox rows,
  the clocks' update);
- `update`: some fields of a saved instance, in one UPDATE;
- the log's statements: the game's lock with its seats and head (`locked_seats_and_head`), the
  command with its events (`insert_command_and_events`, the events as one JSON document), a
  snapshot (`insert_snapshot`), the latest snapshot (`latest_snapshot`) and the events after it
  (`event_tuples`);
- `appends_in_commit_order`: the advisory lock under which the other rooms' logs that read
  models follow by id append (the lobby's gathering, the community's games' ends).

Branching on the database vendor happens here only (and in the other rooms' SQL modules).
"""

from __future__ import annotations

import datetime
import functools
import json
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.utils import timezone
from psycopg.types.json import Jsonb

from games.store.models import Command, Event, Game, Seat, Snapshot


class Columns:
    """The concrete columns of `model` under the SQL alias `alias`, in a result row at `offset`.

    `sql()` is the select list (`alias."col", ...`); `build(row)` the instance (Model.from_db:
    not `adding`, its database set) from `row[offset:offset + len(self)]`, or None when the
    primary key there is NULL (a LEFT JOIN that found nothing).
    """

    def __init__(self, model: type[models.Model], alias: str, offset: int = 0) -> None:
        self.model, self.alias, self.offset = model, alias, offset
        self.fields = list(model._meta.concrete_fields)
        self._attnames = [f.attname for f in self.fields]
        self._pk_index = next(i for i, f in enumerate(self.fields) if f.primary_key)
        self._converters: tuple[str, list[Any]] | None = None  # per connection vendor, on first use

    def __len__(self) -> int:
        return len(self.fields)

    def sql(self) -> str:
        """`alias."column", ...` in the order `build` reads them."""
        quote = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{quote(f.column)}" for f in self.fields)

    def after(self) -> int:
        """The offset of the next model's columns in the same row."""
        return self.offset + len(self.fields)

    def build(self, row: Sequence[Any], using: Any = None) -> Any:
        """The `model` instance of this model's columns in `row` (a sequence), or None.
        using: the database connection the row was read from (default: `connection`); a caller
        building many rows passes `current()` once (each look-up of `connection`'s attributes
        reads a context-local: bench, the command path)."""
        values = list(row[self.offset : self.offset + len(self.fields)])
        if values[self._pk_index] is None:
            return None
        db = current() if using is None else using
        for index, converters, expression in self._converters_now(db):
            value = values[index]
            for convert in converters:
                value = convert(value, expression, db)
            values[index] = value
        return self.model.from_db(db.alias, self._attnames, values)

    def _converters_now(self, db: Any) -> list[Any]:
        if self._converters is None or self._converters[0] != db.vendor:
            found: list[Any] = []
            for index, field in enumerate(self.fields):
                expression = field.get_col(self.alias)
                converters = db.ops.get_db_converters(expression) + field.get_db_converters(db)
                if converters:
                    found.append((index, converters, expression))
            self._converters = (db.vendor, found)
        return self._converters[1]


def current() -> Any:
    """The database connection `connection` stands for now (the default database's, in this
    thread or task): the object itself, whose attributes read no context-local."""
    return connections[DEFAULT_DB_ALIAS]


# Field classes whose value, when its type is exactly the one given (or it is None), is sent as
# the field's own methods would send it without asking them each time: their `pre_save` reads the
# attribute, and their `get_db_prep_save` gives, for a value of that type, the value itself or
# the value wrapped in one adapter type (PostgreSQL's integers: psycopg's Int4...), found once
# per database by asking the field about a sample (`_preparation`). Asking each field cost a
# third of the command's Python time (bench: the command path): a command's rows are mostly
# such columns. Any other field (dates, JSON) or value goes through the field's own methods.
# tests/games/store/test_sql.py checks the shortcut against them.
_AS_IS = {
    models.CharField: str,
    models.TextField: str,
    models.EmailField: str,
    models.IntegerField: int,
    models.SmallIntegerField: int,
    models.BigIntegerField: int,
    models.PositiveIntegerField: int,
    models.PositiveSmallIntegerField: int,
    models.PositiveBigIntegerField: int,
    models.BooleanField: bool,
    models.ForeignKey: int,
    models.OneToOneField: int,
}
_SAMPLES = {str: "sample", int: 7, bool: True}


def _as_is(value: Any) -> Any:
    return value


@functools.cache
def _preparation(vendor: str, fields: tuple[Any, ...]) -> tuple[tuple[str, type | None, Any, Any], ...]:
    """For each of `fields`: (attname, the type sent without asking the field or None, the
    adapter that wraps such a value as the field would, the field), on the database `vendor`."""
    plan = []
    for field in fields:
        kind, adapter = _AS_IS.get(type(field)), None
        if kind is not None:
            sample = _SAMPLES[kind]
            prepared = field.get_db_prep_save(sample, connection)
            if type(prepared) is kind and prepared == sample:
                adapter = _as_is
            elif kind is int and isinstance(prepared, int) and prepared == sample:
                adapter = type(prepared)  # e.g. Int4: rebuilt from the value, as the field does
            else:
                kind = None  # this field converts even its own type: always asked
        plan.append((field.attname, kind, adapter, field))
    return tuple(plan)


# `_preparation` of the field tuples the hot statements keep (their cached SQL's fields), by the
# tuple's id: looking the plan up by the fields themselves hashes each field (a Python method) on
# every row. The tuple is kept with its plan, so its id is not reused while it is here.
_PLANS: dict[int, tuple[Any, str, tuple[tuple[str, type | None, Any, Any], ...]]] = {}


def _plan(fields: Iterable[Any]) -> tuple[tuple[str, type | None, Any, Any], ...]:
    """`_preparation(connection.vendor, fields)`, found by the identity of `fields`."""
    vendor = connection.vendor
    kept = _PLANS.get(id(fields))
    if kept is not None and kept[0] is fields and kept[1] == vendor:
        return kept[2]
    plan = _preparation(vendor, tuple(fields))
    if isinstance(fields, tuple):  # immutable: the plan stays its plan
        if len(_PLANS) >= 256:  # tuples made for one call do not pile up
            _PLANS.clear()
        _PLANS[id(fields)] = (fields, vendor, plan)
    return plan


def insert_values(obj: models.Model, fields: Iterable[Any]) -> tuple[str, list[Any]]:
    """`(placeholders, params)` of `obj`'s `fields` as an INSERT sends them (`pre_save`, then
    `get_db_prep_save`: `auto_now_add` times set, JSON dumped), the plain values of plain
    columns taken without asking the field (`_AS_IS`), and an empty one of those written as
    NULL in the placeholders rather than sent."""
    params: list[Any] = []
    placeholders: list[str] = []
    for attname, kind, adapter, field in _plan(fields):
        if kind is not None:
            value = getattr(obj, attname)
            if value is None:
                # Written in the statement: the driver sends a None parameter as NULL, and a
                # statement with fewer parameters is parsed once and kept (psycopg keeps those
                # of at most 50); an outbox row has half a dozen empty columns.
                placeholders.append("NULL")
                continue
            if type(value) is kind:
                params.append(adapter(value))
                placeholders.append("%s")
                continue
        params.append(field.get_db_prep_save(field.pre_save(obj, True), connection))
        placeholders.append("%s")
    return "(" + ", ".join(placeholders) + ")", params


def json_values(obj: models.Model, fields: Iterable[Any], *, adding: bool) -> list[Any]:
    """`obj`'s `fields` as JSON values that `recordset` reads back into what an INSERT
    (`adding`) or an UPDATE would send: what `insert_values` sends, the plain columns' values as
    they are, a time in ISO 8601 (to the microsecond, with its offset), a JSON field's value as
    its own JSON. PostgreSQL only. Raises TypeError for a value the fields prepare as something
    else (no such field is written this way)."""
    values: list[Any] = []
    for attname, kind, _adapter, field in _plan(fields):
        if kind is not None:
            value = getattr(obj, attname)
            if value is None or type(value) is kind:
                values.append(value)
                continue
        elif type(field) is models.DateTimeField and not (field.auto_now or (adding and field.auto_now_add)):
            # An aware time or None is sent as it is (`get_db_prep_save` returns it unchanged).
            value = getattr(obj, attname)
            if value is None:
                values.append(None)
                continue
            if type(value) is datetime.datetime and value.tzinfo is not None:
                values.append(value.isoformat())
                continue
        values.append(_json_ready(field.get_db_prep_save(field.pre_save(obj, adding), connection)))
    return values


def _json_ready(prepared: Any) -> Any:
    """A value a field prepared for the driver, as the JSON value that reads back as it."""
    if prepared is None or type(prepared) in (str, int, float, bool):
        return prepared
    if isinstance(prepared, datetime.datetime) and prepared.tzinfo is not None:
        return prepared.isoformat()
    if isinstance(prepared, int) and not isinstance(prepared, bool):  # psycopg's Int4...
        return int(prepared)
    if isinstance(prepared, str):  # a choice's enum member
        return str(prepared)
    if isinstance(prepared, Jsonb):  # a JSON field's value, dumped as the field dumps it
        return (
            prepared.obj if prepared.dumps in (None, json.dumps) else json.loads(prepared.dumps(prepared.obj))
        )
    raise TypeError(f"{type(prepared).__name__} is not written as JSON")


def recordset(fields: Iterable[Any], alias: str, *, numbered: bool = False) -> str:
    """`json_to_recordset(%s::json) AS alias("column" type, ...)`: the rows of one JSON
    parameter, a list of objects keyed by the fields' columns (`json_values`), read as the
    fields' own columns (a JSON null as NULL; a JSON field's value as it is). numbered: with
    their place in the list as `alias.ordinality` (1, 2, ...), to keep their order."""
    fields = list(fields)
    columns = ", ".join(f"{quote(f.column)} {f.db_type(connection)}" for f in fields)
    if not numbered:
        return f"json_to_recordset(%s::json) AS {alias}({columns})"
    names = ", ".join(quote(f.column) for f in fields)
    return f"ROWS FROM (json_to_recordset(%s::json) AS ({columns})) WITH ORDINALITY AS {alias}({names}, ordinality)"


def json_document(rows: list[list[Any]], columns: Sequence[str]) -> str:
    """The JSON parameter of `recordset`: one object a row, `columns` its keys."""
    return json.dumps([dict(zip(columns, row)) for row in rows], ensure_ascii=False, allow_nan=False)


def saved(obj: models.Model, pk: int) -> None:
    """Mark `obj` as saved with the primary key `pk`, as `save` and `bulk_create` leave it."""
    obj.pk = pk
    obj._state.adding, obj._state.db = False, connection.alias


def update(obj: models.Model, names: list[str]) -> None:
    """Save the fields `names` of the saved instance `obj` in one UPDATE, as
    `obj.save(update_fields=names)` does without the ORM's building of the statement (no
    signals are sent: the models written this way have no receivers)."""
    quote = connection.ops.quote_name
    fields = [obj._meta.get_field(name) for name in names]
    params = [f.get_db_prep_save(f.pre_save(obj, False), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {quote(obj._meta.db_table)} SET "
            f"{', '.join(quote(f.column) + ' = %s' for f in fields)} "
            f"WHERE {quote(obj._meta.pk.column)} = %s",
            [*params, obj.pk],
        )


def quote(name: str) -> str:
    """`name` (a table or column) quoted for the connection's database."""
    return _quoted(connection.vendor, name)


@functools.cache
def _quoted(vendor: str, name: str) -> str:
    """`quote`, kept per database vendor: a command's statements quote about seventy names."""
    return connection.ops.quote_name(name)


def table(model: type[models.Model]) -> str:
    """The quoted table name of `model`."""
    return quote(model._meta.db_table)


def lock_clause(alias: str) -> str:
    """` FOR UPDATE OF <alias>` where the database locks the rows of one table of a join
    (PostgreSQL); "" elsewhere (SQLite has one writer at a time, settings/database.py)."""
    return f" FOR UPDATE OF {alias}" if connection.features.has_select_for_update_of else ""


def cache_reverse_one_to_one(instance: models.Model, name: str, value: models.Model | None) -> None:
    """Leave `value` (a row, or None for none) as `instance.<name>`, the reverse side of a
    one-to-one relation, as `select_related` leaves it: reading it costs no query, and None
    reads as the model's DoesNotExist."""
    getattr(type(instance), name).related.set_cached_value(instance, value)


def row_lock_clause(alias: str) -> str:
    """` FOR UPDATE OF <alias>` where the database locks the rows of one table of a join,
    ` FOR UPDATE` where it locks them all, "" where it has no row locks (SQLite: one writer at
    a time)."""
    if connection.features.has_select_for_update_of:
        return f" FOR UPDATE OF {alias}"
    return " FOR UPDATE" if connection.features.has_select_for_update else ""


def largest_id() -> int:
    """The largest value the database's 64-bit ids (BigAutoField) can hold: a larger number from
    an address is no row, never a database error."""
    return connection.ops.integer_field_range("BigAutoField")[1]


def prefetched(instance: models.Model, name: str, objects: list[Any]) -> None:
    """Leave `objects` in `instance`'s prefetch cache for the relation `name`, as
    `prefetch_related` leaves it (a queryset whose results are already there), so that
    `getattr(instance, name).all()` costs no query."""
    cache = instance._prefetched_objects_cache = dict(getattr(instance, "_prefetched_objects_cache", {}))
    cache.pop(name, None)
    cached = getattr(instance, name).all()
    cached._result_cache, cached._prefetch_done = objects, True
    cache[name] = cached


# -- the log's statements --------------------------------------------------------------------------

# The seats of a game, read with its lock and head (`locked_seats_and_head`).
_SEATS = Columns(Seat, "s")


def appends_in_commit_order(key: int) -> None:
    """Within the caller's transaction, wait for and take the transaction-level advisory lock
    `key` (PostgreSQL's `pg_advisory_xact_lock`, released at COMMIT or ROLLBACK), so that the
    appends to one log that read models follow by id (the gathering's log, the games' ends:
    docs/architecture.md, "Read models") commit one after the other: no row with a smaller id
    commits after a read model has passed a larger one. Nothing on SQLite, which lets one
    transaction write at a time. `key`: a constant of the log (a 64-bit integer)."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [key])


@functools.cache
def _lock_sql(vendor: str) -> str:
    """The SQL of `locked_seats_and_head` on the database `vendor`, built once: the seats'
    columns, then the head's seq and hash. The head is read once, in a WITH, rather than by a
    subquery in each seat's row (two index scans a seat: bench, the command path). Its
    parameters: the game's id, twice."""
    event, seat_table, game_table = (table(m) for m in (Event, Seat, Game))
    materialized = " MATERIALIZED" if vendor == "postgresql" else ""  # read once (PostgreSQL 12+)
    return (
        f"WITH h AS{materialized} (SELECT e.seq, e.hash FROM {event} e WHERE e.game_id = %s "
        f"ORDER BY e.seq DESC LIMIT 1) "
        f"SELECT {_SEATS.sql()}, (SELECT h.seq FROM h), (SELECT h.hash FROM h) "
        f"FROM {seat_table} s INNER JOIN {game_table} g ON g.id = s.game_id "
        f"WHERE s.game_id = %s ORDER BY s.position{lock_clause('g')}"
    )


def locked_seats_and_head(game_id: int) -> tuple[list[Any], int | None, str | None] | None:
    """Lock the game's row (FOR UPDATE OF it, where the database can) and read, in one query, its
    seats in seating order and the seq and hash of its last event (None, None for an empty log).
    None when the game has no seat. Call inside a transaction."""
    with connection.cursor() as cursor:
        cursor.execute(_lock_sql(connection.vendor), [game_id, game_id])
        found = cursor.fetchall()
    if not found:
        return None
    db = current()
    return [_SEATS.build(row, db) for row in found], found[0][-2], found[0][-1]


# The columns of an event row sent in the one JSON document of `insert_command_and_events`: the
# document's keys, the types it is read as, and what is inserted from them (`v.<name>`). The JSON
# columns are read as `json`, whose text is the text as written (the text the payload field's own
# `get_prep_value`, one `json.dumps`, gives), and stored as that text. The game, the time and the
# command's id are one value for all the rows. tests/games/store/test_sql.py checks the rows
# against the ORM's.
_EVENT_ROW = (
    ("seq", "integer", "v.seq"),
    ("type", "text", "v.type"),
    ("version", "smallint", "v.version"),
    ("payload", "json", "v.payload::text"),
    ("visibility", "json", "v.visibility::text"),
    ("prev_hash", "text", "v.prev_hash"),
    ("hash", "text", "v.hash"),
)
_EVENT_KEYS = tuple(name for name, _type, _expression in _EVENT_ROW)


@functools.cache
def _events_insert_sql(vendor: str) -> tuple[str, str, tuple[Any, ...]]:
    """(the WITH that inserts the command, before its VALUES; the insert of the events after
    it; the command's fields) of `insert_command_and_events`, built once per database vendor."""
    command_fields = tuple(f for f in Command._meta.concrete_fields if not f.primary_key)
    named = set(_EVENT_KEYS) | {"game", "recorded_at", "command"}
    fields = {f.name for f in Event._meta.concrete_fields if not f.primary_key}
    if fields != named:  # a column added to Event must be written here too
        raise RuntimeError(f"the event insert writes {sorted(named)}, the model has {sorted(fields)}")
    columns = ["game_id", *_EVENT_KEYS, "recorded_at", "command_id"]
    expressions = ["%s", *(expression for _name, _type, expression in _EVENT_ROW), "%s", "(SELECT id FROM c)"]
    types = ", ".join(f"{name} {type_}" for name, type_, _expression in _EVENT_ROW)
    command_insert = (
        f"WITH c AS (INSERT INTO {table(Command)} "
        f"({', '.join(quote(str(f.column)) for f in command_fields)}) VALUES "
    )
    events_insert = (
        f" RETURNING id) INSERT INTO {table(Event)} ({', '.join(quote(c) for c in columns)}) "
        f"SELECT {', '.join(expressions)} FROM ROWS FROM (json_to_recordset(%s::json) AS ({types})) "
        f"WITH ORDINALITY AS v({', '.join(_EVENT_KEYS)}, ordinality) ORDER BY v.ordinality "
        f"RETURNING {quote('command_id')}"
    )
    return command_insert, events_insert, command_fields


def insert_command_and_events(command_row: Command, rows: list[Any]) -> bool:
    """On PostgreSQL, insert the unsaved `command_row` (a Command) and its event `rows` (unsaved
    Events of one game) in one statement, the events taking the command's id from a
    data-modifying WITH: one round trip and no ORM work on the command path. The events go as
    one JSON document (`_EVENT_ROW`), in their order, all with one `recorded_at` (now): one
    parameter, rather than a dozen a row for the driver to quote one by one in a statement
    built anew for each count of events. Sets the command's id, the rows' link and their
    `recorded_at`, as a save would, and returns True. Elsewhere writes nothing and returns False
    (the caller saves them with the ORM)."""
    if connection.vendor != "postgresql":
        return False
    command_insert, events_insert, command_fields = _events_insert_sql(connection.vendor)
    command_values, params = insert_values(command_row, command_fields)
    recorded = Event._meta.get_field("recorded_at")
    now = timezone.now()
    document = json_document(
        [[r.seq, r.type, r.version, r.payload, r.visibility, r.prev_hash, r.hash] for r in rows], _EVENT_KEYS
    )
    params += [rows[0].game_id, recorded.get_db_prep_save(now, connection), document]
    with connection.cursor() as cursor:
        cursor.execute(command_insert + command_values + events_insert, params)
        saved(command_row, cursor.fetchone()[0])
    for row in rows:
        # Made with `command=command_row` (cached), before it had an id: the link now.
        row.command_id, row.recorded_at = command_row.pk, now
        row._state.adding, row._state.db = False, connection.alias  # their ids are not read back
    return True


def insert_snapshot(snapshot: Snapshot) -> bool | None:
    """On PostgreSQL, insert the unsaved `snapshot` unless its game has one at that seq already
    (one statement: INSERT ... ON CONFLICT DO NOTHING); True and `snapshot` saved when it was
    inserted, False when one was there. None elsewhere (nothing written: the caller uses the
    ORM)."""
    if connection.vendor != "postgresql":
        return None
    fields = [f for f in Snapshot._meta.concrete_fields if not f.primary_key]
    values, params = insert_values(snapshot, fields)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table(Snapshot)} ({', '.join(quote(f.column) for f in fields)}) VALUES {values} "
            f"ON CONFLICT ({quote('game_id')}, {quote('seq')}) DO NOTHING RETURNING {quote('id')}",
            params,
        )
        found = cursor.fetchone()
    if found is None:
        return False
    saved(snapshot, found[0])
    return True


def latest_snapshot(game_id: int, until: int | None) -> tuple[int, str] | None:
    """(seq, state as JSON text) of the game's latest snapshot at or before seq `until` (None:
    any), or None. Written out: every load starts here, and the ORM took longer to build the
    query than the database to answer it (bench: prompt delivery)."""
    statement = f"SELECT seq, state FROM {table(Snapshot)} WHERE game_id = %s"
    params = [game_id]
    if until is not None:
        statement += " AND seq <= %s"
        params.append(until)
    with connection.cursor() as cursor:
        cursor.execute(statement + " ORDER BY seq DESC LIMIT 1", params)
        found = cursor.fetchone()
    return None if found is None else (found[0], found[1])


def event_tuples(game_id: int, *, after: int, until: int | None) -> Iterator[tuple[Any, ...]]:
    """(seq, type, version, payload JSON text, visibility JSON text or None) of the game's events
    after seq `after` (up to `until`), in seq order, read in batches.

    One plain query, decoded by the caller: building a model instance per event (and Django's
    per-value converters) cost more than the fold itself (bench: rebuild of a 50,000-event log).
    """
    statement = (
        f"SELECT seq, type, version, payload, visibility FROM {table(Event)} WHERE game_id = %s AND seq > %s"
    )
    params = [game_id, after]
    if until is not None:
        statement += " AND seq <= %s"
        params.append(until)
    with connection.cursor() as cursor:
        cursor.execute(statement + " ORDER BY seq", params)
        while batch := cursor.fetchmany(5000):
            yield from batch
