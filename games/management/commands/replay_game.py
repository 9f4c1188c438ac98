"""manage.py replay_game — the game as it stood after a given event (docs/management-commands.md)."""

from __future__ import annotations

from django.core.management.base import BaseCommand, CommandError

from games import rules, store
from games.management.boards import board_text
from games.management.game_arguments import add_as_argument, add_game_argument, get_game, get_seat


class Command(BaseCommand):
    help = "Show the board as it stood after the first SEQ events (a fold of the log up to SEQ)."

    def add_arguments(self, parser):
        add_game_argument(parser)
        parser.add_argument(
            "--to",
            dest="seq",
            type=int,
            required=True,
            metavar="SEQ",
            help="the number of events to fold (0 = before set-up)",
        )
        add_as_argument(parser)

    def handle(self, *args, **options):
        game = get_game(options["game"])
        seat = get_seat(game, options["colour"])
        head, _hash = store.head(game)
        if not 0 <= options["seq"] <= head:
            raise CommandError(f"Game {game.pk} has {head} events: --to must be between 0 and {head}.")
        state, seq = store.load(game, until=options["seq"])
        self.stdout.write(f"Game {game.pk} after event {seq} of {head}:")
        self.stdout.write("")
        board = board_text(game, state, seat.colour if seat else None)
        if state.brenn is None:
            # Before the set-up's BrennAssigned (--to 0, or among the first command's events)
            # nobody holds the Brenn, and the board's head line would name nobody ("Brenn: .").
            _head, _newline, rest = board.partition("\n")
            board = "\n".join(
                [f"Setup, before round 1. Brenn: none yet. Flock of Crows: {rules.flock_name(state.flock)}."]
                + ([rest] if rest else [])
            )
        self.stdout.write(board)
        self.stdout.write("")
        if not store.is_settled(game, seq):
            self.stdout.write(
                f"Event {seq} is in the middle of one command's events: no decision was open here."
            )
            return
        pending = rules.pending_for(state, seat.colour if seat else None)
        if pending:
            self.stdout.write(
                "Waiting for: "
                + ", ".join(
                    f"{d.seat} ({d.kind})" if d.seat else "possible Triskel reactions" for d in pending
                )
            )
        else:
            self.stdout.write("Nobody had anything to decide.")
