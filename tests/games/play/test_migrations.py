"""SeatClock moved from `notifications` to the play room of `games`: a database migrated from before
the move keeps every seat's clock (the table is the same; only Django's state and the content type
move)."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType as CurrentContentType
from django.utils import timezone

from games.models import SeatClock
from tests.migrating import migrate_to, migrate_to_latest

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = [("notifications", "0009_player_to_players"), ("games", "0006_game_chain_version")]


def test_clocks_written_before_the_move_are_read_after_it():
    old = migrate_to(BEFORE)
    game = old.get_model("games", "Game").objects.create(seed="s", seed_commitment="c", player_count=2)
    Seat = old.get_model("games", "Seat")
    green = Seat.objects.create(game=game, colour="green", position=0, email="g@example.org", token="t-green")
    blue = Seat.objects.create(game=game, colour="blue", position=1, email="b@example.org", token="t-blue")
    deadline = timezone.now()
    OldClock = old.get_model("notifications", "SeatClock")
    OldClock.objects.create(
        game=game,
        seat=green,
        seq=7,
        kind="season_turn",
        deadline=deadline,
        last_prompt_seq=5,
        missed_in_row=2,
        stand_in=True,
    )
    OldClock.objects.create(game=game, seat=blue)
    # As on a database made before the move: the model's content type under its old app only.
    CurrentContentType.objects.filter(app_label="games", model="seatclock").delete()
    CurrentContentType.objects.get_or_create(app_label="notifications", model="seatclock")
    CurrentContentType.objects.clear_cache()

    migrate_to_latest()

    clock = SeatClock.objects.get(seat_id=green.pk)
    assert (
        clock.game_id,
        clock.seq,
        clock.kind,
        clock.deadline,
        clock.last_prompt_seq,
        clock.missed_in_row,
        clock.stand_in,
    ) == (game.pk, 7, "season_turn", deadline, 5, 2, True)
    assert SeatClock.objects.filter(seat_id=blue.pk, seq=None, stand_in=False).exists()
    assert CurrentContentType.objects.filter(app_label="games", model="seatclock").exists()
    assert not CurrentContentType.objects.filter(app_label="notifications", model="seatclock").exists()
