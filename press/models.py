"""Table talk's own log: what the players of a game said to each other, append-only.

Talk never changes a replay, so it is kept apart from the rules' log (`games.Event`): a game
verifies and replays from its seed and events alone, whatever was said. Like that log, this one
is hash-chained (`press.chain`) and, on PostgreSQL, refuses UPDATE, DELETE and TRUNCATE.
"""

from __future__ import annotations

from django.db import models

from games.models import Game
from games.store.fields import OrderedJSONField
from games.store.models import append_only_triggers


class PressMessage(models.Model):
    """One message of a game's table talk.

    number: 1, 2, 3... per game without gaps (`UniqueConstraint(game, number)` guards it).
    at_seq: the length of the rules log when it was sent, which places it in the game's history.
    sender: the colour that wrote it. recipients: None for the whole table; otherwise the list of
    colours it was written to (a private message), which with the sender are the only seats that
    may read it (`press.visibility`). text: as written (plain text: pages and emails escape it).
    sent_at: part of the hash, so set once by the service (not auto_now_add).
    prev_hash / hash: `press.chain`; prev_hash of number 1 is the game's seed commitment.
    salt: a private message's random salt in a version-2 chain (`press.chain`), shown only to
    those who may read the message; "" otherwise.

    On PostgreSQL a trigger refuses every UPDATE and DELETE, a statement trigger TRUNCATE.
    """

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="press")
    number = models.PositiveIntegerField()
    at_seq = models.PositiveIntegerField()
    sender = models.CharField(max_length=16)
    recipients = OrderedJSONField(
        null=True, blank=True, help_text="None: the whole table; else the colours written to"
    )
    text = models.TextField()
    sent_at = models.DateTimeField()
    prev_hash = models.CharField(max_length=64)
    hash = models.CharField(max_length=64)
    salt = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text="a private message's random salt (chain version 2); '' otherwise",
    )

    class Meta:
        ordering = ["game", "number"]
        constraints = [
            models.UniqueConstraint(fields=["game", "number"], name="unique_press_number_per_game"),
        ]
        triggers = [
            *append_only_triggers("press"),
        ]

    def __str__(self) -> str:
        to = "everyone" if self.recipients is None else ", ".join(self.recipients)
        return f"{self.game} talk #{self.number} {self.sender} to {to}"

    @property
    def is_private(self) -> bool:
        return self.recipients is not None
