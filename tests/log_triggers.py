"""The log's triggers switched off for a test's own out-of-band edits (PostgreSQL).

`pgtrigger.ignore` cannot serve here: it prefixes each statement with a second one, which a
statement bound by the server (DATABASES OPTIONS `server_side_binding`, as in production) may
not hold. `switched_off` disables the triggers and enables them again inside one transaction
(PostgreSQL's ALTER TABLE is transactional): no other connection ever sees them off. The
foreign keys' checks Django defers to the commit are run first (a table with checks pending
cannot be altered), then deferred again.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pgtrigger
from django.db import connection, transaction


@contextlib.contextmanager
def switched_off(*uris: str) -> Iterator[None]:
    """The triggers `uris` ("app.Model:trigger_name") off inside the block, on PostgreSQL (a
    no-op elsewhere, where the triggers do not exist)."""
    if connection.vendor != "postgresql":
        yield
        return
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        pgtrigger.disable(*uris)
        yield
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        pgtrigger.enable(*uris)
        cursor.execute("SET CONSTRAINTS ALL DEFERRED")
