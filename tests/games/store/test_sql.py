"""The store's written SQL (`games/store/sql.py`, `games.store.log`'s statements), each run directly
against the database the tests use: SQLite locally, PostgreSQL in CI (run this module with
DATABASE_URL=postgres://... to see both). Each statement must read and write exactly what the ORM
would, so each test compares with the ORM's own answer.

The Django internals the written SQL leans on are checked here too, one test each, so that a
Django upgrade that changes one fails here rather than in a command's path.
"""

from __future__ import annotations

import datetime
import json
from zoneinfo import ZoneInfo

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import rules, store
from games.models import Command, Event, Game, Seat, SeatClock, Snapshot
from games.play.commands import SeatSpec, create_game, submit_command
from games.store import log, sql

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return create_game(seats=[SeatSpec(email=f"p{i}@example.org") for i in range(1, 4)], seed="written-sql")


def _play(game, commands: int) -> None:
    for _ in range(commands):
        state, seq = store.load(game)
        decision = rules.pending(state)[0]
        seat = game.seats.get(colour=decision.seat)
        result = submit_command(
            game=game, seat=seat, command=rules.legal_commands(state, seat.colour)[0], expected_seq=seq
        )
        assert result.accepted, result.message


def test_columns_rebuild_a_row_as_the_orm_reads_it(game):
    seats = sql.Columns(Seat, "s")
    games = sql.Columns(Game, "g", seats.after())
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT {seats.sql()}, {games.sql()} FROM {sql.table(Seat)} s "
            f"JOIN {sql.table(Game)} g ON g.id = s.game_id WHERE s.game_id = %s ORDER BY s.position",
            [game.pk],
        )
        rows = cursor.fetchall()
    built = [(seats.build(row), games.build(row)) for row in rows]
    orm = list(Seat.objects.filter(game=game).order_by("position"))
    assert [(s.pk, s.colour, s.email, s.is_bot, s.user_id, s.token) for s, _g in built] == [
        (s.pk, s.colour, s.email, s.is_bot, s.user_id, s.token) for s in orm
    ]
    fresh = Game.objects.get(pk=game.pk)
    for _seat, built_game in built:
        # Converted as a queryset converts: JSON decoded, dates as datetimes, 0/1 as booleans.
        assert (built_game.options, built_game.created_at, built_game.status) == (
            fresh.options,
            fresh.created_at,
            fresh.status,
        )
        assert not built_game._state.adding and built_game._state.db == connection.alias


def test_columns_build_none_for_a_left_join_that_found_nothing():
    seats = sql.Columns(Seat, "s")
    assert seats.build([None] * len(seats)) is None


def test_insert_values_and_saved_write_what_a_save_writes(game):
    seat = game.seats.first()
    row = Command(
        game=game,
        seat=seat,
        command_id="written",
        body={"type": "pass", "b": 1, "a": 2},
        client_seq=0,
        first_seq=900,
        last_seq=900,
    )
    fields = [f for f in Command._meta.concrete_fields if not f.primary_key]
    placeholders, params = sql.insert_values(row, fields)
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {sql.table(Command)} ({', '.join(sql.quote(f.column) for f in fields)}) "
            f"VALUES {placeholders}",
            params,
        )
        cursor.execute(f"SELECT id FROM {sql.table(Command)} WHERE command_id = %s", ["written"])
        sql.saved(row, cursor.fetchone()[0])
    stored = Command.objects.get(pk=row.pk)
    assert list(stored.body) == ["type", "b", "a"]  # key order kept (OrderedJSONField)
    assert stored.accepted_at is not None and row.accepted_at == stored.accepted_at  # auto_now_add set
    assert not row._state.adding


def test_update_saves_the_fields_named(game):
    seat = game.seats.first()
    seat.email, seat.is_bot = "someone@example.org", True
    sql.update(seat, ["email"])
    seat.refresh_from_db()
    assert (seat.email, seat.is_bot) == ("someone@example.org", False)


def test_the_lock_reads_the_seats_and_the_head_in_one_query(game, django_assert_num_queries):
    _play(game, 3)
    with transaction.atomic(), django_assert_num_queries(1):
        locked, seq, digest = store.lock(game)
        seats = list(locked.seats.all())  # from the lock's read: no query
    last = Event.objects.filter(game=game).order_by("-seq").first()
    assert (seq, digest) == (last.seq, last.hash)
    assert [s.pk for s in seats] == list(
        Seat.objects.filter(game=game).order_by("position").values_list("pk", flat=True)
    )


def test_the_lock_of_a_game_without_seats_reads_its_head():
    empty = Game.objects.create(seed="s", seed_commitment="c" * 64, player_count=2)
    with transaction.atomic():
        assert store.lock(empty)[1:] == (0, "c" * 64)


def test_the_command_and_its_events_are_inserted_as_the_orm_would(game):
    _play(game, 2)
    command = Command.objects.order_by("-pk").first()
    events = list(Event.objects.filter(command=command).order_by("seq"))
    assert events and all(e.command_id == command.pk for e in events)
    assert [e.seq for e in events] == list(range(command.first_seq, command.last_seq + 1))
    assert log.load(game)[1] == Event.objects.filter(game=game).count()


def _event_columns(where: str, params: list) -> list[tuple]:
    """The stored columns of events, as text where they are text (the JSON as written)."""
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT seq, type, version, payload, visibility, prev_hash, hash, game_id "
            f"FROM {sql.table(Event)} WHERE {where} ORDER BY seq",
            params,
        )
        return cursor.fetchall()


def test_the_events_of_a_command_hold_what_the_orm_writes(game):
    """The command's events go as one JSON document (on PostgreSQL): each column, the payload's
    text included (key order, spaces, escapes, non-ASCII), is what a save of the same rows
    writes, and the rows are left as a save leaves them."""
    seat = game.seats.first()
    seq, _hash = store.head(game)
    events = [
        rules.Event("Noted", {"z": 'é "q"  \\ \n\t', "a": [1, 2.5, None, True], "m": {"b": {}, "a": []}}),
        rules.Event("Dealt", {"cards": ["bard", "druid"], "n": -3}, ("green",), 2),
        rules.Event("Told", {}, ()),
        rules.Event("Bare", {"x": 10**20}),
    ]
    record = store.CommandRecord(seat=seat, body={"type": "pass"}, client_seq=seq)
    with transaction.atomic():
        rows = log.append(game, events, expected_seq=seq, command_id="one-document", command=record)
    command = Command.objects.get(game=game, command_id="one-document")
    written = _event_columns("command_id = %s", [command.pk])
    # The same rows saved by the ORM, in a game of their own, hold the same columns.
    other = create_game(seats=[SeatSpec(email="q1@example.org"), SeatSpec(email="q2@example.org")])
    twins = [
        Event(
            game=other,
            **{f: getattr(row, f) for f in ("seq", "type", "version", "payload", "visibility")},
            prev_hash=row.prev_hash,
            hash=row.hash,
        )
        for row in rows
    ]
    for twin in twins:
        twin.seq += 1000
    Event.objects.bulk_create(twins)
    by_orm = _event_columns("game_id = %s AND seq > 1000", [other.pk])
    assert [w[1:7] for w in written] == [o[1:7] for o in by_orm]
    assert [w[0] + 1000 for w in written] == [o[0] for o in by_orm]
    assert {w[7] for w in written} == {game.pk}
    assert json.loads(written[0][3]) == events[0].payload and written[2][4] == "[]" and written[0][4] is None
    stored = list(Event.objects.filter(command=command).order_by("seq"))
    assert [(e.seq, e.payload, e.visibility) for e in stored] == [
        (r.seq, r.payload, r.visibility) for r in rows
    ]
    assert [e.recorded_at for e in stored] == [r.recorded_at for r in rows]
    assert all(r.command == command and not r._state.adding for r in rows)
    assert sorted(e.pk for e in stored) == [e.pk for e in stored]  # inserted in their order


def test_the_latest_snapshot_and_the_events_after_it_are_read(game, settings):
    _play(game, 4)
    state, seq = store.load(game)
    store.save_snapshot(game, state)
    _play(game, 2)
    assert log._snapshot_state(game, None)[1] == seq
    assert log._snapshot_state(game, seq - 1)[1] == 0
    tuples = list(log._event_tuples(game, after=seq, until=None))
    rows = list(Event.objects.filter(game=game, seq__gt=seq).order_by("seq"))
    assert [(t[0], t[1], t[2], json.loads(t[3])) for t in tuples] == [
        (r.seq, r.type, r.version, r.payload) for r in rows
    ]
    assert Snapshot.objects.filter(game=game).count() == 1


def test_largest_id_is_the_databases_64_bit_limit():
    assert sql.largest_id() == 2**63 - 1


def test_the_lock_clauses_lock_one_table_of_a_join_where_the_database_can():
    postgresql = connection.vendor == "postgresql"
    assert sql.lock_clause("c") == (" FOR UPDATE OF c" if postgresql else "")
    assert sql.row_lock_clause("o") == (" FOR UPDATE OF o" if postgresql else "")


# -- the Django internals the written SQL leans on ---------------------------------------------------


def test_django_still_converts_a_column_as_the_written_reads_expect():
    """`Columns` converts values with `connection.ops.get_db_converters` and the field's own
    converters, over `field.get_col(alias)`."""
    field = Game._meta.get_field("created_at")
    expression = field.get_col("g")
    converters = connection.ops.get_db_converters(expression) + field.get_db_converters(connection)
    assert isinstance(converters, list)
    assert Game.from_db(connection.alias, ["id"], [1]).pk == 1


def test_django_still_serves_a_prefetched_queryset_from_its_cache(game):
    """`store.lock` leaves the seats as prefetch_related would: `_prefetched_objects_cache`, a
    queryset whose `_result_cache` is filled and `_prefetch_done` set."""
    fresh = Game.objects.prefetch_related("seats").get(pk=game.pk)
    cached = fresh._prefetched_objects_cache["seats"]
    assert cached._result_cache is not None and cached._prefetch_done is True
    with transaction.atomic():
        locked, _seq, _hash = store.lock(game)
        assert locked._prefetched_objects_cache["seats"]._prefetch_done is True


def test_django_still_answers_the_backend_questions_asked():
    assert isinstance(connection.features.has_select_for_update_of, bool)
    assert isinstance(connection.features.has_select_for_update, bool)
    assert connection.ops.integer_field_range("BigAutoField")[1] == 2**63 - 1
    assert sql.quote("x") in ('"x"', "`x`")


@pytest.mark.postgres  # server-side binding is PostgreSQL's
def test_the_command_path_is_bound_by_the_server_and_prepared_when_run_often(game):
    """Django's documented OPTIONS (server_side_binding, prepare_threshold) bind every statement
    on the server: the game's lock, run `prepare_threshold` times on one connection by
    commands, is then prepared and no longer parsed again; the times read are in Django's
    time zone, as its client-bound cursors read them."""
    threshold = connection.connection.prepare_threshold
    assert connection.features.uses_server_side_binding
    assert threshold is not None
    _play(game, threshold + 1)
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
        cursor.execute("SELECT statement_timestamp()")
        now = cursor.fetchone()[0]
    assert any("FOR UPDATE OF g" in statement for statement in prepared), prepared
    assert now.utcoffset() == Game.objects.get(pk=game.pk).created_at.utcoffset()


def test_django_still_serves_a_reverse_one_to_one_from_its_cache(game):
    """The delivery's read leaves a seat's clock as select_related would (`cache_reverse_one_to_one`)."""
    seat = Seat.objects.get(pk=game.seats.first().pk)
    clock = SeatClock.objects.get(seat=seat)
    sql.cache_reverse_one_to_one(seat, "clock", clock)
    with CaptureQueriesContext(connection) as queries:
        assert seat.clock is clock
    assert not queries.captured_queries
    sql.cache_reverse_one_to_one(seat, "clock", None)
    with pytest.raises(SeatClock.DoesNotExist):
        seat.clock  # noqa: B018 (reading it is the test)


def written_fields(model) -> list:
    """The columns a game's insert writes from the row's own values: not the primary key, nor the
    times set at the insert (auto_now_add, auto_now: each call reads the clock)."""
    return [
        f
        for f in model._meta.concrete_fields
        if not f.primary_key and not getattr(f, "auto_now_add", False) and not getattr(f, "auto_now", False)
    ]


@pytest.mark.django_db
def test_insert_values_sends_what_the_fields_own_methods_send(make_game):
    """The shortcut for plain columns (`sql._AS_IS`) gives, for every row a game writes (its
    commands, events, outbox rows, seats, clocks), the parameters Django's `pre_save` and
    `get_db_prep_save` give (an empty one written as NULL); and a value of another type still
    goes through them."""
    from notifications.models import Outbox
    from tests.conftest import drive

    drive(make_game(), 10)
    for model in (Command, Event, Game, Seat, SeatClock, Outbox):
        fields = written_fields(model)
        rows = list(model.objects.all()[:20])
        assert rows, model
        for row in rows:
            expected = [f.get_db_prep_save(f.pre_save(row, True), connection) for f in fields]
            placeholders, params = sql.insert_values(row, fields)
            sent = iter(params)  # a NULL written in the statement is a None sent
            values = [None if p == "NULL" else next(sent) for p in placeholders[1:-1].split(", ")]
            assert [repr(v) for v in values] == [repr(e) for e in expected], model
    seat = Seat.objects.first()
    seat.position = "2"  # not an int: converted by the field, as before
    seat_fields = [Seat._meta.get_field("position")]
    assert sql.insert_values(seat, seat_fields)[1] == [2]


@pytest.mark.postgres
@pytest.mark.django_db
def test_json_values_read_back_as_what_the_fields_own_methods_send(make_game):
    """`sql.json_values` in one JSON document, read by `sql.recordset` (PostgreSQL: the clocks'
    update and the outbox insert of a command), gives for every column of every row a game
    writes what the fields' own `pre_save` and `get_db_prep_save` send, read by the database
    as that column's type: times to the microsecond, JSON fields, empty columns as NULL."""
    from notifications.models import Outbox
    from tests.conftest import drive

    drive(make_game(), 10)
    for model in (Command, Event, Game, Seat, SeatClock, Outbox):
        fields = written_fields(model)
        columns = [f.column for f in fields]
        rows = list(model.objects.all()[:20])
        assert rows, model
        if model is SeatClock:  # a time to the microsecond, in another zone; a JSON list
            odd = SeatClock.objects.get(pk=rows[0].pk)
            odd.opened_at = datetime.datetime(
                2026, 3, 29, 1, 59, 59, 999_999, tzinfo=ZoneInfo("Europe/Paris")
            )
            odd.answer_seconds, odd.kind = [1, 2.5, 10**15], 'é "x"'
            rows.append(odd)
        if model is Outbox:  # JSON fields of every shape, a text with escapes
            odd = Outbox.objects.get(pk=rows[0].pk)
            odd.headers, odd.acceptance = {"Z": "é\n", "A": [None, True, {"k": 1.5}]}, "a string"
            odd.body_text = "line\n\\ 'quoted' \"and\" \t tab"
            rows.append(odd)
        document = sql.json_document([sql.json_values(row, fields, adding=True) for row in rows], columns)
        with connection.cursor() as cursor:
            cursor.execute(
                f"SELECT * FROM {sql.recordset(fields, 'v', numbered=True)} ORDER BY ordinality", [document]
            )
            read = [found[:-1] for found in cursor.fetchall()]
            expected = []
            for row in rows:
                casts = ", ".join(f"%s::{f.db_type(connection)}" for f in fields)
                cursor.execute(
                    f"SELECT {casts}", [f.get_db_prep_save(f.pre_save(row, True), connection) for f in fields]
                )
                expected.append(cursor.fetchone())
        assert read == expected, model
        assert [r[0] for r in read] == [r[0] for r in expected]  # in the rows' order


def _same_instance(made, expected) -> None:
    """`made` is what Django's constructor made as `expected`: columns, related caches, state."""
    assert type(made) is type(expected)
    assert {k: v for k, v in made.__dict__.items() if k != "_state"} == {
        k: v for k, v in expected.__dict__.items() if k != "_state"
    }
    assert (made._state.adding, made._state.db) == (expected._state.adding, expected._state.db)
    assert made._state.fields_cache == expected._state.fields_cache


def test_columns_build_makes_the_instance_from_db_makes(game):
    """`Columns.build` gives, for rows read as the command path reads them (seats, clocks,
    players), the instance `Model.from_db` gives."""
    from players.models import Player

    for model in (Seat, SeatClock, Player, Game):
        columns = sql.Columns(model, "t")
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT {columns.sql()} FROM {sql.table(model)} t ORDER BY t.id")
            found = cursor.fetchall()
        assert found, model
        for row in found:
            built = columns.build(row)
            _same_instance(built, model.objects.get(pk=built.pk))


def test_a_snapshot_is_saved_once_a_seq_in_one_statement(game, django_assert_num_queries):
    """`store.save_snapshot` writes the state at its seq as the ORM would (`normalise`d JSON
    text); saving again at that seq keeps the first and returns it. On PostgreSQL the write is
    one statement (`sql.insert_snapshot`)."""
    from games.record.hashchain import normalise

    _play(game, 2)
    state, seq = store.load(game)
    if connection.vendor == "postgresql":
        with django_assert_num_queries(1):
            first = store.save_snapshot(game, state)
    else:
        first = store.save_snapshot(game, state)
    assert first.pk and not first._state.adding
    stored = Snapshot.objects.get(game=game, seq=seq)
    assert stored.pk == first.pk and stored.state == normalise(state.to_json())
    changed = state.clone()
    changed.round += 7  # another state at the same seq: the first snapshot stays
    again = store.save_snapshot(game, changed)
    assert again.pk == first.pk and again.state == stored.state
    assert Snapshot.objects.filter(game=game, seq=seq).count() == 1


@pytest.mark.django_db(transaction=True)  # real transactions: the lock ends with each
def test_appends_in_commit_order_holds_the_logs_lock_until_the_transaction_ends(django_assert_num_queries):
    """The gathering's log and the games' ends log append under one advisory lock each
    (docs/architecture.md, "Read models"): on PostgreSQL another transaction cannot take it while
    an appending one is open, at every append, and can once it committed; SQLite lets one
    transaction write at a time, and runs nothing."""
    key = 0x1A15_00FF  # a key of this test's own
    if connection.vendor != "postgresql":
        with django_assert_num_queries(0):
            sql.appends_in_commit_order(key)
        return
    import psycopg

    params = connection.get_connection_params()
    keys = {"host", "port", "user", "password", "dbname"}
    with psycopg.connect(**{k: v for k, v in params.items() if k in keys and v}, autocommit=True) as other:

        def free() -> bool:
            return other.execute("SELECT pg_try_advisory_xact_lock(%s)", [key]).fetchone() == (True,)

        for _append in range(2):  # every append takes it, not only a process's first
            with transaction.atomic():
                sql.appends_in_commit_order(key)
                assert not free()
            assert free()
