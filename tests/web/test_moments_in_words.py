"""The history's table-log lines and "All games" (/games/) write their moments in words in the
reader's language, as "My games" does ("1 January 2026, 14:03 UTC", "1er janvier 2026, 14:03
UTC"), never in the ISO form; the ISO moment stays in the <time datetime> attribute."""

from __future__ import annotations

import re
from datetime import UTC, datetime
from unittest import mock

import pytest
from django.conf import settings
from django.urls import reverse

from games.models import Game
from games.play import table
from tests.moments import in_words, machine_forms, text_of

# The first of a month: French writes "1er" there, English "1".
MOMENT = datetime(2026, 1, 1, 14, 3, tzinfo=UTC)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_table_log_line_of_the_history_gives_its_moment_in_words(client, make_game, language):
    """The host gave green more time on 1 January 2026 at 14:03 UTC: the history's line of that
    act reads "(1 January 2026, 14:03 UTC, after event N)" ("1er janvier 2026, 14:03 UTC, après
    l'événement N"), not "2026-01-01 14:03"."""
    game = make_game(seed="history-moment", n_players=2)
    with mock.patch("django.utils.timezone.now", return_value=MOMENT):
        act = table.deadline_extend(game=game, colour="green", hours=12)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language

    body = client.get(reverse("games:history", args=[game.pk])).content.decode()
    line = re.search(r'<li class="table-event".*?</li>', body, re.S)[0]

    after = "après l'événement" if language == "fr" else "after event"
    assert f"{in_words(MOMENT, language)} UTC, {after} {act.at_seq}" in text_of(line)
    assert not any(form in text_of(line) for form in machine_forms(MOMENT))
    assert f'datetime="{MOMENT.isoformat()}"' in line


@pytest.mark.parametrize("language", ["en", "fr"])
def test_all_games_gives_when_each_game_was_created_in_words(client, make_game, language):
    """ "All games" ("Toutes les parties") lists a game created on 1 January 2026 at 14:03 UTC
    as "1 January 2026, 14:03 UTC" ("1er janvier 2026, 14:03 UTC")."""
    game = make_game(seed="list-moment", n_players=2)
    Game.objects.filter(pk=game.pk).update(created_at=MOMENT)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language

    body = client.get(reverse("games:list")).content.decode()
    row = body.split(f'href="{reverse("games:detail", args=[game.pk])}"')[1].split("</tr>")[0]

    assert f"{in_words(MOMENT, language)} UTC" in text_of(row)
    assert not any(form in text_of(row) for form in machine_forms(MOMENT))
    assert f'datetime="{MOMENT.isoformat()}"' in row
