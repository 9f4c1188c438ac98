"""Players: one person's preferences, keyed by their email address.

A `Player` has no link to `auth.User`, so web accounts can come and go without touching mail; an
account finds its Player by email (`players.accounts`).
"""

from __future__ import annotations

from django.conf import settings
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
    email_after_push: with web push on (a `PushSubscription` at least), how many seconds a
    decision's email waits after its push, and is not sent if the decision was taken meanwhile
    (0: at once, with the push; None: never; default 30 minutes).
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
    email_after_push = models.PositiveIntegerField(
        null=True,
        blank=True,
        default=1800,
        help_text="with push on: seconds a decision's email waits for an answer from the push "
        "(0: at once; empty: never)",
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


class Block(models.Model):
    """`blocker` blocked `blocked` (accounts): the two are never seated at one open table again,
    either way round, and the blocker no longer reads the blocked player's table talk (pages,
    emails, digests; the talk's log and exports are unchanged). `players.blocks` reads and writes
    these rows (docs/profiles.md, docs/security.md)."""

    blocker = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_made"
    )
    blocked = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="blocks_received"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["blocker", "blocked"], name="unique_block_per_pair"),
            models.CheckConstraint(condition=~models.Q(blocker=models.F("blocked")), name="no_self_block"),
        ]

    def __str__(self) -> str:
        return f"{self.blocker_id} blocked {self.blocked_id}"


class PushSubscription(models.Model):
    """One device (a browser's service worker) that gets web pushes for a player: the push
    service's `endpoint` and the keys the payload is encrypted to (RFC 8291: `p256dh`, the
    browser's P-256 public key, and `auth`, its 16-byte secret, both base64url). Added by the
    player signed in (notifications.push_views); removed by them, or when the push service
    answers 404 or 410 for it (the browser dropped it), or when the browser session it was
    turned on from ends (`session_key`: `players.push_devices`). Keyed to the Player: erasing
    the person erases their devices."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="push_subscriptions")
    endpoint = models.URLField(max_length=1000, unique=True)
    p256dh = models.CharField(max_length=200)
    auth = models.CharField(max_length=100)
    device = models.CharField(
        max_length=100, blank=True, default="", help_text="a name the player knows it by"
    )
    # The key of the browser session (django.contrib.sessions) push was turned on from: once no
    # live session has it, the device goes (`push_devices.remove_devices_of_ended_sessions`).
    # Blank for a device turned on before sessions were kept, which only its player removes.
    session_key = models.CharField(max_length=40, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player", "id"]

    def __str__(self) -> str:
        return f"{self.player} on {self.device or 'a device'}"

    def as_subscription_info(self) -> dict:
        """The subscription as the Push API's `PushSubscription.toJSON()` gives it (and as
        pywebpush takes it): `{"endpoint": ..., "keys": {"p256dh": ..., "auth": ...}}`."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}


class ChatTarget(models.Model):
    """A player's private chat target: an apprise URL (e.g. `ntfy://ntfy.sh/my-topic`,
    `tgram://bot-token/chat-id`, `matrixs://user:token@matrix.org/!room`) that gets their
    decisions as a push does (`notifications.channels.chat`). One per player, set and removed by
    the player signed in (`players.chat_targets`). Keyed to the Player: erasing the person
    erases it. The URL may hold the chat service's secret: it is shown back to its player only."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="chat_target")
    url = models.CharField(max_length=1000)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"chat target of {self.player}"


class Erasure(models.Model):
    """An account erased at its owner's request (`players.erasure`, docs/privacy.md): the account
    number and when, nothing that names the person. The leaderboard and the profiles leave these
    accounts out; a second request is answered "already erased"."""

    user_id = models.BigIntegerField(unique=True)
    erased_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"account {self.user_id} erased at {self.erased_at:%Y-%m-%d %H:%M}"
