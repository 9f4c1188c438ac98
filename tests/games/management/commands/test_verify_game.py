"""manage.py verify_game: report and exit status."""

from __future__ import annotations

import subprocess
import sys
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.models import Event


def test_a_sound_game_reports_ok(make_game, play):
    game = make_game()
    play(game, 10)
    out = StringIO()
    call_command("verify_game", str(game.pk), stdout=out)
    assert f"Game {game.pk}: OK" in out.getvalue()


def test_a_tampered_game_fails_with_a_report(make_game, play, unprotected_log):
    game = make_game()
    play(game, 10)
    row = Event.objects.filter(game=game).order_by("-seq").first()
    with unprotected_log():
        Event.objects.filter(pk=row.pk).update(payload={"tampered": 1})
    out = StringIO()
    with pytest.raises(CommandError, match="Verification failed"):
        call_command("verify_game", "--all", stdout=out)
    assert f"event #{row.seq}" in out.getvalue() and "FAILED" in out.getvalue()


def test_the_command_line_exit_status_is_non_zero_on_failure(db):
    """Through manage.py itself (exit codes are what scripts see)."""
    result = subprocess.run([sys.executable, "manage.py", "verify_game"], capture_output=True, text=True)
    assert result.returncode != 0 and "Name at least one GAME" in result.stderr


def test_all_with_a_game_is_refused(make_game):
    """docs/management-commands.md: `verify_game GAME [GAME...] | --all`: one or the other, as
    arguments that do not fit together (status 1)."""
    game = make_game()
    out = StringIO()
    with pytest.raises(CommandError, match="--all verifies every game: name no GAME with it"):
        call_command("verify_game", "--all", str(game.pk), stdout=out)
    assert out.getvalue() == ""
