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
