"""Migrating a database across a move of models between apps: back to the schema before the
move, rows written there with the models as they were, then forward to today's schema.

Used by the tests that check a move keeps the data (`tests/players/test_migrations.py`,
`tests/games/play/test_migrations.py`). They need `django_db(transaction=True)`: migrations
run outside a test's transaction. The database is left migrated to the latest schema.
"""

from __future__ import annotations

from django.db import connection
from django.db.migrations.executor import MigrationExecutor


def migrate_to(targets: list[tuple[str, str | None]]):
    """Migrate the test database to `targets` ([(app label, migration name or None)]); returns
    the apps registry of that state (the models as they were there)."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state([t for t in targets if t[1] is not None]).apps


def migrate_to_latest():
    """Migrate the test database to every app's latest migration; returns today's apps registry."""
    executor = MigrationExecutor(connection)
    leaves = executor.loader.graph.leaf_nodes()
    executor.migrate(leaves)
    executor.loader.build_graph()
    return executor.loader.project_state(leaves).apps
