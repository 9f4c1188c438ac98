"""Reads: what a page, an email or an export may show of a game, to whom.

Hidden information leaves the server only through the rules' doors: `rules.render_board(state,
colour)`, `rules.redact(event, colour)` and the seat's own decisions and legal commands. A
`colour` of None is a spectator. Once the game is over everything is public, the seed included.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.db.models import QuerySet

from games import rules
from games.record.hashchain import event_salt, hide
from games.store import log
from games.store.models import Event, Game, Seat, TableEvent


def game_list() -> QuerySet[Game]:
    """All games, newest first, with their seats."""
    return Game.objects.prefetch_related("seats")


def game_get(*, game_id: int) -> Game:
    """The game `game_id`; raises Game.DoesNotExist."""
    return Game.objects.get(pk=game_id)


def seat_get(*, game: Game, token: str) -> Seat:
    """The seat of `game` whose secret token is `token`; raises Seat.DoesNotExist."""
    return Seat.objects.select_related("game").get(game=game, token=token)


# How many hex digits of a hash an email names: the fewest `verify_game --head` accepts
# (games.store.verification.MIN_HEAD_DIGITS), 48 bits, enough that no other event of a game shares them.
FINGERPRINT_DIGITS = 12


def log_fingerprint(*, game_id: int, seq: int | None = None) -> str:
    """The short form (FINGERPRINT_DIGITS lower-case hex digits) of the hash of the game's event
    `seq` (None: its last event now): what emails name so that a player can later check, with
    `verify_game --head`, that the log still holds it. "" when the game has no such event. One
    indexed query."""
    events = Event.objects.filter(game_id=game_id)
    if seq is not None:
        events = events.filter(seq=seq)
    digest = events.order_by("-seq").values_list("hash", flat=True).first()
    return digest[:FINGERPRINT_DIGITS] if digest else ""


def seats_of(*, game: Game, user: Any) -> list[Seat]:
    """The seats of `game` that `user` plays (none for an anonymous user), in seating order. Read
    from `game.seats.all()`: no query when the game's seats were read with it (the game page's
    one query, `web.live.game_for_page`)."""
    if user is None or not user.is_authenticated:
        return []
    return sorted((s for s in game.seats.all() if s.user_id == user.pk), key=lambda s: s.position)


def table_events(*, game: Game) -> list[TableEvent]:
    """The game's table log (host actions), in order: public, like the rules' public events."""
    return list(TableEvent.objects.filter(game=game).order_by("seq"))


@dataclass(frozen=True)
class HistoryEntry:
    """One event as a viewer may see it.

    When `redacted` is False, (type, version, payload, visibility) are exactly what is stored, so
    the viewer can recompute `hash` (games.record.hashchain; the salt of a private event needs the seed,
    revealed at the end). When True, they are `rules.redact`'s version for the viewer.
    """

    seq: int
    type: str
    version: int
    payload: dict[str, Any]
    visibility: list[Any] | None
    redacted: bool
    recorded_at: datetime
    prev_hash: str
    hash: str

    def to_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "type": self.type,
            "version": self.version,
            "payload": self.payload,
            "visibility": self.visibility,
            "redacted": self.redacted,
            "recorded_at": self.recorded_at.isoformat(),
            "prev_hash": self.prev_hash,
            "hash": self.hash,
        }


def history_entry(row: Event, *, colour: str | None, complete: bool) -> HistoryEntry:
    """`row` as `colour` (None: a spectator) may see it; `complete` shows it whole (game over)."""
    shown = row.to_json()
    redacted = False
    if not complete:
        event = log.to_rules_event(row)
        seen = rules.redact(event, colour)
        if seen != event:
            shown = seen.to_json()
            redacted = True
    return HistoryEntry(
        seq=row.seq,
        type=shown["type"],
        version=shown["version"],
        payload=shown["payload"],
        visibility=shown["visibility"],
        redacted=redacted,
        recorded_at=row.recorded_at,
        prev_hash=row.prev_hash,
        hash=row.hash,
    )


def event_proof(row: Event, entry: HistoryEntry, *, game: Game) -> dict[str, Any] | None:
    """What the export adds so that `entry` (`row` as its viewer sees it) can be checked without
    the seed (games.record.hashchain): None for a public event; for a private one {"seq"} with, in a
    version-2 chain, "public" and "hidden_digest" (what its link hashes in place of the payload,
    so that every link can be recomputed from what anybody is shown), and "salt" while the game
    is in progress to a viewer shown the event whole (who knows the payload already), to check
    its hidden digest (version 2) or its hash (version 1) before the seed is revealed; and
    "version", the stored one, when the entry shows the event at a newer version (upcast): a
    link hashes the event as it was appended. `game` must have its seed and chain version
    loaded. Raises KeyError for a stored payload the rules cannot redact."""
    if row.visibility is None:
        return None
    proof: dict[str, Any] = {"seq": row.seq}
    if game.chain_version >= 2:
        hidden = hide(
            game.seed,
            seq=row.seq,
            type=row.type,
            version=row.version,
            payload=row.payload,
            visibility=row.visibility,
        )
        proof["public"], proof["hidden_digest"] = hidden.public, hidden.digest
    if not (game.is_over or entry.redacted):
        proof["salt"] = event_salt(game.seed, row.seq, row.visibility)
    if entry.version != row.version:
        proof["version"] = row.version  # shown upcast (rules.upcast): the link hashes it as stored
    return proof


def history_and_proofs(*, game: Game, colour: str | None) -> tuple[list[HistoryEntry], list[dict[str, Any]]]:
    """`history(game=, colour=)` and the `event_proof` of each of its private events that has
    one (the export's "proofs" → "events"), from one read of the log."""
    complete = game.is_over
    entries, proofs = [], []
    for row in Event.objects.filter(game=game).order_by("seq").iterator(chunk_size=500):
        entry = history_entry(row, colour=colour, complete=complete)
        entries.append(entry)
        proof = event_proof(row, entry, game=game)
        if proof is not None and len(proof) > 1:
            proofs.append(proof)
    return entries, proofs


def history(*, game: Game, colour: str | None) -> list[HistoryEntry]:
    """Every event of the game in seq order, as `colour` may see it (all of it once over)."""
    complete = game.is_over
    rows = Event.objects.filter(game=game).order_by("seq").iterator(chunk_size=500)
    return [history_entry(row, colour=colour, complete=complete) for row in rows]
