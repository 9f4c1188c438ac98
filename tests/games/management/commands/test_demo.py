"""manage.py demo: the lines docs/management-commands.md shows are the lines it prints."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.models import Game

DOC = Path(__file__).resolve().parents[4] / "docs" / "management-commands.md"


def test_demo_prints_the_documented_addresses(db, settings):
    settings.SITE_URL = "http://127.0.0.1:8000"
    out = StringIO()
    call_command("demo", "--players", "2", "--email", "demo@example.org", stdout=out)
    printed = out.getvalue().splitlines()
    section = DOC.read_text().split("## demo", 1)[1]
    shown = re.search(r"Prints:\n\n```\n(.*?)```", section, re.S).group(1).splitlines()
    # The addresses that do not depend on the game: the mailbox and the list of games.
    for label in ("Mailbox:", "All games:"):
        [line] = [line for line in printed if line.startswith(label)]
        assert line in shown, (line, shown)
    assert printed[0].startswith("Created demo game ") and printed[1].startswith(
        "Your seat:  http://127.0.0.1:8000/games/"
    )


def test_demo_again_reuses_your_game_in_progress_unless_new(db, settings):
    """docs/management-commands.md, demo: "Reuses your latest game in progress unless `--new`",
    printing "Demo game 3 is in progress: ..."; EMAIL names you in any case, as accounts do."""
    settings.SITE_URL = "http://127.0.0.1:8000"

    def demo(*arguments):
        out = StringIO()
        call_command("demo", "--players", "2", *arguments, stdout=out)
        return out.getvalue().splitlines()

    first = demo("--email", "Demo@Example.org")
    number = re.match(r"Created demo game (\d+): you play green, ", first[0]).group(1)
    again = demo("--email", "demo@example.ORG")
    assert again[0] == f"Demo game {number} is in progress: you play green.", again
    assert again[1].startswith(f"Your seat:  http://127.0.0.1:8000/games/{number}/seat/")
    new = re.match(r"Created demo game (\d+): ", demo("--email", "demo@example.org", "--new")[0]).group(1)
    assert new != number
    assert demo("--email", "demo@example.org")[0] == f"Demo game {new} is in progress: you play green."


def test_demo_with_an_address_that_is_not_one_is_a_one_line_error(db):
    """docs/management-commands.md: a failure the command finds is a one-line CommandError."""
    with pytest.raises(CommandError, match="--email: .*notanemail.* is not an email address"):
        call_command("demo", "--email", "notanemail", stdout=StringIO())
    assert not Game.objects.exists()
