"""The CI rule of tests/conftest.py: under CI=true a test that needs PostgreSQL or Redis and was
skipped fails the run, in this process and in pytest-xdist's workers alike; without CI it is a
plain skip. Each case runs pytest again, on SQLite and without Redis, over two such tests."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.slow  # each case starts pytest again (and its workers)

ROOT = Path(__file__).resolve().parents[1]
NEEDS_POSTGRES = "tests/games/store/test_log_truncate.py"
NEEDS_REDIS = "tests/inis_pbem/test_health.py::test_the_queue_length_counts_the_tasks_waiting"


def run_pytest(*args: str, ci: bool) -> subprocess.CompletedProcess:
    """pytest over the two tests in a new process: no database or broker configured, and none of
    this run's own pytest-xdist variables (a worker would take them for its own)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("CI", "DATABASE_URL", "REDIS_URL") and not k.startswith(("PYTEST_", "HYPOTHESIS_"))
    }
    if ci:
        env["CI"] = "true"
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-q", *args, NEEDS_POSTGRES, NEEDS_REDIS],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


@pytest.mark.parametrize("workers", ["0", "2"])
def test_under_ci_a_skipped_postgres_or_redis_test_fails_the_run(workers):
    done = run_pytest("-n", workers, ci=True)
    assert done.returncode == 1, done.stdout[-3000:] + done.stderr[-3000:]
    assert "4 errors" in done.stdout and "skipped" not in done.stdout.splitlines()[-1], done.stdout[-3000:]
    assert done.stdout.count("needs postgres and was skipped under CI") >= 3
    assert "needs redis and was skipped under CI" in done.stdout


def test_without_ci_they_are_skipped():
    # In this process: the workers' path is the CI case's above (without CI nothing differs).
    done = run_pytest("-n", "0", ci=False)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    assert "4 skipped" in done.stdout.splitlines()[-1], done.stdout[-3000:]
