"""The event store: append events to a game's log with an expected version, load a game's state.

A game's state is the fold of its events through `rules.evolve`; `Snapshot` rows are a cache of
that fold (deleting them changes nothing but speed). Stored events of an old version are brought
to the current one by `rules.upcast` as they are read, so games outlive releases.

Locking (`append`), so that concurrent submitters never leave a gap, a duplicate or a lost event:

1. `SELECT ... FOR UPDATE` on the game's row serialises the appends to one game (other games are
   not affected). Under PostgreSQL's READ COMMITTED each later statement of the transaction sees
   what the previous lock holder committed, so step 2 reads the true head of the log.
2. The head (last seq and hash) is read, with the game's seats; if the command is its seat's
   holder's (`CommandRecord.by_holder`) and that seat now has another holder, `SeatChangedHands`
   is raised; if the head is not `expected_seq`, `ConcurrencyConflict`. Nothing is written then:
   the caller refuses, or reloads and decides again.
3. The command row (if any) is inserted: `UniqueConstraint(game, command_id)` makes a repeated
   idempotency key fail with `DuplicateCommand`, carrying the first submission's record.
4. The events are inserted with seq expected_seq+1, ..., each hash chained to the previous one.

`UniqueConstraint(game, seq)` is the backstop when the lock is not there: SQLite ignores FOR
UPDATE (it has one writer at a time, taken at BEGIN IMMEDIATE, see settings/database.py), and a
duplicate seq from any path turns into `ConcurrencyConflict` rather than a second history.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from games import rules
from games.record.hashchain import chained_hash, normalise

# The fold's registries, read directly by the rebuild's fast path (`load`).
from games.store import sql
from games.store.models import Command, Event, Game, Seat, Snapshot


class StoreError(Exception):
    """The stored log cannot be read as a game (a gap in seq, an event no rule knows)."""


class ConcurrencyConflict(Exception):
    """The log's head is not at the expected seq: another append came first. Nothing was written.

    Attributes: `expected_seq` (what the caller assumed), `actual_seq` (the head found).
    """

    def __init__(self, expected_seq: int, actual_seq: int) -> None:
        super().__init__(f"the game has {actual_seq} events, not the {expected_seq} this change was based on")
        self.expected_seq = expected_seq
        self.actual_seq = actual_seq


class SeatChangedHands(Exception):
    """The command was its seat's holder's, as the caller read the seat before the game's row
    lock, and under the lock the seat has another holder (`same_holder`): an erasure or a
    hand-over (docs/privacy.md, docs/table-log.md) committed in between. Nothing was written.

    Attributes: `seat`, the seat as read under the lock (its holder now).
    """

    def __init__(self, seat: Seat) -> None:
        super().__init__(f"{seat.game_id}/{seat.colour} changed hands before the command reached the log")
        self.seat = seat


def holder(seat: Seat) -> tuple[Any, ...]:
    """Who holds `seat`, as far as acting for it goes: whether a bot plays it, its account, its
    address, its secret token (a new one with each hand-over and erasure: `games.play.table`)
    and whether its player left."""
    return (seat.is_bot, seat.user_id, seat.email, seat.token, seat.left_at is not None)


def same_holder(seat: Seat, now: Seat) -> bool:
    """Whether `now` (the seat read under the game's row lock) has the holder that `seat` (the
    same seat, read before) had: `holder` of both equal."""
    return seat.pk == now.pk and holder(seat) == holder(now)


class DuplicateCommand(Exception):
    """A command with this idempotency key was accepted before; `command` is its record (read
    when first asked for: the insert that found the duplicate may have left the transaction
    to roll back first)."""

    def __init__(
        self, command: Command | None = None, *, game: Game | None = None, command_id: str | None = None
    ) -> None:
        if command is not None:
            game, command_id = command.game, command.command_id
        super().__init__(f"command {command_id!r} was already accepted")
        self.game, self.command_id, self._command = game, command_id, command

    @property
    def command(self) -> Command:
        if self._command is None:
            self._command = Command.objects.select_related("game").get(
                game=self.game, command_id=self.command_id
            )
        return self._command


@dataclass(frozen=True)
class CommandRecord:
    """What `append` records about the command whose events it appends.

    seat: the acting seat; body: the command as sent (a JSON dict); client_seq: the seq the
    sender's prompt was made against (its `expected_seq`, which may be older than the log's head
    when the command was re-decided against a newer state). by_holder: the command is the
    holder's of `seat` as the caller read it (a player's move, a bot seat's own): `append`
    refuses it (`SeatChangedHands`) when the seat read under the lock has another holder. False
    for what the system plays for the seat as it is, whoever holds it (a deadline's default,
    the stand-in, an order, a forced move).
    """

    seat: Seat
    body: dict[str, Any]
    client_seq: int
    by_holder: bool = False


def head(game: Game) -> tuple[int, str]:
    """(seq, hash) of the game's last event, or (0, seed commitment) for an empty log."""
    last = Event.objects.filter(game=game).order_by("-seq").values_list("seq", "hash").first()
    return last if last is not None else (0, game.seed_commitment)


def lock(game: Game) -> tuple[Game, int, str]:
    """Lock the game's row (SELECT ... FOR UPDATE) and read its head and its seats, in one query.

    Returns `(game, seq, hash)`, seq and hash as `head` gives them. The seats (in seating order)
    are left in `game`'s prefetch cache, so that `game.seats.all()` costs no query for the rest
    of the transaction (forced moves, bot seats, the mail receivers). Call inside a transaction.
    The SQL is written out rather than built by the ORM: it runs on every command, and building
    it cost more than running it (bench: the command path).
    """
    locked, seq, hash_, _seats = _lock(game)
    return locked, seq, hash_


def _lock(game: Game) -> tuple[Game, int, str, list[Seat]]:
    """`lock`, and the seats it read under the lock ([] for a game without seats)."""
    found = sql.locked_seats_and_head(game.pk)
    if found is None:  # a game without seats (tests of the log alone)
        locked = (
            Game.objects.select_for_update()
            .only("id", "seed", "seed_commitment", "chain_version")
            .get(pk=game.pk)
        )
        return (locked, *head(locked), [])
    seats, head_seq, head_hash = found
    for seat in seats:
        seat.game = game
    sql.prefetched(game, "seats", seats)
    if head_seq is None:
        return game, 0, game.seed_commitment, seats
    return game, head_seq, str(head_hash), seats


def check_holder(seat: Seat, seats: Iterable[Seat]) -> None:
    """Raise SeatChangedHands when `seat` (read before the game's row lock) has another holder
    in `seats` (the game's seats read under the lock: `game.seats.all()` after `lock`, no
    query), or is not among them."""
    now = next((s for s in seats if s.pk == seat.pk), None)
    if now is None or not same_holder(seat, now):
        raise SeatChangedHands(now if now is not None else seat)


def append(
    game: Game,
    events: list[Any],
    *,
    expected_seq: int,
    command_id: str | None = None,
    command: CommandRecord | None = None,
    savepoint: bool = True,
    expected_hash: str | None = None,
) -> list[Event]:
    """Append `events` (a non-empty list of `rules.Event`) after seq `expected_seq`.

    Returns the saved `Event` rows (seq expected_seq+1 ... expected_seq+len(events)). With
    `command`, the command is recorded too and linked from each event; `command_id` is its
    idempotency key (None: no key).

    Runs in its own transaction, or in a savepoint of the caller's (whose commit then decides).
    savepoint=False (the command path, `games.services`, whose own atomic block is the savepoint
    or the transaction): no savepoint, so a refused insert leaves the caller's block to roll
    back, and the error is told from the constraint's name instead of by a query. See the module
    docstring for the locking. The game's seats are then in `game.seats.all()` at no cost (`lock`).
    expected_hash: the hash the caller's state says event `expected_seq` has (a state from
    `recent_state`); another hash there is a ConcurrencyConflict too.

    Raises SeatChangedHands (`command.by_holder`, and the seat read under the lock has another
    holder than `command.seat`; nothing written), ConcurrencyConflict (the head is not
    `expected_seq`; nothing written), DuplicateCommand (`command_id` was already accepted;
    nothing written), ValueError (no events, or a `command_id` without a command).
    """
    if not events:
        raise ValueError("append needs at least one event")
    if command_id is not None and command is None:
        raise ValueError("a command_id needs the command it identifies")
    try:
        with transaction.atomic(savepoint=savepoint):
            locked, seq, prev_hash, seats = _lock(game)
            if command is not None and command.by_holder:
                # The seats were read with the lock, in the same query: no query more.
                check_holder(command.seat, seats)
            if seq != expected_seq or (expected_hash is not None and prev_hash != expected_hash):
                raise ConcurrencyConflict(expected_seq, seq)
            command_row = None
            if command is not None:
                command_row = Command(
                    game=locked,
                    seat=command.seat,
                    command_id=command_id,
                    body=normalise(command.body),
                    client_seq=command.client_seq,
                    first_seq=expected_seq + 1,
                    last_seq=expected_seq + len(events),
                )
            rows = chain_rows(locked, events, after_seq=seq, prev_hash=prev_hash, command=command_row)
            if command_row is None or not sql.insert_command_and_events(command_row, rows):
                if command_row is not None:
                    command_row.save(force_insert=True)
                    for row in rows:
                        row.command = command_row
                Event.objects.bulk_create(rows)
    except IntegrityError as error:
        if command_id is not None and _constraint(error) == "unique_command_id_per_game":
            raise DuplicateCommand(game=game, command_id=command_id) from None
        # Only reachable without the row lock (see the module docstring): somebody else took
        # these seq numbers first (the (game, seq) or (game, first_seq) constraint).
        raise ConcurrencyConflict(expected_seq, expected_seq + 1) from None
    return rows


def _constraint(error: IntegrityError) -> str | None:
    """The name of the constraint an insert broke: PostgreSQL names it; SQLite only lists the
    columns, and a repeated idempotency key is the only conflict naming `command_id`."""
    diag = getattr(error.__cause__, "diag", None)
    if diag is not None and getattr(diag, "constraint_name", None):
        return str(diag.constraint_name)
    return "unique_command_id_per_game" if "command_id" in str(error) else None


def chain_rows(
    game: Game, events: list[rules.Event], *, after_seq: int, prev_hash: str, command: Command | None = None
) -> list[Event]:
    """Unsaved `Event` rows for `events` (rules.Event) at seq after_seq+1, ..., each hash chained to
    the one before (the first to `prev_hash`) as the game's chain version says, linked to
    `command` (a Command row or None).

    `game` must have its `seed` and `chain_version` loaded (private events are salted with the
    seed, and in version 2 hashed through their public part and hidden digest, computed once per
    event: games.record.hashchain). Raises ValueError for a chain version this code does not know.
    """
    rows = []
    seq = after_seq
    seed, chain_version = game.seed, game.chain_version
    for event in events:
        seq += 1
        data = normalise(event.to_json())
        digest = chained_hash(
            prev_hash,
            chain_version=chain_version,
            seed=seed,
            seq=seq,
            type=data["type"],
            version=data["version"],
            payload=data["payload"],
            visibility=data["visibility"],
        )
        rows.append(
            Event(
                game=game,
                command=command,
                seq=seq,
                type=data["type"],
                version=data["version"],
                payload=data["payload"],
                visibility=data["visibility"],
                prev_hash=prev_hash,
                hash=digest,
            )
        )
        prev_hash = digest
    return rows


def to_rules_event(row: Event) -> rules.Event:
    """The stored event as a current-version `rules.Event` (upcast through `rules.upcast`)."""
    return rules.Event.from_json(rules.upcast(row.to_json()))


def load(game: Game, *, until: int | None = None) -> tuple[rules.GameState, int]:
    """The game's state and its seq: `(GameState, seq)` where seq = events folded.

    Starts from the latest snapshot at or before `until` (None: the head) and folds the later
    events. Raises StoreError when the log has a gap or the fold does not count the events
    (`state.seq != seq`), or when an event cannot be upcast or folded by the current rules.
    """
    state, seq = _snapshot_state(game, until)
    return _fold(game, state, seq, _event_tuples(game, after=seq, until=until))


def load_telling(
    game: Game, *, until: int, after: int
) -> tuple[rules.GameState, list[tuple[int, rules.Event]]]:
    """`(state, events)`: the game's state at `until`, as `load(game, until=until)` gives it, and
    `[(seq, rules.Event)]` of its events after seq `after` up to `until`, as `events_between`
    gives them, from one read of the log (a prompt's delivery tells the events since the seat's
    previous prompt: `notifications.prompts_at_delivery`). Raises StoreError as `load` does for
    the fold; the events told are read as `events_between` reads them."""
    state, seq = _snapshot_state(game, until)
    rows = list(_event_tuples(game, after=min(seq, after), until=until))
    decode = json.loads
    told = [
        (
            row[0],
            rules.Event.from_json(
                {
                    "type": row[1],
                    "version": row[2],
                    "payload": decode(row[3]),
                    "visibility": None if row[4] is None else decode(row[4]),
                }
            ),
        )
        for row in rows
        if row[0] > after
    ]
    state, _seq = _fold(game, state, seq, (row for row in rows if row[0] > seq))
    return state, told


def _snapshot_state(game: Game, until: int | None) -> tuple[rules.GameState, int]:
    """The state of the latest snapshot at or before `until` (None: any) and its seq; a new
    game's state and 0 when there is none."""
    found = sql.latest_snapshot(game.pk, until)
    if found is not None:
        return rules.GameState.from_json(json.loads(found[1])), found[0]
    return rules.GameState(), 0


def _fold(
    game: Game, state: rules.GameState, seq: int, rows: Iterable[tuple[Any, ...]]
) -> tuple[rules.GameState, int]:
    """Fold `rows` (`_event_tuples`, the events after `seq` in order) into `state` (at `seq`)."""
    # The fold needs only an event's type and payload: an event at its type's current version goes
    # straight to its evolver (no Event object, no visibility decoded); an older one is upcast
    # first. Same result as `rules.evolve`, a third less time (bench: rebuild without snapshots).
    evolvers, current, decode = rules.EVOLVERS, rules.CURRENT_VERSIONS, json.loads
    for row_seq, kind, version, payload, visibility in rows:
        if row_seq != seq + 1:
            raise StoreError(f"{game}: event #{seq + 1} is missing (found #{row_seq})")
        try:
            if version == current.get(kind, 1):
                evolvers[kind](state, decode(payload) or {})
                state.seq += 1
            else:
                rules.evolve(
                    state,
                    rules.Event.from_json(
                        {
                            "type": kind,
                            "version": version,
                            "payload": decode(payload),
                            "visibility": None if visibility is None else decode(visibility),
                        }
                    ),
                )
        except (KeyError, ValueError) as error:
            raise StoreError(
                f"{game}: event #{row_seq} ({kind} v{version}) cannot be read: {error!r}"
            ) from error
        seq = row_seq
    if state.seq != seq:
        raise StoreError(f"{game}: the fold counted {state.seq} events, the log has {seq}")
    return state, seq


def _event_tuples(game: Game, *, after: int, until: int | None) -> Iterator[tuple[Any, ...]]:
    """(seq, type, version, payload JSON text, visibility JSON text or None) of the game's events
    after seq `after` (up to `until`), in seq order (`games.store.sql.event_tuples`)."""
    return sql.event_tuples(game.pk, after=after, until=until)


def is_settled(game: Game, seq: int) -> bool:
    """True when the log's first `seq` events end a batch (the set-up or a command's events).

    Only there is the state settled, waiting for decisions: between two events of one batch the
    rules may be half-way through an automatic step, where `rules.pending` has no meaning.
    """
    if Command.objects.filter(game=game, last_seq=seq).exists():
        return True
    first = (
        Command.objects.filter(game=game).order_by("first_seq").values_list("first_seq", flat=True).first()
    )
    setup_end = first - 1 if first is not None else head(game)[0]
    return seq in (0, setup_end)


def save_snapshot(game: Game, state: rules.GameState) -> Snapshot:
    """Store `state` (at `state.seq` events) as a snapshot; an existing one for that seq is kept
    (and returned). On PostgreSQL one statement (`sql.insert_snapshot`), not get_or_create's
    read, savepoint, insert and release: a snapshot follows every SNAPSHOT_EVERY events of the
    command path (bench: the command path)."""
    snapshot = Snapshot(game=game, seq=state.seq, state=normalise(state.to_json()))
    inserted = sql.insert_snapshot(snapshot)
    if inserted is None:
        snapshot, _ = Snapshot.objects.get_or_create(
            game=game, seq=state.seq, defaults={"state": snapshot.state}
        )
    elif not inserted:
        snapshot = Snapshot.objects.get(game=game, seq=state.seq)
    return snapshot


def snapshot_due(game: Game, seq: int) -> bool:
    """True when the log has grown by SNAPSHOT_EVERY events or more since the latest snapshot."""
    latest = Snapshot.objects.filter(game=game).order_by("-seq").values_list("seq", flat=True).first() or 0
    return seq - latest >= settings.SNAPSHOT_EVERY
