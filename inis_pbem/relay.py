"""The outbox relay: publishes, as Celery tasks, what committed transactions left in the database.

A command never talks to the broker (`games.play.relay`): its transaction writes outbox rows
(`notifications.Outbox.queued_at`) and, when a bot seat must decide, the game's
`bots_due_at`. This process publishes them once committed:

- the rows due, in (`queued_at`, id) order, one `deliver_many` task per game (the answer to a
  reply before the prompts it released), and one `play_bots` task per game with bot moves due;
- with each game's rows, `web.tasks.render_live_parts` of that game when a player opened its
  page lately (`web.page_readers.read_games`): its players' first view after the move is
  rendered ahead by a worker (web/prerender.py), and the command pays nothing for it (a move that
  wrote no email, or of a game nobody reads on the web, is rendered by the page itself, as
  without a worker);
- in batches of RELAY_BATCH, each claimed with `SELECT ... FOR UPDATE SKIP LOCKED` in the
  transaction that publishes it, so that two relays never publish the same batch, and a
  broker that is down rolls the claim back: the batch is published when the broker is back;
  a pass's rows and bot moves are claimed in one transaction and published through one
  producer of Celery's pool (one broker connection, kept between passes);
- each claim puts the row (or game) due again OUTBOX_REPUBLISH_AFTER seconds later, doubled at
  each publication up to OUTBOX_REPUBLISH_MAX, so a task lost with a killed worker is
  published again; the tasks are idempotent (a row is sent once, a bot move applied once);
- a reply stored by the inbound webhook (or the pipe) but still unprocessed OUTBOX_REPUBLISH_AFTER
  seconds later: its task was lost (Redis down at the commit, the web process killed between
  its commit and the publication, the worker killed), so `process_inbound` is published for it,
  again after the same doubling delays (`InboundRetries`, kept by this process: a second relay
  or a restart may publish it once more, and processing a reply twice plays it once). Without
  this, such a reply would wait for the sweep's OUTBOX_RESEND_AFTER (5 minutes). The relay
  looks for them at most every RELAY_POLL seconds, not at every commit's pass.

It wakes on PostgreSQL's NOTIFY (the triggers on the outbox, the logs and the game tables,
channel `games.store.models.RELAY_CHANNEL`), on a connection of its own (RELAY_DATABASE_URL:
behind PgBouncer in transaction mode, PostgreSQL's own address), and looks anyway every
RELAY_POLL seconds (SQLite, a lost connection). After publishing, a pass feeds the read models
(`community.projections`) whose log woke it (a log's NOTIFY names its table): a move, which
writes only outbox rows, feeds none, nor does a look after RELAY_POLL seconds on a LISTEN that
holds; the first pass, a pass after an error, after the LISTEN connection broke or without one
(SQLite) feed them all. The sweep (`inis_pbem.tasks.sweep`) stays the last
resort. Run it as `manage.py relay_outbox` (docs/operations.md).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.db import DatabaseError, connection, transaction

from community import projections
from games.play.sql import claim_due_bot_games, republish_delay
from games.play.tasks import play_bots
from games.store.models import RELAY_CHANNEL
from inis_pbem.celery import app as celery_app
from notifications.inbound import process_inbound_task, stale_inbound_ids
from notifications.outbox import deliver_many
from notifications.sql import claim_due_outbox
from web import page_readers
from web.tasks import render_live_parts

logger = logging.getLogger(__name__)


@dataclass
class Published:
    """What one pass published: outbox rows, their tasks, games whose bot moves were due."""

    rows: int = 0
    tasks: int = 0
    games: int = 0
    replies: int = 0

    def __bool__(self) -> bool:
        return bool(self.rows or self.games or self.replies)


class InboundRetries:
    """The replies whose processing this relay published, with when to publish each again:
    {inbound id: (time.monotonic() seconds, times published)}. `due(ids, now)` forgets the ids no
    longer waiting and returns those to publish now, each then due again OUTBOX_REPUBLISH_AFTER x
    2^(times published) seconds later, at most OUTBOX_REPUBLISH_MAX (the receiving process's
    own publication counts as the first, as a command's rows count theirs)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.next: dict[int, tuple[float, int]] = {}
        self.clock = clock  # seconds, the pace of the looks and of the publications
        self.looked_at: float | None = None  # `clock` seconds of the last look

    def time_to_look(self, now: float) -> bool:
        """Whether to look for lost replies at `now` (`clock` seconds): at most once
        every RELAY_POLL seconds. A reply is lost only after OUTBOX_REPUBLISH_AFTER seconds
        unprocessed, so a look at every pass (each commit that wrote an email wakes one) costs
        a query a move and finds nothing sooner (bench: the cost of a move)."""
        if self.looked_at is not None and now - self.looked_at < settings.RELAY_POLL:
            return False
        self.looked_at = now
        return True

    def due(self, waiting: list[int], now: float) -> list[int]:
        self.next = {i: self.next[i] for i in waiting if i in self.next}
        ready = [i for i in waiting if self.next.get(i, (now, 0))[0] <= now]
        for inbound_id in ready:
            times = self.next.get(inbound_id, (now, 1))[1]
            delay = republish_delay(times, settings.OUTBOX_REPUBLISH_AFTER, settings.OUTBOX_REPUBLISH_MAX)
            self.next[inbound_id] = (now + delay.total_seconds(), times + 1)
        return ready


inbound_retries = InboundRetries()


def publish_lost_replies() -> int:
    """Publish `process_inbound` for each reply unprocessed OUTBOX_REPUBLISH_AFTER seconds after
    it was stored, when `inbound_retries` says it is due; how many. Looks at most once every
    RELAY_POLL seconds (`InboundRetries.time_to_look`): 0 without a look. Raises what the
    database or the broker raised."""
    now = inbound_retries.clock()
    if not inbound_retries.time_to_look(now):
        return 0
    waiting = stale_inbound_ids(older_than_seconds=settings.OUTBOX_REPUBLISH_AFTER)
    ready = inbound_retries.due(waiting, now)
    for inbound_id in ready:
        process_inbound_task.delay(inbound_id)
    return len(ready)


def publish_due() -> Published:
    """Publish one batch of due outbox rows and one of due bot moves, claimed in one transaction
    and published over one broker connection (Celery's `producer_or_acquire`: a producer of the
    app's pool, kept between passes), the claim rolled back if the broker refuses a task. Raises
    what the database or the broker raised (kombu's OperationalError when the broker is down):
    nothing is claimed then."""
    done = Published()
    after, most, batch = settings.OUTBOX_REPUBLISH_AFTER, settings.OUTBOX_REPUBLISH_MAX, settings.RELAY_BATCH
    with transaction.atomic():
        rows = claim_due_outbox(batch, after=after, most=most)
        games = claim_due_bot_games(batch, after=after, most=most)
        groups: dict[object, list[int]] = {}
        for row_id, game_id in rows:  # in order; a row about no game goes alone
            groups.setdefault(game_id if game_id is not None else ("row", row_id), []).append(row_id)
        # Pages rendered ahead: only for the games whose page somebody opened lately.
        read = (
            page_readers.read_games([key for key in groups if isinstance(key, int)])
            if settings.SPEED_LAYERS
            else set()
        )
        if groups or games:
            with celery_app.producer_or_acquire() as producer:
                for key, ids in groups.items():
                    deliver_many.apply_async((ids,), producer=producer)
                    if key in read:
                        render_live_parts.apply_async((key,), producer=producer)
                for game_id in games:
                    play_bots.apply_async((game_id,), producer=producer)
        done.rows, done.tasks, done.games = len(rows), len(groups), len(games)
    return done


def feed_read_models(tables: frozenset[str] | None) -> int:
    """Feed (`community.projections.feed`) the read models whose log (`source`) is one of
    `tables` (database table names, as the logs' NOTIFY names them), or every one when `tables`
    is None (docs/architecture.md, "Read models"). Returns the rows folded."""
    return sum(
        projections.feed(name)
        for name, projection in projections.registered().items()
        if tables is None or projection.source._meta.db_table in tables
    )


def publish_all_due() -> Published:
    """`publish_due` until a pass finds nothing (or a short batch): what was due is out."""
    total = Published()
    while True:
        done = publish_due()
        total.rows, total.tasks, total.games = (
            total.rows + done.rows,
            total.tasks + done.tasks,
            total.games + done.games,
        )
        if done.rows < settings.RELAY_BATCH and done.games < settings.RELAY_BATCH:
            total.replies = publish_lost_replies()
            return total


class Listener:
    """A LISTEN on RELAY_CHANNEL over a psycopg connection of its own (PostgreSQL only), opened
    again when it breaks. `wait(seconds)` returns what woke it (nothing after `seconds`), or None
    when the connection broke."""

    def __init__(self):
        self.connection = None

    def _open(self):
        import psycopg  # the PostgreSQL driver: only where the relay LISTENs

        if self.connection is None or self.connection.closed:
            self.connection = psycopg.connect(_listen_dsn(), autocommit=True)
            self.connection.execute(f"LISTEN {RELAY_CHANNEL}")
        return self.connection

    def wait(self, seconds: float) -> frozenset[str] | None:
        """The payloads of the notifications that woke it (the tables of the logs whose inserts
        committed; "" for bot moves made due), with those of the commits since, which one pass
        handles together; empty after `seconds` with none. None when the connection was opened
        by this call or broke (what committed before the LISTEN is unknown): it is opened again
        on the next call, and the caller publishes meanwhile."""
        try:
            fresh = self.connection is None or self.connection.closed
            conn = self._open()
            woken = [notify.payload for notify in conn.notifies(timeout=seconds, stop_after=1)]
            if woken:
                woken += [notify.payload for notify in conn.notifies(timeout=0)]
            return None if fresh else frozenset(woken)
        except Exception as error:  # a dropped connection: poll until it is back
            logger.warning("relay: the LISTEN connection failed (%s); polling meanwhile", error)
            self.close()
            time.sleep(min(seconds, 1.0))
            return None

    def close(self) -> None:
        if self.connection is not None:
            try:
                self.connection.close()
            except Exception:  # already broken
                pass
        self.connection = None


def _listen_dsn() -> str:
    """The LISTEN connection's address: RELAY_DATABASE_URL, else the service's database."""
    if settings.RELAY_DATABASE_URL:
        return settings.RELAY_DATABASE_URL
    from psycopg.conninfo import make_conninfo  # the PostgreSQL driver: only where it LISTENs

    params = connection.get_connection_params()
    return make_conninfo(
        **{
            key: value
            for key, value in params.items()
            if key in {"host", "port", "user", "password", "dbname"} and value not in (None, "")
        }
    )


def run(stop: threading.Event | None = None, *, once: bool = False) -> None:
    """The relay's loop: publish what is due and feed the read models whose log woke it
    (`feed_read_models`: all of them on the first pass, after an error, a new or broken LISTEN
    or a poll without one), then wait for a notification (PostgreSQL) or RELAY_POLL seconds,
    until `stop` is set (or after one pass with `once`). A database or broker error is logged
    (one line while it lasts) and the pass is tried again after RELAY_POLL seconds. The relay
    keeps its database connection between passes (whatever
    DB_CONN_MAX_AGE says: a pass may come at every commit); it is closed after a database
    error, so the next pass opens a new one."""
    stop = stop or threading.Event()
    listener = Listener() if connection.vendor == "postgresql" else None
    failing = False
    woken_by: frozenset[str] | None = None  # None: feed every read model
    try:
        while not stop.is_set():
            try:
                done = publish_all_due()
                feed_read_models(woken_by)
                if failing:
                    logger.warning("relay: publishing again")
                failing = False
                if done:
                    logger.info(
                        "relay: published %s emails in %s tasks, %s games' bot moves, %s lost replies",
                        done.rows,
                        done.tasks,
                        done.games,
                        done.replies,
                    )
            except Exception as error:  # the database or the broker is down: try again
                if not failing:
                    logger.warning(
                        "relay: cannot publish (%s); trying again every %s s", error, settings.RELAY_POLL
                    )
                failing = True
                if isinstance(error, DatabaseError):
                    connection.close()
            if once:
                return
            if listener is not None and not failing:
                woken_by = listener.wait(settings.RELAY_POLL)
            else:
                woken_by = None
                stop.wait(settings.RELAY_POLL)
    finally:
        if listener is not None:
            listener.close()
