"""README.md, "Configuration": the operator's list of what comes from the environment. Every
variable it names in its first column is read by the settings (a variable the code never reads
would be set for nothing), and every variable the settings read is named there (an operator
cannot set what nobody told them of). Read from the settings' source, as `inis_pbem.env` reads
each one by its name."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READ = re.compile(r"env_(?:str|int|bool|list|float)\(\s*\"([A-Z][A-Z0-9_]*)\"")
# Read by the settings, but for the test suite alone (docs/security.md, docs/operations.md).
FOR_TESTS = {"LOOPBACK_TARGETS_FOR_TESTS"}


def configuration_section() -> str:
    text = (ROOT / "README.md").read_text()
    start = text.index("## Configuration")
    return text[start : text.index("\n## ", start + 1)]


def read_by_settings() -> set[str]:
    return {name for path in (ROOT / "inis_pbem").rglob("*.py") for name in READ.findall(path.read_text())}


def table_variables() -> set[str]:
    rows = [line for line in configuration_section().splitlines() if line.startswith("| `")]
    return {name for row in rows for name in re.findall(r"`([A-Z][A-Z0-9_]*)`", row.split("|")[1])}


def test_every_variable_of_the_readme_table_is_read_by_the_settings():
    assert table_variables() - read_by_settings() == set()


def test_every_variable_the_settings_read_is_named_in_the_readme():
    named = set(re.findall(r"`([A-Z][A-Z0-9_]*)", configuration_section()))
    assert read_by_settings() - named - FOR_TESTS == set()
