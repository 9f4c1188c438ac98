"""No function over 60 lines in the email room (`notifications/`) and the play room (`games/play/`):
the house style's limit, kept by a test so that the reply path and the command path stay in
named steps a reader can follow (docs/architecture.md, the rooms)."""

import ast
import pathlib

import games.play
import notifications

MAX_LINES = 60
PACKAGES = (notifications, games.play)


def functions_over(limit: int, root: pathlib.Path) -> list[str]:
    """`path:line name (N lines)` for each function or method under `root` longer than `limit`
    lines, its decorators excluded and its signature and docstring included; migrations skipped
    (Django writes them)."""
    found = []
    for path in sorted(root.rglob("*.py")):
        if "migrations" in path.parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                length = (node.end_lineno or node.lineno) - node.lineno + 1
                if length > limit:
                    found.append(
                        f"{path.relative_to(root.parent)}:{node.lineno} {node.name} ({length} lines)"
                    )
    return found


def test_no_function_over_60_lines_in_notifications_and_games_play():
    """Split a longer function into named steps (a small frozen dataclass carries what they share)."""
    too_long = [
        line
        for package in PACKAGES
        for line in functions_over(MAX_LINES, pathlib.Path(package.__file__).parent)
    ]
    assert too_long == []


def test_the_check_finds_a_long_function(tmp_path):
    """The check itself: a 61-line function is reported, a 60-line one is not."""
    package = tmp_path / "room"
    package.mkdir()
    body = "\n".join(f"    x{i} = {i}" for i in range(59))
    (package / "steps.py").write_text(f"def short():\n{body}\n\n\ndef long():\n{body}\n    return 0\n")
    assert functions_over(MAX_LINES, package) == ["room/steps.py:63 long (61 lines)"]
