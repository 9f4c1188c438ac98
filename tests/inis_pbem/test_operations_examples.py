"""The rest of the examples of docs/operations.md (and two of docs/scaling.md) that an operator
copies, each read from the page itself (tests/operations_guide.py) and run, or, where it cannot
run here (systemd, nginx), held against what the code needs.

- The SECRET_KEY line of /etc/inis.env: run, it makes a key that Django's deployment check takes
  and that the shell and systemd read alike.
- "once per release", the Procfile's `release:` line and "Trying it on one machine": run on a
  new, empty database from a copy of the checkout (the last from another directory, its
  `scripts/serve-production` a stand-in that records how it was started).
- The worker, bots, relay and beat units (the web unit with what each paragraph changes):
  `systemd-analyze verify` where installed; SIGTERM is how each stops cleanly (Celery's warm
  shutdown, run for real; the relay's exit 0, run for real); the stop timeout beyond a send; the
  restart policies; the node names (`%%h`, also docs/scaling.md's `-n worker2@%%h`).
- The nginx block: its limits, addresses and headers against the settings and the web unit.
- The SMTP server with a login: the production checks pass with it, and Django reads it.
- The commented snapshot deletion of "Upgrading": run, `verify_game` still says OK.
- RELAY_DATABASE_URL, DB_PREPARE_THRESHOLD=-1 and WEB_PUSH_TTL as the guide gives them.
- docs/scaling.md's `python -m bench.scale`: its options.
"""

from __future__ import annotations

import io
import json
import os
import re
import shlex
import shutil
import signal
import socket
import string
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from games.models import Snapshot
from tests.inis_pbem.test_operations_guide import BARE, VENV, production_env, shell_environment
from tests.live_server import ROOT
from tests.operations_guide import (
    block_after,
    copy_checkout,
    env_file,
    env_file_without_provider,
    guide,
    placeholders_filled,
    systemd_environment_file,
)

SCALING = ROOT / "docs" / "scaling.md"


def words(text: str) -> str:
    return " ".join(text.split())


# --- SECRET_KEY -----------------------------------------------------------------------------


def secret_key_command() -> str:
    line = next(line for line in env_file().splitlines() if "token_urlsafe" in line)
    assert line.startswith("# 50 random characters: ")
    return line.removeprefix("# 50 random characters: ")


def test_the_secret_key_line_makes_a_key_django_and_both_readers_take(tmp_path):
    from django.core.checks.security.base import _check_secret_key

    done = subprocess.run(["sh", "-c", secret_key_command()], env=BARE, capture_output=True, timeout=30)
    assert done.returncode == 0, done.stderr.decode()
    key = done.stdout.decode().strip()
    assert len(key) >= 50 and set(key) <= set(string.ascii_letters + string.digits + "-_"), key
    assert _check_secret_key(key), "Django's deployment check (security.W009) refuses it"
    text = env_file().replace("SECRET_KEY=...\n", f"SECRET_KEY={key}\n")
    path = tmp_path / "inis.env"
    path.write_text(text)
    assert systemd_environment_file(text)[0]["SECRET_KEY"] == key
    assert shell_environment("sh", path)[0]["SECRET_KEY"] == key


# --- The steps of a release, on a new database ----------------------------------------------


@pytest.fixture(scope="module")
def checkout(tmp_path_factory) -> Path:
    return copy_checkout(tmp_path_factory.mktemp("app"))


class EmptyDatabase:
    """A new, empty database beside the test's, dropped on exit; `url` reaches it."""

    def __init__(self):
        db = connection.settings_dict
        self.name = f"{db['NAME']}_{uuid.uuid4().hex[:8]}"
        self.admin = ["-h", db["HOST"] or "127.0.0.1", "-p", str(db["PORT"] or 5432), "-U", db["USER"]]
        self.url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{self.name}"

    def __enter__(self):
        subprocess.run(["createdb", *self.admin, self.name], check=True, timeout=60)
        return self

    def __exit__(self, *exc):
        subprocess.run(["dropdb", "--if-exists", "--force", *self.admin, self.name], timeout=60)

    def query(self, sql: str) -> str:
        return subprocess.run(
            ["psql", self.url, "-At", "-c", sql], check=True, capture_output=True, timeout=60
        ).stdout.decode()


def run_as_operator(
    block: str, *, checkout: Path, env_path: Path, cwd: Path, path: str = BARE["PATH"]
) -> subprocess.CompletedProcess:
    for old, new in {
        "/srv/inis/venv": str(VENV),
        "/srv/inis/app": str(checkout),
        "/etc/inis.env": str(env_path),
    }.items():
        block = block.replace(old, new)
    return subprocess.run(
        ["bash", "-e", "-c", block], cwd=cwd, env={**BARE, "PATH": path}, capture_output=True, timeout=300
    )


def write_env(tmp_path: Path, database_url: str) -> Path:
    env_path = tmp_path / "inis.env"
    overrides = {**placeholders_filled(), "DATABASE_URL": database_url}
    env_path.write_text(env_file() + "".join(f"{k}={v}\n" for k, v in overrides.items()))
    return env_path


@pytest.fixture(scope="module")
def release_database():
    """One new database for the three release examples of this module: the first to run
    migrates it from empty (in file order, "once per release"), the others find it migrated, as
    a second release does; dropped at the module's end."""
    with EmptyDatabase() as database:
        yield database


def migrated(database: EmptyDatabase) -> bool:
    """The tables are there, and the log's append-only trigger that `migrate` installs."""
    tables = database.query("SELECT count(*) FROM pg_tables WHERE tablename = 'games_event'").strip()
    triggers = database.query(
        "SELECT count(*) FROM pg_trigger WHERE tgrelid = 'games_event'::regclass AND NOT tgisinternal"
    ).strip()
    return tables == "1" and int(triggers) >= 1


@pytest.mark.postgres
@pytest.mark.slow  # migrate and collectstatic into a new database, as the operator runs them
@pytest.mark.django_db(transaction=True)
def test_once_per_release_on_a_new_database(tmp_path, checkout, release_database):
    block = block_after("Then, once per release, from one machine:")
    assert "manage.py migrate" in block and "collectstatic --noinput" in block
    shutil.rmtree(checkout / "staticfiles", ignore_errors=True)
    database = release_database
    done = run_as_operator(block, checkout=checkout, env_path=write_env(tmp_path, database.url), cwd=tmp_path)
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    assert migrated(database)
    assert (checkout / "staticfiles" / "admin").is_dir()


@pytest.mark.postgres
@pytest.mark.slow  # compilemessages, migrate and collectstatic, as a Procfile host runs them
@pytest.mark.django_db(transaction=True)
def test_the_procfile_release_line_on_a_new_database(tmp_path, checkout, release_database):
    """A Procfile host runs `release:` in the app's directory, its settings in the environment
    and the app's Python first on PATH."""
    procfile = dict(
        line.split(": ", 1)
        for line in block_after("The same processes as a Procfile", "").strip().splitlines()
    )
    shutil.rmtree(checkout / "staticfiles", ignore_errors=True)
    for mo in checkout.glob("**/*.mo"):
        mo.unlink()
    database = release_database
    env = production_env(env_file(), **placeholders_filled(), DATABASE_URL=database.url)
    env["PATH"] = f"{VENV / 'bin'}:{BARE['PATH']}"
    done = subprocess.run(
        ["sh", "-c", procfile["release"]], cwd=checkout, env=env, capture_output=True, timeout=300
    )
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    assert migrated(database)
    assert list(checkout.glob("**/locale/fr/LC_MESSAGES/django.mo"))
    assert (checkout / "staticfiles" / "admin").is_dir()


@pytest.mark.postgres
@pytest.mark.slow  # migrate and collectstatic, as the operator runs them
@pytest.mark.django_db(transaction=True)
def test_trying_it_on_one_machine_from_another_directory(tmp_path, checkout, release_database):
    """The four lines, pasted in a shell that is not in the checkout (root's home, say): they
    migrate, gather the static files and start `scripts/serve-production` (here a stand-in that
    records its directory and settings) with the venv and the concurrencies they set."""
    block = block_after("## Trying it on one machine")
    script = (ROOT / "scripts" / "serve-production").read_text()
    for name in ("VENV", "WEB_CONCURRENCY", "WORKER_CONCURRENCY"):
        assert name in block and f"{name}" in script, name
    record = tmp_path / "started"
    stand_in = checkout / "scripts" / "serve-production"
    original = stand_in.read_text()
    stand_in.write_text(
        f'#!/bin/sh\n{{ pwd; echo "$VENV $WEB_CONCURRENCY $WORKER_CONCURRENCY $DJANGO_DEBUG"; }} > {record}\n'
    )
    try:
        elsewhere = tmp_path / "home"
        elsewhere.mkdir()
        database = release_database
        done = run_as_operator(
            block, checkout=checkout, env_path=write_env(tmp_path, database.url), cwd=elsewhere
        )
        assert done.returncode == 0, done.stderr.decode()[-3000:]
        assert migrated(database)
    finally:
        stand_in.write_text(original)
    directory, started = record.read_text().splitlines()
    assert Path(directory) == checkout
    assert started.split() == [str(VENV), "3", "2", "0"]


# --- systemd units ----------------------------------------------------------------------------

Unit = dict[str, dict[str, str]]


def parse_unit(text: str) -> Unit:
    """Sections of a unit file, each {key: value} (a backslash-newline joins lines)."""
    unit: Unit = {}
    section = ""
    for line in text.replace("\\\n", " ").splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            unit[section] = {}
        else:
            key, value = line.split("=", 1)
            unit[section][key.strip()] = " ".join(value.split())
    return unit


def render_unit(unit: Unit) -> str:
    return "\n".join(
        f"[{section}]\n" + "".join(f"{k}={v}\n" for k, v in items.items()) for section, items in unit.items()
    )


def unit_of(name: str) -> Unit:
    """inis-NAME.service as the guide gives it: the web unit, or for the others the web unit
    ("the same") or the worker's ("the worker's unit") with the `Key=value` settings its
    paragraph names in place of the unit's."""
    web = parse_unit(block_after("`/etc/systemd/system/inis-web.service`:", "ini"))
    if name == "web":
        return web
    text = guide()
    start = text.index(f"`/etc/systemd/system/inis-{name}.service`")
    end = min(i for i in (text.find("`/etc/systemd/system/", start + 1), text.find("\n## ", start)) if i > 0)
    paragraph = text[start:end]
    base = unit_of("worker") if "the worker's unit" in paragraph else web
    changes = dict(item.split("=", 1) for item in re.findall(r"`([A-Z][A-Za-z]+=[^`]*)`", paragraph))
    assert "ExecStart" in changes, name
    return {**base, "Service": {**base["Service"], **changes}}


def systemd_command(exec_start: str) -> list[str]:
    """The words systemd passes to the program: `%%` is a `%`; no other specifier is used (`%h`
    would be the user's home directory, not the host's name)."""
    assert not re.search(r"%[^%]", exec_start.replace("%%", "")), exec_start
    return shlex.split(exec_start.replace("%%", "%"))


UNITS = ("web", "worker", "bots", "relay", "beat")


def test_every_unit_is_valid_for_systemd(tmp_path):
    if shutil.which("systemd-analyze") is None:
        # Debian machines of the deployment's kind (and CI's) have it; a developer's may not.
        if os.environ.get("CI"):
            pytest.fail("systemd-analyze is missing: CI checks the guide's units with it")
        pytest.skip("systemd-analyze is not installed on this machine (CI runs this check)")
    (tmp_path / "inis.env").write_text(env_file())
    for name in UNITS:
        text = render_unit(unit_of(name))
        for old, new in {
            "/srv/inis/venv": str(VENV),
            "/srv/inis/app": str(ROOT),
            "/etc/inis.env": str(tmp_path / "inis.env"),
        }.items():
            text = text.replace(old, new)
        path = tmp_path / f"inis-{name}.service"
        path.write_text(text)
        done = subprocess.run(["systemd-analyze", "verify", str(path)], capture_output=True, timeout=60)
        assert (done.returncode, done.stderr.decode()) == (0, ""), (name, text)


def test_the_units_start_what_the_table_of_processes_names():
    for name in UNITS:
        service = unit_of(name)["Service"]
        assert service["EnvironmentFile"] == "/etc/inis.env"
        assert service["WorkingDirectory"] == "/srv/inis/app"
        assert service["ExecStart"].startswith("/srv/inis/venv/bin/"), name
    assert systemd_command(unit_of("worker")["Service"]["ExecStart"])[1:6] == [
        "-A",
        "inis_pbem",
        "worker",
        "-Q",
        "celery",
    ]
    bots = systemd_command(unit_of("bots")["Service"]["ExecStart"])
    assert bots[bots.index("-Q") + 1] == "celery-bots"
    assert "`BOTS_QUEUE=celery-bots`" in guide()


def test_the_workers_stop_by_warm_shutdown_within_their_timeout(documented_settings):
    """SIGTERM is Celery's warm shutdown (the task under way finishes; SIGQUIT or SIGINT twice
    would cut it short); the stop timeout leaves time for an email's send (EMAIL_TIMEOUT); a task
    cut short anyway is run again (acknowledged after it ran)."""
    from billiard.common import REMAP_SIGTERM  # type: ignore[import-untyped]

    assert REMAP_SIGTERM is None  # the environment does not turn SIGTERM into a cold shutdown
    assert "REMAP_SIGTERM" not in env_file()
    for name in ("worker", "bots"):
        service = unit_of(name)["Service"]
        assert service["KillSignal"] == "SIGTERM", name
        assert int(service["TimeoutStopSec"]) > documented_settings["EMAIL_TIMEOUT"], name
        assert service["Restart"] in ("on-failure", "always"), name  # it exits 1 when Redis goes down
    assert (
        documented_settings["CELERY_TASK_ACKS_LATE"]
        and documented_settings["CELERY_TASK_REJECT_ON_WORKER_LOST"]
    )


def test_the_relay_and_beat_units_restart_and_stop_as_the_code_needs():
    relay = unit_of("relay")["Service"]
    assert (relay["Restart"], relay["RestartSec"]) == ("always", "1")
    assert relay.get("KillSignal", "SIGTERM") == "SIGTERM"  # the relay stops on it, exit 0 (below)
    assert systemd_command(relay["ExecStart"])[1:] == ["manage.py", "relay_outbox"]
    web = unit_of("web")["Service"]
    timeout = int(re.search(r"--graceful-timeout (\d+)", web["ExecStart"]).group(1))
    assert timeout < int(web.get("TimeoutStopSec", "90"))  # systemd's default stop timeout: 90 s
    beat = systemd_command(unit_of("beat")["Service"]["ExecStart"])
    schedule = Path(beat[beat.index("--schedule") + 1])
    assert beat[1:4] == ["-A", "inis_pbem", "beat"]
    assert f"install -d -o inis {schedule.parent} " in block_after("As root, once per machine:")


def test_each_worker_gets_a_node_name_of_its_own():
    """`%%h` in a unit is `%h` for Celery, which makes it the host's name; the second worker of
    docs/scaling.md gets a name of its own too."""
    from celery.utils.nodenames import default_nodename, host_format

    host = socket.gethostname()
    worker = systemd_command(unit_of("worker")["Service"]["ExecStart"])
    assert "-n" not in worker
    bots = systemd_command(unit_of("bots")["Service"]["ExecStart"])
    second = re.search(r"`-n (worker2@%%h)`", SCALING.read_text())
    assert second, "docs/scaling.md no longer names the second worker"
    names = {
        default_nodename(None),
        host_format(bots[bots.index("-n") + 1]),
        host_format(systemd_command(second.group(1))[0]),
    }
    assert names == {f"celery@{host}", f"bots@{host}", f"worker2@{host}"}
    procfile = block_after("The same processes as a Procfile", "")
    assert "-n bots@%h " in procfile  # no systemd there: Celery's own `%h`


@pytest.mark.redis
@pytest.mark.slow  # starts a Celery worker
def test_a_celery_worker_on_sigterm_shuts_down_warm_and_exits_0(tmp_path):
    command = systemd_command(unit_of("worker")["Service"]["ExecStart"])
    queue = f"docs-{uuid.uuid4().hex[:8]}"
    command[command.index("-Q") + 1] = queue
    env = production_env(
        env_file(), **placeholders_filled(), REDIS_URL=settings.REDIS_URL, CELERY_QUEUE=queue
    )
    log = tmp_path / "worker.log"
    with log.open("wb") as out:
        worker = subprocess.Popen(
            [str(VENV / "bin" / "celery"), *command[1:], "--concurrency", "1", "-n", f"{queue}@%h"],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    try:
        deadline = time.monotonic() + 60
        while "ready." not in log.read_text() and worker.poll() is None and time.monotonic() < deadline:
            time.sleep(0.2)
        assert "ready." in log.read_text(), log.read_text()[-3000:]
        worker.send_signal(signal.SIGTERM)
        assert worker.wait(timeout=30) == 0, log.read_text()[-3000:]
        assert "Warm shutdown" in log.read_text()
    finally:
        if worker.poll() is None:
            os.killpg(worker.pid, signal.SIGKILL)
            worker.wait(timeout=10)


@pytest.mark.postgres
@pytest.mark.slow  # starts manage.py relay_outbox
@pytest.mark.django_db(transaction=True)
def test_the_relay_listens_through_relay_database_url_and_exits_0_on_sigterm(tmp_path):
    """RELAY_DATABASE_URL in the guide's form (PostgreSQL's own address) carries the relay's
    LISTEN; SIGTERM stops it with status 0 and nothing printed (docs/management-commands.md)."""
    example = re.search(r"\(e\.g\. `(postgres://[^`]*)`", guide())
    assert example, "the guide gives no RELAY_DATABASE_URL example"
    documented = urlsplit(example.group(1).replace("…", "PASSWORD"))
    env_url = urlsplit(systemd_environment_file(env_file())[0]["DATABASE_URL"])
    assert (documented.scheme, documented.hostname, documented.port, documented.path) == (
        env_url.scheme,
        env_url.hostname,
        5432,
        env_url.path,
    )
    db = connection.settings_dict
    name = f"relay-{uuid.uuid4().hex[:8]}"
    listen_url = f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}?application_name={name}"
    env = {
        **{k: v for k, v in os.environ.items() if k not in ("RELAY_DATABASE_URL",)},
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        "RELAY_DATABASE_URL": listen_url,
        "DJANGO_DEBUG": "1",
    }
    relay = subprocess.Popen(
        [sys.executable, "manage.py", "relay_outbox"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and relay.poll() is None:
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT count(*) FROM pg_stat_activity WHERE application_name = %s AND query LIKE 'LISTEN %%'",
                    [name],
                )
                if cursor.fetchone()[0]:
                    break
            time.sleep(0.2)
        else:
            pytest.fail(
                f"the relay never listened through RELAY_DATABASE_URL: {relay.communicate(timeout=10)}"
            )
        relay.send_signal(signal.SIGTERM)
        out, err = relay.communicate(timeout=30)
        assert relay.returncode == 0, err.decode()[-3000:]
        assert out == b""
    finally:
        if relay.poll() is None:
            os.killpg(relay.pid, signal.SIGKILL)
            relay.wait(timeout=10)


# --- Settings examples ----------------------------------------------------------------------


def doc_value(name: str) -> str:
    """The value the guide gives `name` in prose: `-1` for DB_PREPARE_THRESHOLD, ..."""
    text = words(guide())
    if name == "DB_PREPARE_THRESHOLD":
        found = re.search(
            r"`DB_PREPARE_THRESHOLD` runs on one connection, \d+ by default; `(-?\d+)` never prepares", text
        )
    else:
        found = re.search(rf"`{name}` \(seconds, default a day\)", text)
        return "86400" if found else ""
    assert found, name
    return found.group(1)


SHOWN = [
    "RELAY_DATABASE_URL",
    "DATABASES",
    "WEB_PUSH_TTL",
    "EMAIL_TIMEOUT",
    "CELERY_TASK_ACKS_LATE",
    "CELERY_TASK_REJECT_ON_WORKER_LOST",
    "INBOUND_POST_MAX_BYTES",
    "DATA_UPLOAD_MAX_MEMORY_SIZE",
    "SECURE_PROXY_SSL_HEADER",
    "STATIC_ROOT",
    "STATIC_URL",
    "ALLOWED_HOSTS",
]


def production_settings(**overrides: str) -> dict:
    """Settings of a process started with the guide's env file (placeholders filled), and
    `overrides`, as JSON."""
    script = (
        "import json, django; django.setup(); from django.conf import settings; "
        f"print(json.dumps({{n: getattr(settings, n) for n in {SHOWN!r}}}, default=str))"
    )
    env = production_env(env_file(), **placeholders_filled(), **overrides)
    env["DJANGO_SETTINGS_MODULE"] = "inis_pbem.settings"  # as manage.py sets it
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr.decode()[-3000:]
    return json.loads(done.stdout)


@pytest.fixture(scope="module")
def documented_settings() -> dict:
    return production_settings()


@pytest.mark.slow  # starts Python twice
def test_the_settings_examples_are_read_as_the_guide_says(documented_settings):
    relay_url = re.search(r"\(e\.g\. `(postgres://[^`]*)`", guide()).group(1).replace("…", "PASSWORD")
    threshold = doc_value("DB_PREPARE_THRESHOLD")
    read = production_settings(
        RELAY_DATABASE_URL=relay_url, DB_PREPARE_THRESHOLD=threshold, WEB_PUSH_TTL="3600"
    )
    assert read["RELAY_DATABASE_URL"] == relay_url
    assert read["DATABASES"]["default"]["OPTIONS"]["prepare_threshold"] is None  # psycopg: never prepare
    assert documented_settings["DATABASES"]["default"]["OPTIONS"]["prepare_threshold"] == 5
    assert "psycopg prepares one after `DB_PREPARE_THRESHOLD` runs on one connection, 5 by default" in words(
        guide()
    )
    assert read["WEB_PUSH_TTL"] == 3600
    assert documented_settings["WEB_PUSH_TTL"] == int(doc_value("WEB_PUSH_TTL")) == 24 * 3600
    assert documented_settings["RELAY_DATABASE_URL"] is None


@pytest.mark.postgres
def test_a_prepare_threshold_of_none_never_prepares():
    """What DB_PREPARE_THRESHOLD=-1 gives psycopg (None, above) prepares no statement, however
    often it runs; the default (5) does."""
    import psycopg

    params = connection.get_connection_params()
    conninfo = {k: v for k, v in params.items() if k in {"host", "port", "user", "password", "dbname"} and v}
    for threshold, prepared in ((None, False), (5, True)):
        with psycopg.connect(**conninfo, prepare_threshold=threshold, autocommit=True) as conn:
            for _ in range(8):
                conn.execute("SELECT %s::int + 1", [1])
            count = conn.execute("SELECT count(*) FROM pg_prepared_statements").fetchone()[0]
        assert bool(count) is prepared, threshold


# --- nginx --------------------------------------------------------------------------------------


def nginx_servers() -> list[dict[str, list[str]]]:
    """Each `server { }` of the guide's nginx block: {directive: [its arguments, each time]}
    (a location's directives under "location PATH directive")."""
    text = block_after("## Reverse proxy", "nginx")
    servers = []
    for body in re.findall(r"^server \{\n(.*?)^\}", text, re.S | re.M):
        directives: dict[str, list[str]] = {}
        for location, inner in re.findall(r"location (\S+) \{(.*?)\}", body, re.S):
            for directive in inner.split(";"):
                if directive.strip():
                    name, _, value = directive.strip().partition(" ")
                    directives.setdefault(f"location {location} {name}", []).append(value.strip())
        outer = re.sub(r"location \S+ \{.*?\}", "", body, flags=re.S)
        for line in outer.splitlines():
            line = line.split("#", 1)[0].strip()
            if line:
                name, _, value = line.rstrip(";").partition(" ")
                directives.setdefault(name, []).append(value.strip())
        servers.append(directives)
    return servers


def nginx_size(value: str) -> int:
    units = {"k": 1024, "m": 1024 * 1024, "g": 1024**3}
    return int(value[:-1]) * units[value[-1].lower()] if value[-1].lower() in units else int(value)


def test_the_proxy_block_fits_the_settings_and_the_web_unit(documented_settings):
    plain, tls = nginx_servers()
    assert plain["listen"] == ["80"] and plain["return"] == ["301 https://$host$request_uri"]
    env = systemd_environment_file(env_file())[0]
    host = urlsplit(env["SITE_URL"]).hostname
    assert plain["server_name"] == tls["server_name"] == [host] == [env["DJANGO_ALLOWED_HOSTS"]]
    assert tls["listen"] == ["443 ssl"]
    # Whole emails (a photo) reach the inbound webhook: the proxy's limit is the app's.
    limit = nginx_size(tls["client_max_body_size"][0])
    assert (
        limit
        == documented_settings["INBOUND_POST_MAX_BYTES"]
        == documented_settings["DATA_UPLOAD_MAX_MEMORY_SIZE"]
    )
    assert f"`client_max_body_size {tls['client_max_body_size'][0]}`" in guide()
    # gunicorn's address, as the web unit binds it.
    web = systemd_command(unit_of("web")["Service"]["ExecStart"])
    assert tls["location / proxy_pass"] == [f"http://{web[web.index('--bind') + 1]}"]
    headers = dict(value.split(" ", 1) for value in tls["location / proxy_set_header"])
    assert headers["Host"] == "$host"
    proxy_ssl_header = documented_settings["SECURE_PROXY_SSL_HEADER"]
    assert (
        proxy_ssl_header == ["HTTP_X_FORWARDED_PROTO", "https"] and headers["X-Forwarded-Proto"] == "$scheme"
    )
    assert headers[env["CLIENT_IP_HEADER"]] == "$remote_addr"
    # A request gunicorn gives up on (--timeout) is answered before nginx gives up on it.
    read_timeout = int(tls["location / proxy_read_timeout"][0].rstrip("s"))
    assert read_timeout > int(web[web.index("--timeout") + 1])
    # The static files where collectstatic gathers them.
    (alias,) = tls[f"location /{documented_settings['STATIC_URL'].strip('/')}/ alias"][0].split()[:1]
    assert Path(alias.replace("/srv/inis/app", str(ROOT))) == Path(documented_settings["STATIC_ROOT"])


# --- SMTP with a login ------------------------------------------------------------------------


def smtp_with_login() -> dict[str, str]:
    """The settings of "A mail server elsewhere (with a login)", the unvalued ones filled."""
    text = words(guide())
    start = text.index("A mail server elsewhere (with a login) works the same way:")
    sentence = text[start : text.index(".", text.index("EMAIL_USE_TLS", start))]
    filled = {
        "EMAIL_HOST": "smtp.example.net",
        "EMAIL_HOST_USER": "inis",
        "EMAIL_HOST_PASSWORD": "a-password",
    }
    items = re.findall(r"`([A-Z_]+)(?:=([^`]*))?`", sentence)
    assert [name for name, _ in items] == [
        "EMAIL_HOST",
        "EMAIL_PORT",
        "EMAIL_HOST_USER",
        "EMAIL_HOST_PASSWORD",
        "EMAIL_USE_TLS",
    ]
    return {name: value or filled[name] for name, value in items}


@pytest.mark.slow  # starts manage.py
def test_smtp_with_a_login_passes_the_production_checks_and_is_read_as_given():
    login = smtp_with_login()
    text = "".join(
        line + "\n" for line in env_file_without_provider().splitlines() if line.split("=", 1)[0] not in login
    )
    text += "".join(f"{k}={v}\n" for k, v in login.items())
    script = (
        "import django; django.setup(); from django.core.management import call_command; "
        "call_command('check', deploy=True); from django.conf import settings as s; "
        "print(s.EMAIL_BACKEND, s.EMAIL_HOST, s.EMAIL_PORT, s.EMAIL_HOST_USER, s.EMAIL_HOST_PASSWORD, s.EMAIL_USE_TLS)"
    )
    env = production_env(text, SECRET_KEY=placeholders_filled()["SECRET_KEY"])
    env["DJANGO_SETTINGS_MODULE"] = "inis_pbem.settings"  # as manage.py sets it
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env, capture_output=True, timeout=120)
    report = done.stderr.decode()
    assert done.returncode == 0, report[-3000:]
    assert "inis_pbem." not in report, report  # none of this project's warnings either
    assert done.stdout.decode().split() == [
        "django.core.mail.backends.smtp.EmailBackend",
        "smtp.example.net",
        "587",
        "inis",
        "a-password",
        "True",
    ]


# --- Upgrading: the snapshots' deletion -------------------------------------------------------


def test_the_commented_snapshot_deletion_leaves_every_game_verified(
    make_game, play, settings, django_capture_on_commit_callbacks
):
    block = block_after("## Upgrading")
    line = next(line for line in block.splitlines() if "Snapshot.objects" in line)
    argv = shlex.split(line.removeprefix("# "))
    assert argv[:4] == ["/srv/inis/venv/bin/python", "manage.py", "shell", "-c"], argv
    settings.SNAPSHOT_EVERY = 10
    game = make_game(seed="snapshots")
    with django_capture_on_commit_callbacks(execute=True):
        play(game, 25)
    assert Snapshot.objects.filter(game=game).exists()
    call_command("shell", command=argv[4])
    assert not Snapshot.objects.exists()
    out = io.StringIO()
    call_command("verify_game", "--all", stdout=out)
    assert f"Game {game.pk}: OK" in out.getvalue(), out.getvalue()


# --- docs/scaling.md ----------------------------------------------------------------------------


def test_the_scale_run_takes_the_options_the_scaling_page_uses():
    page = SCALING.read_text()
    assert "`python -m bench.scale`" in page
    used = re.search(r"`python -m bench\.scale (--write) bench/SCALE\.json`", words(page))
    assert used, "docs/scaling.md no longer gives the run's command"
    done = subprocess.run(
        [sys.executable, "-m", "bench.scale", "--help"], cwd=ROOT, capture_output=True, timeout=60
    )
    assert done.returncode == 0, done.stderr.decode()
    assert used.group(1) in done.stdout.decode()
    assert "bench/README.md" in done.stdout.decode()
