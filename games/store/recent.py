"""What this process appended lately: recent events and states, kept after their commit.

Both are caches a fold can rebuild: a miss reads the log (`games.store.log`), and what is kept is
vouched for by the hash chain (events) or only ever leads to an append checked against the log's
head (states). With the speed layers off (settings.SPEED_LAYERS) neither is read: every range
and every state comes from the log.
"""

from __future__ import annotations

import pickle
from collections import OrderedDict
from typing import Any

from django.conf import settings
from django.db import transaction

from games import rules
from games.store.log import to_rules_event
from games.store.models import Event, Game

# -- recent events, per process -------------------------------------------------------------------
# The mail receivers word what happened since a seat's last prompt, i.e. events of the last few
# commands, which this process has usually just appended itself. Committed events never change
# (the log is append-only), and each cached event keeps its hash: a range is served from here only
# when the cached hash of its last event is the one the caller read from the log (the head under
# the row lock), which by the hash chain vouches for every event before it. Filled after commits
# only, so a rolled-back append leaves nothing behind.
RECENT_EVENTS_PER_GAME = 1_000
RECENT_GAMES = 64
_recent: OrderedDict[int, dict[int, tuple[str, rules.Event]]] = OrderedDict()


def _remember(game_id: int, entries: list[tuple[int, str, rules.Event]]) -> None:
    """After the commit: keep `[(seq, hash, rules.Event)]` of the game in the recent events."""

    def keep() -> None:
        cached = _recent.pop(game_id, {})
        for seq, digest, event in entries:
            cached[seq] = (digest, event)
        if len(cached) > RECENT_EVENTS_PER_GAME:
            for seq in sorted(cached)[: len(cached) - RECENT_EVENTS_PER_GAME]:
                del cached[seq]
        _recent[game_id] = cached
        while len(_recent) > RECENT_GAMES:
            _recent.popitem(last=False)

    transaction.on_commit(keep)


def remember_rows(game: Game, rows: list[Any], events: list[Any]) -> None:
    """Keep the appended `rows` (Event rows) with their `events` (`rules.Event`, as folded) in
    this process's recent events once the transaction commits."""
    _remember(game.pk, [(row.seq, row.hash, event) for row, event in zip(rows, events)])


def events_between(
    game: Game, after: int, upto: int, *, upto_hash: str | None = None
) -> list[tuple[int, rules.Event]]:
    """`[(seq, rules.Event)]` of the game's events after seq `after` up to `upto` included, in
    seq order, each as `to_rules_event` gives it.

    upto_hash: the hash of event `upto` as read from the log (e.g. under the row lock); with it,
    the events come from this process's recent events when they are all there and the chain
    matches, without a query. Without it, or on a miss, one query (its rows are then kept).
    """
    if upto <= after:
        return []
    cached = _recent.get(game.pk) if settings.SPEED_LAYERS else None
    if upto_hash is not None and cached is not None:
        last = cached.get(upto)
        if last is not None and last[0] == upto_hash and all(seq in cached for seq in range(after + 1, upto)):
            return [(seq, cached[seq][1]) for seq in range(after + 1, upto + 1)]
    rows = list(Event.objects.filter(game=game, seq__gt=after, seq__lte=upto).order_by("seq"))
    entries = [(row.seq, row.hash, to_rules_event(row)) for row in rows]
    _remember(game.pk, entries)
    return [(seq, event) for seq, _hash, event in entries]


# -- recent states, per process -------------------------------------------------------------------
# The state a command leaves, kept after its commit so that the next command on the game in this
# process need not load it (snapshot + fold). It is only a guess at the head: a command decided
# against it is appended with the seq and hash it was folded to (`append(expected_hash=...)`),
# so a log that moved on meanwhile (another process) is a ConcurrencyConflict, and the caller
# loads and decides again.
# A state is kept pickled (what `GameState.clone` does first): the copy is made whole only when
# a command reads it back, and a process whose next command brings its own state never does.
_states: OrderedDict[int, tuple[int, str, bytes]] = OrderedDict()


def remember_state(game: Game, state: rules.GameState, head_hash: str) -> None:
    """After the commit: keep a copy of `state` (the fold of the game's log up to `state.seq`,
    whose last event has `head_hash`) for `recent_state`."""
    kept = (state.seq, head_hash, pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL))

    def keep() -> None:
        _states.pop(game.pk, None)
        _states[game.pk] = kept
        while len(_states) > RECENT_GAMES:
            _states.popitem(last=False)

    transaction.on_commit(keep)


def recent_state(game: Game) -> tuple[rules.GameState, int, str] | None:
    """`(state, seq, hash)`: a copy of the latest state this process committed for the game,
    with the seq and hash of its last event, or None (always, with the speed layers off). It may
    be behind the log (see above)."""
    kept = _states.get(game.pk) if settings.SPEED_LAYERS else None
    if kept is None:
        return None
    seq, digest, pickled = kept
    state: rules.GameState = pickle.loads(pickled)  # noqa: S301 - pickled by this process (`remember_state`), held in memory
    return state, seq, digest
