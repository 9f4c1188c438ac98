"""Community: the bots' ratings on the players' scale (docs/ratings.md, "The bots' ratings").

Games of three seats, a random, an easy and a hard bot (`bench.bots.play_game`: the rules alone,
no database), the seats turned by one place each game, are rated one after the other with the
function that rates the players' games (`community.ratings.rate`, the same ranking: the winner
first, the others tied; a game still going after `bench.bots.MAX_ROUNDS` rounds, all tied). Each
level is one player of the scale. Prints each level's figure (mu - 3 sigma), mu and sigma.

    .venv/bin/python -m bench.bot_ratings [--games N]      (default 30: hours of CPU with the hard bot)

Not part of `python -m bench`: the hard bot's games take too long for the whole run.
"""

from __future__ import annotations

import argparse
import os
import sys

LEVELS = ("random", "easy", "hard")
GAMES = 30
# The bots' accounts on the scale: negative, so that no player's account is one of them.
BOT_IDS = {level: -(n + 1) for n, level in enumerate(LEVELS)}


def rate_bot_games(games: int) -> dict:
    """Play `games` games and rate them in order; returns {level: Rating}."""
    from bench.bots import play_game
    from community.ratings import rate

    ratings: dict = {}
    for i in range(games):
        turn = i % len(LEVELS)
        levels = list(LEVELS[turn:]) + list(LEVELS[:turn])
        winner, _rounds = play_game(levels, f"bot-ratings-{i}", {})
        placed = {BOT_IDS[level]: 1 if winner in (None, level) else 2 for level in levels}
        ratings.update(rate(ratings, placed))
    return {level: ratings[BOT_IDS[level]] for level in LEVELS}


def run(games: int) -> list:
    """One row (bench.table.Row) a level: its figure, with mu and sigma in the note."""
    from bench.table import Row

    return [
        Row(
            "community",
            f"{level} bot's rating",
            round(rating.ordinal),
            "points",
            note=f"mu {rating.mu:.0f}, sigma {rating.sigma:.0f}, {rating.games} games of random, easy and hard",
        )
        for level, rating in rate_bot_games(games).items()
    ]


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=GAMES)
    args = parser.parse_args(argv)
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "inis_pbem.settings")
    import django

    django.setup()  # `community.ratings` reads a model module
    from bench.table import markdown

    print(markdown(run(args.games)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
