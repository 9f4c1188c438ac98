"""Shared test set-up: hypothesis profiles, the CI rule for skipped backend tests, the fast lane,
game fixtures.

Markers (pytest.ini): `postgres` tests need DATABASE_URL=postgres://..., `redis` tests need
REDIS_URL. Locally they are skipped without those; with CI set (any non-empty value but "0" or
"false"), a skip of such a test is turned into a failure, so CI cannot pass without running them.
Under pytest-xdist each worker collects and runs its tests with this file loaded, so the rule
holds there too: the failure is made in the worker's report, which is what the controller counts.

Under pytest-xdist (pytest.ini: `--dist loadfile`) each test module runs whole in one worker, so a
module's fixtures are made once; the modules holding a test marked `slow` are handed out first
(see pytest_collection_modifyitems).

`--fast` (`./scripts/test --fast`) keeps the rules and the pure unit tests: a test that uses the
database (a `django_db` mark, or a fixture that needs `db`, `transactional_db` or `live_server`),
needs PostgreSQL or Redis, or is marked `slow` (it plays whole games, or starts a process) is
deselected. Its property tests draw as many examples as CI's (the "ci" profile, unless
HYPOTHESIS_PROFILE says otherwise): a quick check after a change, the whole suite the deeper one.

With SPEED_LAYERS=0 (docs/operations.md, "Speed layers") the tests marked `speed_layer`, the
layers' own checks, are deselected: every other test must pass with the layers off as with them on.
"""

from __future__ import annotations

import logging
import os
import random
from contextlib import contextmanager

import pytest
from django.conf import settings as django_settings
from django.db import connection
from hypothesis import HealthCheck
from hypothesis import settings as hypothesis_settings

from games import rules, store
from games.models import Game, Seat
from inis_pbem.celery import app as celery_app

# One line per successful task drowns the test output.
logging.getLogger("celery.app.trace").setLevel(logging.WARNING)

IN_CI = os.environ.get("CI", "").strip().lower() not in {"", "0", "false", "no"}

hypothesis_settings.register_profile(
    "ci", max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.register_profile(
    "dev", max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
# The long local run: HYPOTHESIS_PROFILE=deep ./scripts/test tests/rules (thousands of games).
hypothesis_settings.register_profile(
    "deep", max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE") or ("ci" if IN_CI else "dev"))

BACKEND_MARKERS = ("postgres", "redis")


def _is_postgres() -> bool:
    return django_settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"


# Fixtures whose tests need the database (pytest-django's; `item.fixturenames` holds every
# fixture a test needs, directly or through other fixtures, so `make_game` counts as `db`).
DATABASE_FIXTURES = {
    "db",
    "transactional_db",
    "django_db_reset_sequences",
    "django_db_serialized_rollback",
    "live_server",
}


def pytest_addoption(parser):
    parser.addoption(
        "--fast",
        action="store_true",
        default=False,
        help="the fast lane: only the tests that need no database and are not marked slow",
    )


def pytest_configure(config):
    if config.getoption("fast") and not os.environ.get("HYPOTHESIS_PROFILE"):
        hypothesis_settings.load_profile("ci")


def needs_database(item) -> bool:
    return item.get_closest_marker("django_db") is not None or bool(
        DATABASE_FIXTURES & set(item.fixturenames)
    )


def pytest_collection_modifyitems(config, items):
    if os.environ.get("PYTEST_XDIST_WORKER"):
        # The controller hands out the modules in the order of their first test here
        # (--no-loadscope-reorder): those with a slow test first, so that none starts last and
        # keeps one worker busy while the other waits.
        items.sort(key=lambda item: item.get_closest_marker("slow") is None)
    if config.getoption("fast"):
        slow = [
            item
            for item in items
            if needs_database(item) or any(item.get_closest_marker(m) for m in ("slow", *BACKEND_MARKERS))
        ]
        if slow:
            config.hook.pytest_deselected(items=slow)
            dropped = set(slow)
            items[:] = [item for item in items if item not in dropped]
    if not django_settings.SPEED_LAYERS:
        # With the speed layers off (docs/operations.md) a layer's own checks have nothing to
        # check; every other test must pass unchanged.
        layer_checks = [item for item in items if item.get_closest_marker("speed_layer")]
        if layer_checks:
            config.hook.pytest_deselected(items=layer_checks)
            items[:] = [item for item in items if not item.get_closest_marker("speed_layer")]
    for item in items:
        if item.get_closest_marker("postgres") and not _is_postgres():
            item.add_marker(pytest.mark.skip(reason="needs PostgreSQL: set DATABASE_URL=postgres://..."))
        if item.get_closest_marker("redis") and not os.environ.get("REDIS_URL"):
            item.add_marker(pytest.mark.skip(reason="needs Redis: set REDIS_URL=redis://..."))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if IN_CI and report.skipped and any(item.get_closest_marker(m) for m in BACKEND_MARKERS):
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid} needs {', '.join(m for m in BACKEND_MARKERS if item.get_closest_marker(m))} "
            f"and was skipped under CI: {report.longrepr}"
        )


def _tolerate_empty_secret_key_in_sesame() -> None:
    """django-sesame derives its keys again whenever a test changes SECRET_KEY, and raises on an
    empty one; the production-check tests set it empty on purpose (to see inis_pbem.E001), so
    that one change is let through. Any other failure of sesame's reload still raises."""
    import sesame.settings
    from django.core.exceptions import ImproperlyConfigured
    from django.core.signals import setting_changed

    setting_changed.disconnect(sesame.settings.reload)

    def reload(*, setting, value=None, **kwargs):
        try:
            sesame.settings.reload(setting=setting, value=value, **kwargs)
        except ImproperlyConfigured:
            if not (setting == "SECRET_KEY" and not value):
                raise

    setting_changed.connect(reload, weak=False, dispatch_uid="tests.sesame_reload")


_tolerate_empty_secret_key_in_sesame()

# The triggers that refuse TRUNCATE on the log (games.models, PostgreSQL).
LOG_TRUNCATE_TRIGGERS = (
    "games.Event:events_no_truncate",
    "games.Command:commands_no_truncate",
    "games.TableEvent:table_events_no_truncate",
    "press.PressMessage:press_no_truncate",
    "lobby.GatheringEvent:gathering_no_truncate",
    "community.GameEnd:game_ends_no_truncate",
)


def _let_the_test_flush_truncate_the_log() -> None:
    """After a transactional test, pytest-django empties the database with `flush`, which
    TRUNCATEs every table, the log's too; its triggers refuse that (as they must in
    production), so the test flush alone runs with them switched off (tests/log_triggers.py).
    On PostgreSQL it empties only the tables that hold rows (tests/flushing.py): Django's flush,
    every table alike, took a third of such a test's time."""
    from django.core.management.commands import flush

    from tests.flushing import flush_tables_holding_rows

    handle = flush.Command.handle

    def handle_ignoring_the_log_triggers(self, **options):
        return flush_tables_holding_rows(handle, self, LOG_TRUNCATE_TRIGGERS, **options)

    flush.Command.handle = handle_ignoring_the_log_triggers


_let_the_test_flush_truncate_the_log()


@pytest.fixture(autouse=True)
def fresh_cache(settings):
    """Each test has empty caches of its own, in this process's memory: the sign-in rate limits
    count in the cache, and counts left by other tests (or, with REDIS_URL, by earlier runs in
    the shared Redis) must not refuse this test's requests; the game pages' caches start empty."""
    import uuid

    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"test-{uuid.uuid4().hex}",
        },
        "pages": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"test-pages-{uuid.uuid4().hex}",
        },
        "prerendered": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": f"test-prerendered-{uuid.uuid4().hex}",
        },
    }


@pytest.fixture(autouse=True)
def fresh_process_state():
    """Each test starts with empty per-process caches of game states, recent events and islands
    drawn: the test database gives ids again (game 1 in one test, game 1 in the next), which a
    running service never does, so a state one test left for game 1 must not be read as the
    next test's."""
    from games.store import recent
    from web import board_svg

    recent._states.clear()
    recent._recent.clear()
    board_svg._islands.clear()


@pytest.fixture(autouse=True)
def celery_in_process():
    """Tasks run in the test's process (a test that wants the broker turns this off)."""
    before = (celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates)
    celery_app.conf.task_always_eager = True
    celery_app.conf.task_eager_propagates = True
    yield
    celery_app.conf.task_always_eager, celery_app.conf.task_eager_propagates = before


def players(n: int) -> list:
    """`n` player seats with distinct emails."""
    from games.services import SeatSpec

    return [SeatSpec(email=f"player{i}@example.org") for i in range(1, n + 1)]


@pytest.fixture
def make_game(db):
    """make_game(n_players=4, bots=0, seed="test-seed", **kw) -> Game, bots not played."""
    from games.services import SeatSpec, create_game

    def make(n_players: int = 4, bots: int = 0, seed: str = "test-seed", **kwargs) -> Game:
        seats = players(n_players) + [SeatSpec(is_bot=True)] * bots
        kwargs.setdefault("play_bots", False)
        return create_game(seats=seats, seed=seed, **kwargs)

    return make


def drive(game: Game, steps: int, *, until=None, seed: str = "drive") -> int:
    """Play `steps` commands through submit_command, for whichever seat must decide (a random
    legal command from rules.bot_command). Stops early when `until(state)` is true or nobody has
    anything to decide. Returns the commands accepted."""
    from games.services import submit_command

    rng = random.Random(seed)
    # Read now, not from the game's cache: a seat handed over since plays as its new holder's
    # (the command path refuses a command for the seat's previous holder).
    seats = {seat.colour: seat for seat in Seat.objects.filter(game_id=game.pk)}
    accepted = 0
    for _ in range(steps):
        state, seq = store.load(game)
        if until is not None and until(state):
            break
        pending = rules.pending(state)
        if not pending:
            break
        colour = rng.choice(sorted({d.seat for d in pending}))
        command = rules.bot_command(state, colour, rng)
        result = submit_command(game=game, seat=seats[colour], command=command, expected_seq=seq)
        assert result.accepted, result.message
        accepted += 1
    return accepted


@pytest.fixture
def clash_position() -> dict:
    """A described position (docs/positions.md) for green and blue, green to play in the Season:
    green holds Migration with 4 clans in the Valley, next to the Cove (blue 2, a Citadel), the
    Plains (the Capital, blue 1) and the Forest (green 1): one Migration starts a clash where blue
    may shelter a clan in the Citadel, then green maneuvers."""
    return {
        "territories": {
            "valley": {"cell": [0, 0], "clans": {"green": 4}},
            "cove": {"cell": [1, 0], "clans": {"blue": 2}, "citadels": 1},
            "plains": {"cell": [0, 1], "clans": {"blue": 1}, "sanctuaries": 1},
            "forest": {"cell": [-1, 1], "clans": {"green": 1}},
        },
        "capital": "plains",
        "brenn": "green",
        "turn": "green",
        "opened": True,
        "phase": "season",
        "round": 1,
        "hands": {"green": ["act_migration", "act_bard", "ep_eriu"], "blue": ["act_geis", "act_new_clans"]},
    }


@pytest.fixture
def play():
    """The `drive` helper as a fixture: play(game, steps, until=None)."""
    return drive


@contextmanager
def _unprotected_log():
    """Within: the event table accepts UPDATE and DELETE (PostgreSQL's trigger is disabled), to
    simulate an out-of-band edit. Deferred FK checks are made immediate first, because
    PostgreSQL refuses to ALTER a table with pending trigger events."""
    postgres = connection.vendor == "postgresql"
    if postgres:
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            cursor.execute("ALTER TABLE games_event DISABLE TRIGGER USER")
    try:
        yield
    finally:
        if postgres:
            with connection.cursor() as cursor:
                cursor.execute("ALTER TABLE games_event ENABLE TRIGGER USER")


@pytest.fixture
def unprotected_log():
    """`with unprotected_log(): ...` edits the log behind the store's back (see _unprotected_log)."""
    return _unprotected_log
