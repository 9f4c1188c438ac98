"""Games whose set-up ended on a forced decision that nobody played: the sweep plays it.

Before aded251, `create_game` did not play the forced moves that follow the set-up (a 2-player
island whose other starting territory is the Swamp leaves the Brenn one possible Capital, ruling
U15): the clocks counted that decision as forced, so nobody was asked, and nothing played it. Such
a game has no command and no open clock of a player seat. The sweep (`inis_pbem.tasks.sweep`)
plays its forced moves as the command path would (`play_forced_moves`), so that a game stalled so
goes on by itself after an upgrade (docs/rulings.md, "Forced moves").
"""

from __future__ import annotations

from django.db import transaction
from django.db.models import Exists, OuterRef

from games import store
from games.play.commands import play_forced_moves
from games.play.models import SeatClock
from games.store.models import Command, Game, Seat


def restart_stalled_set_ups() -> int:
    """Play the forced moves of every game in progress that has a player seat, no command and no
    open clock of a player seat (one query to find them; each found is locked, loaded and played
    in a transaction of its own). Returns how many games moved on (a game waiting for a bot's
    first move, the only other such game, is left as it is)."""
    stalled = (
        Game.objects.filter(status=Game.Status.ACTIVE)
        .filter(Exists(Seat.objects.filter(game=OuterRef("pk"), is_bot=False)))
        .exclude(Exists(Command.objects.filter(game=OuterRef("pk"))))
        .exclude(Exists(SeatClock.objects.filter(game=OuterRef("pk"), seq__isnull=False)))
    )
    moved = 0
    for game in stalled:
        with transaction.atomic():
            locked, _seq, _hash = store.lock(game)
            state, _head = store.load(locked)
            if play_forced_moves(locked, state, play_bots=True) is not None:
                moved += 1
    return moved
