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


def test_the_only_import_inside_a_function_is_the_clash_read_back_by_the_windows():
    """docs/architecture.md: inside games/rules the modules import each other at the top; "one
    import waits until it is used" (`reactions._LazyClash`), "the only import inside a function
    in the rules". A new one would hide a circle of imports the document does not name."""
    root = pathlib.Path(games.rules.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        for function in ast.walk(tree):
            if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                found += [
                    f"{path.name}: {function.name}"
                    for node in ast.walk(function)
                    if isinstance(node, (ast.Import, ast.ImportFrom))
                ]
    assert found == ["reactions.py: __getattr__"]
