"""manage.py show_game — the board and pending decisions (docs/management-commands.md)."""

from __future__ import annotations

from django.core.management.base import BaseCommand

from games import rules, store
from games.management.boards import board_text
from games.management.game_arguments import add_as_argument, add_game_argument, get_game, get_seat
from games.play import standing_orders
from games.record.hashchain import canonical_json
from games.story.descriptions import describe_command
from press.selectors import talk_for as press_lines

ERASED = "(erased: its author left and took their words with them)"


class Command(BaseCommand):
    help = "Show a game's board (rules.render_board) and who must decide what (rules.pending_for)."

    def add_arguments(self, parser):
        add_game_argument(parser)
        add_as_argument(parser)

    def handle(self, *args, **options):
        game = get_game(options["game"])
        seat = get_seat(game, options["colour"])
        colour = seat.colour if seat else None
        state, seq = store.load(game)
        self.stdout.write(
            f"Game {game.pk}: {game.get_status_display()}, {seq} events"
            + (f", winner {game.winner}" if game.winner else "")
        )
        self.stdout.write(f"Seed commitment: {game.seed_commitment}")
        if game.revealed_seed:
            self.stdout.write(f"Seed: {game.revealed_seed}")
        self.stdout.write("")
        self.stdout.write(board_text(game, state, colour))
        self.stdout.write("")
        talk = press_lines(game=game, colour=colour)  # only what `colour` may read (docs/press.md)
        if talk:
            self.stdout.write("Table talk:")
            for line in talk:
                to = "everyone" if line.to is None else " and ".join(line.to) + " alone"
                # An erased author's words are gone with their key: said as the game page says it.
                text = ERASED if line.erased else line.text
                self.stdout.write(f"  #{line.at_seq} {line.sender} to {to}: {text}")
            self.stdout.write("")
        # The seat's own standing orders, like its hand: only `--as` that seat shows them.
        orders = standing_orders.orders_of(seat) if seat else []
        if orders:
            self.stdout.write(f"Standing orders of {colour} (only {colour} sees them):")
            for number, order in enumerate(orders, start=1):
                self.stdout.write(f"  {number}. {standing_orders.describe(order)}")
            self.stdout.write("")
        pending = rules.pending_for(state, colour)  # never names who a private window asked
        if not pending:
            self.stdout.write("Nobody has anything to decide.")
            return
        waiting = ", ".join(
            f"{d.seat} ({d.kind})" if d.seat else "possible Triskel reactions" for d in pending
        )
        self.stdout.write(f"Waiting for: {waiting}")
        if colour is None:
            return
        mine = [d for d in pending if d.seat == colour]
        if not mine:
            self.stdout.write(f"{colour} has nothing to decide now.")
            return
        for decision in mine:
            self.stdout.write(f"{colour} must decide: {decision.prompt}")
        self.stdout.write("Legal commands:")
        for number, command in enumerate(rules.legal_commands(state, colour), start=1):
            self.stdout.write(f"{number:4}. {describe_command(state, command)}  {canonical_json(command)}")
