"""The append-only log refuses TRUNCATE (PostgreSQL): row triggers refuse UPDATE and DELETE but
never fire on TRUNCATE, which would empty the events, the commands or the table log at once."""

from __future__ import annotations

import pytest
from django.db import connection, transaction

from games.models import Command, Event, TableEvent
from games.play import table


@pytest.mark.postgres
@pytest.mark.parametrize("model", [Event, Command, TableEvent])
def test_truncate_is_refused_on_every_log_table(make_game, play, model):
    game = make_game(seed="truncate", n_players=2)
    play(game, 5)
    table.game_pause(game=game)
    before = model.objects.count()
    assert before > 0
    with pytest.raises(Exception, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # else "pending trigger events"
        cursor.execute(f"TRUNCATE {model._meta.db_table} CASCADE")
    assert model.objects.count() == before
