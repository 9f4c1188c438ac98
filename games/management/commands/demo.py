"""manage.py demo — a game ready to play: you in one seat, bots in the others."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.urls import reverse

from games import services
from games.models import Game, Seat
from games.play.standins import stand_in_level
from players import seat_links
from players.accounts import normalise_email, user_for_email


class Command(BaseCommand):
    help = (
        "Make sure a demo game is ready (you hold the first seat, bots the others) and print "
        "the addresses of your seat's page and of the development mailbox."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--email", default="you@example.org", help="your seat's email (default you@example.org)"
        )
        parser.add_argument(
            "--players", type=int, default=4, choices=[2, 3, 4], help="seats in all (default 4)"
        )
        parser.add_argument("--new", action="store_true", help="create a new game even if one is in progress")

    def handle(self, *args, **options):
        try:
            # In the form seats keep it: --email You@Example.org finds the game of you@example.org.
            email = normalise_email(options["email"])
        except ValueError as error:
            raise CommandError(f"--email: {error}") from None
        seat = None
        if not options["new"]:
            # Running the demo again reuses your game in progress rather than piling up games.
            seat = (
                Seat.objects.select_related("game")
                .filter(email=email, is_bot=False, game__status=Game.Status.ACTIVE)
                .order_by("-game__created_at")
                .first()
            )
        if seat is None:
            specs = [services.SeatSpec(email=email)]
            # The demo's bots play to win: a newcomer's first game is against opponents who try,
            # the strongest that thinks within the stand-in's CPU budget.
            level = stand_in_level()
            specs += [services.SeatSpec(is_bot=True, bot_level=level)] * (options["players"] - 1)
            # You host the demo game too: its page shows the host tools.
            game = services.create_game(seats=specs, host=user_for_email(email))
            seat = game.seats.get(position=0)
            self.stdout.write(
                f"Created demo game {game.pk}: you play {seat.colour}, {level} bots play the other seats."
            )
        else:
            self.stdout.write(f"Demo game {seat.game.pk} is in progress: you play {seat.colour}.")
        link = seat_links.seat_link_url(game_id=seat.game_id, seat_id=seat.pk, seat_secret=seat.token)
        self.stdout.write(f"Your seat:  {link}")
        self.stdout.write(f"Mailbox:    {settings.SITE_URL}{reverse('notifications:mailbox')}")
        self.stdout.write(f"All games:  {settings.SITE_URL}{reverse('games:list')}")
