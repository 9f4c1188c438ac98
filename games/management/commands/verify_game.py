"""manage.py verify_game — audit a game's record (docs/management-commands.md)."""

from __future__ import annotations

from django.apps import apps
from django.core.management.base import BaseCommand, CommandError

from games.management.game_arguments import get_game
from games.models import Game
from games.store.verification import verify_game


class Command(BaseCommand):
    help = (
        "Check a game's record: seed commitment, hash chain, set-up, every command decided "
        "again with the seed, the fold and the snapshots; and its table talk's hash chain. "
        "Exits 1 on any problem."
    )

    def add_arguments(self, parser):
        parser.add_argument("games", nargs="*", type=int, metavar="GAME", help="game ids")
        parser.add_argument("--all", action="store_true", help="verify every game")
        parser.add_argument(
            "--head",
            metavar="HASH",
            default=None,
            help="also check that this hash (or its first 12 or more hex digits), kept "
            "from an email or the game page, is still in the game's chain",
        )

    def handle(self, *args, **options):
        if options["all"] and options["games"]:
            raise CommandError("--all verifies every game: name no GAME with it, or leave --all out.")
        if options["all"]:
            games = list(Game.objects.order_by("pk"))
        elif options["games"]:
            games = [get_game(game_id) for game_id in options["games"]]
        else:
            raise CommandError("Name at least one GAME, or --all.")
        if options["head"] is not None and len(games) != 1:
            raise CommandError("--head checks one game: name exactly one GAME.")
        failed = []
        for game in games:
            report = verify_game(game, head=options["head"])
            for line in report.lines():
                self.stdout.write(line)
            talk = _verify_press(game)
            for line in talk.lines() if talk is not None else ():
                self.stdout.write(line)
            if not report.ok or (talk is not None and not talk.ok):
                failed.append(game.pk)
        if failed:
            raise CommandError(f"Verification failed for game(s) {', '.join(map(str, failed))}.")


def _verify_press(game: Game):
    """The table talk's report (`press.verification.verify_press`), or None without the press app."""
    if not apps.is_installed("press"):
        return None
    from press.verification import verify_press

    return verify_press(game)
