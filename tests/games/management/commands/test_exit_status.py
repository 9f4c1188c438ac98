"""docs/management-commands.md, "Common conventions": the exit status and standard error of a
failure, as a script calling the commands sees them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[4]


@pytest.mark.slow  # starts manage.py
def test_malformed_arguments_exit_2_with_the_usage_as_the_conventions_say():
    """argparse refuses a malformed argument before the command runs: status 2, its usage and an
    `error:` line (not `CommandError`, status 1, which the commands give for what they find)."""
    done = subprocess.run(
        [sys.executable, "manage.py", "show_game", "abc"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("usage: manage.py show_game")
    assert "manage.py show_game: error: argument game: invalid int value: 'abc'" in done.stderr
    assert "CommandError" not in done.stderr
    conventions = " ".join((ROOT / "docs" / "management-commands.md").read_text().split())
    assert "2 with argparse's usage and an `error: ...` line on stderr for malformed arguments" in conventions
