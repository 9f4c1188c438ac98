"""docs/architecture.md, "The rooms": the column "public to the rooms above" names what of the
store and of the bots the other rooms may use. `lint-imports` holds the channels to each other's
public modules (.importlinter, contract 4), but nothing there names the store's or the bots'
modules: this test reads every import of them from outside and checks that the page names it."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import games.bots

ROOT = Path(__file__).resolve().parents[1]
ARCHITECTURE = ROOT / "docs" / "architecture.md"
# The service's code: the rooms and the wiring (tests, the bench and scripts are not rooms).
PACKAGES = (
    "games",
    "web",
    "notifications",
    "players",
    "lobby",
    "press",
    "watching",
    "community",
    "inis_pbem",
)


def public_column(folder: str) -> str:
    """The last cell of the rooms' table row of `folder` (e.g. "games/store/")."""
    row = next(line for line in ARCHITECTURE.read_text().splitlines() if line.startswith(f"| `{folder}` |"))
    return row.rstrip(" |").rsplit(" | ", 1)[1]


def public_modules(room: str) -> set[str]:
    """The modules of `room` ("games.store") that its row names: `games.store.selectors`, and
    the short forms `.exports` that follow it."""
    column = public_column(room.replace(".", "/") + "/")
    names = set(re.findall(rf"`({re.escape(room)}(?:\.\w+)*)`", column))
    names |= {room + short for short in re.findall(r"`(\.\w+)`", column)}
    return names


def imports_from_outside(room: str) -> list[tuple[str, str, str]]:
    """(file, module, name) for each import of `room` or its modules by code outside `room`:
    `from games.store.models import Game` gives ("...", "games.store.models", "Game");
    `from games import store` gives ("...", "games.store", "")."""
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            where = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            if where == room or where.startswith(room + ".") or ".migrations." in where:
                continue
            for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
                if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    parent, _, last = room.rpartition(".")
                    if node.module == parent and any(alias.name == last for alias in node.names):
                        found.append((where, room, ""))
                    elif node.module == room or node.module.startswith(room + "."):
                        found += [(where, node.module, alias.name) for alias in node.names]
                elif isinstance(node, ast.Import):
                    found += [
                        (where, alias.name, "")
                        for alias in node.names
                        if alias.name == room or alias.name.startswith(room + ".")
                    ]
    return found


@pytest.mark.parametrize("room", ["games.store", "games.bots"])
def test_the_rooms_above_use_only_the_modules_the_page_calls_public(room):
    public = public_modules(room) | {room}
    outside = [
        f"{where}: {module}" for where, module, _ in imports_from_outside(room) if module not in public
    ]
    assert not outside, f"docs/architecture.md names as public only {sorted(public)}, not: {outside}"


def test_what_the_rooms_above_take_from_the_bots_package_is_in_its_all():
    """The bots' row: "`games.bots` and its `__all__`"."""
    taken = {
        name for _, module, name in imports_from_outside("games.bots") if module == "games.bots" and name
    }
    assert "`__all__`" in public_column("games/bots/")
    assert taken and taken <= set(games.bots.__all__) | {
        m.rpartition(".")[2] for m in public_modules("games.bots")
    }


def test_an_import_of_a_module_the_page_does_not_name_is_found(monkeypatch, tmp_path):
    """The page read as it would be without `.models` in the store's row: the store's models,
    imported by the play room, are reported."""
    text = ARCHITECTURE.read_text().replace("`.models` (the models", "the models (the models", 1)
    page = tmp_path / "architecture.md"
    page.write_text(text)
    monkeypatch.setattr(f"{__name__}.ARCHITECTURE", page)
    with pytest.raises(AssertionError, match="games.play.commands: games.store.models"):
        test_the_rooms_above_use_only_the_modules_the_page_calls_public("games.store")


def channel_exceptions() -> list[str]:
    """The modules of .importlinter's channel contract (4) that another channel may import: the
    right-hand sides of its `ignore_imports`, e.g. "notifications.outbox"."""
    text = (ROOT / ".importlinter").read_text().split("[importlinter:contract:channels]", 1)[1]
    lines = text.split("ignore_imports =", 1)[1].split("\n[", 1)[0].splitlines()
    return sorted({line.split("->")[1].strip().removesuffix(".**") for line in lines if "->" in line})


@pytest.mark.parametrize("module", channel_exceptions())
def test_what_one_channel_may_import_of_another_is_public_on_the_page(module):
    """.importlinter lets a channel import these modules of another; the page calls each public."""
    room = module.split(".")[0]
    assert module in public_modules(room), f"docs/architecture.md, row `{room}/`, does not name {module}"


def test_the_strict_types_are_checked_where_the_page_says():
    """docs/architecture.md, "Types": the folders "checked with every strict flag" are those of
    mypy.ini's strict section."""
    config = (ROOT / "mypy.ini").read_text().split("# ---- strict", 1)[1]
    section = re.search(r"^\[mypy-([^\]]+)\]", config, re.MULTILINE)
    assert section is not None
    strict = {name for name in section.group(1).split(",") if not name.endswith(".*")}
    text = " ".join(ARCHITECTURE.read_text().split())
    sentence = text.split("are checked with every strict flag:", 1)[1].split(";", 1)[0]
    named = {folder.strip("/").replace("/", ".") for folder in re.findall(r"`([\w/]+/)`", sentence)}
    assert named == strict


def test_every_documented_command_lives_where_the_page_says():
    """docs/management-commands.md's commands: the row of `games/management/` names each, and
    the room of those it does not hold, whose `management/commands/` does."""
    from django.core.management import get_commands

    documented = re.findall(
        r"^## (\w+)$", (ROOT / "docs" / "management-commands.md").read_text(), re.MULTILINE
    )
    row = next(
        line for line in ARCHITECTURE.read_text().splitlines() if line.startswith("| `games/management/` |")
    )
    rooms_said = {
        command: room
        for commands, room in re.findall(r"((?:`\w+`(?: and )?)+) in `(\w+)/`", row)
        for command in re.findall(r"`(\w+)`", commands)
    }
    apps = get_commands()
    assert documented and all(f"`{command}`" in row for command in documented), row
    assert {c: apps[c] for c in documented if apps[c] != "games"} == rooms_said
