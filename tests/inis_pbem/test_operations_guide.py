"""The examples of docs/operations.md that an operator copies, run as the operator runs them.

- `/etc/inis.env`, and its variant without a mail provider: the shell (bash, and the `sh` of the
  Postfix wrapper) and systemd (`EnvironmentFile=`, by its rules, `systemd_environment_file`
  below) read the same variables with the same values, every line of it; and the production
  checks accept it (`manage.py check`, DEBUG off).
- The Postfix wrapper: with that file it starts `receive_email`, which handles the message
  (exit 0); with a file the shell cannot read it exits 75, so Postfix keeps the reply instead of
  bouncing it.
- The web unit's gunicorn gets the options `scripts/serve-production` passes.
- The French texts: the documented compile step, run in a fresh checkout (which has no compiled
  catalog: they are not in git), compiles every catalog, and Django then speaks French.
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from django.db import connection

from notifications.models import InboundEmail
from tests.faults.processes import free_port
from tests.live_server import CONFIG_PREFIXES, ROOT, SAFE_ENV
from tests.notifications import mail_clients
from tests.operations_guide import (
    block_after,
    copy_checkout,
    env_file,
    env_file_without_provider,
    systemd_environment_file,
)

VENV = Path(sys.executable).parent.parent
# A minimal environment, as systemd and Postfix's pipe give their programs.
BARE = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}


def shell_environment(shell: str, path: Path) -> tuple[dict, str, int]:
    """(variables the file sets, standard error, status) of `set -a; . FILE; set +a` in `shell`."""

    def run(script: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [shell, "-c", script, "load", str(path)], env=BARE, capture_output=True, timeout=30
        )

    def parse(out: bytes) -> dict:
        return dict(item.decode().split("=", 1) for item in out.split(b"\0") if item)

    before = parse(run("exec env -0").stdout)
    loaded = run('set -a; . "$1"; set +a; exec env -0')
    after = parse(loaded.stdout)
    return (
        {k: v for k, v in after.items() if before.get(k) != v and k not in ("_", "PWD", "SHLVL")},
        loaded.stderr.decode(),
        loaded.returncode,
    )


@pytest.mark.parametrize("which", ["with a provider", "without a provider"])
def test_the_env_file_reads_the_same_in_bash_sh_and_systemd(which, tmp_path):
    text = env_file() if which == "with a provider" else env_file_without_provider()
    path = tmp_path / "inis.env"
    path.write_text(text)
    by_systemd, ignored = systemd_environment_file(text)
    assert not ignored, f"systemd ignores these lines: {ignored}"
    assigned = [line for line in text.splitlines() if line.strip() and not line.startswith("#")]
    assert len(by_systemd) == len(assigned), "a line systemd does not read as an assignment"
    assert by_systemd["DEFAULT_FROM_EMAIL"] == "Inis by email <inis@inis.example.org>"
    for shell in ("bash", "sh"):
        by_shell, errors, status = shell_environment(shell, path)
        assert (status, errors) == (0, ""), f"{shell} cannot read the file: {errors}"
        assert by_shell == by_systemd, shell


def test_the_systemd_reading_matches_systemd_itself(tmp_path):
    """The reading above against systemd's own parser, where it is installed (its environment.d
    generator reads with the same parser, and expands `$`, which none of these lines holds)."""
    generator = Path("/usr/lib/systemd/user-environment-generators/30-systemd-environment-d-generator")
    if not generator.exists():
        pytest.skip("systemd is not installed")
    samples = [
        env_file(),
        env_file_without_provider(),
        'A=plain\n# a comment\nB="Inis by email <inis@x.org>"\nC=value   # part of it\nD=  spaced  \n'
        'E=\'single quoted\'\nexport F=ignored\nG="esc \\"q\\" \\\\ \\x"\nH=a\\\n b\n',
    ]
    for text in samples:
        (tmp_path / "environment.d").mkdir(exist_ok=True)
        (tmp_path / "environment.d" / "10-inis.conf").write_text(text)
        done = subprocess.run(
            [str(generator)],
            env={
                **BARE,
                "HOME": str(tmp_path),
                "XDG_CONFIG_HOME": str(tmp_path),
                "XDG_CONFIG_DIRS": "/nowhere",
            },
            capture_output=True,
            timeout=30,
        )
        theirs = dict(line.split("=", 1) for line in done.stdout.decode().splitlines() if "=" in line)
        ours, _ignored = systemd_environment_file(text)
        for name, value in ours.items():
            # The generator prints each value shell-quoted.
            assert shlex.split(f"x={theirs[name]}")[0] == f"x={value}", name
        assigned_here = {n for n in theirs if re.search(rf"^{n}=", text, re.M)}
        assert assigned_here <= set(ours)


def production_env(text: str, **overrides) -> dict:
    """The environment a process started with `text` (the env file) gets, with `overrides`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(CONFIG_PREFIXES)}
    env.update(systemd_environment_file(text)[0])
    env.update(overrides)
    return env


@pytest.mark.slow  # starts manage.py
@pytest.mark.parametrize("which", ["with a provider", "without a provider"])
def test_the_production_checks_accept_the_env_file(which):
    text = env_file() if which == "with a provider" else env_file_without_provider()
    assert "SECRET_KEY=...\n" in text  # a placeholder: the operator puts 50 random characters there
    env = production_env(text, SECRET_KEY=SAFE_ENV["SECRET_KEY"])
    done = subprocess.run(
        [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, timeout=120
    )
    assert done.returncode == 0, done.stderr.decode()[-3000:]


def wrapper(tmp_path: Path, env_path: Path) -> Path:
    """The guide's /srv/inis/receive-email, for this checkout, its venv and `env_path`."""
    text = block_after("`/srv/inis/receive-email`, mode 755")
    assert text.startswith("#!/bin/sh\n")
    script = tmp_path / "receive-email"
    script.write_text(
        text.replace("/etc/inis.env", str(env_path))
        .replace("/srv/inis/app", str(ROOT))
        .replace("/srv/inis/venv", str(VENV))
    )
    script.chmod(0o755)
    return script


def test_the_wrapper_keeps_the_reply_when_the_env_file_cannot_be_read(tmp_path):
    """The guide's own earlier mistake: an unquoted value with `<>` stops the shell (status 2
    from `sh`, which Postfix takes as a bounce)."""
    broken = tmp_path / "inis.env"
    broken.write_text(
        env_file().replace('"Inis by email <inis@inis.example.org>"', "Inis by email <inis@inis.example.org>")
    )
    done = subprocess.run(
        [str(wrapper(tmp_path, broken)), "inis@inis.example.org"],
        env=BARE,
        input=b"Subject: hello\n\nhello\n",
        capture_output=True,
        timeout=60,
    )
    assert done.returncode == 75, done.stderr.decode()
    assert done.stderr.decode().strip() == f"cannot read {broken}"


@pytest.mark.postgres
@pytest.mark.slow  # starts manage.py as Postfix does
@pytest.mark.django_db(transaction=True)
def test_the_wrapper_with_the_env_file_hands_the_message_to_receive_email(tmp_path):
    db = connection.settings_dict
    overrides = {
        "SECRET_KEY": SAFE_ENV["SECRET_KEY"],
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        # No task queue: the answer waits for the sweep, and the run says so in one line.
        "REDIS_URL": f"redis://127.0.0.1:{free_port()}/0",
    }
    env_path = tmp_path / "inis.env"
    env_path.write_text(env_file() + "".join(f"{k}={v}\n" for k, v in overrides.items()))
    message = mail_clients.plain(
        sender="someone@example.org", to="inis@inis.example.org", subject="Hello", words="Is this the game?"
    )
    done = subprocess.run(
        [str(wrapper(tmp_path, env_path)), "inis@inis.example.org"],
        env=BARE,
        input=message,
        capture_output=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    assert done.stdout.decode().strip() == "no_token"
    assert "Traceback" not in done.stderr.decode() and len(done.stderr.decode().splitlines()) <= 1
    assert InboundEmail.objects.get().status == InboundEmail.Status.NO_TOKEN


def test_the_web_unit_passes_what_serve_production_passes():
    unit = block_after("`/etc/systemd/system/inis-web.service`:", "ini")
    exec_start = re.search(r"^ExecStart=(.*?)(?<!\\)$", unit.replace("\\\n", " "), re.M).group(1)
    script = (ROOT / "scripts" / "serve-production").read_text()
    for option in ("--no-control-socket", "--timeout 30", "--graceful-timeout 20", "--access-logfile -"):
        assert option in script
        assert option in exec_start, option
    assert "EnvironmentFile=/etc/inis.env" in unit


@pytest.mark.slow  # runs compilemessages in a copy of the checkout
def test_the_documented_compile_step_gives_french(tmp_path):
    if shutil.which("msgfmt") is None:
        pytest.fail("GNU gettext's msgfmt is missing: the install step of docs/operations.md installs it")
    assert "gettext" in block_after("As root, once per machine:")
    checkout = copy_checkout(tmp_path / "app")
    catalogs = sorted(checkout.glob("**/locale/fr/LC_MESSAGES/django.po"))
    assert catalogs and not list(checkout.glob("**/*.mo")), "a fresh checkout has no compiled catalog"

    step = block_after("and on every machine, after each `git pull`, the French texts")
    command = step.strip().replace("/srv/inis/app", str(checkout)).replace("/srv/inis/venv", str(VENV))
    done = subprocess.run(["sh", "-c", command], env=BARE, capture_output=True, timeout=300)
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    assert all(po.with_suffix(".mo").is_file() for po in catalogs)

    speaks = subprocess.run(
        [
            str(VENV / "bin" / "python"),
            "-c",
            "import django; django.setup(); from django.utils import translation; "
            "translation.activate('fr'); print(translation.gettext('Your last reply was not played: nothing changed.'))",
        ],
        cwd=checkout,
        env={**BARE, "DJANGO_SETTINGS_MODULE": "inis_pbem.settings", "DJANGO_DEBUG": "1"},
        capture_output=True,
        timeout=60,
    )
    assert speaks.returncode == 0, speaks.stderr.decode()[-3000:]
    french = speaks.stdout.decode().strip()
    assert french and french != "Your last reply was not played: nothing changed.", french


@pytest.mark.slow  # starts manage.py three times
def test_the_web_push_keys_the_guide_makes_pass_the_production_checks():
    """ "Web push": the documented command prints the two key lines; the env file with the
    guide's push lines, the keys put in place of their "...", passes the checks, and without
    them is refused."""
    command = block_after("Make a pair\nonce").strip().splitlines()[-1]
    assert command == "/srv/inis/venv/bin/python manage.py web_push_keys"
    printed = subprocess.run(
        [sys.executable, "manage.py", "web_push_keys"], cwd=ROOT, capture_output=True, timeout=120, check=True
    ).stdout.decode()
    keys = dict(line.split("=", 1) for line in printed.splitlines())
    assert set(keys) == {"WEB_PUSH_VAPID_PRIVATE_KEY", "WEB_PUSH_VAPID_PUBLIC_KEY"}
    lines = block_after("It prints the two lines to add, with these:")
    filled = "".join(
        f"{name}={keys[name]}\n" if name in keys else f"{line}\n"
        for line in lines.splitlines()
        for name in [line.split("=", 1)[0]]
    )

    def check(text: str) -> subprocess.CompletedProcess:
        env = production_env(env_file() + text, SECRET_KEY=SAFE_ENV["SECRET_KEY"])
        return subprocess.run(
            [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, timeout=120
        )

    assert check(filled).returncode == 0
    refused = check(lines.replace("WEB_PUSH_VAPID_PUBLIC_KEY=...\n", ""))
    assert refused.returncode != 0 and b"inis_pbem.E011" in refused.stderr


def test_the_printed_key_pair_signs_pushes_browsers_accept():
    """The private key of `web_push_keys` is the public key's (what the browser subscribed
    with): a push signed with it verifies with the printed public key."""
    from io import StringIO

    from django.core.management import call_command
    from py_vapid import Vapid

    out = StringIO()
    call_command("web_push_keys", stdout=out)
    keys = dict(line.split("=", 1) for line in out.getvalue().splitlines())
    headers = Vapid.from_string(keys["WEB_PUSH_VAPID_PRIVATE_KEY"]).sign(
        {"sub": "mailto:a@example.org", "aud": "https://push.example.net"}
    )
    assert headers["Authorization"].endswith(f"k={keys['WEB_PUSH_VAPID_PUBLIC_KEY']}")
