"""Who reads a game's page soon: the players whose pages the worker renders ahead after a move.

Rendering a player's page after each commit (`web.prerender`) makes their first view after a
move a cache hit, but it costs the worker about 30 ms of CPU a player and a move (docs/scaling.md),
and most players play by email and never open the page. So the worker renders ahead only for the
players who opened the game's page lately: the view notes a signed-in player when it had to build
their page itself (`note`: nothing was rendered ahead for them, or it expired), and the note lasts
`READER_SECONDS`, and so does a note that somebody reads the game's page (`read_games`): the
relay publishes the pages' task only for such a game. A player who never opens the page costs
the worker nothing after a move.

Of those, only the players the move asks to decide read its page soon: they are notified, and
answer. The others look later, if at all, and their first view builds the page (and keeps it,
`web.page_cache`) as any page missing from the cache is built. So `deciding_readers` gives the
noted players whose seat holds a decision opened since the worker's last run for the game (its
clock, `games.play.models.SeatClock`, opened at a later log length than that run read).

The notes live in the "prerendered" cache, shared by every process (Redis when the service has
one), next to the pages they stand for, with the log's length each game's last run read. They say
only that an account opened a game's page, and how long its public log was, which the server
knows anyway; nothing of them is shown to anybody.
"""

from __future__ import annotations

from django.conf import settings
from django.core.cache import caches

from games.models import SeatClock

# How long one opening of the page keeps a player's pages rendered ahead, in seconds: longer than
# the longest deadline (four days), so a player who looks at each of their turns stays noted.
READER_SECONDS = 30 * 24 * 3600


def _key(game_id: int, user_id: int) -> str:
    return f"reader:{game_id}:{user_id}"


def _game_key(game_id: int) -> str:
    return f"read-game:{game_id}"


def note(*, game_id: int, user_id: int) -> None:
    """Note that the account `user_id` opened the page of the game `game_id` (for READER_SECONDS),
    and that somebody reads that game's page (`read_games`); nothing with the speed layers off
    (settings.SPEED_LAYERS): no page is rendered ahead then."""
    if not settings.SPEED_LAYERS:
        return
    caches["prerendered"].set_many({_key(game_id, user_id): 1, _game_key(game_id): 1}, READER_SECONDS)


def read_games(game_ids: list[int]) -> set[int]:
    """The games among `game_ids` whose page a player opened in the last READER_SECONDS (`note`):
    the others' pages are not rendered ahead, so the relay publishes no task for them. One cache
    read. Should the cache fail, all of them (their task finds out, as it did before)."""
    if not game_ids:
        return set()
    try:
        found = caches["prerendered"].get_many([_game_key(game_id) for game_id in game_ids])
    except Exception:  # the cache is down: the task of each game asks it again
        return set(game_ids)
    return {game_id for game_id in game_ids if _game_key(game_id) in found}


def _run_key(game) -> str:
    # The seed commitment too: a game id reused by another database never reads this game's.
    return f"ahead-run:{game.pk}:{game.seed_commitment}"


def deciding_readers(*, game, seq: int) -> set[int] | None:
    """The user ids of `game`'s players (its seats, read already: `game.seats.all()`) who are noted
    readers of its page (`note`) and whose seat holds a decision opened since the last call for
    the game that found a reader (its clock's `seq` above the `seq` that call was given; any open
    decision when there was none, or it is older than READER_SECONDS), then remembers `seq` (the
    log's length the caller read) for the next call; None when no player is a noted reader
    (nothing of the game's is kept ahead then). One cache read; with a noted reader, one query of
    the clocks and one cache write. Two calls at once may both remember theirs: the
    earlier `seq` only makes the next call give more players, never fewer."""
    seats = {s.pk: s.user_id for s in game.seats.all() if not s.is_bot and s.user_id is not None}
    wanted = {_key(game.pk, user_id): user_id for user_id in seats.values()}
    if not wanted:
        return None
    run_key = _run_key(game)
    found = caches["prerendered"].get_many([run_key, *wanted])
    noted = {wanted[key] for key in found if key != run_key}
    if not noted:
        return None
    clocks = SeatClock.objects.filter(
        game_id=game.pk, seat_id__in=[pk for pk, user_id in seats.items() if user_id in noted]
    )
    since = found.get(run_key)
    clocks = clocks.filter(seq__gt=since) if since is not None else clocks.filter(seq__isnull=False)
    opened = {seats[seat_id] for seat_id in clocks.values_list("seat_id", flat=True)}
    caches["prerendered"].set(run_key, seq, READER_SECONDS)
    return opened
