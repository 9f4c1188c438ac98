"""A Celery worker and beat refuse the settings the production checks refuse, as gunicorn and
manage.py do: a worker started with DEBUG off and without the deployment's SITE_URL would
otherwise write http://127.0.0.1:8000 links into every email it makes, silently.

Each case starts the real `celery` process (bounded in time); it must stop by itself, before
connecting to anything, with status 1 and the checks' report."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.live_server import CONFIG_PREFIXES, ROOT, SAFE_ENV

pytestmark = pytest.mark.slow  # each case starts Celery

CELERY = Path(sys.executable).with_name("celery")


def run(args: list[str], tmp_path, **env) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if not k.startswith(CONFIG_PREFIXES)}
    merged = {k: v for k, v in {**base, **SAFE_ENV, **env}.items() if v is not None}
    return subprocess.run(
        [str(CELERY), "-A", "inis_pbem", *args, "--loglevel", "WARNING"],
        cwd=ROOT,
        env=merged,
        capture_output=True,
        text=True,
        timeout=60,
    )


PROCESSES = {
    "worker": ["worker", "--concurrency", "1", "--without-gossip", "--without-mingle", "-Q", "never-read"],
    "beat": ["beat", "--schedule", "{tmp}/beat-schedule"],
}


@pytest.mark.parametrize("process", sorted(PROCESSES))
@pytest.mark.parametrize(
    "env, check",
    [
        ({"SITE_URL": None}, "inis_pbem.E006"),  # unset: the development default, http
        ({"SITE_URL": "http://inis.example.org"}, "inis_pbem.E006"),
        ({"EMAIL_BACKEND": "notifications.backends.DevMailboxBackend"}, "inis_pbem.E004"),
    ],
)
def test_a_worker_and_beat_refuse_to_start_on_unsafe_settings(tmp_path, process, env, check):
    args = [a.format(tmp=tmp_path) for a in PROCESSES[process]]
    done = run(args, tmp_path, **env)
    assert done.returncode == 1, done.stderr[-3000:]
    assert check in done.stderr
