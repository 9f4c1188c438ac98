"""The outbox of emails to send, and the development mailbox that stands in for delivery."""
from __future__ import annotations

from django.db import models


class Outbox(models.Model):
    """One email to one seat, written in the same transaction as the events that called for it.

    The message is rendered when the row is written (subject, text, HTML, headers), so it shows
    the game as it was at `seq` and delivery only has to send it. `status` makes delivery
    idempotent: `notifications.outbox.deliver` sends a PENDING row once, under a row lock.
    """

    class Kind(models.TextChoices):
        PROMPT = "prompt", "decision prompt"
        GAME_OVER = "game_over", "game over"

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        SENT = "sent", "sent"
        FAILED = "failed", "failed (retries exhausted)"

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="outbox")
    seat = models.ForeignKey("games.Seat", on_delete=models.CASCADE, related_name="outbox")
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.PROMPT)
    seq = models.PositiveIntegerField(help_text="the log's length the message was written against")
    to_email = models.EmailField()
    subject = models.CharField(max_length=255)
    body_text = models.TextField()
    body_html = models.TextField(blank=True, default="")
    headers = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING, db_index=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "outbox"

    def __str__(self) -> str:
        return f"{self.kind} to {self.seat} at #{self.seq} ({self.status})"


class DevEmail(models.Model):
    """An email 'sent' through the development mailbox backend (shown at /dev/mailbox/)."""

    from_email = models.CharField(max_length=255)
    to = models.JSONField(default=list)
    subject = models.CharField(max_length=255)
    body_text = models.TextField()
    body_html = models.TextField(blank=True, default="")
    headers = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "development email"

    def __str__(self) -> str:
        return f"{self.subject} → {', '.join(self.to)}"
