"""The chain version migration: a game that exists when it runs keeps version 1 (the chain its
events were written with, which still verifies as before); a game created afterwards gets 2."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

BEFORE = [("games", "0005_game_lookups_by_unique_indexes"), ("press", "0001_initial")]
AFTER = [("games", "0006_game_chain_version"), ("press", "0002_private_message_salt")]


@pytest.mark.django_db(transaction=True)
def test_existing_games_keep_version_1_and_new_ones_get_version_2():
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    executor.migrate(BEFORE)
    try:
        old_apps = executor.loader.project_state(BEFORE).apps
        OldGame = old_apps.get_model("games", "Game")
        existing = OldGame.objects.create(seed="s", seed_commitment="c" * 64, player_count=2)
        executor.loader.build_graph()
        executor.migrate(AFTER)
        new_apps = executor.loader.project_state(AFTER).apps
        Game = new_apps.get_model("games", "Game")
        assert Game.objects.get(pk=existing.pk).chain_version == 1
        assert Game.objects.create(seed="t", seed_commitment="d" * 64, player_count=2).chain_version == 2
        assert new_apps.get_model("press", "PressMessage")._meta.get_field("salt").default == ""
    finally:
        executor.loader.build_graph()
        executor.migrate(latest)
