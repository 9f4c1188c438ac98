"""Table talk a reader blocked (docs/press.md, "Blocked players"): a player who blocked another
(`players.blocks`) no longer reads that player's talk, on the game page, in emails and in digest
lines, whether they sit at the game or watch it (a signed-in spectator). Hidden when shown only: the talk's log, its chain and the exports are unchanged, and the
other players read every message as before.
"""

from __future__ import annotations

from games.models import Game, Seat
from players.blocks import blocked_by, blocks


def muted_colours(game: Game, seat: Seat | None, viewer_id: int | None = None) -> set[str]:
    """The colours of `game` whose talk its reader does not read: the seats of the accounts they
    blocked (never their own). The reader is the player of `seat`, or, for no seat or a seat
    without an account (a seat link), the signed-in `viewer_id` (None: a visitor, who blocked
    nobody). One query when they blocked nobody, two otherwise; none when Django's cache holds
    whom they blocked (`players.blocks.blocked_by`)."""
    reader_id = seat.user_id if seat is not None and seat.user_id is not None else viewer_id
    if reader_id is None:
        return set()
    blocked = blocked_by(reader_id)
    if not blocked:
        return set()
    return {s.colour for s in game.seats.all() if s.user_id in blocked and s.user_id != reader_id}


def mutes(reader: Seat, sender: Seat | None) -> bool:
    """Whether the player of `reader` blocked the player of `sender` (their seats at one game)."""
    if sender is None or reader.user_id is None or sender.user_id is None:
        return False
    return reader.user_id != sender.user_id and blocks(reader.user_id, sender.user_id)
