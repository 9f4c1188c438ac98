"""manage.py export_game — the JSON export of a game (docs/management-commands.md)."""

from __future__ import annotations

import json

from django.core.management.base import BaseCommand, CommandError

from games.management.game_arguments import add_as_argument, add_game_argument, get_game, get_seat
from games.store.exports import export_game


class Command(BaseCommand):
    help = (
        "Print a game's export (JSON): events redacted for the seat given with --as (or a "
        "spectator) unless the game is over, when it is complete and shows the seed."
    )

    def add_arguments(self, parser):
        add_game_argument(parser)
        add_as_argument(parser)
        parser.add_argument("--output", metavar="FILE", default=None, help="write to FILE instead of stdout")

    def handle(self, *args, **options):
        game = get_game(options["game"])
        seat = get_seat(game, options["colour"])
        text = json.dumps(
            export_game(game=game, colour=seat.colour if seat else None), indent=2, ensure_ascii=False
        )
        if options["output"]:
            try:
                with open(options["output"], "w", encoding="utf-8") as handle:
                    handle.write(text + "\n")
            except OSError as error:
                raise CommandError(f"Cannot write {options['output']}: {error.strerror or error}.") from None
        else:
            self.stdout.write(text)
