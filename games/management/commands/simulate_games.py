"""manage.py simulate_games — bot games through the database (docs/management-commands.md)."""

from __future__ import annotations

import argparse
import json
import statistics
import time

from django.core.management.base import BaseCommand, CommandError

from games import bots, services, store
from games.play.bot_seats import play_bots
from games.store.verification import verify_game


class Command(BaseCommand):
    help = (
        "Play whole games with bots in every seat through submit_command and the database; "
        "print how many ended with a winner, the wins by kind of bot, the rounds and the CPU "
        "time of a bot's decision. With --pace, "
        "measure instead the pace of a game in each Triskel reaction mode: prompts, emails "
        "and calendar days per seat and round."
    )

    def add_arguments(self, parser):
        parser.add_argument("--games", type=int, default=1, metavar="N", help="how many games (default 1)")
        parser.add_argument(
            "--players",
            type=_players,
            default=["random"] * 4,
            metavar="P",
            help="2, 3 or 4 (that many random bots), or the bots' levels seat by seat, e.g. "
            "hard,random,random,random (levels: random, easy, hard, strong); the seats turn by one "
            "place each game, so that every kind of bot sits everywhere",
        )
        parser.add_argument("--json", action="store_true", help="print the summary as JSON")
        parser.add_argument(
            "--seed", default=None, metavar="S", help="game i gets seed S-i (default: random seeds)"
        )
        parser.add_argument(
            "--setup",
            choices=["random", "discovery"],
            default=None,
            help="the island's set-up (default: random)",
        )
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
            default=None,
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
            default=None,
            metavar="G",
            help="with --pace: email games per mode through the service (default 2; 0: none)",
        )
        parser.add_argument(
            "--pace-email-rounds",
            type=int,
            default=None,
            metavar="K",
            help="with --pace: rounds each email game is played (default 3)",
        )
        parser.add_argument(
            "--answer-median-hours",
            type=float,
            default=None,
            metavar="H",
            help="with --pace: the median delay of a person's answer (default 4)",
        )
        parser.add_argument(
            "--answer-sigma",
            type=float,
            default=None,
            metavar="SIGMA",
            help="with --pace: the lognormal shape of the answer delays (default 1.0)",
        )

    def handle(self, *args, **options):
        if options["games"] < 1:
            raise CommandError("--games must be at least 1.")
        _refuse_counts_out_of_range(options)
        _refuse_options_of_the_other_mode(options)
        if options["pace"]:
            return self.pace(options)
        levels = options["players"]
        players = len(levels)
        won, event_counts, command_counts, rounds, failed = 0, [], [], [], []
        wins = {level: 0 for level in levels}
        think_times: dict = {}
        started = time.monotonic()
        for i in range(options["games"]):
            t0 = time.monotonic()
            seed = f"{options['seed']}-{i}" if options["seed"] is not None else None
            turned = levels[i % players :] + levels[: i % players]
            game = services.create_game(
                seats=[services.SeatSpec(is_bot=True, bot_level=level) for level in turned],
                seed=seed,
                setup=options["setup"],
                play_bots=False,
            )
            commands = play_bots(
                game,
                max_commands=options["max_commands"],
                max_rounds=options["max_rounds"],
                think_times=think_times,
            )
            game.refresh_from_db()
            state, seq = store.load(game)
            event_counts.append(seq)
            command_counts.append(commands)
            rounds.append(state.round)
            if game.winner:
                won += 1
                winner_level = game.seats.get(colour=game.winner).bot_level
                wins[winner_level] += 1
                outcome = f"winner {game.winner} ({winner_level})"
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
            if not options["json"]:
                self.stdout.write(line)
        n = options["games"]
        summary = {
            "games": n,
            "players": levels,
            "won": won,
            "unfinished": n - won,
            "wins": wins,
            "rounds": {"mean": statistics.mean(rounds), "median": statistics.median(rounds)},
            "mean_events": statistics.mean(event_counts),
            "mean_commands": statistics.mean(command_counts),
            "cpu_seconds_a_decision": {
                level: {
                    "decisions": len(times),
                    "median": statistics.median(times),
                    "p99": _percentile(times, 0.99),
                    "max": max(times),
                }
                for level, times in sorted(think_times.items())
            },
            "seconds": time.monotonic() - started,
        }
        if options["json"]:
            self.stdout.write(json.dumps(summary, indent=2))
        else:
            self.stdout.write(
                f"{n} games of {players} players: {won} ended with a winner, "
                f"{n - won} unfinished; mean {summary['mean_events']:.1f} events, "
                f"mean {summary['mean_commands']:.1f} commands, {summary['seconds']:.1f} s"
            )
            self.stdout.write(
                f"wins by kind of bot ({', '.join(levels)}, seats turned each game): "
                + ", ".join(f"{level} {count}" for level, count in wins.items())
            )
            self.stdout.write(
                f"rounds: mean {summary['rounds']['mean']:.1f}, median {summary['rounds']['median']:g}"
            )
            for level, cpu in summary["cpu_seconds_a_decision"].items():
                self.stdout.write(
                    f"CPU a decision ({level}): median {cpu['median'] * 1000:.2f} ms, "
                    f"p99 {cpu['p99'] * 1000:.1f} ms, max {cpu['max'] * 1000:.1f} ms "
                    f"over {cpu['decisions']} decisions"
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
                players=len(options["players"]),
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
        self.stdout.write(pacing.report(summaries, email_runs, delays, players=len(options["players"])))
        self.stdout.write(
            f"\n{options['games']} games of {len(options['players'])} players per mode, seed {seed}, "
            f"at most {options['max_rounds']} rounds; {time.monotonic() - started:.1f} s"
        )


# The options of one mode only, with their defaults: given to the other, they would be ignored.
# The parser's default is None (False for a flag), so that an option given with its default
# value is seen as given too.
GAMES_ONLY = {"json": False, "verify": False, "setup": "random", "max_commands": 20000}
PACE_ONLY = {"pace_email_games": 2, "pace_email_rounds": 3, "answer_median_hours": 4.0, "answer_sigma": 1.0}


# The least each count and measure may be (given ones only; None: the option left out).
_LEAST = {
    "max_rounds": (1, "--max-rounds must be at least 1."),
    "max_commands": (1, "--max-commands must be at least 1."),
    "pace_email_games": (0, "--pace-email-games must be 0 (no email game) or more."),
    "pace_email_rounds": (1, "--pace-email-rounds must be at least 1."),
    "answer_sigma": (0, "--answer-sigma must be 0 or more."),
}


def _refuse_counts_out_of_range(options: dict) -> None:
    """Raise CommandError for a count or measure no game could be played with: a round or
    command limit under 1 (the game would stop before its first move), a negative number of
    email games, a median answer delay that is not more than 0 hours, a negative sigma."""
    for name, (least, message) in _LEAST.items():
        if options[name] is not None and options[name] < least:
            raise CommandError(message)
    hours = options["answer_median_hours"]
    if hours is not None and not hours > 0:
        raise CommandError("--answer-median-hours must be more than 0.")


def _refuse_options_of_the_other_mode(options: dict) -> None:
    """Raise CommandError (status 1, docs/management-commands.md) naming the options given that
    the chosen mode would ignore: with --pace, the levels of --players and the options of the
    games played into the database; without it, the options of --pace. Then fill in, in
    `options`, the defaults of the options not given."""
    others = GAMES_ONLY if options["pace"] else PACE_ONLY
    given = [f"--{name.replace('_', '-')}" for name in others if options[name] not in (None, False)]
    if options["pace"] and set(options["players"]) != {"random"}:
        given.insert(0, "--players with bot levels")
    if given:
        mode = "with --pace" if options["pace"] else "without --pace"
        raise CommandError(f"{', '.join(given)}: not used {mode}; leave it out.")
    for name, default in (GAMES_ONLY | PACE_ONLY).items():
        if options[name] is None:
            options[name] = default


def _players(value: str) -> list[str]:
    """--players: "2" to "4" (random bots), or 2 to 4 levels separated by commas."""
    if value.strip().isdigit():
        count = int(value)
        if not 2 <= count <= 4:
            raise argparse.ArgumentTypeError(f"Inis is played by 2 to 4 players, not {count}.")
        return ["random"] * count
    levels = [level.strip() for level in value.split(",")]
    unknown = [level for level in levels if level not in bots.LEVELS]
    if unknown:
        raise argparse.ArgumentTypeError(
            f"unknown bot level {unknown[0]!r}: the levels are {', '.join(bots.LEVELS)}"
        )
    if not 2 <= len(levels) <= 4:
        raise argparse.ArgumentTypeError(f"Inis is played by 2 to 4 players, not {len(levels)}.")
    return levels


def _percentile(values: list, share: float) -> float:
    """The value below which `share` (0 to 1) of `values` lie (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]
