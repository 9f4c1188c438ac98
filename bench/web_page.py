"""Web: the game page and the history page of a 4-player game of about 2,000 events, against a
minimal Django view, all in the same run (called by `python -m bench` as the web section).

    .venv/bin/python -m bench.web_page [--quick]      (alone: prepares the bench database first)

Each page is requested through Django's test client (the whole middleware stack: sessions,
authentication, CSRF, messages, sign-in links) as the signed-in player of a seat with a decision
pending, so the game page folds the state from the latest snapshot, draws the island, builds the
decision forms and the recent events. The history page is its default page, the last
HISTORY_PAGE_SIZE events described for that seat. The baseline is a view that returns "ok"
through the same client and middleware, interleaved with the pages so that load from elsewhere
falls on all three. Figures are milliseconds per request (median and 95th percentile).

To compare commits on the first view after a move (e.g. a change's before and after, same run,
sides alternated):

    .venv/bin/python -m bench.web_page --compare d4508a1,HEAD [--rounds 2] [--quick]

Each commit is a `git archive` in a temporary directory, measured in a fresh process of its own
(this file's `measure_first_views` on that code, on a database of its own: the bench database's
name + "_" + the commit); the medians and 95th percentiles, against the minimal view's, are
printed with their ratios.
"""

from __future__ import annotations

import copy
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import uuid
from typing import Any

from django.http import HttpResponse
from django.urls import include, path

EVENTS = 2_000
PERSISTENT_CONNECTION_SECONDS = 600


def minimal_view(request):
    """The baseline: the least a Django view can do."""
    return HttpResponse("ok")


def __getattr__(name: str):
    """`urlpatterns`, the bench's URL map (ROOT_URLCONF while measuring): the project's plus the
    minimal view. Made on first use, because the project's URLs import models, which cannot be
    imported before `environment.prepare()` has set Django up."""
    if name == "urlpatterns":
        return [path("bench/minimal/", minimal_view), path("", include("inis_pbem.urls"))]
    raise AttributeError(name)


def build_game(*, events: int = EVENTS, seed: str = "bench-web"):
    """A 4-player game (player seats, so every command writes prompt emails as in production)
    played by random legal commands until its log holds at least `events` events, never ending
    (no Pretender token). Returns (game, seat with a decision pending)."""
    from bench.players import new_game, next_move
    from games import rules, store
    from games.services import submit_command

    game = new_game(seed)
    seats = {s.colour: s for s in game.seats.all()}
    rng = random.Random(seed)
    state, seq = store.load(game)
    while seq < events:
        colour, command = next_move(state, rng)
        result = submit_command(game=game, seat=seats[colour], command=command, expected_seq=seq)
        if not result.accepted:
            raise RuntimeError(f"bench game: {command} refused: {result.message}")
        state, seq = store.load(game)
    waiting = rules.pending(state)[0].seat
    return game, seats[waiting]


def _timed(client, url: str, headers: dict | None = None) -> float:
    start = time.perf_counter()
    response = client.get(url, headers=headers)
    elapsed = (time.perf_counter() - start) * 1000
    if response.status_code != 200:
        raise RuntimeError(f"{url}: status {response.status_code}")
    return elapsed


def interleaved(
    urls: dict[str, str], *, rounds: int, user=None, headers: dict | None = None, **overrides
) -> dict[str, list[float]]:
    """{name: [ms...]}: each of `urls` ({name: path}) requested `rounds` times through Django's
    test client (as `user`, signed in, or a visitor; with `headers`[name], {header: value}, when
    given for that name), interleaved so that load from elsewhere
    falls on all of them alike, after one warm-up request each. The bench's URL map (this
    module's: the project's and the minimal view, "/bench/minimal/") and `overrides` (settings)
    apply. The database connection is reopened as a persistent one, as a production web process
    keeps it (DB_CONN_MAX_AGE): otherwise every page pays for a new PostgreSQL connection (about
    5 ms here), which the minimal view, touching no database, never does."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import override_settings

    connection.close()
    connection.settings_dict["CONN_MAX_AGE"] = PERSISTENT_CONNECTION_SECONDS
    with override_settings(ROOT_URLCONF="bench.web_page", ALLOWED_HOSTS=["*"], **overrides):
        client = Client()
        if user is not None:
            client.force_login(user)
        headers = headers or {}
        for name, url in urls.items():  # warm-up: templates compiled, caches filled
            _timed(client, url, headers.get(name))
        samples: dict[str, list[float]] = {name: [] for name in urls}
        for _ in range(rounds):
            for name, url in urls.items():
                samples[name].append(_timed(client, url, headers.get(name)))
    return samples


def measure(*, quick: bool = False) -> dict:
    """{"game": [ms...], "history": [ms...], "minimal": [ms...], "events": n}: interleaved
    samples of the three requests (after a warm-up of each)."""
    from games import store

    game, seat = build_game()
    urls = {
        "game": f"/games/{game.pk}/",
        "history": f"/games/{game.pk}/history/",
        "minimal": "/bench/minimal/",
    }
    samples = interleaved(urls, rounds=25 if quick else 100, user=seat.user)
    return {**samples, "events": store.head(game)[0]}


def measure_first_views(*, quick: bool = False, rendered_after_commit: bool = True) -> dict:
    """{"first": [ms...], "minimal": [ms...], "events": n}: the first view of the game page by the
    player whose decision a move has just opened, one move after another (each view misses the
    whole-page cache: the game has moved on; a move that opens no decision is played without a
    view), interleaved with the minimal view.

    rendered_after_commit: as the worker does after each commit (`web.prerender`), the players'
    pages (each seat's live part, each player's whole page) are rendered after the move and
    before the view; False measures the view that builds the page itself."""
    from django.conf import settings
    from django.db import connection
    from django.test import Client
    from django.test.utils import override_settings

    from bench.players import next_move
    from games import store
    from games.services import submit_command
    from web import prerender

    game, _seat = build_game(seed="bench-web-first" if rendered_after_commit else "bench-web-first-built")
    seats = {s.colour: s for s in game.seats.all()}
    connection.close()
    connection.settings_dict["CONN_MAX_AGE"] = PERSISTENT_CONNECTION_SECONDS
    rounds = 25 if quick else 100
    rng = random.Random("first views")
    samples: dict[str, list[float]] = {"first": [], "minimal": []}
    # The game is the same in every run (seeded), so are the keys of its pages: this run's pages
    # rendered ahead are kept under a prefix of its own, never found left in Redis by an earlier
    # run (the move's pages are then rendered here, between the move and the view, every time).
    caches: dict[str, Any] = copy.deepcopy(settings.CACHES)
    caches["prerendered"]["KEY_PREFIX"] = f"bench-{uuid.uuid4().hex}"
    with override_settings(ROOT_URLCONF=__name__, ALLOWED_HOSTS=["*"], CACHES=caches):
        clients = {}
        for colour, seat in seats.items():
            clients[colour] = Client()
            clients[colour].force_login(seat.user)
            _timed(clients[colour], f"/games/{game.pk}/")  # warm-up: templates compiled
        minimal = Client()
        _timed(minimal, "/bench/minimal/")
        state, seq = store.load(game)
        for _ in range(4 * rounds):
            if len(samples["first"]) == rounds:
                break
            colour, command = next_move(state, rng)
            result = submit_command(game=game, seat=seats[colour], command=command, expected_seq=seq)
            if not result.accepted:
                raise RuntimeError(f"bench game: {command} refused: {result.message}")
            before, (state, seq) = seq, store.load(game)
            if rendered_after_commit:
                prerender.render_live_parts(game.pk)
            waiting = _opened(game, state, since=before)
            if waiting is None:
                continue  # a move that asks nobody new (one of a draft's picks): no view to time
            samples["first"].append(_timed(clients[waiting], f"/games/{game.pk}/"))
            samples["minimal"].append(_timed(minimal, "/bench/minimal/"))
    return {**samples, "events": store.head(game)[0]}


def _opened(game, state, *, since: int) -> str | None:
    """The colour of the first seat (in `rules.pending`'s order) whose decision opened after the
    log's length `since` (its clock, `games.models.SeatClock`), or None: the player the move asks
    to decide, whose page the worker renders ahead (`web.page_readers.deciding_readers`)."""
    from games import rules
    from games.models import SeatClock

    opened = set(SeatClock.objects.filter(game=game, seq__gt=since).values_list("seat__colour", flat=True))
    return next((d.seat for d in rules.pending(state) if d.seat in opened), None)


def run(*, quick: bool = False) -> list:
    """The web section's rows (bench.table.Row): the game page and the history page, median and
    95th percentile, each against the minimal view's same statistic; the game page's p95 carries
    the goal (within 10x the minimal view); then the first view after a move, with the live
    parts rendered after the commit (goal: within 10x median, 20x p95) and without."""
    from bench.clock import median, percentile
    from bench.table import Row

    s = measure(quick=quick)
    note = (
        f"4 players, {s['events']} events, signed-in seat with a decision; {len(s['game'])} requests "
        f"each; persistent DB connection"
    )
    rows = []
    for name, label in (("game", "game page"), ("history", "history page (last 500 events)")):
        for stat, fn in (("median", median), ("p95", lambda xs: percentile(xs, 95))):
            rows.append(
                Row(
                    "web",
                    f"{label}, {stat}",
                    fn(s[name]),
                    "ms",
                    baseline_name=f"minimal view {stat}",
                    baseline=fn(s["minimal"]),
                    goal=("<=", 10.0) if (name, stat) == ("game", "p95") else None,
                    note=note,
                )
            )
    first = measure_first_views(quick=quick)
    built = measure_first_views(quick=quick, rendered_after_commit=False)
    for label, samples, goals in (
        ("game page, first view after a move", first, {"median": 10.0, "p95": 20.0}),
        ("game page, first view after a move, live part not rendered after the commit", built, {}),
    ):
        note = (
            f"4 players, from {samples['events'] - len(samples['first'])} events; the seat whose decision "
            f"the move opened, {len(samples['first'])} moves"
            + ("; its page rendered after the commit (web.prerender)" if goals else "")
        )
        for stat, fn in (("median", median), ("p95", lambda xs: percentile(xs, 95))):
            rows.append(
                Row(
                    "web",
                    f"{label}, {stat}",
                    fn(samples["first"]),
                    "ms",
                    baseline_name=f"minimal view {stat}",
                    baseline=fn(samples["minimal"]),
                    goal=("<=", goals[stat]) if stat in goals else None,
                    note=note,
                )
            )
    return rows


def compare(commits: list[str], *, rounds: int, quick: bool) -> dict[str, list[dict]]:
    """{commit: [measure_first_views' samples, a run each]}: `rounds` runs of each commit, in
    turn, each in a fresh process on the commit's `git archive` (module docstring)."""
    from bench.command_path import export
    from bench.environment import DEFAULT_DATABASE_URL

    base = os.environ.get("BENCH_DATABASE_URL") or DEFAULT_DATABASE_URL
    runs: dict[str, list[dict]] = {commit: [] for commit in commits}
    with tempfile.TemporaryDirectory(prefix="inis-bench-web-") as tmp:
        roots: dict[str, str] = {}
        for commit in commits:
            root = export(commit, tempfile.mkdtemp(dir=tmp))
            if root is None:
                raise SystemExit(f"no git export of {commit}")
            roots[commit] = root
        for _turn in range(rounds):
            for commit in commits:
                env = dict(os.environ, BENCH_DATABASE_URL=base.rstrip("/") + "_web_" + commit.lower())
                env["PYTHONPATH"] = roots[commit]
                done = subprocess.run(
                    [sys.executable, os.path.abspath(__file__), "--first-views-in", roots[commit]]
                    + (["--quick"] if quick else []),
                    cwd=roots[commit],
                    env=env,
                    capture_output=True,
                    text=True,
                    timeout=3600,
                )
                if done.returncode != 0:
                    raise RuntimeError(f"web bench of {commit} failed: {done.stderr[-2000:]}")
                runs[commit].append(json.loads(done.stdout.strip().splitlines()[-1]))
    return runs


def _compare_main(argv: list[str]) -> int:
    from bench.clock import median, percentile

    commits = argv[argv.index("--compare") + 1].split(",")
    rounds = int(argv[argv.index("--rounds") + 1]) if "--rounds" in argv else 2
    runs = compare(commits, rounds=rounds, quick="--quick" in argv)
    print(json.dumps(runs))
    print(f"load average: {os.getloadavg()}")
    for commit, samples in runs.items():
        first = [x for run in samples for x in run["first"]]
        minimal = [x for run in samples for x in run["minimal"]]
        p50, p95 = median(first), percentile(first, 95)
        m50, m95 = median(minimal), percentile(minimal, 95)
        print(
            f"{commit}: first view median {p50:.2f} ms ({p50 / m50:.2f}x minimal {m50:.2f}), "
            f"p95 {p95:.2f} ms ({p95 / m95:.2f}x minimal {m95:.2f}); {len(first)} views"
        )
    return 0


def _first_views_child(argv: list[str]) -> int:
    """In a fresh process on the code in the directory after --first-views-in: prepare its bench
    database and print measure_first_views' samples as JSON."""
    sys.path[0] = argv[argv.index("--first-views-in") + 1]  # that code's modules, not bench/'s
    from bench import environment

    environment.prepare()
    print(json.dumps(measure_first_views(quick="--quick" in argv)))
    return 0


def main(argv: list[str]) -> int:
    from bench import environment
    from bench.table import markdown

    environment.prepare()
    rows = run(quick="--quick" in argv)
    print(markdown(rows))
    return 0


if __name__ == "__main__":
    if "--compare" in sys.argv:
        sys.exit(_compare_main(sys.argv[1:]))
    sys.exit(_first_views_child(sys.argv[1:]) if "--first-views-in" in sys.argv else main(sys.argv[1:]))
