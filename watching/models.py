"""A follower of a public game (docs/spectators.md).

A `Follow` ties a signed-in person (`auth.User`, whose address the digest goes to) to a game.
Its `told_*` marks say how far the person's digests have told the game's three logs — the rules
log (`games.Event.seq`), the table log (`games.TableEvent.seq`) and the table talk
(`press.PressMessage.number`) — so that each digest tells only what is new, and a digest written
twice (a task run again) tells nothing twice.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Follow(models.Model):
    """`user` follows `game`. told_seq / told_table_seq / told_press_number: the last event,
    table event and message the person's digests have told (at the follow: the game's heads
    then, so the first digest tells what happened since). last_digest_at: when the last digest
    that told this game was written."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="follows")
    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="followers")
    created_at = models.DateTimeField(auto_now_add=True)
    told_seq = models.PositiveIntegerField(default=0)
    told_table_seq = models.PositiveIntegerField(default=0)
    told_press_number = models.PositiveIntegerField(default=0)
    last_digest_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "game"], name="one_follow_per_person_and_game")
        ]
        ordering = ["game_id", "id"]

    def __str__(self) -> str:
        return f"{self.user} follows {self.game}"
