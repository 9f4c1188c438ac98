"""inis_pbem.settings: values come from the environment, with development defaults.

Each case starts a fresh interpreter, since settings are read once at start-up.
"""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
from pathlib import Path

import pytest

# Each case starts a Python that sets Django up.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import json, django
from django.conf import settings
django.setup()
print(json.dumps({
    "debug": settings.DEBUG,
    "engine": settings.DATABASES["default"]["ENGINE"],
    "db_name": str(settings.DATABASES["default"]["NAME"]),
    "eager": settings.CELERY_TASK_ALWAYS_EAGER,
    "broker": settings.CELERY_BROKER_URL,
    "email": settings.EMAIL_BACKEND,
    "anymail": settings.ANYMAIL,
    "from": settings.DEFAULT_FROM_EMAIL,
    "site": settings.SITE_URL,
    "strong_ms": settings.BOT_STRONG_MS,
}))
"""

CONFIG_VARIABLES = (
    "DATABASE_URL",
    "REDIS_URL",
    "SECRET_KEY",
    "SITE_URL",
    "EMAIL_BACKEND",
    "DEFAULT_FROM_EMAIL",
    "DJANGO_DEBUG",
    "DJANGO_ALLOWED_HOSTS",
    "BOT_STRONG_MS",
    "SECRET_KEY_FALLBACKS",
    "WEB_PUSH_CONTACT",
    "PRESS_MESSAGES_PER_HOUR",
)


def run(code: str, args=(), **env) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k not in CONFIG_VARIABLES and not k.startswith("ANYMAIL_")}
    base["DJANGO_SETTINGS_MODULE"] = "inis_pbem.settings"
    return subprocess.run(
        [sys.executable, *(["-c", code] if code else []), *args],
        cwd=ROOT,
        env={**base, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def probe(**env) -> dict:
    result = run(PROBE, **env)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.strip().splitlines()[-1])


def test_the_defaults_need_nothing_installed():
    got = probe()
    assert got["debug"] is True
    assert got["engine"] == "django.db.backends.sqlite3" and got["db_name"] == str(ROOT / "db.sqlite3")
    assert got["eager"] is True
    assert got["email"] == "notifications.backends.DevMailboxBackend"
    assert got["site"] == "http://127.0.0.1:8000"
    # Tasks in-process: the bots think in the request of the move, so the strong bot takes the
    # arena's half second a decision, not the worker's two.
    assert got["strong_ms"] == 500


def test_the_environment_configures_production_services():
    got = probe(
        DATABASE_URL="postgres://u:p@db.example.org:5432/inis",
        REDIS_URL="redis://r:6379/1",
        EMAIL_BACKEND="anymail.backends.postmark.EmailBackend",
        ANYMAIL_POSTMARK_SERVER_TOKEN="tok",
        DEFAULT_FROM_EMAIL="Inis <inis@example.org>",
        SITE_URL="https://inis.example.org/",
    )
    assert got["engine"] == "django.db.backends.postgresql" and got["db_name"] == "inis"
    assert got["eager"] is False and got["broker"] == "redis://r:6379/1"
    assert got["email"] == "anymail.backends.postmark.EmailBackend"
    assert got["anymail"] == {"POSTMARK_SERVER_TOKEN": "tok"}
    assert got["from"] == "Inis <inis@example.org>"
    assert got["site"] == "https://inis.example.org"
    assert got["strong_ms"] == 2000


def test_production_without_configuration_refuses_to_start():
    result = run("", ["manage.py", "check"], DJANGO_DEBUG="0")
    assert result.returncode != 0
    for error in ("E001", "E002", "E003", "E004", "E005", "E006", "E007"):
        assert f"inis_pbem.{error}" in result.stderr, result.stderr


def test_an_unreadable_boolean_is_an_error():
    result = run(PROBE, DJANGO_DEBUG="maybe")
    assert result.returncode != 0 and "DJANGO_DEBUG" in result.stderr


ROUTES = (
    "import django, json; django.setup(); from inis_pbem.celery import app; "
    "print(json.dumps({name: app.amqp.router.route({}, name)['queue'].name for name in "
    "('games.tasks.play_bots', 'notifications.tasks.play_standins', 'notifications.tasks.apply_deadline', "
    "'notifications.tasks.deliver_many', 'notifications.tasks.process_inbound')}))"
)


def test_the_bots_thinking_goes_to_a_queue_of_its_own_when_one_is_named():
    """With BOTS_QUEUE (serve-production sets it), a bot's turn is read by its own worker and
    never takes the one that sends a person's prompt; without it, one queue for all."""
    named = run(ROUTES, REDIS_URL="redis://r:6379/1", CELERY_QUEUE="mail", BOTS_QUEUE="mail-bots")
    assert named.returncode == 0, named.stderr
    assert json.loads(named.stdout.strip().splitlines()[-1]) == {
        "games.tasks.play_bots": "mail-bots",
        "notifications.tasks.play_standins": "mail-bots",
        "notifications.tasks.apply_deadline": "mail-bots",
        "notifications.tasks.deliver_many": "mail",
        "notifications.tasks.process_inbound": "mail",
    }
    alone = run(ROUTES, REDIS_URL="redis://r:6379/1", CELERY_QUEUE="mail")
    assert set(json.loads(alone.stdout.strip().splitlines()[-1]).values()) == {"mail"}, alone.stderr
    script = (ROOT / "scripts" / "serve-production").read_text()
    assert 'export BOTS_QUEUE="${BOTS_QUEUE-$queue-bots}"' in script and '-Q "$BOTS_QUEUE"' in script


def test_the_development_server_answers_by_the_address_its_links_name():
    """README: `HOST=0.0.0.0 ./scripts/run` is reached from other machines by the address its
    printed links name (SITE_URL): in development that host is allowed, beside the loopback."""
    result = run(
        "import django; from django.conf import settings; django.setup(); print(settings.ALLOWED_HOSTS)",
        SITE_URL="http://192.0.2.7:8000",
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "['127.0.0.1', 'localhost', '[::1]', '192.0.2.7']"
    production = run(
        "import django; from django.conf import settings; django.setup(); print(settings.ALLOWED_HOSTS)",
        SITE_URL="https://inis.example.org",
        DJANGO_DEBUG="0",
        DJANGO_ALLOWED_HOSTS="inis.example.org",
    )
    assert production.stdout.strip() == "['inis.example.org']", production.stderr


def test_the_run_script_names_this_machines_address_when_it_listens_everywhere(tmp_path):
    """`HOST=0.0.0.0 ./scripts/run`: the links name an address other machines reach (not
    0.0.0.0, which no browser opens). The script's set-up steps are stood in for by stubs that
    print what they were given."""
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "run").write_text((ROOT / "scripts" / "run").read_text())
    (scripts / "ensure-venv").write_text("#!/bin/sh\n")
    venv = tmp_path / ".venv" / "bin"
    venv.mkdir(parents=True)
    (venv / "python").write_text('#!/bin/sh\necho "$SITE_URL $*"\n')
    for path in (scripts / "run", scripts / "ensure-venv", venv / "python"):
        path.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k != "SITE_URL"}
    done = subprocess.run(
        ["bash", str(scripts / "run")],
        env={**env, "HOST": "0.0.0.0", "PORT": "8123"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    site = done.stdout.strip().splitlines()[-1].split()[0]
    assert site.startswith("http://") and site.endswith(":8123") and "0.0.0.0" not in site
    assert done.stdout.strip().splitlines()[-1].endswith("runserver 0.0.0.0:8123")


def test_settings_the_docs_tell_operators_to_set_are_read_from_the_environment():
    """docs/operations.md: a key is rotated by moving it to SECRET_KEY_FALLBACKS; README: the
    table-talk limit is PRESS_MESSAGES_PER_HOUR; WEB_PUSH_CONTACT defaults to a mailto: of
    DEFAULT_FROM_EMAIL's address (a push service needs an address, not "Name <address>")."""
    code = (
        "import json, django; from django.conf import settings; django.setup(); print(json.dumps(["
        "settings.SECRET_KEY_FALLBACKS, settings.PRESS_MESSAGES_PER_HOUR, settings.WEB_PUSH_CONTACT]))"
    )
    set_ = run(
        code,
        SECRET_KEY_FALLBACKS="old-key-one,old-key-two",
        PRESS_MESSAGES_PER_HOUR="3",
        DEFAULT_FROM_EMAIL="Inis by email <inis@inis.example.org>",
    )
    assert set_.returncode == 0, set_.stderr
    assert json.loads(set_.stdout) == [["old-key-one", "old-key-two"], 3, "mailto:inis@inis.example.org"]
    default = run(code)
    assert json.loads(default.stdout) == [[], 30, "mailto:inis@localhost"], default.stderr


def test_a_token_signed_with_the_old_key_is_accepted_while_it_is_a_fallback():
    """Rotating SECRET_KEY (docs/operations.md): a seat link signed before is still accepted with
    the old key in SECRET_KEY_FALLBACKS, and refused once it is removed."""
    sign = (
        "import django; django.setup(); from players.signed_tokens import email_links_token; "
        "print(email_links_token(42))"
    )
    check = (
        "import sys, django; django.setup(); from players.signed_tokens import read_email_links_token\n"
        "try:\n    print(read_email_links_token(sys.argv[1]))\nexcept Exception as error:\n    print('refused')"
    )
    token = run(sign, SECRET_KEY="old-" + "k" * 50).stdout.strip()
    assert (
        run(
            check, [token], SECRET_KEY="new-" + "k" * 50, SECRET_KEY_FALLBACKS="old-" + "k" * 50
        ).stdout.strip()
        == "42"
    )
    assert run(check, [token], SECRET_KEY="new-" + "k" * 50).stdout.strip() == "refused"


def test_the_chat_librarys_debug_lines_stay_out_of_the_log_at_any_log_level():
    """README, settings: apprise's DEBUG lines hold each chat message whole (a seat's link,
    which opens its hand; the player's chat address): with LOG_LEVEL=DEBUG the rest of the
    process logs everything, apprise only its warnings."""
    done = run(
        "import django, logging; django.setup(); "
        "print(logging.getLogger('apprise').getEffectiveLevel(), logging.getLogger('games').getEffectiveLevel())",
        LOG_LEVEL="DEBUG",
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == [str(logging.WARNING), str(logging.DEBUG)]
