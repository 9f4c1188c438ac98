"""The event store: append events to a game's log with an expected version, load a game's state.

A game's state is the fold of its events through `rules.evolve`; `Snapshot` rows are a cache of
that fold (deleting them changes nothing but speed). Stored events of an old version are brought
to the current one by `rules.upcast` as they are read, so games outlive releases.

Locking (`append`), so that concurrent submitters never leave a gap, a duplicate or a lost event:

1. `SELECT ... FOR UPDATE` on the game's row serialises the appends to one game (other games are
   not affected). Under PostgreSQL's READ COMMITTED each later statement of the transaction sees
   what the previous lock holder committed, so step 2 reads the true head of the log.
2. The head (last seq and hash) is read; if it is not `expected_seq`, `ConcurrencyConflict` is
   raised and nothing is written: the caller reloads and decides again.
3. The command row (if any) is inserted: `UniqueConstraint(game, command_id)` makes a repeated
   idempotency key fail with `DuplicateCommand`, carrying the first submission's record.
4. The events are inserted with seq expected_seq+1, ..., each hash chained to the previous one.

`UniqueConstraint(game, seq)` is the backstop when the lock is not there: SQLite ignores FOR
UPDATE (it has one writer at a time, taken at BEGIN IMMEDIATE, see settings/database.py), and a
duplicate seq from any path turns into `ConcurrencyConflict` rather than a second history.
"""
from __future__ import annotations

import json

from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, connection, transaction

from games import rules
from games.hashchain import event_hash, event_salt, normalise
from games.models import Command, Event, Game, Seat, Snapshot


class StoreError(Exception):
    """The stored log cannot be read as a game (a gap in seq, an event no rule knows)."""


class ConcurrencyConflict(Exception):
    """The log's head is not at the expected seq: another append came first. Nothing was written.

    Attributes: `expected_seq` (what the caller assumed), `actual_seq` (the head found).
    """

    def __init__(self, expected_seq: int, actual_seq: int):
        super().__init__(
            f"the game has {actual_seq} events, not the {expected_seq} this change was based on"
        )
        self.expected_seq = expected_seq
        self.actual_seq = actual_seq


class DuplicateCommand(Exception):
    """A command with this idempotency key was accepted before; `command` is its record."""

    def __init__(self, command: Command):
        super().__init__(f"command {command.command_id!r} was already accepted as #{command.first_seq}")
        self.command = command


@dataclass(frozen=True)
class CommandRecord:
    """What `append` records about the command whose events it appends.

    seat: the acting seat; body: the command as sent (a JSON dict); client_seq: the seq the
    sender's prompt was made against (its `expected_seq`, which may be older than the log's head
    when the command was re-decided against a newer state).
    """

    seat: Seat
    body: dict
    client_seq: int


def head(game: Game) -> tuple[int, str]:
    """(seq, hash) of the game's last event, or (0, seed commitment) for an empty log."""
    last = Event.objects.filter(game=game).order_by("-seq").values_list("seq", "hash").first()
    return last if last is not None else (0, game.seed_commitment)


def append(
    game: Game,
    events: list,
    *,
    expected_seq: int,
    command_id: str | None = None,
    command: CommandRecord | None = None,
) -> list[Event]:
    """Append `events` (a non-empty list of `rules.Event`) after seq `expected_seq`.

    Returns the saved `Event` rows (seq expected_seq+1 ... expected_seq+len(events)). With
    `command`, the command is recorded too and linked from each event; `command_id` is its
    idempotency key (None: no key).

    Runs in its own transaction, or in a savepoint of the caller's (whose commit then decides).
    See the module docstring for the locking.

    Raises ConcurrencyConflict (the head is not `expected_seq`; nothing written),
    DuplicateCommand (`command_id` was already accepted; nothing written), ValueError (no events,
    or a `command_id` without a command).
    """
    if not events:
        raise ValueError("append needs at least one event")
    if command_id is not None and command is None:
        raise ValueError("a command_id needs the command it identifies")
    with transaction.atomic():
        locked = Game.objects.select_for_update().only("id", "seed", "seed_commitment").get(pk=game.pk)
        seq, prev_hash = head(locked)
        if seq != expected_seq:
            raise ConcurrencyConflict(expected_seq, seq)
        command_row = None
        if command is not None:
            command_row = _record_command(locked, command, command_id, expected_seq, len(events))
        rows = chain_rows(locked, events, after_seq=seq, prev_hash=prev_hash, command=command_row)
        try:
            with transaction.atomic():
                Event.objects.bulk_create(rows)
        except IntegrityError:
            # Only reachable without the row lock (see the module docstring): somebody else took
            # these seq numbers first.
            raise ConcurrencyConflict(expected_seq, head(locked)[0]) from None
    return rows


def chain_rows(game: Game, events: list, *, after_seq: int, prev_hash: str, command=None) -> list[Event]:
    """Unsaved `Event` rows for `events` (rules.Event) at seq after_seq+1, ..., each hash chained to
    the one before (the first to `prev_hash`), linked to `command` (a Command row or None).

    `game` must have its `seed` loaded (private events are salted with it, games.hashchain).
    """
    rows = []
    seq = after_seq
    for event in events:
        seq += 1
        data = normalise(event.to_json())
        digest = event_hash(
            prev_hash,
            seq=seq,
            type=data["type"],
            version=data["version"],
            payload=data["payload"],
            visibility=data["visibility"],
            salt=event_salt(game.seed, seq, data["visibility"]),
        )
        rows.append(Event(
            game=game,
            seq=seq,
            type=data["type"],
            version=data["version"],
            payload=data["payload"],
            visibility=data["visibility"],
            command=command,
            prev_hash=prev_hash,
            hash=digest,
        ))
        prev_hash = digest
    return rows


def _record_command(game: Game, command: CommandRecord, command_id, expected_seq, count) -> Command:
    try:
        with transaction.atomic():
            return Command.objects.create(
                game=game,
                seat=command.seat,
                command_id=command_id,
                body=normalise(command.body),
                client_seq=command.client_seq,
                first_seq=expected_seq + 1,
                last_seq=expected_seq + count,
            )
    except IntegrityError:
        first = Command.objects.filter(game=game, command_id=command_id).first()
        if command_id is None or first is None:
            # Not the idempotency key: the (game, first_seq) constraint, i.e. a lost race.
            raise ConcurrencyConflict(expected_seq, head(game)[0]) from None
        raise DuplicateCommand(first) from None


def to_rules_event(row: Event):
    """The stored event as a current-version `rules.Event` (upcast through `rules.upcast`)."""
    return rules.Event.from_json(rules.upcast(row.to_json()))


def load(game: Game, *, until: int | None = None) -> tuple[object, int]:
    """The game's state and its seq: `(GameState, seq)` where seq = events folded.

    Starts from the latest snapshot at or before `until` (None: the head) and folds the later
    events. Raises StoreError when the log has a gap or the fold does not count the events
    (`state.seq != seq`), or when an event cannot be upcast or folded by the current rules.
    """
    snapshots = Snapshot.objects.filter(game=game)
    if until is not None:
        snapshots = snapshots.filter(seq__lte=until)
    snapshot = snapshots.order_by("-seq").first()
    if snapshot is not None:
        state = rules.GameState.from_json(snapshot.state)
        seq = snapshot.seq
    else:
        state = rules.GameState()
        seq = 0
    for row_seq, kind, version, payload, visibility in _event_tuples(game, after=seq, until=until):
        if row_seq != seq + 1:
            raise StoreError(f"{game}: event #{seq + 1} is missing (found #{row_seq})")
        try:
            rules.evolve(state, rules.Event.from_json({
                "type": kind, "version": version, "payload": json.loads(payload),
                "visibility": None if visibility is None else json.loads(visibility),
            }))
        except (KeyError, ValueError) as error:
            raise StoreError(f"{game}: event #{row_seq} ({kind} v{version}) cannot be read: {error!r}") from error
        seq = row_seq
    if state.seq != seq:
        raise StoreError(f"{game}: the fold counted {state.seq} events, the log has {seq}")
    return state, seq


def _event_tuples(game: Game, *, after: int, until: int | None):
    """(seq, type, version, payload JSON text, visibility JSON text or None) of the game's events
    after seq `after` (up to `until`), in seq order.

    One plain query, decoded by the caller: building a model instance per event (and Django's
    per-value converters) cost more than the fold itself (bench: rebuild of a 50,000-event log).
    """
    table = connection.ops.quote_name(Event._meta.db_table)
    sql = (f"SELECT seq, type, version, payload, visibility FROM {table} "
           f"WHERE game_id = %s AND seq > %s")
    params = [game.pk, after]
    if until is not None:
        sql += " AND seq <= %s"
        params.append(until)
    with connection.cursor() as cursor:
        cursor.execute(sql + " ORDER BY seq", params)
        while batch := cursor.fetchmany(5000):
            yield from batch


def is_settled(game: Game, seq: int) -> bool:
    """True when the log's first `seq` events end a batch (the set-up or a command's events).

    Only there is the state settled, waiting for decisions: between two events of one batch the
    rules may be half-way through an automatic step, where `rules.pending` has no meaning.
    """
    if Command.objects.filter(game=game, last_seq=seq).exists():
        return True
    first = Command.objects.filter(game=game).order_by("first_seq").values_list("first_seq", flat=True).first()
    setup_end = first - 1 if first is not None else head(game)[0]
    return seq in (0, setup_end)


def save_snapshot(game: Game, state) -> Snapshot:
    """Store `state` (at `state.seq` events) as a snapshot; an existing one for that seq is kept."""
    snapshot, _ = Snapshot.objects.get_or_create(
        game=game, seq=state.seq, defaults={"state": normalise(state.to_json())}
    )
    return snapshot


def snapshot_due(game: Game, seq: int) -> bool:
    """True when the log has grown by SNAPSHOT_EVERY events or more since the latest snapshot."""
    latest = Snapshot.objects.filter(game=game).order_by("-seq").values_list("seq", flat=True).first() or 0
    return seq - latest >= settings.SNAPSHOT_EVERY
