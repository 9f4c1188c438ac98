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
from django.conf import settings
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
    guide,
    placeholders_filled,
    provider_lines,
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


def check_deploy(env: dict) -> subprocess.CompletedProcess:
    """`manage.py check --deploy` run as the operator's processes would be, with `env`."""
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        timeout=120,
    )


@pytest.mark.slow  # starts manage.py
@pytest.mark.parametrize("which", ["with a provider", "without a provider"])
def test_the_production_checks_accept_the_env_file(which):
    """No error, and none of this project's deployment warnings either (`--deploy`; Django's own
    advice on HSTS preloading may remain)."""
    text = env_file() if which == "with a provider" else env_file_without_provider()
    assert "SECRET_KEY=...\n" in text  # a placeholder: the operator puts 50 random characters there
    env = production_env(text, **placeholders_filled())
    done = check_deploy(env)
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    assert "inis_pbem." not in done.stderr.decode(), done.stderr.decode()


@pytest.mark.slow  # starts manage.py
def test_the_production_checks_refuse_the_guides_webhook_password():
    """An operator who copies the env file without replacing the webhook's example password
    ("A-LONG-RANDOM-PASSWORD", long enough to pass a length check) is stopped: anybody who read
    the guide could post forged replies to the inbound webhook."""
    text = env_file()
    assert "ANYMAIL_WEBHOOK_SECRET=inbound:A-LONG-RANDOM-PASSWORD\n" in text
    env = production_env(text, SECRET_KEY=SAFE_ENV["SECRET_KEY"])
    done = check_deploy(env)
    assert done.returncode != 0
    assert "inis_pbem.E007" in done.stderr.decode() and "placeholder" in done.stderr.decode()


def test_the_proxy_passes_the_client_address_the_env_file_names():
    """Behind nginx every request comes from 127.0.0.1: unless the proxy passes each visitor's
    address in the header CLIENT_IP_HEADER names, every visitor counts as one client for the
    limits of sign-in requests and live-page polls (web.rate_limits)."""
    header = systemd_environment_file(env_file())[0].get("CLIENT_IP_HEADER")
    assert header, "the guide's env file does not name CLIENT_IP_HEADER"
    location = block_after("## Reverse proxy", "nginx").split("location / {", 1)[1]
    assert re.search(rf"^\s*proxy_set_header {re.escape(header)} \$remote_addr;$", location, re.M), location


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
        **placeholders_filled(),
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        # No task queue: a reply never needs it; the relay sends the answer once it is back.
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
    for option in (
        "--no-control-socket",
        "--preload",
        "--timeout 30",
        "--graceful-timeout 20",
        "--access-logfile -",
        "--logger-class inis_pbem.access_log.TokenlessAccessLog",
    ):
        assert option in script
        assert option in exec_start, option
    assert "EnvironmentFile=/etc/inis.env" in unit


def test_the_procfile_runs_what_the_units_run():
    """The guide's Procfile, for hosts without systemd: each process the command of its unit
    (the same options; the web's address from $PORT, the beat's schedule file left to the host)."""
    procfile = dict(
        line.split(": ", 1)
        for line in block_after("The same processes as a Procfile", "").strip().splitlines()
    )
    text = guide().replace("\\\n", " ")
    web = re.search(r"^ExecStart=/srv/inis/venv/bin/(gunicorn .*?)(?<!\\)$", text, re.M).group(1)
    assert procfile["web"].split() == web.replace("127.0.0.1:8000", "0.0.0.0:$PORT").split()
    for name in ("worker", "bots", "relay"):
        unit = re.search(
            rf"`/etc/systemd/system/inis-{name}.service`:.*?`ExecStart=/srv/inis/venv/bin/(.*?)`", text, re.S
        )
        assert procfile[name].split() == unit.group(1).replace("%%", "%").split(), name
    beat = re.search(
        r"`/etc/systemd/system/inis-beat.service`.*?`ExecStart=/srv/inis/venv/bin/(.*?)`", text, re.S
    )
    assert (
        procfile["beat"].split()
        == beat.group(1).replace(" --schedule /var/lib/inis/celerybeat-schedule", "").split()
    )
    assert set(procfile) == {"release", "web", "relay", "worker", "bots", "beat"}


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


def test_the_guide_names_the_three_provider_lines_and_keeps_the_reply_address():
    assert provider_lines() == ["EMAIL_BACKEND", "ANYMAIL_POSTMARK_SERVER_TOKEN", "ANYMAIL_WEBHOOK_SECRET"]
    text = env_file_without_provider()
    assert "INBOUND_EMAIL=inis@inis.example.org" in text and "ANYMAIL_" not in text


def test_every_page_gives_one_answer_on_pgbouncer():
    """docs/operations.md supports session pooling only; docs/scaling.md must not say otherwise."""
    operations, scaling = (ROOT / "docs" / name for name in ("operations.md", "scaling.md"))
    for page in (operations, scaling):
        words = " ".join(page.read_text().split())
        assert (
            "PgBouncer in front **in session pooling mode**" in words
            or "**PgBouncer** in session pooling mode" in words
        )
        assert not re.search(r"PgBouncer\*{0,2} in transaction mode", words), page.name


class Operator:
    """Runs a block of the guide as the operator does, on this checkout (or a copy), its venv,
    an env file with this test's database, and stand-ins for `systemctl`, `git` and `pip`
    (which must not touch the machine): each records its arguments in `calls`."""

    def __init__(self, tmp_path: Path, database_url: str, checkout: Path = ROOT):
        self.tmp_path, self.checkout = tmp_path, checkout
        self.shims = tmp_path / "bin"
        self.shims.mkdir()
        self.log = tmp_path / "calls"
        for name in ("systemctl", "git", "pip"):
            shim = self.shims / name
            shim.write_text(f'#!/bin/sh\necho "{name} $*" >> {self.log}\n')
            shim.chmod(0o755)
        self.env_path = tmp_path / "inis.env"
        overrides = {**placeholders_filled(), "DATABASE_URL": database_url}
        self.env_path.write_text(env_file() + "".join(f"{k}={v}\n" for k, v in overrides.items()))

    def run(self, block: str, **replace: str) -> subprocess.CompletedProcess:
        for old, new in {
            "/srv/inis/venv/bin/pip": str(self.shims / "pip"),
            "/srv/inis/venv": str(VENV),
            "/srv/inis/app": str(self.checkout),
            "/etc/inis.env": str(self.env_path),
            **replace,
        }.items():
            block = block.replace(old, new)
        env = {**BARE, "PATH": f"{self.shims}:{BARE['PATH']}"}
        return subprocess.run(["bash", "-e", "-c", block], env=env, capture_output=True, timeout=600)

    @property
    def calls(self) -> list[str]:
        return self.log.read_text().splitlines() if self.log.exists() else []


def _database_url(name: str) -> str:
    db = connection.settings_dict
    return f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{name}"


@pytest.mark.postgres
@pytest.mark.slow  # compilemessages, migrate, collectstatic and verify_game, as the operator runs them
@pytest.mark.django_db(transaction=True)
def test_the_upgrade_steps_run_and_restart_every_process(tmp_path, make_game):
    game = make_game()
    operator = Operator(
        tmp_path, _database_url(connection.settings_dict["NAME"]), copy_checkout(tmp_path / "app")
    )
    done = operator.run(block_after("## Upgrading"))
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    assert operator.calls == [
        "git pull",
        "pip install -r requirements/base.txt",
        "systemctl restart inis-web inis-relay inis-worker inis-bots inis-beat",
    ]
    assert list(operator.checkout.glob("**/locale/fr/LC_MESSAGES/django.mo"))
    assert f"Game {game.pk}: OK" in done.stdout.decode(), done.stdout.decode()


@pytest.mark.postgres
@pytest.mark.slow  # pg_dump, pg_restore, migrate, erase_account and verify_game, as the operator runs them
@pytest.mark.django_db(transaction=True)
def test_the_restore_steps_stop_every_writer_and_give_back_the_games_not_the_erased(tmp_path, make_game):
    """The nightly dump is taken; then a player erases their account; the database is lost and
    restored from the dump, older than the erasure. The guide's steps save the erasure list
    before the database goes and erase those accounts again after the restore: the games come
    back, the erased player does not."""
    from players.erasure import erase_account

    game = make_game()
    green = game.seats.get(colour="green")
    erased_address, erased_id = green.email, green.user_id
    db = connection.settings_dict
    dump = tmp_path / "inis-2026-11-23.dump"
    backup = block_after("Keep also `/etc/inis.env`")
    assert backup.startswith("pg_dump --format=custom")
    source_url = _database_url(db["NAME"])
    subprocess.run(
        ["pg_dump", "--format=custom", f"--file={dump}", source_url],
        check=True,
        capture_output=True,
        timeout=300,
    )
    erase_account(erased_id)
    erased_list = tmp_path / "inis-erased-accounts.txt"
    (tmp_path / "live").mkdir()
    saved = Operator(tmp_path / "live", source_url).run(
        block_after("from the database as it stands"), **{"/root/inis-erased-accounts.txt": str(erased_list)}
    )
    assert saved.returncode == 0, saved.stderr.decode()[-3000:]
    assert erased_list.read_text().split() == [str(erased_id)]
    target = f"{db['NAME']}_restored"
    admin = ["-h", db["HOST"] or "127.0.0.1", "-p", str(db["PORT"] or 5432), "-U", db["USER"]]
    subprocess.run(["dropdb", "--if-exists", *admin, target], check=True, timeout=60)
    subprocess.run(["createdb", *admin, target], check=True, timeout=60)
    try:
        (tmp_path / "restored").mkdir()
        operator = Operator(tmp_path / "restored", _database_url(target))
        # The erasure empties the page caches in Redis, which a restore leaves running: this test's.
        with operator.env_path.open("a") as env:
            env.write(f"REDIS_URL={settings.REDIS_URL or ''}\n")
        done = operator.run(
            block_after("Restoring, on a stopped service"),
            **{
                "--role=inis": f"--role={db['USER']}",
                "inis-2026-11-23.dump": str(dump),
                "/root/inis-erased-accounts.txt": str(erased_list),
            },
        )
        assert done.returncode == 0, done.stderr.decode()[-3000:]
        assert operator.calls == ["systemctl stop inis-web inis-relay inis-worker inis-bots inis-beat"]
        out = done.stdout.decode()
        assert f"Game {game.pk}: OK" in out and f"account {erased_id}: erased" in out, out

        def restored(query: str) -> str:
            return subprocess.run(
                ["psql", _database_url(target), "-At", "-c", query],
                check=True,
                capture_output=True,
                timeout=60,
            ).stdout.decode()

        assert restored(f"SELECT user_id FROM players_erasure WHERE user_id = {erased_id}").split() == [
            str(erased_id)
        ]
        for table, column in (
            ("auth_user", "email"),
            ("games_seat", "email"),
            ("notifications_player", "email"),
        ):
            assert (
                restored(f"SELECT count(*) FROM {table} WHERE {column} = '{erased_address}'").strip() == "0"
            )
    finally:
        subprocess.run(["dropdb", "--if-exists", "--force", *admin, target], timeout=60)


def test_serve_production_without_its_venv_says_to_set_venv(tmp_path):
    """Installing puts the venv at /srv/inis/venv, not in the checkout: the script says what to
    set instead of failing with 127 (a command not found)."""
    assert "export VENV=/srv/inis/venv" in block_after("## Trying it on one machine")
    done = subprocess.run(
        [str(ROOT / "scripts" / "serve-production")],
        env={**BARE, "VENV": str(tmp_path / "nowhere"), "BEAT_SCHEDULE": str(tmp_path / "beat")},
        capture_output=True,
        timeout=30,
    )
    assert done.returncode == 2
    assert "set VENV to the virtual environment" in done.stderr.decode()


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
        env = production_env(env_file() + text, **placeholders_filled())
        return subprocess.run(
            [sys.executable, "manage.py", "check"], cwd=ROOT, env=env, capture_output=True, timeout=120
        )

    assert check(filled).returncode == 0
    refused = check(lines.replace("WEB_PUSH_VAPID_PUBLIC_KEY=...\n", ""))
    assert refused.returncode != 0 and b"inis_pbem.E012" in refused.stderr


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
