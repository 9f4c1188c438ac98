"""The play room's SQL written out by hand: the seats' clocks read with their lock on every command,
and their update in one statement.

Both run on every command (tests/games/play/test_query_count.py): the ORM took longer to build them
than the database to run them (bench: the command path). The model rows are read and written
through `games.store.sql`, which converts values with the ORM's own fields, so what is read and
written here equals what the ORM would read and write. Vendor branching stays in this module.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import timedelta

from django.db import connection
from django.utils import timezone

from games.play.models import SeatClock
from games.store import sql
from games.store.models import Game, Seat
from players.models import Player

# The clock fields the command path may change (saved by `update_clocks` / `clocks_update`).
CLOCK_FIELDS = (
    "seq",
    "kind",
    "opened_at",
    "deadline",
    "remind_at",
    "reminded",
    "last_prompt_seq",
    "missed_in_row",
    "stand_in",
    "answer_seconds",
    "last_web_at",
    "pass_at",
)

# Columns other rooms read with the clocks, in the same locked query: (attribute, expression),
# where expression(quote) is the SQL of one column over the clock row `c` (a scalar subquery),
# set on each clock as `clock.<attribute>` (False for a clock made here). Registered in their
# AppConfig.ready() (the mail: whether a seat has news not yet mailed).
_COLUMNS: list[tuple[str, Callable[[Callable[[str], str]], str]]] = []

_CLOCKS = sql.Columns(SeatClock, "c")


def register_clock_column(attribute: str, expression: Callable[[Callable[[str], str]], str]) -> None:
    """Read `expression(quote)` (SQL over the clock row `c`, e.g. an EXISTS) with the clocks, as
    `clock.<attribute>`; registering an attribute again replaces its expression. Call before
    the first command (in AppConfig.ready())."""
    _COLUMNS[:] = [(a, e) for a, e in _COLUMNS if a != attribute] + [(attribute, expression)]
    _locked_clocks_sql.cache_clear()


@functools.cache
def _locked_clocks_sql(vendor: str, seats: int) -> str:
    """The SQL of `locked_clocks` for `seats` seats on the database `vendor`, built once."""
    quote = sql.quote
    clock_table, seat_table, player_table = (sql.table(m) for m in (SeatClock, Seat, Player))
    extra = "".join(f"{expression(quote)}, " for _attribute, expression in _COLUMNS)
    players = sql.Columns(Player, "p", _CLOCKS.after() + len(_COLUMNS))
    return (
        f"SELECT {_CLOCKS.sql()}, {extra}{players.sql()} "
        f"FROM {clock_table} c INNER JOIN {seat_table} s ON s.id = c.seat_id "
        f"LEFT JOIN {player_table} p ON p.email = LOWER(TRIM(s.email)) "
        # The seats' game too: the planner then reads the seats by their game's index, not all.
        f"WHERE c.seat_id IN ({', '.join(['%s'] * seats)}) AND s.game_id = %s{sql.lock_clause('c')}"
    )


def locked_clocks(seats) -> list[SeatClock]:
    """The existing clocks of `seats` (Seat rows of one game, at least one), locked (SELECT ...
    FOR UPDATE OF the clocks), in one query; each with `.player`, the `Player` of its seat's
    address as stored (None when there is none, or when the database's LOWER(TRIM()) found
    another address than Python's would: the caller looks it up), and the registered columns
    (`register_clock_column`)."""
    with connection.cursor() as cursor:
        cursor.execute(
            _locked_clocks_sql(connection.vendor, len(seats)),
            [*(seat.pk for seat in seats), seats[0].game_id],
        )
        found = cursor.fetchall()
    players = _players_after(len(_COLUMNS))
    db, after = sql.current(), _CLOCKS.after()
    clocks = []
    for row in found:
        clock = _CLOCKS.build(row, db)
        for offset, (attribute, _expression) in enumerate(_COLUMNS):
            setattr(clock, attribute, bool(row[after + offset]))
        clock.player = players.build(row, db)
        clocks.append(clock)
    return clocks


@functools.cache
def _players_after(extra: int) -> sql.Columns:
    """The players' columns of `locked_clocks`, after the clocks' and `extra` more (kept: their
    converters are looked up once)."""
    return sql.Columns(Player, "p", _CLOCKS.after() + extra)


def made_clocks(clocks: list[SeatClock]) -> list[SeatClock]:
    """Insert the new `clocks` (unsaved, one statement); each with the registered columns False."""
    made = SeatClock.objects.bulk_create(clocks)
    for clock in made:
        for attribute, _expression in _COLUMNS:
            setattr(clock, attribute, False)
    return made


def clocks_update(changed: list[SeatClock]) -> tuple[str, list] | None:
    """`(sql, params)` of one statement that saves the `changed` clocks' CLOCK_FIELDS, for a
    caller that runs it with a statement of its own (`notifications.outbox.enqueue_all`'s
    `along`); None where that is not one statement (anything but PostgreSQL: `update_clocks`)."""
    if connection.vendor != "postgresql":
        return None
    return _clocks_update_postgresql(changed)


def update_clocks(changed: list[SeatClock]) -> None:
    """Save the `changed` clocks' CLOCK_FIELDS in one statement (PostgreSQL: UPDATE ... FROM
    VALUES; elsewhere the ORM's bulk_update)."""
    if connection.vendor != "postgresql":
        SeatClock.objects.bulk_update(changed, CLOCK_FIELDS)
        return
    with connection.cursor() as cursor:
        cursor.execute(*_clocks_update_postgresql(changed))


def _clocks_update_postgresql(changed: list[SeatClock]) -> tuple[str, list]:
    """UPDATE ... FROM the rows of one JSON parameter (`games.store.sql.recordset`), written out
    because the ORM's bulk_update built its CASE expressions slower than the database ran them;
    one parameter rather than a dozen a clock, each prepared by its field and quoted by the
    driver in a statement parsed anew (bench: the command path)."""
    statement, fields = _clocks_update_sql(connection.vendor)
    columns = ["id", *(f.column for f in fields)]
    rows = [[clock.pk, *sql.json_values(clock, fields, adding=False)] for clock in changed]
    return statement, [sql.json_document(rows, columns), [clock.pk for clock in changed]]


@functools.cache
def _clocks_update_sql(vendor: str) -> tuple[str, tuple]:
    """(the SQL of `_clocks_update_postgresql`, the CLOCK_FIELDS' fields), built once."""
    fields = tuple(SeatClock._meta.get_field(name) for name in CLOCK_FIELDS)
    sets = ", ".join(f"{sql.quote(f.column)} = v.{sql.quote(f.column)}" for f in fields)
    rows = sql.recordset([SeatClock._meta.pk, *fields], "v")
    # The ids again, as an array: the planner cannot count the rows of a JSON document (it
    # guesses 100) and would scan the whole table for them; by the array it looks them up.
    return (
        f"UPDATE {sql.table(SeatClock)} AS c SET {sets} FROM {rows} WHERE c.id = v.id AND c.id = ANY(%s)",
        fields,
    )


# -- the relay's claim of due bot moves -----------------------------------------------------------


# The first key of the advisory lock a bots' turn holds (`bots_turn`), the game's id the second:
# a constant of this project's own, so that no other advisory lock shares the pair.
BOTS_TURN_LOCK = 0x1415


@contextmanager
def bots_turn(game_id: int) -> Iterator[bool]:
    """Within this block, hold the game's "bots are playing" lock if no other run holds it;
    yields whether this run holds it. On PostgreSQL a session advisory lock
    (`pg_try_advisory_lock(BOTS_TURN_LOCK, game_id)`): the relay does not publish the game's
    bots' task again while it is held (`claim_due_bot_games`), however long the bots think,
    and a worker that dies drops it with its connection, so its game is published again at
    once. Elsewhere (SQLite: one process) it always yields True. The lock is released at the
    end; if that fails, the connection is closed, which releases it."""
    if connection.vendor != "postgresql":
        yield True
        return
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_try_advisory_lock(%s, %s)", [BOTS_TURN_LOCK, game_id])
        held = bool(cursor.fetchone()[0])
    try:
        yield held
    finally:
        if held:
            try:
                with connection.cursor() as cursor:
                    cursor.execute("SELECT pg_advisory_unlock(%s, %s)", [BOTS_TURN_LOCK, game_id])
            except Exception:
                connection.close()  # a session lock goes with its session
                raise


def claim_due_bot_games(limit: int, *, after: float, most: float) -> list[int]:
    """Ids of at most `limit` games whose bot moves are due (`Game.bots_due_at` passed), oldest
    first, each put due again `after` x 2^(times published) seconds later (at most `most`)
    and counted in `bots_publishes`: the relay publishes their task, and publishes it again
    if the task was lost. On PostgreSQL one statement that skips the games another
    transaction has locked (a command playing there now: its commit wakes the relay again)
    and those whose bots' task is running (`bots_turn`: published once, however long the bots
    think; due when it ends). Call inside the transaction that publishes them."""
    game = sql.table(Game)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute(
                f"WITH due AS (SELECT id, bots_due_at FROM {game} WHERE bots_due_at <= statement_timestamp() "
                f"AND NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' "
                f"AND l.classid = {BOTS_TURN_LOCK} AND l.objid::bigint = {game}.id AND l.objsubid = 2) "
                f"ORDER BY bots_due_at, id LIMIT %s FOR UPDATE SKIP LOCKED) "
                f"UPDATE {game} g SET bots_due_at = clock_timestamp() + make_interval(secs => "
                f"LEAST(%s * power(2, LEAST(g.bots_publishes, 16)), %s)), "
                f"bots_publishes = LEAST(g.bots_publishes + 1, 32767) FROM due WHERE g.id = due.id "
                f"RETURNING g.id, due.bots_due_at",
                [limit, after, most],
            )
            return [game_id for game_id, _due in sorted(cursor.fetchall(), key=lambda r: (r[1], r[0]))]
    now = timezone.now()
    due = list(
        Game.objects.filter(bots_due_at__lte=now)
        .order_by("bots_due_at", "id")
        .values_list("id", "bots_publishes")[:limit]
    )
    for game_id, publishes in due:
        Game.objects.filter(pk=game_id).update(
            bots_due_at=now + republish_delay(publishes, after, most),
            bots_publishes=min(publishes + 1, 32767),
        )
    return [game_id for game_id, _publishes in due]


def republish_delay(publishes: int, after: float, most: float):
    """The wait before publishing again something published `publishes` times."""
    return timedelta(seconds=min(after * 2 ** min(publishes, 16), most))
