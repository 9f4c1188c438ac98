"""Table talk's own log: what the players of a game said to each other, append-only.

Talk never changes a replay, so it is kept apart from the rules' log (`games.Event`): a game
verifies and replays from its seed and events alone, whatever was said. Like that log, this one
is hash-chained (`press.chain`) and, on PostgreSQL, refuses UPDATE, DELETE and TRUNCATE.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from games.models import Game, Seat
from games.store.fields import OrderedJSONField
from games.store.models import append_only_triggers


class TalkKey(models.Model):
    """The secret that seals one author's table talk in one game (`press.sealing`): 32 random
    bytes for AES-GCM, kept outside the talk's log and its chain, so that destroying it makes
    the author's words unreadable everywhere while every hash still verifies (docs/privacy.md).

    seat: where the author sat; user: the author's account (None for a seat without one, or once
    shredded). secret: None once shredded (`shredded_at`: when). A seat that changes hands gets
    a new key for its new player, and its outgoing player one if they never wrote there
    (`press.sealing.key_for_outgoing_player`): the keys are the record of who held a seat, by
    which each person's archive keeps their time at it. Mutable, unlike the log: erasure
    empties `secret`.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="talk_keys")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="talk_keys")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="talk_keys"
    )
    secret = models.BinaryField(null=True, blank=True, help_text="32 bytes; None once shredded")
    created_at = models.DateTimeField(auto_now_add=True)
    shredded_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        indexes = [models.Index(fields=["seat", "user"], name="talk_key_by_author")]

    def __str__(self) -> str:
        state = "shredded" if self.secret is None else "live"
        return f"talk key of {self.seat} in {self.game} ({state})"


class PressMessage(models.Model):
    """One message of a game's table talk.

    number: 1, 2, 3... per game without gaps (`UniqueConstraint(game, number)` guards it).
    at_seq: the length of the rules log when it was sent, which places it in the game's history.
    sender: the colour that wrote it. recipients: None for the whole table; otherwise the list of
    colours it was written to (a private message), which with the sender are the only seats that
    may read it (`press.visibility`). text: as written (plain text: pages and emails escape it)
    for a message written before talk was sealed; "" for a sealed one, whose words are `sealed`
    (base64 of the AES-GCM nonce and ciphertext, under `key`: `press.sealing`) with
    `words_digest` (an HMAC of the words keyed with a salt sealed with them). The chain covers
    those two, not the words, so destroying the key (erasure) leaves every hash true. Reads open
    it (`press.sealing.open_all`) into `text`, in memory only; a message whose key was shredded
    reads as `erased`.
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

    sealed = models.TextField(
        blank=True, default="", help_text="base64 of nonce + AES-GCM ciphertext of the words; '' for old talk"
    )
    words_digest = models.CharField(
        max_length=64,
        blank=True,
        default="",
        help_text="HMAC of the sealed words (press.chain); '' for old talk",
    )
    key = models.ForeignKey(
        TalkKey, on_delete=models.PROTECT, null=True, blank=True, related_name="messages", db_index=False
    )

    # Set by `press.sealing.open_all`: `erased` when the message's key was shredded (its words
    # are gone); `words_salt` the salt of its words digest, sealed with them ("" if not opened).
    erased = False
    words_salt = ""

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
