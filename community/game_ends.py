"""The games' ends log (`community.models.GameEnd`): one row per game that ended, appended in
the transaction that ended it; the ratings and the profiles fold it (docs/ratings.md).

A projection that folds rows in `id` order must never see a smaller id commit after a larger
one. The games' `Event` rows commit under each game's own lock, so in any order across games;
this log takes one transaction-level advisory lock on PostgreSQL when it appends (SQLite
serialises writers anyway), so its rows commit in `id` order. Games end rarely: the lock is
held only for the rest of one short transaction.
"""

from __future__ import annotations

from django.utils import timezone

from community.feeding import feed_after_commit
from community.models import GameEnd, SeatLeaver
from games.models import Game, SeatClock
from games.store import sql as store_sql

# The advisory lock's key (names "the games' ends log" among the locks; the gathering's is 0x1A150001).
GAME_ENDS_LOCK = 0x1A15_0002
# Rated tables: from 2 to 4 human seats (docs/ratings.md).
RATED_HUMANS = (2, 4)


def facts(game: Game) -> dict:
    """What the log keeps of the ended `game` (the shape in `GameEnd`'s docstring). A seat is
    "abandoned" when its stand-in still played it at the end; "left" lists the players who gave
    up a seat on the way (`SeatLeaver`) and hold none at the end. The game is rated when its
    table was proposed as rated and it had RATED_HUMANS human seats, counting with them, at
    the low end, the players who left."""
    stood_in = set(SeatClock.objects.filter(game=game, stand_in=True).values_list("seat_id", flat=True))
    seats = [
        {
            "colour": seat.colour,
            "player": None if seat.is_bot else seat.user_id,
            "bot": seat.bot_level if seat.is_bot else None,
            "abandoned": seat.pk in stood_in,
        }
        for seat in game.seats.order_by("position")
    ]
    holders = {seat["player"] for seat in seats if seat["player"] is not None}
    left = [
        {"colour": colour, "player": player}
        for colour, player in SeatLeaver.objects.filter(game_id=game.pk).values_list("colour", "player_id")
        if player not in holders
    ]
    proposal_rated = Game.objects.filter(pk=game.pk, proposal__rated=True).exists()
    low, high = RATED_HUMANS
    return {
        "winner": game.winner,
        "rated": proposal_rated and low <= len(holders) + len(left) and len(holders) <= high,
        "ended_at": timezone.now().isoformat(),
        "seats": seats,
        "left": left,
    }


def record(game: Game) -> GameEnd | None:
    """Append the end of `game` (over), once: inside the transaction that ended it, which holds
    the game's lock. Returns the row, or None when it was recorded already."""
    if GameEnd.objects.filter(game_id=game.pk).exists():
        return None
    store_sql.appends_in_commit_order(GAME_ENDS_LOCK)
    row = GameEnd.objects.create(game_id=game.pk, payload=facts(game))
    feed_after_commit()
    return row


def on_events_recorded(sender, *, game: Game, **_facts) -> None:
    """`games.play.signals.events_recorded` receiver: record the game's end when this append
    ended it (`Game.status` is set before the signal)."""
    if game.status == Game.Status.OVER:
        record(game)


def on_seat_handed_over(
    sender, *, game: Game, seat, previous_player: int | None = None, left: bool = False, **_facts
) -> None:
    """`games.play.signals.seat_handed_over` receiver: the player who held `seat` left it
    (`left`: they gave it up themselves, the host's own seat, or were absent when the host gave
    it away: `games.play.table.absent`): kept (`SeatLeaver`) to rank them last at the game's
    end, so that handing a losing seat away dodges no rating (docs/ratings.md). A present
    player whose seat the host gave away (a private unrated game's host may) keeps nothing:
    they are not rated for the game at all."""
    if previous_player is None or not left:
        return
    SeatLeaver.objects.get_or_create(
        game_id=game.pk, player_id=previous_player, defaults={"colour": seat.colour}
    )
