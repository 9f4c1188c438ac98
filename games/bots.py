"""Bot seats: the random-legal-move bot (`rules.bot_command`) playing through `submit_command`.

A bot's choices come from a generator derived from the game's seed, its colour and the seq, so a
game of bots replays identically for a seed, and two workers that compute the same bot move send
the same command under the same idempotency key (`bot:<colour>:<seq>`): it is applied once.
"""
from __future__ import annotations

import logging

from games import rules, store
from games.models import Game
from games.services import bot_seats_pending, submit_command_and_fold

logger = logging.getLogger(__name__)


class BotError(Exception):
    """A bot's command was refused by the rules: `rules.bot_command` and `decide` disagree."""


def bot_rng(game: Game, colour: str, seq: int):
    """The bot's generator for its decision at `seq` (a different stream from the game's draws)."""
    return rules.rng_for(f"{game.seed}:bot:{colour}", seq)


def play_bots(game: Game, *, max_commands: int, max_rounds: int | None = None) -> int:
    """Submit bot commands until no bot seat has a decision pending, `max_commands` were accepted,
    or (with `max_rounds`) the game has gone past that round (`state.round`): random play can go
    on for ever, so a bound keeps every caller finite.

    Returns the number of commands accepted. Raises BotError when the rules refuse a bot's
    command (nothing is written for it).
    """
    accepted = 0
    loaded = store.load(game)
    while accepted < max_commands:
        state, seq = loaded
        if max_rounds is not None and state.round > max_rounds:
            break
        bots = bot_seats_pending(game, state)
        if not bots:
            break
        seat = bots[0]
        command = rules.bot_command(state, seat.colour, bot_rng(game, seat.colour, seq))
        result, after = submit_command_and_fold(
            game=game, seat=seat, command=command, expected_seq=seq,
            command_id=f"bot:{seat.colour}:{seq}", play_bots=False, loaded=loaded,
        )
        if not result.accepted:
            raise BotError(f"{game}: the rules refused {seat.colour}'s bot command {command!r} "
                           f"at seq {seq}: {result.message}")
        accepted += 0 if result.duplicate else 1
        # After a duplicate (another worker sent the same move) the state is not known: reload.
        loaded = (after, after.seq) if after is not None else store.load(game)
    return accepted
