"""Every template's comments are comments: Django's `{# ... #}` ends on its own line, so one that
runs onto the next line is printed on the page as text, for every visitor to read."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_no_one_line_comment_runs_onto_a_second_line():
    broken = [
        f"{path.relative_to(ROOT)}:{number}"
        for path in sorted((ROOT / "templates").rglob("*"))
        if path.suffix in (".html", ".txt")
        for number, line in enumerate(path.read_text().splitlines(), start=1)
        if "{#" in line and "#}" not in line.split("{#", 1)[1]
    ]
    assert broken == []
