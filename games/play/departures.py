"""The play room's part of a person's data (docs/privacy.md): their seats, moves, orders,
finished games and the table channels of the games they host for their archive; their seats and
what they hosted (the host's place, the table channels they set), when they are erased.

A seat may change hands during a game (the host's `table.seat_replace`, or a player erasing
their account), and what was done at it is then its players' one after another, not the seat's:
`holdings` says when each person held each of their seats, which bounds the moves their archive
gives them here and the private table talk they read (`press.selectors`, docs/press.md, "When a
seat changes hands").

Registered as a personal data holder (`players.personal_data`) in `GamesConfig.ready()`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from datetime import datetime

from django.db.models import Q, QuerySet

from games.play.models import StandingOrder, TableChannel
from games.play.table import seat_left, table_channel_stopped
from games.store.exports import export_game
from games.store.models import Command, Game, Seat, TableEvent
from players.personal_data import Person

# The table log's acts that give a seat to somebody else (docs/table-log.md).
HAND_OVERS = ("SeatReplaced", "PlayerLeft")

# (since, until): the time between two hand-overs of a seat; None for the game's start and for
# "not handed over since". A moment t is in it when since < t <= until.
Span = tuple[datetime | None, datetime | None]


@dataclass(frozen=True)
class Holding:
    """When one person held one seat: `spans`, oldest first (a person given the same seat back
    holds it in two spans); `user_id`, their account (None for a seat held by address alone).
    What happened at the seat within the spans is theirs; the table talk they wrote is theirs
    whenever it was written (`press.selectors`)."""

    spans: tuple[Span, ...]
    user_id: int | None = None

    @classmethod
    def all_along(cls, user_id: int | None = None) -> Holding:
        """The whole game: a seat that never changed hands, or a message being written now, which
        the seat's holder now reads."""
        return cls(spans=((None, None),), user_id=user_id)

    def covers(self, at: datetime) -> bool:
        """Whether the moment `at` is in one of the spans."""
        return any(
            (since is None or since < at) and (until is None or at <= until) for since, until in self.spans
        )

    @property
    def until(self) -> datetime | None:
        """When they handed the seat over for the last time; None while it is theirs."""
        return self.spans[-1][1] if self.spans else None


def hand_overs(game_id: int) -> dict[str, list[datetime]]:
    """{colour: when its seat changed hands, oldest first} in game `game_id`, from the table log:
    the host gave it to another player or to the bot (`SeatReplaced`), or its player erased their
    account (`PlayerLeft`). A colour that never changed hands is missing. One query."""
    return hand_overs_in([game_id]).get(game_id, {})


def hand_overs_in(game_ids: Iterable[int]) -> dict[int, dict[str, list[datetime]]]:
    """{game id: `hand_overs` of that game} for the games `game_ids`; a game whose seats never
    changed hands is missing. One query, however many games (a profile page reads them all)."""
    found: dict[int, dict[str, list[datetime]]] = {}
    events = TableEvent.objects.filter(game_id__in=list(game_ids), type__in=HAND_OVERS).order_by(
        "game_id", "seq"
    )
    for event in events.only("game_id", "payload", "recorded_at"):
        found.setdefault(event.game_id, {}).setdefault(event.payload["seat"], []).append(event.recorded_at)
    return found


def _span_at(cuts: list[datetime], at: datetime) -> Span:
    """The span between the hand-overs `cuts` (oldest first) that holds the moment `at`."""
    since = max((cut for cut in cuts if cut < at), default=None)
    until = min((cut for cut in cuts if cut >= at), default=None)
    return since, until


def held_since(game_id: int, colour: str) -> datetime | None:
    """When the seat `colour` of game `game_id` last changed hands (None: never). One query."""
    cuts = hand_overs(game_id).get(colour, [])
    return cuts[-1] if cuts else None


def current_holding(seat: Seat) -> Holding:
    """The time `seat`'s player now (its `user`) has held it: since it last changed hands, or the
    whole game. One query (the table log)."""
    return Holding(spans=((held_since(seat.game_id, seat.colour), None),), user_id=seat.user_id)


# Rooms above this one that keep traces of a person at a seat give them here (`register_traces`):
# the table log says when a seat changed hands, never to whom, so a seat somebody handed over is
# known to be theirs by what they left at it (the table talk: their talk keys and messages).
_TRACES: list[Callable[[Person], Iterable[tuple[int, datetime]]]] = []


def register_traces(traces: Callable[[Person], Iterable[tuple[int, datetime]]]) -> None:
    """Add `traces(person)`: (seat id, a moment `person` held that seat) pairs, from a room's
    AppConfig.ready(). Registering the same function again changes nothing."""
    if traces not in _TRACES:
        _TRACES.append(traces)


def _traced(person: Person) -> dict[int, list[datetime]]:
    """{seat id: moments `person` held it}, from the registered traces (one or two queries each)."""
    moments: dict[int, list[datetime]] = {}
    for traces in _TRACES:
        for seat_id, at in traces(person):
            moments.setdefault(seat_id, []).append(at)
    return moments


def _held_now(person: Person) -> Q:
    """The seats `person` holds now, by account or by address."""
    return Q(user_id=person.user_id) | Q(email=person.email) if person.email else Q(user_id=person.user_id)


def seats_held(person: Person) -> QuerySet[Seat]:
    """The seats `person` holds (by account or by address) or held before they changed hands (by
    the registered traces), at any time of their games: who sat at a game (docs/profiles.md,
    "Hiding a profile"). The traces are read now; the seats are a query not yet run."""
    return Seat.objects.filter(_held_now(person) | Q(pk__in=list(_traced(person))))


def holdings(person: Person) -> list[tuple[Seat, Holding]]:
    """Every seat `person` holds (by account or by address) or held before it changed hands (by
    the registered traces), with when it was theirs, in order of game and seat. A seat they hold
    is theirs since it last changed hands, and in each earlier span a trace of theirs falls in.
    Two queries, and the traces' (a profile page reads it)."""
    moments = _traced(person)
    seats = list(
        Seat.objects.filter(_held_now(person) | Q(pk__in=moments))
        .select_related("game")
        .order_by("game_id", "position")
    )
    cuts_of = hand_overs_in({seat.game_id for seat in seats})
    found = []
    for seat in seats:
        cuts = cuts_of.get(seat.game_id, {}).get(seat.colour, [])
        spans = {_span_at(cuts, at) for at in moments.get(seat.pk, [])}
        if seat.user_id == person.user_id or (person.email and seat.email == person.email):
            spans.add((cuts[-1] if cuts else None, None))
        ordered = sorted(spans, key=lambda span: span[0].timestamp() if span[0] else float("-inf"))
        found.append((seat, Holding(spans=tuple(ordered), user_id=person.user_id)))
    return found


def erase_seats(person: Person) -> None:
    """Every seat of `person` (by account or by address) is left (`table.seat_left`: "Player N
    (left)", the stand-in bot in a game in progress); the games they hosted keep no host (nobody
    may use the host tools) and no table channel (a chat address only the host sets,
    `table.table_channel_set`: it would go on getting every move; the history says it stopped,
    `table.table_channel_stopped`). In the caller's transaction.

    The games of the seats and the hosted games are locked first, together, in order of game
    (the lock order): two players erased at once, each hosting a game the other plays in, would
    otherwise each hold the game the other waits for."""
    seats = Seat.objects.filter(Q(user_id=person.user_id) | Q(email=person.email), is_bot=False)
    changed = Game.objects.filter(Q(pk__in=seats.values("game_id")) | Q(host_id=person.user_id))
    list(changed.select_for_update().order_by("pk").values_list("pk", flat=True))
    for seat in seats.order_by("game_id", "position"):
        seat_left(seat=seat)
    for game in Game.objects.filter(host_id=person.user_id, table_channel__isnull=False).order_by("pk"):
        table_channel_stopped(game=game, by="host_left")
    Game.objects.filter(host_id=person.user_id).update(host=None)


def collect_seats(person: Person) -> dict[str, object]:
    """`person`'s part of their archive (`players.archive`): "seats.json" (each seat they held,
    its game, "handed_over_at" (ISO 8601; None while the seat is theirs) and their moves as
    recorded: the commands of their time at it, `holdings`), "standing_orders.json" (of the
    seats they hold), and "games/<number>.json", the export of each finished game as their seat
    sees it (a seat they handed over: as a spectator sees it, their private talk being in
    "talk.json"); "table_channels.json", the table channel of each game they host (its game,
    the chat address they set, which may hold the chat service's secret, its language and when
    it was set, ISO 8601)."""
    held = holdings(person)
    files: dict[str, object] = {
        "seats.json": [
            {
                "game": seat.game_id,
                "colour": seat.colour,
                "game_status": seat.game.status,
                "handed_over_at": holding.until.isoformat() if holding.until else None,
                "moves": [
                    {"command": c.body, "against_log_length": c.client_seq, "at": c.accepted_at.isoformat()}
                    for c in Command.objects.filter(seat=seat).order_by("first_seq")
                    if holding.covers(c.accepted_at)
                ],
            }
            for seat, holding in held
        ],
        "standing_orders.json": [
            {"game": order.seat.game_id, "colour": order.seat.colour, "kind": order.kind, "order": order.body}
            for order in StandingOrder.objects.filter(
                seat__in=[seat for seat, holding in held if holding.until is None]
            ).select_related("seat")
        ],
        "table_channels.json": [
            {
                "game": channel.game_id,
                "address": channel.url,
                "language": channel.language,
                "set_at": channel.created_at.isoformat(),
            }
            for channel in TableChannel.objects.filter(game__host_id=person.user_id).order_by("game_id")
        ],
    }
    for seat, holding in held:
        if seat.game.is_over:
            viewer = seat.colour if holding.until is None else None
            files[f"games/{seat.game_id}.json"] = export_game(game=seat.game, colour=viewer)
    return files
