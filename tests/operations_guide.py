"""The examples of docs/operations.md, read as an operator copies them, for the tests that run
them (tests/inis_pbem/test_operations_guide.py, tests/faults/test_real_mail_server.py).

- `block_after(marker, language)`: the first fenced block after a sentence of the guide;
- `env_file()`, `env_file_without_provider()`: the guide's /etc/inis.env, and its variant with
  the lines of "Without a mail provider" in place of the provider's; `placeholders_filled()`,
  what the operator writes in place of its placeholders;
- `systemd_environment_file(text)`: the variables systemd's `EnvironmentFile=` reads from `text`;
- `copy_checkout(destination)`: the repository's tracked files, as a fresh checkout has them.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

from tests.live_server import ROOT, SAFE_ENV

GUIDE = ROOT / "docs" / "operations.md"


def guide() -> str:
    return GUIDE.read_text()


def block_after(marker: str, language: str = "sh") -> str:
    """The first fenced block of `language` (`""`: a block with none) after `marker` in the guide."""
    text = guide()
    start = text.index(marker)
    found = re.compile(rf"```{language}\n(.*?)```", re.S).search(text, start)
    assert found, f"no {language} block after {marker!r}"
    return found.group(1)


def placeholders_filled() -> dict[str, str]:
    """What an operator puts in place of the env file's placeholders (`SECRET_KEY=...` and the
    webhook's example password), as settings a process may be started with."""
    return {name: SAFE_ENV[name] for name in ("SECRET_KEY", "ANYMAIL_WEBHOOK_SECRET")}


def env_file() -> str:
    """The guide's /etc/inis.env."""
    return block_after("`/etc/inis.env`, **the same on every machine**")


def provider_lines() -> list[str]:
    """The names of the lines "Without a mail provider" replaces, as the guide names them."""
    text = guide()
    start = text.index("in place of the three provider")
    sentence = text[start : text.index("(keep", start)]
    return re.findall(r"`([A-Z_]+)`", sentence)


def env_file_without_provider() -> str:
    """/etc/inis.env with the lines of "Without a mail provider" in place of the provider's
    lines the guide names (`provider_lines`), taken literally."""
    names = tuple(f"{name}=" for name in provider_lines())
    kept = [line for line in env_file().splitlines() if not line.startswith(names)]
    return "\n".join(kept) + "\n" + block_after("**Without a mail provider**")


# systemd's reading of an environment file (EnvironmentFile=; src/basic/env-file.c, and the
# assignment check of the service manager): what each character does in each state.
COMMENTS, WHITESPACE, NEWLINE, SHELL_NEED_ESCAPE = "#;", " \t\n\r", "\n\r", '"\\`$'
VALID_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def systemd_environment_file(text: str) -> tuple[dict, list[str]]:
    """(variables, names ignored as invalid) as systemd reads `text` as an EnvironmentFile:
    comments only on lines of their own (`#` or `;` first), no `export`, a value's trailing
    blanks dropped unless quoted, single quotes literal, in double quotes a backslash escapes
    only `"\\`$` (else it stays), a backslash-newline joins lines, no `$` expansion."""
    variables, ignored = {}, []
    state, key, value = "pre_key", [], None
    key_blank = value_blank = None  # where the trailing blanks of the key / value start

    def push(trim_value: bool) -> None:
        name = "".join(key[:key_blank] if key_blank is not None else key)
        chars = value or []
        if trim_value and value_blank is not None:
            chars = chars[:value_blank]
        if VALID_NAME.fullmatch(name):
            variables[name] = "".join(chars)
        else:
            ignored.append(name)

    for c in text:
        if state == "pre_key":
            if c in COMMENTS:
                state = "comment"
            elif c not in WHITESPACE:
                state, key, key_blank = "key", [c], None
        elif state == "key":
            if c in NEWLINE:
                state, key = "pre_key", []  # a line without "=" is dropped
            elif c == "=":
                state, value, value_blank = "pre_value", None, None
            else:
                if c not in WHITESPACE:
                    key_blank = None
                elif key_blank is None:
                    key_blank = len(key)
                key.append(c)
        elif state == "pre_value":
            value = value if value is not None else []
            if c in NEWLINE:
                push(trim_value=False)
                state, key, value = "pre_key", [], None
            elif c == "'":
                state = "single_quote"
            elif c == '"':
                state = "double_quote"
            elif c == "\\":
                state = "value_escape"
            elif c not in WHITESPACE:
                state = "value"
                value.append(c)
        elif state == "value":
            if c in NEWLINE:
                push(trim_value=True)
                state, key, value = "pre_key", [], None
            elif c == "\\":
                state, value_blank = "value_escape", None
            else:
                if c not in WHITESPACE:
                    value_blank = None
                elif value_blank is None:
                    value_blank = len(value)
                value.append(c)
        elif state == "value_escape":
            state = "value"
            if c not in NEWLINE:
                value.append(c)
        elif state == "single_quote":
            if c == "'":
                state = "pre_value"
            else:
                value.append(c)
        elif state == "double_quote":
            if c == '"':
                state = "pre_value"
            elif c == "\\":
                state = "double_quote_escape"
            else:
                value.append(c)
        elif state == "double_quote_escape":
            state = "double_quote"
            if c in SHELL_NEED_ESCAPE:
                value.append(c)
            elif c != "\n":
                value += ["\\", c]
        elif state == "comment":
            if c == "\\":
                state = "comment_escape"
            elif c in NEWLINE:
                state = "pre_key"
        elif state == "comment_escape":
            state = "pre_key" if c in NEWLINE else "comment"
    if state not in ("pre_key", "key", "comment", "comment_escape"):
        push(trim_value=state == "value")
    return variables, ignored


def copy_checkout(destination: Path) -> Path:
    """Copy the repository's tracked files, as they are in the working tree (no compiled
    catalog: those are not in git), to `destination`; returns it."""
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    for name in filter(None, tracked.decode().split("\0")):
        source = ROOT / name
        if source.is_file():
            (destination / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, destination / name)
    return destination
