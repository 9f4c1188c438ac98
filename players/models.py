"""Players: one person's preferences, keyed by their email address.

A `Player` has no link to `auth.User`, so web accounts can come and go without touching mail; an
account finds its Player by email (`players.accounts`).
"""

from __future__ import annotations

from django.db import models


class Player(models.Model):
    """A person's email preferences, keyed by their (lower-cased) email address.

    delivery: PROMPT (the default) tells the news only in the seat's next prompt ("What happened
    since your last move"); EVERY also sends news emails, at most one a minute per seat
    (`notifications.news`); DIGEST collects news into one email a day. Prompts, reminders and
    answers are always sent at once. news=False stops news emails and digests (the one-click
    unsubscribe) without leaving any game; prompts still tell what happened. time_zone: an IANA name for the
    deadlines shown. language: of card and territory names and of the answers ("en", "fr").
    away_from / away_until: a vacation; deadlines do not run during it (docs/deadlines.md).
    display_name: the name other players see at the table (game pages); blank: the seat's colour
    alone. Never the email, which other players never see.
    acceptances: whether a reply that leaves the seat nothing more to decide gets a short
    "Accepted" email of its own (after ACCEPTANCE_GRACE seconds, unless the seat's next prompt
    comes first and carries it); False: it is said only at the top of the seat's next prompt
    (`notifications.acceptances`).
    forced_moves_at_once: whether a Season turn on which no card of the hand can be played is
    passed at once; False (the default): the pass waits a delay drawn like the player's own
    answers, so that its timing tells the table nothing about the hand (docs/rulings.md,
    "Forced moves").
    """

    class Delivery(models.TextChoices):
        PROMPT = "prompt", "news only in my next prompt"
        EVERY = "every", "news emails too (at most one a minute per game)"
        DIGEST = "digest", "a daily digest of news (prompts still at once)"

    class Language(models.TextChoices):
        EN = "en", "English"
        FR = "fr", "Français"

    email = models.EmailField(unique=True)
    delivery = models.CharField(max_length=8, choices=Delivery.choices, default=Delivery.PROMPT)
    news = models.BooleanField(default=True, help_text="news emails and digests (prompts always come)")
    time_zone = models.CharField(max_length=64, default="UTC")
    language = models.CharField(max_length=2, choices=Language.choices, default=Language.EN)
    away_from = models.DateTimeField(null=True, blank=True)
    away_until = models.DateTimeField(null=True, blank=True)
    display_name = models.CharField(
        max_length=30, blank=True, default="", help_text="the name other players see at the table"
    )
    acceptances = models.BooleanField(
        default=True, help_text="a short email when a reply leaves nothing more to decide now"
    )
    confirm_moves = models.BooleanField(
        default=True,
        help_text="ask to confirm a move that ends the turn or starts a fight on the game page",
    )
    forced_moves_at_once = models.BooleanField(
        default=False,
        help_text="pass at once when no card in the hand can be played (the table may infer the hand)",
    )
    last_digest_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["email"]
        # The table it had when it was part of `notifications` (players/migrations/0001_initial.py).
        db_table = "notifications_player"

    def __str__(self) -> str:
        return self.email


class Erasure(models.Model):
    """An account erased at its owner's request (`players.erasure`, docs/privacy.md): the account
    number and when, nothing that names the person. The leaderboard and the profiles leave these
    accounts out; a second request is answered "already erased"."""

    user_id = models.BigIntegerField(unique=True)
    erased_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"account {self.user_id} erased at {self.erased_at:%Y-%m-%d %H:%M}"
