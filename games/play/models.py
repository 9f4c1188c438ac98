"""The play room's models: each player seat's clock (`SeatClock`) and its standing orders
(`StandingOrder`). Django knows them through `games.models`, like the store's."""

from __future__ import annotations

from django.db import models

from games.store.models import Game, Seat


class SeatClock(models.Model):
    """A player seat's open decision and attendance.

    seq: the log's length when the seat's current pending decisions appeared (what its prompt and
    reply tokens carry); None when it has nothing to decide. kind: the first decision's kind;
    opened_at: when it appeared. deadline / remind_at: when the default applies and when the
    reminder goes (None: no deadline), as last computed: the sweep computes them again from the
    game's options (deadlines, host extensions and pauses) and the player's vacation.
    last_prompt_seq: the seq of the last prompt sent, where "what happened since" starts.
    missed_in_row: deadlines that ran out in a row; stand_in: the bot plays the seat until the
    player comes back (a reply or a command of their own).
    answer_seconds: the seat's latest answer times, oldest first (seconds, at most
    `answer_times.KEPT`); last_web_at: when its player last answered on the web
    (`games.play.answer_times`).
    pass_at: when the service passes for the seat a Season turn its hidden hand leaves only the
    pass (hand-forced, `games.play.delayed_passes`), drawn when the decision opened; None for
    every other decision. Private to the seat, like its hand.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="clocks")
    seat = models.OneToOneField(Seat, on_delete=models.CASCADE, related_name="clock")
    seq = models.PositiveIntegerField(null=True, blank=True)
    kind = models.CharField(max_length=32, blank=True, default="")
    opened_at = models.DateTimeField(null=True, blank=True)
    # Not indexed: nothing searches by them (the sweep goes over the open clocks), and they
    # change with every new decision. PostgreSQL updates a row in place (a HOT update, no index
    # written) only when no indexed column changes.
    deadline = models.DateTimeField(null=True, blank=True)
    remind_at = models.DateTimeField(null=True, blank=True)
    reminded = models.BooleanField(default=False)
    last_prompt_seq = models.PositiveIntegerField(default=0)
    missed_in_row = models.PositiveSmallIntegerField(default=0)
    stand_in = models.BooleanField(default=False)
    answer_seconds = models.JSONField(default=list, blank=True)
    last_web_at = models.DateTimeField(null=True, blank=True)
    pass_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        # The table it had when it was part of `notifications` (games/migrations/0007).
        db_table = "notifications_seatclock"

    def __str__(self) -> str:
        return f"clock of {self.seat} ({self.kind or 'nothing'} at #{self.seq})"


class StandingOrder(models.Model):
    """An order a player leaves for later decisions of their seat (docs/standing-orders.md).

    Private to its seat, like a hand: no page, email, export or log line shows it to anybody
    else. kind: one of `games.play.standing_orders.KINDS`; key: what makes two orders of a kind
    different (the Triskel card an order is about; "" for the kinds a seat has one of); body:
    the order's JSON (its fields per kind, docs/standing-orders.md); since_seq: the log's length
    when it was set (or when "pass until something concerns me" last passed): what "has changed
    since" is measured from.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="standing_orders")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="standing_orders")
    kind = models.CharField(max_length=24)
    key = models.CharField(max_length=32, blank=True, default="")
    body = models.JSONField()
    since_seq = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["seat", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["seat", "kind", "key"], name="one_standing_order_per_kind_and_key"
            ),
        ]

    def __str__(self) -> str:
        return f"standing order {self.kind} {self.key} of {self.seat}".replace("  ", " ")


class TableChannel(models.Model):
    """A game's table channel: one apprise URL (e.g. a Discord or Matrix webhook) set by the
    host (`games.play.table.table_channel_set`) that gets the table's public news, as a
    spectator reads it (`notifications.channels.table_news`). language: what the news is
    written in ("en"/"fr"), the host's when they set it. The URL may hold the chat service's
    secret: it is shown back to the host only, never on a page, an email or in the history."""

    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="table_channel")
    url = models.CharField(max_length=1000)
    language = models.CharField(max_length=8, default="en")
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"table channel of game {self.game_id}"
