"""The play room's part of erasing a person (docs/privacy.md): their seats and what they hosted.

Registered as a personal data holder (`players.personal_data`) in `GamesConfig.ready()`.
"""

from __future__ import annotations

from django.db.models import Q

from games.play.table import seat_left
from games.store.models import Game, Seat
from players.personal_data import Person


def erase_seats(person: Person) -> None:
    """Every seat of `person` (by account or by address) is left (`table.seat_left`: "Player N
    (left)", the stand-in bot in a game in progress), in order of game (the lock order); the
    games they hosted keep no host (nobody may use the host tools). In the caller's transaction."""
    seats = Seat.objects.filter(Q(user_id=person.user_id) | Q(email=person.email), is_bot=False)
    for seat in seats.order_by("game_id", "position"):
        seat_left(seat=seat)
    Game.objects.filter(host_id=person.user_id).update(host=None)
