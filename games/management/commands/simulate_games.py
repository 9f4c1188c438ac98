"""manage.py simulate_games — bot games through the database (docs/management-commands.md)."""
from __future__ import annotations

import statistics
import time

from django.core.management.base import BaseCommand, CommandError

from games import services, store
from games.bots import play_bots
from games.verification import verify_game


class Command(BaseCommand):
    help = ("Play whole games with bots in every seat through submit_command and the database; "
            "print how many ended with a winner and the mean number of events.")

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=1, metavar="N")
        parser.add_argument("--players", type=int, default=4, metavar="P", choices=[2, 3, 4])
        parser.add_argument("--seed", default=None, metavar="S",
                            help="game i gets seed S-i (default: random seeds)")
        parser.add_argument("--setup", choices=["random", "discovery"], default="random")
        parser.add_argument("--max-rounds", type=int, default=40, metavar="R",
                            help="stop a game, unfinished, once it passes round R (default 40)")
        parser.add_argument("--max-commands", type=int, default=20000, metavar="C",
                            help="stop a game, unfinished, after C commands (default 20000)")
        parser.add_argument("--verify", action="store_true", help="run verify_game on each game")

    def handle(self, *args, **options):
        if options["games"] < 1:
            raise CommandError("--games must be at least 1.")
        won, event_counts, command_counts, failed = 0, [], [], []
        started = time.monotonic()
        for i in range(options["games"]):
            t0 = time.monotonic()
            seed = f"{options['seed']}-{i}" if options["seed"] is not None else None
            game = services.create_game(
                seats=[services.SeatSpec(is_bot=True)] * options["players"],
                seed=seed, setup=options["setup"], play_bots=False,
            )
            commands = play_bots(game, max_commands=options["max_commands"], max_rounds=options["max_rounds"])
            game.refresh_from_db()
            state, seq = store.load(game)
            event_counts.append(seq)
            command_counts.append(commands)
            if game.winner:
                won += 1
                outcome = f"winner {game.winner}"
            else:
                outcome = "unfinished"
            line = (f"game {game.pk}: {outcome} after round {state.round}, {seq} events, "
                    f"{commands} commands, {time.monotonic() - t0:.1f} s")
            if options["verify"]:
                report = verify_game(game)
                line += ", verified" if report.ok else ", VERIFICATION FAILED"
                if not report.ok:
                    failed.append(game.pk)
                    line += "\n" + "\n".join(report.lines())
            self.stdout.write(line)
        n = options["games"]
        self.stdout.write(
            f"{n} games of {options['players']} players: {won} ended with a winner, "
            f"{n - won} unfinished; mean {statistics.mean(event_counts):.1f} events, "
            f"mean {statistics.mean(command_counts):.1f} commands, {time.monotonic() - started:.1f} s"
        )
        if failed:
            raise CommandError(f"Verification failed for game(s) {', '.join(map(str, failed))}.")
