"""Player moved from `notifications` to `players`: a database migrated from before the move keeps
every player's preferences (the table is the same; only Django's state and the content type move)."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType as CurrentContentType

from players.models import Player
from tests.migrating import migrate_to, migrate_to_latest

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("notifications", "0008_clock_times_unindexed"), ("players", None)]


def test_players_written_before_the_move_are_read_after_it():
    old = migrate_to(BEFORE)
    OldPlayer = old.get_model("notifications", "Player")
    OldPlayer.objects.create(
        email="ana@example.org",
        delivery="digest",
        news=False,
        time_zone="Europe/Paris",
        language="fr",
        display_name="Ana",
    )
    OldPlayer.objects.create(email="bo@example.org")
    # As on a database made before the move: the model's content type under its old app only.
    CurrentContentType.objects.filter(app_label="players", model="player").delete()
    CurrentContentType.objects.get_or_create(app_label="notifications", model="player")
    CurrentContentType.objects.clear_cache()

    migrate_to_latest()

    ana = Player.objects.get(email="ana@example.org")
    assert (ana.delivery, ana.news, ana.time_zone, ana.language, ana.display_name) == (
        "digest",
        False,
        "Europe/Paris",
        "fr",
        "Ana",
    )
    assert Player.objects.filter(email="bo@example.org", delivery="prompt", news=True).exists()
    assert CurrentContentType.objects.filter(app_label="players", model="player").exists()
    assert not CurrentContentType.objects.filter(app_label="notifications", model="player").exists()
