"""The store room: a game's append-only, hash-chained event log and what reads it.

`from games import store` gives the log's API (`store.append`, `store.load`, `store.head`, the
errors, the per-process recent events and states); the modules beside it:

- `games.store.log`: append with an expected seq under the game's row lock, load (snapshot +
  fold + upcast), snapshots;
- `games.store.recent`: what this process appended lately, kept after the commit;
- `games.store.models`: Game, Seat, Command, Event, Snapshot, TableEvent (`games.models` names
  them for Django and for the rest of the project);
- `games.store.sql`: the store's SQL written out by hand, and the one place that touches
  Django's internals for it;
- `games.store.selectors`: reads, redacted per seat (history, fingerprints);
- `games.store.exports`, `games.store.verification`: a game's export, and `verify_game`.

It imports the rules and the record (`games.record`), never the play room or a channel: what a
higher room must add to a read (table talk in an export) it registers here
(`games.store.exports.register_section`).
"""

from games.store.log import (
    CommandRecord,
    ConcurrencyConflict,
    DuplicateCommand,
    SeatChangedHands,
    StoreError,
    append,
    chain_rows,
    check_holder,
    head,
    is_settled,
    load,
    load_telling,
    lock,
    same_holder,
    save_snapshot,
    snapshot_due,
    to_rules_event,
)
from games.store.recent import (
    RECENT_EVENTS_PER_GAME,
    RECENT_GAMES,
    events_between,
    recent_state,
    remember_rows,
    remember_state,
)

__all__ = [
    "RECENT_EVENTS_PER_GAME",
    "RECENT_GAMES",
    "CommandRecord",
    "ConcurrencyConflict",
    "DuplicateCommand",
    "SeatChangedHands",
    "StoreError",
    "append",
    "chain_rows",
    "check_holder",
    "events_between",
    "head",
    "is_settled",
    "load",
    "load_telling",
    "lock",
    "recent_state",
    "remember_rows",
    "remember_state",
    "same_holder",
    "save_snapshot",
    "snapshot_due",
    "to_rules_event",
]
