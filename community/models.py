"""The read models: tables folded from the logs, and how far each projection has read.

Nothing here is a source of truth: `manage.py rebuild_projections` empties a projection's tables
and folds its log again (`community.projections`). A projection's tables and its position are
written in one transaction, so they always agree.
"""

from __future__ import annotations

from django.db import models


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
    or "custom"; language: "en"/"fr"; created_at: when the table was opened."""

    number = models.BigIntegerField(primary_key=True)
    host_name = models.CharField(max_length=100)
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
