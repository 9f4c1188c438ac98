"""Migration community 0007: the profiles folded before a game left counted among the games
played get what a rebuild gives, for the games' ends already folded only."""

from __future__ import annotations

import pytest

from community import projections
from community.models import FinishedSeat, PlayerRecord
from tests.migrating import migrate_to, migrate_to_latest


def records() -> list[tuple]:
    return sorted(PlayerRecord.objects.values_list("player_id", "finished", "won", "abandoned"))


def finished_seats() -> list[tuple]:
    return sorted(FinishedSeat.objects.values_list("player_id", "game_id", "colour", "won", "abandoned"))


@pytest.mark.django_db(transaction=True)
def test_a_player_who_left_a_game_folded_before_has_it_played_after_the_migration():
    old = migrate_to([("community", "0006_stand_in_wins_are_not_the_players")])
    GameEnd = old.get_model("community", "GameEnd")
    OldRecord, OldSeat = (
        old.get_model("community", "PlayerRecord"),
        old.get_model("community", "FinishedSeat"),
    )
    Position = old.get_model("community", "ProjectionPosition")
    ended_at = "2026-11-01T12:00:00+00:00"
    end = GameEnd.objects.create(
        game_id=41,
        payload={
            "winner": "green",
            "rated": True,
            "ended_at": ended_at,
            "seats": [
                {"colour": "green", "player": 7, "bot": None, "abandoned": False},
                {"colour": "blue", "player": None, "bot": "hard", "abandoned": False},
            ],
            "left": [{"colour": "blue", "player": 8}],
        },
    )
    # As the fold made it then: the winner only; the player who left had no game played.
    OldRecord.objects.create(player_id=7, finished=1, won=1, abandoned=0)
    OldSeat.objects.create(player_id=7, game_id=41, colour="green", won=True, ended_at=ended_at)
    Position.objects.create(name="profiles", position=end.pk)
    migrate_to_latest()
    assert records() == [(7, 1, 1, 0), (8, 1, 0, 1)]
    migrated = (records(), finished_seats())
    projections.rebuild("profiles")
    assert (records(), finished_seats()) == migrated
