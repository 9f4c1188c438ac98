"""The gathering's log (`GatheringEvent`): what a table being gathered publicly is, after each
change, appended in the transaction of that change.

The open tables' list is a read model of this log (`community`, docs/open-tables.md), so that
it can be rebuilt from a log like every other read model. Every write of the lobby that changes
what the list shows calls `record` under the proposal's row lock; `record` takes one more lock
(PostgreSQL: a transaction-level advisory lock) so that the rows' ids follow the commit order,
and a reader that remembers the last id it folded never skips a row committed later with a
smaller id. Rows hold public facts only: no address, no name (a name can change; the read model
reads it when it folds).
"""

from __future__ import annotations

from collections.abc import Callable

from games.record.options import DEADLINE_PRESETS, DEFAULT_DEADLINES, reaction_mode
from games.store import sql as store_sql
from lobby.models import GatheringEvent, Invitation, Proposal

# The advisory lock's key (any constant: it names "the gathering's log" among the locks).
GATHERING_LOCK = 0x1A15_0001

_recorded: list[Callable[[], None]] = []


def register_recorded(listener: Callable[[], None]) -> None:
    """Call `listener()` inside the transaction of every `record` (the read models' rooms plan
    their update after the commit with it: `community.apps`)."""
    if listener not in _recorded:
        _recorded.append(listener)


def speed_of(options: dict) -> str:
    """The name of the deadline preset of `options` (`DEADLINE_PRESETS`: "relaxed", "normal",
    "brisk", "none"), or "custom" when the deadlines are none of them."""
    deadlines = options.get("deadlines") or DEFAULT_DEADLINES
    for name, preset in DEADLINE_PRESETS.items():
        if dict(preset) == dict(deadlines):
            return name
    return "custom"


def public_facts(proposal: Proposal) -> dict:
    """What anyone may know of `proposal` now: {"status", "listed", "language", "rated",
    "speed", "reaction_mode", "player_count", "seats_filled", "open_seats", "host_id",
    "created_at", "listed_at" (ISO 8601; None while never listed)}. Seats filled: the accepted places (players and bots); open seats:
    those nobody was asked for, which anyone may take while the table is listed."""
    places = list(proposal.invitations.values_list("status", "email", "is_bot"))
    open_seats = sum(1 for status, email, bot in places if not email and not bot and status == "pending")
    return {
        "status": proposal.status,
        "listed": proposal.listed,
        "language": proposal.language,
        "rated": proposal.rated,
        "speed": speed_of(proposal.options),
        "reaction_mode": reaction_mode(proposal.options) or "holders",
        "player_count": len(places),
        "seats_filled": sum(1 for status, _e, _b in places if status == Invitation.Status.ACCEPTED),
        "open_seats": open_seats,
        "host_id": proposal.host_id,
        "created_at": proposal.created_at.isoformat(),
        "listed_at": proposal.listed_at.isoformat() if proposal.listed_at else None,
    }


def lock_log() -> None:
    """Take, in the caller's transaction, the lock `record` takes (until the commit), for a caller
    that must hold it before a lock it takes first: a message by email that changes a table takes
    it before its stored email's row, as an erasure does (`notifications.inbound_hooks`, the
    service's lock order). After the row locks of the tables it changes (one it creates has
    none yet), as `record`."""
    store_sql.appends_in_commit_order(GATHERING_LOCK)


def record(proposal: Proposal, kind: str) -> GatheringEvent:
    """Append what `proposal` publicly is now, as an event of type `kind` ("created", "joined",
    "seat_filled", "removed", "left", "started", "cancelled", "closed", "listed", "unlisted"). Inside the caller's
    transaction, which holds the proposal's row lock."""
    store_sql.appends_in_commit_order(GATHERING_LOCK)
    facts = public_facts(proposal)
    event = GatheringEvent.objects.create(proposal=proposal, type=kind, payload=facts)  # type: ignore[misc]  # a JSON field: any JSON value
    for listener in _recorded:
        listener()
    return event
