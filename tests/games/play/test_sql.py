"""The play room's written SQL (`games/play/sql.py`): the clocks' locked read and their update, run
directly against the database the tests use (SQLite locally, PostgreSQL in CI)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.utils import timezone

from games.models import SeatClock
from games.play import sql
from games.play.commands import SeatSpec, create_game
from notifications.models import NewsItem
from players.models import Player

pytestmark = pytest.mark.django_db


@pytest.fixture
def game():
    return create_game(
        seats=[SeatSpec(email="Ana@Example.org"), SeatSpec(email="bo@example.org")], seed="written-sql"
    )


def test_the_locked_read_gives_each_clock_with_its_player_and_the_registered_columns(game):
    seats = list(game.seats.order_by("position"))
    NewsItem.objects.create(game=game, seat=seats[1], seq=1, text="news")
    Player.objects.filter(email="bo@example.org").update(language="fr")
    with transaction.atomic():
        clocks = {clock.seat_id: clock for clock in sql.locked_clocks(seats)}
    orm = {clock.seat_id: clock for clock in SeatClock.objects.filter(game=game)}
    assert set(clocks) == set(orm) == {s.pk for s in seats}
    for seat_id, clock in clocks.items():
        assert [getattr(clock, f) for f in sql.CLOCK_FIELDS] == [
            getattr(orm[seat_id], f) for f in sql.CLOCK_FIELDS
        ]
    # news_waiting is the mail's column (NotificationsConfig.ready registers it).
    assert (clocks[seats[0].pk].news_waiting, clocks[seats[1].pk].news_waiting) == (False, True)
    assert clocks[seats[1].pk].player.language == "fr"


def test_the_clocks_update_saves_every_clock_field(game):
    clocks = list(SeatClock.objects.filter(game=game).order_by("seat__position"))
    deadline = timezone.now() + timedelta(hours=5)
    for clock in clocks:
        clock.seq, clock.kind, clock.deadline, clock.remind_at = 42, "season_turn", deadline, None
        clock.reminded, clock.last_prompt_seq, clock.missed_in_row, clock.stand_in = True, 41, 2, True
    statement = sql.clocks_update(clocks)
    if connection.vendor == "postgresql":
        assert statement is not None  # runs inside the outbox insert (notifications.outbox)
        with connection.cursor() as cursor:
            cursor.execute(*statement)
    else:
        assert statement is None
        sql.update_clocks(clocks)
    for clock in SeatClock.objects.filter(game=game):
        assert (
            clock.seq,
            clock.kind,
            clock.deadline,
            clock.reminded,
            clock.last_prompt_seq,
            clock.missed_in_row,
            clock.stand_in,
        ) == (42, "season_turn", deadline, True, 41, 2, True)


def test_update_clocks_writes_on_every_database(game):
    clock = SeatClock.objects.filter(game=game).first()
    clock.missed_in_row = 3
    sql.update_clocks([clock])
    clock.refresh_from_db()
    assert clock.missed_in_row == 3
