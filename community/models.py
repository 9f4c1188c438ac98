"""The read models: tables folded from the logs, and how far each projection has read.

Nothing here is a source of truth: `manage.py rebuild_projections` empties a projection's tables
and folds its log again (`community.projections`). A projection's tables and its position are
written in one transaction, so they always agree.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.store.models import append_only_triggers, wakes_relay_on_insert


class ProjectionPosition(models.Model):
    """How far the projection `name` has read its log: the `id` of the last row folded (0: none)."""

    name = models.CharField(max_length=64, unique=True)
    position = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.name} at {self.position}"


class OpenTable(models.Model):
    """One table seeking players (the `open_tables` projection of the gathering's log): only
    public facts; `number` is the table's number (the proposal's), `host_name` the name other
    players read (never an address). speed: a preset of `games.record.options.DEADLINE_PRESETS`
    or "custom"; language: "en"/"fr"; created_at: when the table was made open (listed), where its wait and its week start."""

    number = models.BigIntegerField(primary_key=True)
    host_name = models.CharField(max_length=100)
    host_id = models.BigIntegerField(
        null=True, blank=True, help_text="the host's account: their profile's link"
    )
    speed = models.CharField(max_length=16)
    language = models.CharField(max_length=8)
    reaction_mode = models.CharField(max_length=16)
    rated = models.BooleanField(default=False)
    player_count = models.PositiveSmallIntegerField()
    seats_filled = models.PositiveSmallIntegerField()
    open_seats = models.PositiveSmallIntegerField()
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["created_at", "number"]
        indexes = [models.Index(fields=["language", "created_at"], name="open_tables_by_language")]

    def __str__(self) -> str:
        return f"Open table {self.number}"


class GameEnd(models.Model):
    """The games' ends: one row per game that ended, append-only, written in the transaction
    that ended it (`community.game_ends.record`), in `id` order of commit (an advisory lock).

    The ratings and the profiles are projections of this log, not of the games' `Event` rows,
    which commit under each game's own lock and so not in `id` order (docs/ratings.md, "Ruling:
    the games' ends have their own log"). `payload`: `{"winner": colour, "rated": bool,
    "ended_at": ISO 8601, "seats": [{"colour", "player": account id or None, "bot": level or
    None, "abandoned": bool}], "left": [{"colour", "player": account id}]}`
    (`community.game_ends.facts`; "left": the seats' former holders ranked last, `SeatLeaver`,
    missing in the rows written before it): no address, no name, no hand.
    `game_id` is a plain number, not a key: the log outlives a deleted game.

    On PostgreSQL a trigger refuses every UPDATE, DELETE and TRUNCATE; an insert wakes the relay.
    """

    id = models.BigAutoField(primary_key=True)
    game_id = models.BigIntegerField(unique=True)
    payload = models.JSONField(default=dict)
    recorded_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        triggers = [
            *append_only_triggers("game_ends"),
            wakes_relay_on_insert("game_ends_wake_relay"),
        ]

    def __str__(self) -> str:
        return f"Game {self.game_id} ended (#{self.pk})"


class SeatLeaver(models.Model):
    """A player who left a seat of a game in progress: the host gave up their own seat, or gave
    a player's away while that player was absent (`games.play.table.seat_replace`, `.absent`;
    `community.game_ends.on_seat_handed_over`). At the game's end they are ranked last, as a
    seat left to the stand-in is (docs/ratings.md), and their profile counts the game as one
    left, unless they hold a seat of it again then."""

    game_id = models.BigIntegerField()
    colour = models.CharField(max_length=8)
    player_id = models.BigIntegerField()
    left_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        constraints = [models.UniqueConstraint(fields=["game_id", "player_id"], name="one_leaver_row")]

    def __str__(self) -> str:
        return f"Game {self.game_id}: {self.player_id} left {self.colour}"


class PlayerRating(models.Model):
    """One account's rating (the `ratings` projection of `GameEnd`): the openskill
    Plackett-Luce estimate `mu` and its uncertainty `sigma` (points of the scale of
    docs/ratings.md), and the rated games it counts."""

    player_id = models.BigIntegerField(primary_key=True)
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0)
    ordinal = models.FloatField(help_text="mu - 3 sigma: the conservative figure shown")

    class Meta:
        indexes = [models.Index(fields=["-ordinal"], name="ratings_by_ordinal")]

    def __str__(self) -> str:
        return f"Rating of {self.player_id}: {self.ordinal:.0f}"


class PlayerRecord(models.Model):
    """One account's finished games (the `profiles` projection of `GameEnd`): how many it
    finished, won, and left to the stand-in for good."""

    player_id = models.BigIntegerField(primary_key=True)
    finished = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    abandoned = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"Record of {self.player_id}: {self.won}/{self.finished}"


class FinishedSeat(models.Model):
    """One seat of a finished game, for its player's profile (the `profiles` projection):
    the game, the colour, whether it won, whether the stand-in had it at the end."""

    player_id = models.BigIntegerField()
    game_id = models.BigIntegerField()
    colour = models.CharField(max_length=16)
    won = models.BooleanField(default=False)
    abandoned = models.BooleanField(default=False)
    ended_at = models.DateTimeField()

    class Meta:
        indexes = [models.Index(fields=["player_id", "-ended_at"], name="finished_by_player")]

    def __str__(self) -> str:
        return f"Game {self.game_id} of {self.player_id}"


class ProfileChoice(models.Model):
    """What a player chose about their profile page (a write model, not a projection):
    `hidden`: strangers (anyone who never sat at a game with them) are not shown it."""

    player_id = models.BigIntegerField(primary_key=True)
    hidden = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"Profile of {self.player_id}{' (hidden)' if self.hidden else ''}"


class Report(models.Model):
    """A report to the operator (a write model, read in Django's admin): `reporter` reports the
    player `reported` (an account; None when it no longer exists) from their profile, or one
    table-talk message from a game page: then `game_id`, `message_number` and `message_text` (the
    words as they stood, kept here so that the operator reads what was reported). `reason`: the
    reporter's words. The reported player is never told (`community.reports`)."""

    class Status(models.TextChoices):
        NEW = "new", "new"
        SEEN = "seen", "seen by the operator"
        ACTED = "acted", "acted upon"

    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made"
    )
    reported = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="reports_received",
    )
    game_id = models.BigIntegerField(null=True, blank=True, help_text="the game of a reported message")
    message_number = models.PositiveIntegerField(null=True, blank=True)
    message_text = models.TextField(blank=True, default="")
    reason = models.CharField(max_length=500)
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.NEW)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        about = f"message {self.message_number} of game {self.game_id}" if self.game_id else "a player"
        return f"Report #{self.pk} by {self.reporter_id}: {about}"
