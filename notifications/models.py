"""The mail side of games: the outbox, news, inbound mail (players' preferences:
`players.models.Player`; each seat's clock: `games.play.models.SeatClock`).

- `Outbox`: every email to send, written in the transaction that called for it.
- `NewsItem`: a non-urgent line for a seat (a round began, a Pretender token was taken...), mailed
  at once or in the daily digest.
- `InboundEmail`: every email received, once per Message-ID, with what became of it.
"""

from __future__ import annotations

from django.db import models

from games.store.models import wakes_relay_on_insert


class Outbox(models.Model):
    """One email to one address, written in the same transaction as the events that called for it.

    The message shows the game as it was at `seq`. Most are rendered when the row is written
    (subject, text, HTML, headers); a PROMPT written by a command carries instead `render_spec`,
    what it is written from, and the delivery writes it from the log just before sending it and
    keeps it on the row (`notifications.prompts_at_delivery`). `status` makes delivery
    idempotent: `notifications.outbox.deliver` sends a PENDING row once, under a row lock.
    A PROMPT or REMINDER row carries the `decision_seq` of the decision it is about: when the
    seat's clock has moved on by the time it would be sent, it is SKIPPED instead (a stale prompt).
    A failed attempt leaves the row PENDING for the task's own retries, then FAILED; either way
    `retry_at` says when the sweep may try it again (with backoff, for OUTBOX_RETRY_DAYS), and an
    operator can send a FAILED row again from the admin. An ANSWER that accepts a reply which
    played something is HELD with its words in `acceptance`: the seat's next prompt carries it
    (FOLDED), or the sweep sends it on its own (`notifications.acceptances`). `game` and `seat` are empty for mail that is about no seat (an answer to an unknown sender, a
    digest covering several games).

    `channel` says how the row reaches its player: an email to `to_email` (the default), a web
    push to the devices of the Player of `to_email`, or a message to their private chat target;
    the delivery hands the written row to the channel's sender (`notifications.channels`), with
    the same once-only hand-off, retries and admin resend for every channel. A push or chat row
    keeps in `headers` the targets it reached (`{"reached": [ids]}`), so that a retry after a
    partial failure reaches only the others. `not_before`: a decision's email held while its
    push may be answered (the player's `email_after_push`); neither the relay nor the sweep
    sends it earlier, and it is SKIPPED if the decision is taken by then.

    The relay (`inis_pbem.relay`) publishes a PENDING row whose `queued_at` has come (in
    `queued_at`, then id order) as a delivery task, and puts `queued_at` a little later each time
    (`publishes` counts them) so that a task lost with its worker is published again; a held
    row (`notifications.outbox.holding_prompts`) has no `queued_at` until it is released.
    `handed_at` is written, and committed, before the message is handed to the mail backend: a
    row found PENDING with it set was handed over by a delivery that stopped before it recorded
    SENT (`notifications.outbox.deliver` decides whether to send it again); `provider_seen_at`
    is when the provider's tracking webhook last reported the message (`notifications.tracking`).
    """

    class Kind(models.TextChoices):
        PROMPT = "prompt", "decision prompt"
        REMINDER = "reminder", "deadline reminder"
        ANSWER = "answer", "answer to a reply"
        NEWS = "news", "news"
        DIGEST = "digest", "daily digest"
        NOTICE = "notice", "notice (replaced by the bot, back)"
        GAME_OVER = "game_over", "game over"
        PRESS = "press", "table talk from another player"
        FOLLOWER_DIGEST = "follower_digest", "daily digest for a follower of public games"
        TABLE_NEWS = "table_news", "public news to the table's channel"

    class Channel(models.TextChoices):
        EMAIL = "email", "email"
        WEB_PUSH = "web_push", "web push"
        CHAT = "chat", "chat"

    class Status(models.TextChoices):
        PENDING = "pending", "pending"
        SENT = "sent", "sent"
        SKIPPED = "skipped", "skipped (the decision had moved on)"
        FAILED = "failed", "failed (the task's retries exhausted; the sweep tries again)"
        HELD = "held", "held (an acceptance waiting for the seat's next prompt)"
        FOLDED = "folded", "folded into the seat's next prompt"

    game = models.ForeignKey(
        "games.Game", on_delete=models.CASCADE, related_name="outbox", null=True, blank=True
    )
    seat = models.ForeignKey(
        "games.Seat", on_delete=models.CASCADE, related_name="outbox", null=True, blank=True
    )
    kind = models.CharField(max_length=16, choices=Kind.choices, default=Kind.PROMPT)
    channel = models.CharField(
        max_length=16,
        choices=Channel.choices,
        default=Channel.EMAIL,
        help_text="how it reaches the player: its sender (notifications.channels)",
    )
    seq = models.PositiveIntegerField(help_text="the log's length the message was written against")
    decision_seq = models.PositiveIntegerField(
        null=True, blank=True, help_text="for prompts and reminders: the seat's decision they are about"
    )
    to_email = models.EmailField()
    subject = models.CharField(max_length=255)
    body_text = models.TextField()
    body_html = models.TextField(blank=True, default="")
    headers = models.JSONField(default=dict, blank=True)
    render_spec = models.JSONField(
        null=True,
        blank=True,
        help_text="for a prompt not yet written: what the delivery writes it from (empty once written)",
    )
    acceptance = models.JSONField(
        null=True,
        blank=True,
        help_text="for an acceptance: its words, told at the top of the seat's next prompt if folded",
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING, db_index=True)
    attempts = models.PositiveIntegerField(default=0)
    last_error = models.TextField(blank=True, default="")
    retry_at = models.DateTimeField(
        null=True,
        blank=True,
        help_text="after a failed attempt: when the sweep may try again (notifications.outbox.retry_delay)",
    )
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    sent_at = models.DateTimeField(null=True, blank=True)
    # Not indexed: the relay reads PENDING rows (status is), which are few.
    queued_at = models.DateTimeField(
        null=True, blank=True, help_text="when the relay publishes it (next); empty while held"
    )
    not_before = models.DateTimeField(
        null=True,
        blank=True,
        help_text="not sent before this (a decision's email waiting after its push: "
        "notifications.channels.reach)",
    )
    publishes = models.PositiveSmallIntegerField(default=0, help_text="times the relay published it")
    handed_at = models.DateTimeField(
        null=True, blank=True, help_text="when it was last handed to the mail backend"
    )
    provider_seen_at = models.DateTimeField(
        null=True, blank=True, help_text="when the provider's tracking webhook last reported it"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "outbox"
        triggers = [
            # One notification per transaction that wrote rows (PostgreSQL folds repeats).
            wakes_relay_on_insert("outbox_wakes_relay"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} to {self.seat or self.to_email} at #{self.seq} ({self.status})"


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


class NewsItem(models.Model):
    """A non-urgent line of news for a seat, already redacted for it. mailed_at: when it went out
    (in a news email, a digest, or a prompt's "what happened")."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="news")
    seat = models.ForeignKey("games.Seat", on_delete=models.CASCADE, related_name="news")
    seq = models.PositiveIntegerField()
    text = models.TextField()
    created_at = models.DateTimeField(auto_now_add=True)
    mailed_at = models.DateTimeField(null=True, blank=True, db_index=True)

    class Meta:
        ordering = ["game", "seq", "id"]

    def __str__(self) -> str:
        return f"{self.seat} #{self.seq}: {self.text[:40]}"


class InboundEmail(models.Model):
    """An email received (webhook or pipe), stored once per `message_key` (its Message-ID, or the
    sha256 of the raw message when it has none): a second delivery of the same message is
    recognised here and changes nothing. `status` says what became of it; `detail` is for the
    admin (it may name the seat's own cards: it is never mailed to anybody else)."""

    class Status(models.TextChoices):
        RECEIVED = "received", "received, not yet processed"
        ACCEPTED = "accepted", "accepted"
        REJECTED = "rejected", "rejected (not understood or not allowed)"
        STALE = "stale", "stale (the decision had moved on)"
        NO_TOKEN = "no_token", "no reply token"
        BAD_TOKEN = "bad_token", "invalid reply token"
        DROPPED = "dropped", "dropped (auto-reply or bounce)"
        FAILED = "failed", "failed (error while processing)"

    message_key = models.CharField(max_length=255, unique=True)
    source = models.CharField(max_length=32)
    raw = models.BinaryField(help_text="the message as received (RFC 822 bytes)")
    envelope_to = models.CharField(
        max_length=255, blank=True, default="", help_text="the envelope recipient, when the provider gave it"
    )
    from_email = models.CharField(max_length=255, blank=True, default="")
    received_at = models.DateTimeField(auto_now_add=True)
    processed_at = models.DateTimeField(null=True, blank=True)
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.RECEIVED, db_index=True)
    game = models.ForeignKey("games.Game", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    seat = models.ForeignKey("games.Seat", on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    detail = models.TextField(blank=True, default="")

    class Meta:
        ordering = ["-received_at", "-id"]

    def __str__(self) -> str:
        return f"{self.message_key[:60]} ({self.status})"
