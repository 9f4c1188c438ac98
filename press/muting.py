"""Table talk a reader blocked (docs/press.md, "Blocked players"): a player who blocked another
(`players.blocks`) no longer reads that player's talk, on the game page, in emails and in digest
lines. Hidden when shown only: the talk's log, its chain and the exports are unchanged, and the
other players read every message as before.
"""

from __future__ import annotations

from games.models import Game, Seat
from players.blocks import blocked_by, blocks


def muted_colours(game: Game, seat: Seat | None) -> set[str]:
    """The colours of `game` whose talk the player of `seat` (None: a visitor) does not read:
    the seats of the accounts they blocked (never their own). One query when they blocked
    nobody, two otherwise."""
    if seat is None or seat.user_id is None:
        return set()
    blocked = blocked_by(seat.user_id)
    if not blocked:
        return set()
    return {s.colour for s in game.seats.all() if s.user_id in blocked and s.colour != seat.colour}


def mutes(reader: Seat, sender: Seat | None) -> bool:
    """Whether the player of `reader` blocked the player of `sender` (their seats at one game)."""
    if sender is None or reader.user_id is None or sender.user_id is None:
        return False
    return reader.user_id != sender.user_id and blocks(reader.user_id, sender.user_id)
