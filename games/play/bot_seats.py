"""Bot seats: the bots of `games.bots` (levels random, easy, hard, strong) playing through `submit_command`
(the Celery task that runs it after a commit is `games.play.tasks.play_bots`).

A bot's choices come from a generator derived from the game's seed, its colour and the seq, so a
game of bots replays identically for a seed, and two workers that compute the same bot move send
the same command under the same idempotency key (`bot:<colour>:<seq>`): it is applied once.

A bot thinks on a loaded state, outside any transaction and without the game's row lock (a hard
bot thinks for up to a few seconds), then submits its command with the seq it thought on, like a
player. When the game moved on meanwhile and the command no longer fits, it thinks again on the
new state.
"""

from __future__ import annotations

import logging
import time
from datetime import timedelta

from django.conf import settings
from django.db.models import OuterRef, Subquery
from django.utils import timezone

from games import bots, rules, store
from games.play.commands import SEAT_CHANGED, submit_command_and_fold
from games.store.models import Event, Game, Seat

logger = logging.getLogger(__name__)


class BotError(Exception):
    """A bot's command was refused by the rules on the very state it decided on: `games.bots`
    and `decide` disagree."""


# Times a bot thinks again when the game moved on while it thought and its command was refused.
MAX_RETHINKS = 5


def bot_rng(game: Game, colour: str, seq: int):
    """The bot's generator for its decision at `seq` (a different stream from the game's draws)."""
    return rules.rng_for(f"{game.seed}:bot:{colour}", seq)


def strong_budget() -> bots.Budget:
    """The strong bot's budget a decision, from the settings `BOT_STRONG_MS` (CPU milliseconds)
    and `BOT_STRONG_ITERATIONS` (0: no bound but the time)."""
    return bots.Budget(
        seconds=settings.BOT_STRONG_MS / 1000, iterations=settings.BOT_STRONG_ITERATIONS or None
    )


def bot_command(game: Game, colour: str, level: str, state, seq: int) -> dict:
    """The command of the bot playing `colour` at `level` (`games.bots.LEVELS`) on `state`, the
    game's state at `seq`: `games.bots.choose`, which reads only what `colour` may see. CPU:
    up to about a second at "hard", `BOT_STRONG_MS` at "strong" (bench/bots.py); call it
    outside the game's row lock. Bounded by time alone, two workers' strong bots may choose
    differently: the command keyed `bot:<colour>:<seq>` first appended is the one played."""
    return bots.choose(state, colour, level, bot_rng(game, colour, seq), strong_budget())


def bot_seats_pending(game: Game, state) -> list[Seat]:
    """The bot seats that have a decision pending in `state`, in seating order (the seats come
    from `game.seats.all()`: no query after an append, which leaves them in the game's cache)."""
    bots = [seat for seat in game.seats.all() if seat.is_bot]
    if not bots:  # most games: no need to work out the pending decisions (after every append)
        return []
    waiting = {decision.seat for decision in rules.pending(state)}
    return [seat for seat in bots if seat.colour in waiting]


def play_bots(
    game: Game, *, max_commands: int, max_rounds: int | None = None, think_times: dict | None = None
) -> int:
    """Submit bot commands until no bot seat has a decision pending, `max_commands` were accepted,
    or (with `max_rounds`) the game has gone past that round (`state.round`): random play can go
    on for ever, so a bound keeps every caller finite.

    Each bot seat plays at its `bot_level`; with `think_times` (a dict), the CPU seconds of each
    bot decision are appended to `think_times[level]`. A bot's move is its seat's holder's
    (`submit_command`'s by_holder): a seat the host gave to a player while the bot thought is
    not played. Returns the number of commands accepted. Raises
    BotError when the rules refuse a bot's command on the state it decided on (nothing is
    written for it).
    """
    accepted = 0
    rethinks = 0
    loaded = store.load(game)
    while accepted < max_commands:
        state, seq = loaded
        if max_rounds is not None and state.round > max_rounds:
            break
        waiting = bot_seats_pending(game, state)
        if not waiting:
            break
        seat = waiting[0]
        started = time.process_time()
        command = bot_command(game, seat.colour, seat.bot_level, state, seq)
        if think_times is not None:
            think_times.setdefault(seat.bot_level, []).append(time.process_time() - started)
        result, after = submit_command_and_fold(
            game=game,
            seat=seat,
            command=command,
            expected_seq=seq,
            command_id=f"bot:{seat.colour}:{seq}",
            play_bots=False,
            loaded=loaded,
            by_holder=True,
        )
        if not result.accepted and result.error_kind == SEAT_CHANGED and rethinks < MAX_RETHINKS:
            # The host gave the seat to a player (or another bot) while the bot thought: the move
            # is no longer its. Read the seats again; a seat still a bot's is thought on afresh.
            rethinks += 1
            game = Game.objects.get(pk=game.pk)  # without the seats read before
            loaded = store.load(game)
            continue
        if not result.accepted and result.seq != seq and rethinks < MAX_RETHINKS:
            # The game moved on while the bot thought, and its command no longer fits: think again.
            rethinks += 1
            loaded = store.load(game)
            continue
        if not result.accepted:
            raise BotError(
                f"{game}: the rules refused {seat.colour}'s bot command {command!r} "
                f"at seq {seq}: {result.message}"
            )
        accepted += 0 if result.duplicate else 1
        # After a duplicate (another worker sent the same move) the state is not known: reload.
        loaded = (after, after.seq) if after is not None else store.load(game)
    return accepted


def games_waiting_for_bots(*, older_than_seconds: int, now=None) -> list[int]:
    """Ids of the games in progress where a bot seat has a decision pending and nothing was
    recorded for `older_than_seconds` (seconds): the bot's move, enqueued after the commit that
    gave it the decision, was lost (the broker was down) or never ran.

    The caller plays them again (`games.play.tasks.play_bots`); a move that was only late is applied
    once all the same, keyed `bot:<colour>:<seq>` and appended with its expected seq. Costs one
    state load (from the latest snapshot) per game in progress with a bot seat and no event for
    that long. A game whose log cannot be read is logged and left out.
    """
    cutoff = (now or timezone.now()) - timedelta(seconds=older_than_seconds)
    latest = Event.objects.filter(game=OuterRef("pk")).order_by("-seq").values("recorded_at")[:1]
    candidates = (
        Game.objects.filter(status=Game.Status.ACTIVE, seats__is_bot=True)
        .distinct()
        .annotate(last_event=Subquery(latest))
        .filter(last_event__lte=cutoff)
        .prefetch_related("seats")
        .order_by("pk")
    )
    waiting = []
    for game in candidates:
        try:
            state, _seq = store.load(game)
        except store.StoreError:
            logger.exception("%s cannot be read: its bot seats are not played", game)
            continue
        if bot_seats_pending(game, state):
            waiting.append(game.pk)
    return waiting
