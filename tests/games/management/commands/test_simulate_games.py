"""manage.py simulate_games: bot games through the database, each verifiable afterwards."""
from __future__ import annotations

import re
from io import StringIO

from django.core.management import call_command

from games.models import Game
from games.verification import verify_game


def test_three_four_player_games_complete_and_verify(db):
    out = StringIO()
    call_command("simulate_games", "--games", "3", "--players", "4", "--seed", "sim", stdout=out)
    text = out.getvalue()
    summary = re.search(r"3 games of 4 players: (\d+) ended with a winner, (\d+) unfinished; "
                        r"mean ([\d.]+) events", text)
    assert summary, text
    games = list(Game.objects.all())
    assert len(games) == 3
    assert int(summary.group(1)) == sum(1 for g in games if g.winner)
    assert int(summary.group(1)) >= 1, text
    for game in games:
        report = verify_game(game)
        assert report.ok, report.lines()
        assert report.commands > 0


def test_the_caps_stop_a_game_unfinished(db):
    out = StringIO()
    call_command("simulate_games", "--games", "1", "--players", "2", "--max-commands", "5",
                 "--verify", stdout=out)
    assert "1 unfinished" in out.getvalue() and "verified" in out.getvalue()
    assert not Game.objects.get().winner
