"""Migrations of players that carry data. Player moved from `notifications` to `players`: a
database migrated from before the move keeps every player's preferences (the table is the same;
only Django's state and the content type move). Push devices got the key of the browser session
they were turned on from (0009): filled from the live sessions."""

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


def test_push_devices_of_a_live_session_keep_its_key_and_the_others_none():
    """players 0009: a device remembered by a live session of its own player's account gets
    that session's key (so that it goes when the session ends); one remembered by no live
    session, or by an expired one, keeps none (removed only at a sign-out or by its player)."""
    from datetime import timedelta
    from importlib import import_module

    from django.conf import settings
    from django.utils import timezone

    from players.models import PushSubscription

    old = migrate_to([("players", "0008_erasure")])
    User = old.get_model("auth", "User")
    player = old.get_model("players", "Player").objects.create(email="ana@example.org")
    user = User.objects.create(username="ana@example.org", email="ana@example.org")
    other = User.objects.create(username="bo@example.org", email="bo@example.org")
    for name in ("live", "expired", "of-another-account", "forgotten"):
        old.get_model("players", "PushSubscription").objects.create(
            player=player, endpoint=f"https://push.example.net/{name}", p256dh="k", auth="a"
        )
    keys = {}
    for name, owner, ends in (
        ("live", user, timedelta(days=3)),
        ("expired", user, timedelta(days=-1)),
        ("of-another-account", other, timedelta(days=3)),
    ):
        session = import_module(settings.SESSION_ENGINE).SessionStore()
        session.update(
            {"_auth_user_id": str(owner.pk), "push_endpoints": [f"https://push.example.net/{name}"]}
        )
        session.set_expiry(timezone.now() + ends)
        session.create()
        keys[name] = session.session_key

    migrate_to_latest()

    kept = dict(PushSubscription.objects.values_list("endpoint", "session_key"))
    assert kept == {
        "https://push.example.net/live": keys["live"],
        "https://push.example.net/expired": "",
        "https://push.example.net/of-another-account": "",
        "https://push.example.net/forgotten": "",
    }
