"""manage.py demo: the lines docs/management-commands.md shows are the lines it prints."""

from __future__ import annotations

import re
from io import StringIO
from pathlib import Path

from django.core.management import call_command

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
