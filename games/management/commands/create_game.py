"""manage.py create_game — create a game (docs/management-commands.md)."""

from __future__ import annotations

import argparse
import json

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from games import bots, rules, services
from games.record.options import DEFAULT_REACTION_MODE, REACTION_MODES
from games.record.seeds import seed_weakness
from players import seat_links


class Command(BaseCommand):
    help = "Create a game of Inis: 2 to 4 seats, players (by email) first, then bots."

    def add_arguments(self, parser):
        parser.add_argument(
            "--player",
            dest="players",
            action="append",
            default=[],
            metavar="EMAIL",
            help="a player's email; repeat for each player seat (the first is the first seat)",
        )
        parser.add_argument(
            "--bot", dest="bot_flags", action="count", default=0, help="add one bot seat (repeat for more)"
        )
        parser.add_argument("--bots", type=_count, default=0, metavar="N", help="add N bot seats (0 or more)")
        parser.add_argument(
            "--bot-level",
            choices=list(bots.LEVELS),
            default="hard",
            help="how the bots play: random (any legal move), easy (one move ahead), hard (default), "
            "strong (hard's best moves raced on more deals, up to BOT_STRONG_MS a decision)",
        )
        parser.add_argument(
            "--seed",
            default=None,
            help="the secret seed, 32 to 128 random printable characters (default: 32 random hex digits)",
        )
        parser.add_argument(
            "--weak-seed",
            action="store_true",
            help="accept a short or regular --seed (tests, replays): its commitment "
            "no longer hides it, nor the deck orders",
        )
        parser.add_argument(
            "--setup",
            choices=["random", "discovery"],
            default=None,
            help="the island's set-up (default: random)",
        )
        parser.add_argument(
            "--position",
            metavar="FILE.json",
            default=None,
            help="start from the described position in this file (docs/positions.md)",
        )
        parser.add_argument(
            "--buildings",
            choices=["first_print", "later_print"],
            default=None,
            help="the building rules, options.buildings (default: first_print)",
        )
        parser.add_argument(
            "--reaction-mode",
            choices=list(REACTION_MODES),
            default=DEFAULT_REACTION_MODE,
            help=f"who a Triskel window asks (default: {DEFAULT_REACTION_MODE}; docs/game-options.md)",
        )
        parser.add_argument("--json", action="store_true", help="print the result as JSON")

    def handle(self, *args, **options):
        if options["weak_seed"] and options["seed"] is None:
            raise CommandError("--weak-seed goes with --seed: without --seed the seed is random, never weak.")
        if options["setup"] is not None and options["position"]:
            raise CommandError(
                "--setup and --position do not fit together: a described position is its own set-up; give one."
            )
        if options["seed"] is not None and not options["weak_seed"]:
            weakness = seed_weakness(options["seed"])
            if weakness:
                raise CommandError(weakness)
        specs = [services.SeatSpec(email=email) for email in options["players"]]
        specs += [services.SeatSpec(is_bot=True, bot_level=options["bot_level"])] * (
            options["bot_flags"] + options["bots"]
        )
        setup = _read_position(options["position"]) if options["position"] else options["setup"] or "random"
        game_options = {"buildings": options["buildings"]} if options["buildings"] else {}
        game_options["reaction_mode"] = options["reaction_mode"]
        try:
            game = services.create_game(seats=specs, seed=options["seed"], setup=setup, options=game_options)
        except (ValueError, rules.CommandError) as error:
            # A position the rules refuse says what is wrong in it (rules.InvalidCommand).
            refused = options["position"] and isinstance(error, rules.CommandError)
            where = f"The position {options['position']}: " if refused else ""
            raise CommandError(where + " ".join(str(error).split())) from None

        seats = []
        for seat in game.seats.all():
            seats.append(
                {
                    "colour": seat.colour,
                    "email": seat.email or None,
                    "is_bot": seat.is_bot,
                    "bot_level": seat.bot_level if seat.is_bot else None,
                    "token": seat.token,
                    # A seat link (players.seat_links: that seat only, SEAT_LINK_DAYS); bots: the public page.
                    "url": (
                        settings.SITE_URL + reverse("games:detail", args=[game.pk])
                        if seat.is_bot
                        else seat_links.seat_link_url(
                            game_id=game.pk, seat_id=seat.pk, seat_secret=seat.token
                        )
                    ),
                }
            )
        public = settings.SITE_URL + reverse("games:detail", args=[game.pk])
        if options["json"]:
            self.stdout.write(
                json.dumps(
                    {
                        "game": game.pk,
                        "seed_commitment": game.seed_commitment,
                        "url": public,
                        "seats": seats,
                    },
                    indent=2,
                )
            )
            return
        self.stdout.write(f"Created game {game.pk} ({len(seats)} seats, setup {game.setup}).")
        self.stdout.write(f"Seed commitment: {game.seed_commitment}")
        self.stdout.write(f"Public page: {public}")
        for seat in seats:
            who = f"{seat['bot_level']} bot" if seat["is_bot"] else seat["email"]
            self.stdout.write(f"{seat['colour']} ({who}): {seat['url']}")


def _count(text: str) -> int:
    """argparse's type of a number of seats: a whole number, 0 or more (else usage, status 2)."""
    try:
        number = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
    if number < 0:
        raise argparse.ArgumentTypeError(f"{number} bots: give 0 or more")
    return number


def _read_position(path: str) -> dict:
    """The described position in the file at `path` (docs/positions.md); CommandError when the
    file cannot be read, is no UTF-8 JSON, or holds no JSON object."""
    try:
        with open(path, encoding="utf-8") as handle:
            position = json.load(handle)
    except (OSError, ValueError) as error:  # ValueError: JSONDecodeError, UnicodeDecodeError
        reason = error.strerror if isinstance(error, OSError) and error.strerror else error
        raise CommandError(f"Cannot read the position {path}: {' '.join(str(reason).split())}") from None
    if not isinstance(position, dict):
        raise CommandError(
            f"Cannot read the position {path}: a described position is a JSON object (docs/positions.md)."
        )
    return position
