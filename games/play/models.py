"""The play room's models: each player seat's clock (`SeatClock`). Django knows them through
`games.models`, like the store's."""

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

    class Meta:
        # The table it had when it was part of `notifications` (games/migrations/0007).
        db_table = "notifications_seatclock"

    def __str__(self) -> str:
        return f"clock of {self.seat} ({self.kind or 'nothing'} at #{self.seq})"
