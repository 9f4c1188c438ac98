"""Reads: what a page, an email or an export may show of a game, to whom.

Hidden information leaves the server only through the rules' doors: `rules.render_board(state,
colour)`, `rules.redact(event, colour)` and the seat's own decisions and legal commands. A
`colour` of None is a spectator. Once the game is over everything is public, the seed included.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet

from games import rules, store
from games.descriptions import describe_command
from games.hashchain import canonical_json
from games.models import Event, Game, Seat

# How many legal commands a seat's page lists as choices (the free-form field takes any other).
MAX_LISTED_COMMANDS = 500


def game_list() -> QuerySet[Game]:
    """All games, newest first, with their seats."""
    return Game.objects.prefetch_related("seats")


def game_get(*, game_id: int) -> Game:
    """The game `game_id`; raises Game.DoesNotExist."""
    return Game.objects.get(pk=game_id)


def seat_get(*, game: Game, token: str) -> Seat:
    """The seat of `game` whose secret token is `token`; raises Seat.DoesNotExist."""
    return Seat.objects.select_related("game").get(game=game, token=token)


@dataclass(frozen=True)
class CommandChoice:
    """A legal command as a page lists it: `value` is its canonical JSON, `label` its description."""

    value: str
    label: str


@dataclass(frozen=True)
class SeatView:
    """What a seat's page shows.

    seq: the log's length the page was made against (sent back as the command's expected_seq).
    board: `rules.render_board(state, colour)`. decisions: the seat's pending `rules.Decision`s.
    choices: its legal commands (at most MAX_LISTED_COMMANDS); more_choices: how many were left
    out. waiting_for: (colour, decision kind) of every pending decision at the table.
    """

    game: Game
    seat: Seat
    seq: int
    board: str
    decisions: list
    choices: list[CommandChoice]
    more_choices: int
    waiting_for: list[tuple[str, str]]
    winner: str | None


def seat_view(*, game: Game, seat: Seat) -> SeatView:
    """The seat's page as of now."""
    state, seq = store.load(game)
    pending = rules.pending(state)
    commands = rules.legal_commands(state, seat.colour)
    choices = [
        CommandChoice(value=canonical_json(command), label=describe_command(state, command))
        for command in commands[:MAX_LISTED_COMMANDS]
    ]
    return SeatView(
        game=game,
        seat=seat,
        seq=seq,
        board=rules.render_board(state, seat.colour),
        decisions=[d for d in pending if d.seat == seat.colour],
        choices=choices,
        more_choices=max(0, len(commands) - len(choices)),
        waiting_for=[(d.seat, d.kind) for d in pending],
        winner=state.winner if rules.is_over(state) else None,
    )


@dataclass(frozen=True)
class PublicView:
    """What anybody may see of a game: the board as a spectator sees it, who is to decide."""

    game: Game
    seq: int
    board: str
    waiting_for: list[tuple[str, str]]
    winner: str | None


def public_view(*, game: Game) -> PublicView:
    """The public page of a game as of now."""
    state, seq = store.load(game)
    return PublicView(
        game=game,
        seq=seq,
        board=rules.render_board(state, None),
        waiting_for=[(d.seat, d.kind) for d in rules.pending(state)],
        winner=state.winner if rules.is_over(state) else None,
    )


@dataclass(frozen=True)
class HistoryEntry:
    """One event as a viewer may see it.

    When `redacted` is False, (type, version, payload, visibility) are exactly what is stored, so
    the viewer can recompute `hash` (games.hashchain; the salt of a private event needs the seed,
    revealed at the end). When True, they are `rules.redact`'s version for the viewer.
    """

    seq: int
    type: str
    version: int
    payload: dict
    visibility: list | None
    redacted: bool
    recorded_at: datetime
    prev_hash: str
    hash: str

    def to_json(self) -> dict:
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
        event = store.to_rules_event(row)
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


def history(*, game: Game, colour: str | None) -> list[HistoryEntry]:
    """Every event of the game in seq order, as `colour` may see it (all of it once over)."""
    complete = game.is_over
    rows = Event.objects.filter(game=game).order_by("seq").iterator(chunk_size=500)
    return [history_entry(row, colour=colour, complete=complete) for row in rows]
