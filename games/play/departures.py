"""The play room's part of a person's data (docs/privacy.md): their seats, moves, orders and
finished games for their archive; their seats and what they hosted, when they are erased.

Registered as a personal data holder (`players.personal_data`) in `GamesConfig.ready()`.
"""

from __future__ import annotations

from django.db.models import Q

from games.play.models import StandingOrder
from games.play.table import seat_left
from games.store.exports import export_game
from games.store.models import Command, Game, Seat
from players.personal_data import Person


def erase_seats(person: Person) -> None:
    """Every seat of `person` (by account or by address) is left (`table.seat_left`: "Player N
    (left)", the stand-in bot in a game in progress), in order of game (the lock order); the
    games they hosted keep no host (nobody may use the host tools). In the caller's transaction."""
    seats = Seat.objects.filter(Q(user_id=person.user_id) | Q(email=person.email), is_bot=False)
    for seat in seats.order_by("game_id", "position"):
        seat_left(seat=seat)
    Game.objects.filter(host_id=person.user_id).update(host=None)


def _their_seats(person: Person):
    return Seat.objects.filter(Q(user_id=person.user_id) | Q(email=person.email)).select_related("game")


def collect_seats(person: Person) -> dict[str, object]:
    """`person`'s part of their archive (`players.archive`): "seats.json" (each seat, its game
    and its moves as recorded), "standing_orders.json", and "games/<number>.json", the export of
    each finished game as their seat sees it."""
    seats = list(_their_seats(person).order_by("game_id", "position"))
    files: dict[str, object] = {
        "seats.json": [
            {
                "game": seat.game_id,
                "colour": seat.colour,
                "game_status": seat.game.status,
                "moves": [
                    {"command": c.body, "against_log_length": c.client_seq, "at": c.accepted_at.isoformat()}
                    for c in Command.objects.filter(seat=seat).order_by("first_seq")
                ],
            }
            for seat in seats
        ],
        "standing_orders.json": [
            {"game": order.seat.game_id, "colour": order.seat.colour, "kind": order.kind, "order": order.body}
            for order in StandingOrder.objects.filter(seat__in=seats).select_related("seat")
        ],
    }
    for seat in seats:
        if seat.game.is_over:
            files[f"games/{seat.game_id}.json"] = export_game(game=seat.game, colour=seat.colour)
    return files
