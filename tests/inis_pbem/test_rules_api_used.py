"""Outside the rules, only their public names are used (docs/rules-api.md; `games.rules.__all__`).

import-linter's contract (3) in `.importlinter` refuses any import of a rules module from outside;
this test covers what an import graph cannot see: a name taken from `games.rules` that is not in
its `__all__` (`from games.rules import victory`, a module), or an attribute of `rules` that is
not (`rules.clash.current_clash`)."""

from __future__ import annotations

import ast
from pathlib import Path

from games import rules

ROOT = Path(__file__).resolve().parents[2]
SERVICE = ("games", "web", "notifications", "players", "lobby", "press", "watching", "inis_pbem")


def _service_modules():
    for package in SERVICE:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT)
            if relative.parts[:2] == ("games", "rules") or "migrations" in relative.parts:
                continue
            yield relative, ast.parse(path.read_text(), filename=str(relative))


def _uses(tree: ast.AST):
    """(line, name) of every name the module takes from games.rules."""
    aliases = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "games.rules":
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.module == "games":
            aliases |= {alias.asname or alias.name for alias in node.names if alias.name == "rules"}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("games.rules."):
            yield node.lineno, node.module
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases:
            yield node.lineno, node.attr


def test_the_service_uses_only_the_rules_public_names():
    public = set(rules.__all__)
    outside = [
        f"{path}:{line}: rules.{name}"
        for path, tree in _service_modules()
        for line, name in _uses(tree)
        if name not in public
    ]
    assert not outside, (
        "names outside games.rules.__all__ (add them to the public API and "
        "docs/rules-api.md, or move the need):\n" + "\n".join(outside)
    )


def test_the_check_sees_a_module_taken_as_a_name():
    tree = ast.parse(
        "from games import rules\nfrom games.rules import victory\nrules.clash.current_clash(s)\n"
    )
    assert {name for _line, name in _uses(tree)} - set(rules.__all__) == {"victory", "clash"}


def test_every_public_name_of_the_rules_is_documented():
    """docs/rules-api.md names (in backquotes) every name of `games.rules.__all__`: the service
    may use only those, so a reader of the page must find each."""
    import re

    text = (ROOT / "docs" / "rules-api.md").read_text()
    blocks = re.findall(r"^```\w*\n(.*?)^```$", text, re.S | re.M)
    prose = re.sub(r"^```\w*\n.*?^```$", "", text, flags=re.S | re.M)
    code = blocks + re.findall(r"`([^`]+)`", prose)
    documented = {name for span in code for name in re.findall(r"\w+", span)}
    assert [name for name in rules.__all__ if name not in documented] == []
