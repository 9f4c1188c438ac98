"""Arguments shared by the game management commands: a game id, a seat colour."""

from __future__ import annotations

from django.core.management.base import CommandError

from games.models import COLOURS, Game, Seat


def add_game_argument(parser) -> None:
    parser.add_argument("game", type=int, help="the game's id (as printed by create_game)")


def add_as_argument(parser) -> None:
    parser.add_argument(
        "--as",
        dest="colour",
        choices=COLOURS,
        default=None,
        help="see the game as this seat sees it (default: as a spectator)",
    )


def get_game(game_id: int) -> Game:
    """The game, or CommandError("no game N")."""
    try:
        return Game.objects.get(pk=game_id)
    except Game.DoesNotExist:
        raise CommandError(f"There is no game {game_id}.") from None


def get_seat(game: Game, colour: str | None) -> Seat | None:
    """The seat of `colour` (None: None), or CommandError when nobody plays it at this game."""
    if colour is None:
        return None
    try:
        return game.seats.get(colour=colour)
    except Seat.DoesNotExist:
        colours = ", ".join(game.seats.values_list("colour", flat=True))
        raise CommandError(f"Nobody plays {colour} in game {game.pk} (seats: {colours}).") from None
