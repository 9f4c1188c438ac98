"""The mail's SQL written out by hand, on its hot paths: the outbox insert that carries another
statement along (the clocks' update of a command: one round trip on PostgreSQL), and the
delivery's one read of a row with its game, seat, clock and player, the relay's claim of due
rows, and the column the clocks' locked read carries for the mail (`news_waiting_column`). Built with the store's
helpers (`games.store.sql`), which convert values with the ORM's own fields; branching on the
database vendor happens here only. Tested directly in tests/notifications/test_sql.py and
tests/notifications/test_outbox.py.
"""

from __future__ import annotations

import functools

from django.db import connection
from django.utils import timezone

from games.play.models import SeatClock, StandingOrder, TableChannel
from games.play.sql import republish_delay
from games.store import sql as store_sql
from games.store.models import Game, Seat
from notifications.models import NewsItem, Outbox
from players.models import Player


def insert_outbox(rows: list[Outbox], *, along: tuple[str, list] | None = None) -> list[Outbox]:
    """Insert the unsaved outbox `rows` in one statement and return them saved, in order. along:
    `(sql, params)` of one more data-modifying statement (an UPDATE): on PostgreSQL it runs in
    the same statement, as a WITH before the insert; elsewhere it runs first, on its own."""
    if along is not None and connection.vendor == "postgresql":
        _insert_with(rows, along)
        return rows
    if along is not None:
        with connection.cursor() as cursor:
            cursor.execute(*along)
    return Outbox.objects.bulk_create(rows)


def _insert_with(rows: list[Outbox], along: tuple[str, list]) -> None:
    """Insert `rows` in one statement that first runs `along` (a data-modifying WITH, which
    PostgreSQL runs to completion whether or not the insert reads it); sets their ids, as
    bulk_create would. The SQL is written out: the ORM's bulk_create took longer to build it
    than the database to run it (bench: the command path). The rows go as one JSON parameter
    (`games.store.sql.recordset`), in their order: a prompt row's two dozen columns are not
    each prepared by its field and quoted by the driver in a statement parsed anew."""
    along_sql, params = along
    insert, fields = _outbox_insert_sql(connection.vendor)
    document = store_sql.json_document(
        [store_sql.json_values(row, fields, adding=True) for row in rows], [f.column for f in fields]
    )
    with connection.cursor() as cursor:
        cursor.execute(f"WITH along AS ({along_sql}) {insert}", [*params, document])
        ids = [found for (found,) in cursor.fetchall()]
    for row, row_id in zip(rows, ids):  # in the order of the rows' numbers (ORDER BY)
        store_sql.saved(row, row_id)


@functools.cache
def _outbox_insert_sql(vendor: str) -> tuple[str, tuple]:
    """(the INSERT of `_insert_with`, after its WITH; the Outbox fields it writes), built once."""
    q = store_sql.quote
    fields = tuple(f for f in Outbox._meta.concrete_fields if not f.primary_key)
    names = ", ".join(q(f.column) for f in fields)
    values = ", ".join(f"v.{q(f.column)}" for f in fields)
    return (
        f"INSERT INTO {store_sql.table(Outbox)} ({names}) SELECT {values} "
        f"FROM {store_sql.recordset(fields, 'v', numbered=True)} ORDER BY v.ordinality RETURNING {q('id')}"
    ), fields


# The row, its game, its seat, the seat's clock and the Player of its address, in that order in
# the delivery's one read (`locked_for_delivery`).
_ROW = store_sql.Columns(Outbox, "o")
_GAME = store_sql.Columns(Game, "g", _ROW.after())
_SEAT = store_sql.Columns(Seat, "s", _GAME.after())
_CLOCK = store_sql.Columns(SeatClock, "c", _SEAT.after())
_PLAYER = store_sql.Columns(Player, "p", _CLOCK.after())


def locked_for_delivery(outbox_id: int) -> tuple[Outbox, Player | None]:
    """`(row, player)`: the row `outbox_id`, locked (SELECT ... FOR UPDATE of the row alone), with
    its game and seat and the seat's clock as `select_related` would leave them (`row.seat.clock`
    raises SeatClock.DoesNotExist when the seat has none), and the Player of the row's address
    (None when that address has none yet). The row also says whether its seat holds standing
    orders (`row.seat_has_orders`) and replies' acceptances held for its next email
    (`row.acceptances_held`, for any address of the seat): a prompt's delivery reads them only
    then. One query, written out: the ORM took longer to build it than the database to answer
    it (bench: prompt delivery). Raises Outbox.DoesNotExist."""
    with connection.cursor() as cursor:
        cursor.execute(_delivery_read_sql(connection.vendor), [outbox_id])
        found = cursor.fetchone()
    if found is None:
        raise Outbox.DoesNotExist(f"no outbox row {outbox_id}")
    row, game, seat = _ROW.build(found), _GAME.build(found), _SEAT.build(found)
    if seat is not None:
        clock = _CLOCK.build(found)
        store_sql.cache_reverse_one_to_one(seat, "clock", clock)
        if clock is not None:
            clock.seat = seat
    row.game, row.seat = game, seat
    row.seat_has_orders, row.acceptances_held = (bool(flag) for flag in found[_PLAYER.after() :])
    player = _PLAYER.build(found)
    if player is not None and player.email != row.to_email.strip().lower():
        player = None  # an address TRIM does not clean as Python does: looked up as usual
    return row, player


@functools.cache
def _delivery_read_sql(vendor: str) -> str:
    """The SQL of `locked_for_delivery` on the database `vendor` (`connection.vendor`), built
    once."""
    quote = store_sql.quote
    tables = {
        name: quote(model._meta.db_table)
        for name, model in (
            ("o", Outbox),
            ("g", Game),
            ("s", Seat),
            ("c", SeatClock),
            ("p", Player),
            ("so", StandingOrder),
        )
    }
    lock = store_sql.row_lock_clause("o")
    # Whether the seat holds standing orders, and acceptances held for its next email
    # (`notifications.acceptances.fold_into` reads them by the seat and the address).
    orders = f"EXISTS (SELECT 1 FROM {tables['so']} so WHERE so.seat_id = o.seat_id)"
    held = (
        f"EXISTS (SELECT 1 FROM {tables['o']} a WHERE a.seat_id = o.seat_id "
        f"AND a.kind = '{Outbox.Kind.ANSWER.value}' AND a.status = '{Outbox.Status.HELD.value}')"
    )
    return (
        f"SELECT {_ROW.sql()}, {_GAME.sql()}, {_SEAT.sql()}, {_CLOCK.sql()}, {_PLAYER.sql()}, {orders}, {held} "
        f"FROM {tables['o']} o LEFT JOIN {tables['g']} g ON g.id = o.game_id "
        f"LEFT JOIN {tables['s']} s ON s.id = o.seat_id LEFT JOIN {tables['c']} c ON c.seat_id = s.id "
        f"LEFT JOIN {tables['p']} p ON p.email = LOWER(TRIM(o.to_email)) WHERE o.id = %s{lock}"
    )


# -- the relay's claim of due rows ----------------------------------------------------------------


def claim_due_outbox(limit: int, *, after: float, most: float) -> list[tuple[int, int | None]]:
    """`(id, game_id)` of at most `limit` PENDING rows never attempted whose `queued_at` has
    passed, in (`queued_at`, id) order (a row whose send failed is retried by its task and the
    sweep, with their backoff, `notifications.outbox.retry_delay`), each queued again `after` x 2^(times published) seconds later (at
    most `most`) and counted in `publishes`: the relay publishes them, and publishes again a row
    whose task was lost. On PostgreSQL one statement that skips the rows another transaction
    has locked (a delivery under way). Call inside the transaction that publishes them."""
    if connection.vendor == "postgresql":
        outbox = store_sql.table(Outbox)
        with connection.cursor() as cursor:
            cursor.execute(
                f"WITH due AS (SELECT id, queued_at FROM {outbox} WHERE status = %s AND attempts = 0 "
                f"AND queued_at <= statement_timestamp() "
                f"ORDER BY queued_at, id LIMIT %s FOR UPDATE SKIP LOCKED) "
                f"UPDATE {outbox} o SET queued_at = clock_timestamp() + make_interval(secs => "
                f"LEAST(%s * power(2, LEAST(o.publishes, 16)), %s)), "
                f"publishes = LEAST(o.publishes + 1, 32767) FROM due WHERE o.id = due.id "
                f"RETURNING o.id, o.game_id, due.queued_at",
                [Outbox.Status.PENDING, limit, after, most],
            )
            found = sorted(cursor.fetchall(), key=lambda r: (r[2], r[0]))
        return [(row_id, game_id) for row_id, game_id, _queued in found]
    now = timezone.now()
    due = list(
        Outbox.objects.filter(status=Outbox.Status.PENDING, attempts=0, queued_at__lte=now)
        .order_by("queued_at", "id")
        .values_list("id", "game_id", "publishes")[:limit]
    )
    for row_id, _game_id, publishes in due:
        Outbox.objects.filter(pk=row_id).update(
            queued_at=now + republish_delay(publishes, after, most), publishes=min(publishes + 1, 32767)
        )
    return [(row_id, game_id) for row_id, game_id, _publishes in due]


def news_waiting_column(quote) -> str:
    """SQL of the clocks' column `news_waiting` (`games.play.sql.register_clock_column`, over the
    clock row `c`): whether the seat has news not yet mailed. `quote` is the column quoter the
    clocks' read hands every column (unused: the names here need none)."""
    return f"EXISTS (SELECT 1 FROM {store_sql.table(NewsItem)} n WHERE n.seat_id = c.seat_id AND n.mailed_at IS NULL)"


def table_channel_column(quote) -> str:
    """SQL of the clocks' column `table_channel` (as `news_waiting_column`): whether the clock's
    game has a table channel (`notifications.channels.table_news`), read with the clocks so that
    a command pays no query more for it."""
    return f"EXISTS (SELECT 1 FROM {store_sql.table(TableChannel)} t WHERE t.game_id = c.game_id)"
