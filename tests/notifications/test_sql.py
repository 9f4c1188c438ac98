"""The mail's written SQL (`notifications/outbox.py`): the outbox insert that carries another
statement along (one round trip on PostgreSQL, two elsewhere), run directly against the database
the tests use (SQLite locally, PostgreSQL in CI). The delivery's one read is compared with the ORM
in tests/notifications/test_outbox.py."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from games.models import SeatClock
from games.play import sql as play_sql
from games.play.commands import SeatSpec, create_game
from notifications import outbox
from notifications.models import Outbox
from notifications.prompts import RenderedEmail

pytestmark = pytest.mark.django_db


def test_the_outbox_insert_runs_the_statement_it_carries_and_sets_the_ids(monkeypatch):
    monkeypatch.setattr(outbox, "schedule", lambda ids: None)  # the worker's part
    game = create_game(seats=[SeatSpec(email="a@example.org"), SeatSpec(email="b@example.org")], seed="sql")
    clocks = list(SeatClock.objects.filter(game=game))
    for clock in clocks:
        clock.missed_in_row = 2
    along = play_sql.clocks_update(clocks) or (
        f"UPDATE {play_sql.sql.table(SeatClock)} SET missed_in_row = %s WHERE game_id = %s",
        [2, game.pk],
    )
    email = RenderedEmail(subject="s", text="t", html="", headers={"X-A": "1"})
    before = Outbox.objects.count()
    with transaction.atomic():
        rows = outbox.enqueue_all(
            [
                dict(kind=Outbox.Kind.NOTICE, to_email=f"{c}@example.org", email=email, seq=3)
                for c in ("a", "b")
            ],
            along=along,
        )
    assert [row.pk for row in rows] == list(
        Outbox.objects.order_by("pk").values_list("pk", flat=True)[before:]
    )
    assert all(not row._state.adding for row in rows)
    assert set(SeatClock.objects.filter(game=game).values_list("missed_in_row", flat=True)) == {2}
    assert Outbox.objects.get(pk=rows[0].pk).headers == {"X-A": "1"}
    assert connection.vendor in ("postgresql", "sqlite")
