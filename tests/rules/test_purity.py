"""The rules package stays pure Python: no Django, no database, no service module."""

import ast
import pathlib

import games.rules

FORBIDDEN = (
    "django",
    "celery",
    "anymail",
    "games.models",
    "games.store",
    "games.services",
    "notifications",
    "psycopg",
    "redis",
)


def test_rules_package_imports_no_framework():
    """games/rules must import only the standard library and itself (docs/architecture.md, the rooms)."""
    root = pathlib.Path(games.rules.__file__).parent
    offenders = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                if name.split(".")[0] in {f.split(".")[0] for f in FORBIDDEN if "." not in f} or any(
                    name == f or name.startswith(f + ".") for f in FORBIDDEN
                ):
                    offenders.append(f"{path.name}: {name}")
    assert offenders == []
