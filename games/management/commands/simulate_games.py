"""manage.py simulate_games — bot games through the database (docs/management-commands.md)."""

from __future__ import annotations

import statistics
import time

from django.core.management.base import BaseCommand, CommandError

from games import services, store
from games.play.bot_seats import play_bots
from games.store.verification import verify_game


class Command(BaseCommand):
    help = (
        "Play whole games with bots in every seat through submit_command and the database; "
        "print how many ended with a winner and the mean number of events. With --pace, "
        "measure instead the pace of a game in each Triskel reaction mode: prompts, emails "
        "and calendar days per seat and round."
    )

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=1, metavar="N")
        parser.add_argument("--players", type=int, default=4, metavar="P", choices=[2, 3, 4])
        parser.add_argument(
            "--seed", default=None, metavar="S", help="game i gets seed S-i (default: random seeds)"
        )
        parser.add_argument("--setup", choices=["random", "discovery"], default="random")
        parser.add_argument(
            "--max-rounds",
            type=int,
            default=40,
            metavar="R",
            help="stop a game, unfinished, once it passes round R (default 40)",
        )
        parser.add_argument(
            "--max-commands",
            type=int,
            default=20000,
            metavar="C",
            help="stop a game, unfinished, after C commands (default 20000)",
        )
        parser.add_argument("--verify", action="store_true", help="run verify_game on each game")
        parser.add_argument(
            "--pace",
            action="store_true",
            help="report prompts, decline-only prompts, real decisions and calendar days per "
            "reaction mode (N games each, rules alone) and emails per seat and round "
            "(through the service)",
        )
        parser.add_argument(
            "--pace-email-games",
            type=int,
            default=2,
            metavar="G",
            help="with --pace: email games per mode through the service (default 2; 0: none)",
        )
        parser.add_argument(
            "--pace-email-rounds",
            type=int,
            default=3,
            metavar="K",
            help="with --pace: rounds each email game is played (default 3)",
        )
        parser.add_argument(
            "--answer-median-hours",
            type=float,
            default=4.0,
            metavar="H",
            help="with --pace: the median delay of a person's answer (default 4)",
        )
        parser.add_argument(
            "--answer-sigma",
            type=float,
            default=1.0,
            metavar="SIGMA",
            help="with --pace: the lognormal shape of the answer delays (default 1.0)",
        )

    def handle(self, *args, **options):
        if options["games"] < 1:
            raise CommandError("--games must be at least 1.")
        if options["pace"]:
            return self.pace(options)
        won, event_counts, command_counts, failed = 0, [], [], []
        started = time.monotonic()
        for i in range(options["games"]):
            t0 = time.monotonic()
            seed = f"{options['seed']}-{i}" if options["seed"] is not None else None
            game = services.create_game(
                seats=[services.SeatSpec(is_bot=True)] * options["players"],
                seed=seed,
                setup=options["setup"],
                play_bots=False,
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
            line = (
                f"game {game.pk}: {outcome} after round {state.round}, {seq} events, "
                f"{commands} commands, {time.monotonic() - t0:.1f} s"
            )
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

    def pace(self, options) -> None:
        """--pace: the tables of bench/pacing.py for N games per reaction mode (seeds S-0 ...,
        default S "pace") and G email games of K rounds per mode; mail stays in memory."""
        # Imported here: bench is the checkout's benchmark tool, not part of the service, and only
        # --pace needs it.
        from bench import pacing

        if options["pace_email_games"] < 0 or options["pace_email_rounds"] < 1:
            raise CommandError("--pace-email-games must be 0 or more and --pace-email-rounds at least 1.")
        if options["answer_median_hours"] <= 0 or options["answer_sigma"] < 0:
            raise CommandError("--answer-median-hours must be positive and --answer-sigma not negative.")
        started = time.monotonic()
        seed = options["seed"] if options["seed"] is not None else "pace"
        delays = pacing.Delays(median_hours=options["answer_median_hours"], sigma=options["answer_sigma"])
        try:
            runs = pacing.play_all(
                options["games"],
                seed=seed,
                players=options["players"],
                max_rounds=options["max_rounds"],
                delays=delays,
            )
            email_runs = (
                pacing.measure_emails(
                    options["pace_email_games"], rounds=options["pace_email_rounds"], seed=f"{seed}-mail"
                )
                if options["pace_email_games"]
                else None
            )
        except pacing.ModeUnavailable as error:
            raise CommandError(f"This build cannot measure every reaction mode: {error}") from None
        summaries = [pacing.summarise(mode, mode_runs) for mode, mode_runs in runs.items()]
        self.stdout.write(pacing.report(summaries, email_runs, delays))
        self.stdout.write(
            f"\n{options['games']} games of {options['players']} players per mode, seed {seed}, "
            f"at most {options['max_rounds']} rounds; {time.monotonic() - started:.1f} s"
        )
