"""games.story.table_events: the host's acts (docs/table-log.md) told in words."""

from __future__ import annotations

import pytest
from django.utils import translation

from games.story.table_events import describe_table_event


@pytest.mark.parametrize(
    ("paused_hours", "told"),
    [
        (0.0, "The host resumed the game less than a minute after pausing it."),
        (0.02, "The host resumed the game after 1 minute."),
        (0.75, "The host resumed the game after 45 minutes."),
        (1.0, "The host resumed the game after 1 hour."),
        (26.5, "The host resumed the game after 26.5 hours."),
    ],
)
def test_a_pause_is_told_in_minutes_under_an_hour(paused_hours, told):
    """A pause of a few seconds read "after 0.0 hours": under an hour it is told in minutes."""
    with translation.override("en"):
        assert describe_table_event("GameResumed", {"paused_hours": paused_hours}) == told


def test_a_pause_is_told_in_french_with_a_decimal_comma():
    with translation.override("fr"):
        assert "26,5 heures" in describe_table_event("GameResumed", {"paused_hours": 26.5})
        assert "45 minutes" in describe_table_event("GameResumed", {"paused_hours": 0.75})


def test_an_extension_names_the_player_says_you_to_them_and_counts_its_hours():
    """docs/web.md, "Players by name": every sentence of a game that names a player says "Ann
    (green)", and to you, your own seat is "you"; a one-hour extension is "1 more hour"."""
    from games.rules import players_named

    with translation.override("en"), players_named({"green": "Ann"}):
        assert describe_table_event("DeadlineExtended", {"seat": "green", "hours": 2}) == (
            "The host gave Ann (green) 2 more hours for the current decision."
        )
        assert describe_table_event("DeadlineExtended", {"seat": "green", "hours": 1}, reader="green") == (
            "The host gave you 1 more hour for the current decision."
        )
        assert describe_table_event("DeadlineExtended", {"seat": None, "hours": 1}, reader="green") == (
            "The host gave every seat 1 more hour for the current decision."
        )
        assert describe_table_event("SeatReplaced", {"seat": "green", "now": "player"}, reader="green") == (
            "The host gave green to a new player: you."
        )
    with translation.override("fr"), players_named({"green": "Ann"}):
        assert describe_table_event("DeadlineExtended", {"seat": "green", "hours": 1}) == (
            "L'hôte a donné à Ann (vert) 1 heure de plus pour la décision en cours."
        )
        assert describe_table_event("DeadlineExtended", {"seat": "green", "hours": 3}, reader="green") == (
            "L'hôte vous a donné 3 heures de plus pour la décision en cours."
        )
