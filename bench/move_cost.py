"""The cost of a move end to end: the CPU of every process a move sets to work, for this tree and
for today's main (BASELINE_COMMIT), measured in the same run.

    .venv/bin/python -m bench --only cost

A move is not only its command. The submitting process and its PostgreSQL backend decide and
append it; the outbox relay (`manage.py relay_outbox`, woken by the commit's NOTIFY) and its two
backends publish what it left due; a Celery worker and its backend deliver the emails it called
for (each prompt written at its delivery) and render ahead the game page of each player who
reads it on the web (`web.prerender`). This section adds all of it up.

Each side runs in a fresh process of its own (`python bench/move_cost.py --root DIR`, DIR being
this tree or `git archive BASELINE_COMMIT` unpacked, through `bench.command_path.run_child` and
`export`), on the code in DIR, against a database of its own. The child creates a 4-seat game of
player seats (emails), notes READERS of its players as readers of the game's page (what opening
the page does: `web.page_readers`) or none, starts a relay and a Celery worker of that same code
(a solo pool: one process whose CPU is all the worker's; `DB_CONN_MAX_AGE` high, so each keeps
its database connection, as README's configuration advises), plays WARM_UP moves, then `moves`
random legal moves, one at a time. After each it waits until the move's work is done: no email
of the game waiting for the relay or its delivery, the bench queue empty, and neither the relay
nor the worker using CPU for SETTLED seconds (a move is never played while the last one's pages
are being rendered: in a game by email, moves are hours apart).

CPU per move = (the submitter's CPU and its backend's over each `submit_command_and_fold` call,
the bench's choice of a move left out) + (the readers' views of the page, below) + (the relay's and the worker's CPU over the timed moves,
/proc/<pid>/stat) + (the CPU of every other backend of the database over the timed moves:
the relay's, the worker's; one opened meanwhile counts whole), divided by the moves. The
processes' idle CPU between moves counts too: it is theirs. The bench's own look at the outbox
goes through a connection that is not counted. PostgreSQL runs on this machine (/proc).

Sides alternate (old, new, old, new) for each of the two rows, so a burst of load from the
shared machine weighs on both. `SPEED_LAYERS` in the bench's environment reaches this tree's
side (the baseline has no such setting).

With READERS readers, each has the game page in view: once a move is done, each does what its
tree's `static/live.js` does when the move is on the log: it asks the page's head, then fetches
the page again (the live part alone, `?part=live`, since this tree's pages give that address;
the baseline's script fetched the whole page, which its view serves for that address too, the
parameter unknown to it). Each reader is a client of its own address (as many browsers are), through
Django's test client in the child's process, on its database connection kept open as a web
process keeps it. (Before 2026-12-01 the readers' heads were not counted, on either side.) Where
the tree's page carries a token naming its viewer to the head (`web.head_viewer`), each reader
sends it with its head as the script does, the one from its last live part (or the head's).
Their CPU (the child's process time and its backend's over each request) is the `readers` part of
the move: the worker renders ahead only the pages of the players a move asks to decide
(`web.prerender`, `web.page_readers.deciding_readers`), and the other readers' pages are built
by their views, a cost moved to the web process that the move still costs.

This tree's side with readers then plays VIEWS (QUICK_VIEWS) more moves, untimed for those rows, and after each
times three requests through Django's test client on a persistent connection, their CPU (the
child's process time and its PostgreSQL backend's, /proc): the first view of a reader the move
did not ask to decide (built on demand), the first view of the player it asks (rendered ahead),
and a minimal view (`bench.web_page.minimal_view`); and, in a tree that has it, two
spectators' fetches of the live part every spectator shares (`web.spectator_part`, without
cookies, as their page's script asks: the first renders it, the second is served as kept). Row:
`CPU of a reader's first view rendered on demand`, the mean against the minimal view's, the view
of the page rendered ahead and the spectators' fetches in its note.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import tempfile
import time
from dataclasses import replace

SECTION = "cost"
BASELINE_COMMIT = "d4508a1"
READERS = 4
MOVES, QUICK_MOVES = 40, 12
VIEWS, QUICK_VIEWS = 20, 6  # moves a child with readers plays after the timed ones, a view each
WARM_UP = 4
SETTLED = 0.25  # seconds with no CPU used by the relay and the worker: the move's work is done
GOALS = {READERS: 1 / 3, 0: 1 / 2}  # the issue's: at most a third (readers), a half (none)
# How a page names its viewer to its head (web.head_viewer, static/live.js), written out here:
# the baseline's tree has neither, and its pages carry no token.
VIEWER_HEADER = "X-Inis-Viewer"
VIEWER_TOKEN = re.compile(r'data-live-viewer="([^"]*)"')


def _cpu(pid: int) -> float:
    """CPU seconds (user + system) of the process `pid` so far, from /proc (0.0 once it is gone)."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Processes:
    """The relay (`manage.py relay_outbox`) and a solo Celery worker on the bench queue `queue`,
    of the code in `root` (the current directory of the child), started on enter, stopped on
    exit. Raises RuntimeError when the worker does not start."""

    def __init__(self, root: str, queue: str):
        self.root, self.queue = root, queue
        self.relay: subprocess.Popen | None = None
        self.worker: subprocess.Popen | None = None

    def __enter__(self) -> Processes:
        import redis
        from django.conf import settings

        from bench.tasks import COUNTER, noop

        env = dict(os.environ, CELERY_QUEUE=self.queue, DB_CONN_MAX_AGE="3600")
        self.redis = redis.Redis.from_url(str(settings.REDIS_URL))
        self.redis.delete(self.queue, COUNTER)
        self.relay = subprocess.Popen(
            [sys.executable, "manage.py", "relay_outbox"],
            cwd=self.root,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.worker = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "inis_pbem",
                "worker",
                "-Q",
                self.queue,
                "-I",
                "bench.tasks",
            ]
            + ["--pool", "solo", "-l", "WARNING", "-n", f"cost-{os.getpid()}@%h"]
            + ["--without-gossip", "--without-mingle", "--without-heartbeat"],
            cwd=self.root,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        noop.delay()
        deadline = time.monotonic() + 60
        while not self.redis.get(COUNTER):
            if self.worker.poll() is not None or time.monotonic() > deadline:
                # Stopped here, as on exit: a relay left running would publish the next run's
                # rows of this database to this run's queue, which nobody reads.
                self.__exit__(None, None, None)
                raise RuntimeError("move-cost bench: the worker did not start")
            time.sleep(0.05)
        return self

    def pids(self) -> tuple[int, int]:
        assert self.relay is not None and self.worker is not None, "not started"
        return self.relay.pid, self.worker.pid

    def __exit__(self, *exc) -> None:
        for process in (self.relay, self.worker):
            if process is not None:
                process.terminate()
                try:
                    process.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
        self.redis.delete(self.queue)


class Watch:
    """The bench's own look at the database (a connection of its own, not counted): whether a
    game's emails wait for the relay or their delivery, and the CPU of the database's backends."""

    def __init__(self, ours: set[int]):
        import psycopg
        from django.db import connection

        from notifications.models import Outbox

        params = connection.get_connection_params()
        keys = {"host", "port", "user", "password", "dbname"}
        self.conn = psycopg.connect(**{k: v for k, v in params.items() if k in keys and v}, autocommit=True)
        self.table = Outbox._meta.db_table
        self.ours = ours | {self.conn.info.backend_pid}

    def emails_waiting(self, game_id: int) -> bool:
        """Whether an email of the game waits to be published or delivered (held ones apart)."""
        query = (
            f"SELECT 1 FROM {self.table} WHERE game_id = %s AND status = 'pending' AND queued_at IS NOT NULL"
        )
        return self.conn.execute(query + " LIMIT 1", [game_id]).fetchone() is not None

    def backends(self) -> dict[int, float]:
        """{pid: CPU seconds} of the database's backends but the bench's own."""
        rows = self.conn.execute("SELECT pid FROM pg_stat_activity WHERE datname = current_database()")
        return {pid: _cpu(pid) for (pid,) in rows if pid not in self.ours}


def _settle(watch: Watch, processes: Processes, game_id: int, timeout: float = 120) -> None:
    """Wait until the last move's work is done (see the module's docstring)."""
    last, quiet_since, deadline = None, time.monotonic(), time.monotonic() + timeout
    while time.monotonic() < deadline:
        now = time.monotonic()
        cpu = tuple(_cpu(pid) for pid in processes.pids())
        if watch.emails_waiting(game_id) or processes.redis.llen(processes.queue) or cpu != last:
            last, quiet_since = cpu, now
        elif now - quiet_since >= SETTLED:
            return
        time.sleep(0.02)
    raise RuntimeError("move-cost bench: a move's emails were not delivered in time")


def measure(root: str, *, readers: int, moves: int, views: int = 0) -> dict:
    """In the child: {"moves", "submitter", "relay", "worker", "backends" (CPU seconds over the
    timed moves: the submitter with its backend, the relay, the worker, their backends),
    "wall"}, and with `views` (a move each, after the timed ones) "views": `_first_views`'."""
    import random

    from django.core.cache import caches
    from django.db import connection
    from django.test.utils import override_settings

    from bench.command_path import _backend_pid
    from bench.players import new_game, next_move
    from games import store
    from games.services import submit_command_and_fold
    from web import page_readers

    game = new_game(f"move-cost-{os.getpid()}-{time.time()}")
    seats = {seat.colour: seat for seat in game.seats.all()}
    # A game id of an earlier run's database may have been noted with readers: not this game's.
    stale = [page_readers._key(game.pk, s.user_id) for s in seats.values()]
    if hasattr(page_readers, "_game_key"):  # the note that somebody reads the game (not in older trees)
        stale.append(page_readers._game_key(game.pk))
    caches["prerendered"].delete_many(stale)
    for seat in list(seats.values())[:readers]:
        page_readers.note(game_id=game.pk, user_id=seat.user_id)
    loaded = store.load(game)
    rng = random.Random(f"move cost {readers}")
    if readers:
        # The readers' views go through this connection, kept open across requests as a web
        # process keeps it: its backend's CPU is read from /proc.
        connection.close()
        connection.settings_dict["CONN_MAX_AGE"] = 3600
    in_view = list(seats.values())[:readers]
    viewers = _viewers(in_view)
    mine = _backend_pid(connection)
    watch = Watch({mine})
    spent = {"submitter": 0.0, "readers": 0.0}
    url = f"/games/{game.pk}/?part=live"

    def fetch(client, path: str, headers: dict | None = None):
        response = client.get(path, secure=True, headers=headers)
        if response.status_code != 200 or _backend_pid(connection) != mine:
            raise RuntimeError(f"move-cost bench: {path} answered {response.status_code}")
        return response

    # Each reader's page token naming its viewer to the head, where its tree has one
    # (`web.head_viewer`): sent as the tree's script sends it, kept from its last live part.
    tokens: dict[int, str | None] = {}

    def view_all() -> None:
        # Each reader's page in view asks its head once the move is on the log, then fetches
        # what its script fetches (static/live.js), the player the move asks to decide included.
        for number, client in enumerate(viewers):
            before = time.process_time() + _cpu(mine)
            token = tokens.get(number)
            head = fetch(client, f"/games/{game.pk}/head.json", {VIEWER_HEADER: token} if token else None)
            renewed = head.json().get("viewer")
            part = fetch(client, url)
            spent["readers"] += time.process_time() + _cpu(mine) - before
            found = VIEWER_TOKEN.search(part.content.decode())
            tokens[number] = found.group(1) if found and found.group(1) else renewed or token

    def move() -> None:
        nonlocal loaded
        colour, command = next_move(loaded[0], rng)
        before = time.process_time() + _cpu(mine)
        result, after = submit_command_and_fold(
            game=game, seat=seats[colour], command=command, expected_seq=loaded[1], loaded=loaded
        )
        spent["submitter"] += time.process_time() + _cpu(mine) - before
        if not result.accepted or after is None:
            raise RuntimeError(f"move-cost bench: {command} refused: {result.message}")
        loaded = (after, after.seq)

    with (
        Processes(root, f"inis-bench-cost-{os.getpid()}") as processes,
        override_settings(ALLOWED_HOSTS=["*"]),
    ):
        for _warm_up in range(WARM_UP):  # imports, templates, connections: once per process
            move()
            _settle(watch, processes, game.pk)
            view_all()
        spent["submitter"] = spent["readers"] = 0.0
        started, backends = time.monotonic(), watch.backends()
        relay_before, worker_before = (_cpu(pid) for pid in processes.pids())
        for _move in range(moves):
            move()
            _settle(watch, processes, game.pk)
            view_all()
        relay_after, worker_after = (_cpu(pid) for pid in processes.pids())
        backends_after = watch.backends()
        wall = time.monotonic() - started
        found: dict[str, object] = {
            "moves": moves,
            **spent,
            "relay": relay_after - relay_before,
            "worker": worker_after - worker_before,
            "backends": sum(cpu - backends.get(pid, 0.0) for pid, cpu in backends_after.items()),
            "wall": wall,
        }
        if views:

            def settled_move() -> int:
                before = loaded[1]
                move()
                _settle(watch, processes, game.pk)
                return before

            found["views"] = _first_views(game, seats, views, settled_move)
    return found


def _viewers(readers: list) -> list:
    """A signed-in Django test client for each seat of `readers` (their pages in view), each from
    an address of its own (the heads' limit counts per address, as for so many browsers)."""
    from django.test import Client

    clients = []
    for number, seat in enumerate(readers):
        client = Client(REMOTE_ADDR=f"192.0.2.{number + 1}")
        client.force_login(seat.user)
        clients.append(client)
    return clients


def _first_views(game, seats: dict, views: int, settled_move) -> dict:
    """{"demand", "ahead", "minimal", "shared_first", "shared": [CPU seconds]}: after each of up
    to 4 x `views` moves (`settled_move()`, which returns the log's length before it) that asks
    some player to decide, until `views` of each: the first view of the game page by a reader the
    move did not ask (their page built by the view), by the first player it asks (their page
    rendered ahead by the worker), a minimal view, and two spectators' fetches of the part every
    spectator shares (none in a tree without it), each the CPU of this process and its
    PostgreSQL backend."""
    from django.db import connection
    from django.test import Client
    from django.test.utils import override_settings

    from bench.command_path import _backend_pid
    from games import rules, store
    from games.models import SeatClock
    from web import live

    # Kept open across requests, as a web process keeps it: the backend's CPU is read from /proc.
    connection.close()
    connection.settings_dict["CONN_MAX_AGE"] = 3600
    backend = _backend_pid(connection)
    url = f"/games/{game.pk}/"
    clients = {colour: Client() for colour in seats}
    for colour, client in clients.items():
        client.force_login(seats[colour].user)
    minimal = Client()
    found: dict[str, list[float]] = {
        "demand": [],
        "ahead": [],
        "minimal": [],
        "shared_first": [],
        "shared": [],
    }
    shared = _spectator_address(game)

    def cpu_of(client, path: str) -> float:
        before = time.process_time() + _cpu(backend)
        response = client.get(path, secure=True)
        spent = time.process_time() + _cpu(backend) - before
        if response.status_code != 200 or _backend_pid(connection) != backend:
            raise RuntimeError(f"move-cost bench: {path} answered {response.status_code}")
        return spent

    with override_settings(ROOT_URLCONF="bench.web_page", ALLOWED_HOSTS=["*"]):
        for client in clients.values():  # warm-up: templates compiled, the players noted
            cpu_of(client, url)
        cpu_of(minimal, "/bench/minimal/")
        for _move in range(4 * views):
            if len(found["minimal"]) == views:
                break
            since = settled_move()
            opened = set(
                SeatClock.objects.filter(game=game, seq__gt=since).values_list("seat__colour", flat=True)
            )
            asked = [d.seat for d in rules.pending(store.load(game)[0]) if d.seat in opened]
            others = [colour for colour in seats if colour not in opened]
            if not asked or not others:
                continue
            found["demand"].append(cpu_of(clients[others[0]], url))
            found["ahead"].append(cpu_of(clients[asked[0]], url))
            found["minimal"].append(cpu_of(minimal, "/bench/minimal/"))
            if shared is not None:  # two spectators' fetches, without cookies, as their script asks
                head = live.game_head_values(game_id=game.pk, user=None) or {"seq": 0, "table_seq": 0}
                version = live.game_version(head["seq"], head["table_seq"])
                found["shared_first"].append(cpu_of(Client(), f"{shared}?v={version}"))
                found["shared"].append(cpu_of(Client(), f"{shared}?v={version}"))
    return found


def _spectator_address(game) -> str | None:
    """The address of the spectator's live part every spectator shares (`web.spectator_part`),
    its version left out; None in a tree without it."""
    from django.urls import NoReverseMatch, reverse

    try:
        return reverse("games:public_live", args=[game.pk, "en", "visitor"])
    except NoReverseMatch:
        return None


def _sides(env, *, moves: int, views: int, old_root: str | None) -> dict:
    """{(side, readers): [child results]}: old and new alternated, twice, for each row; this
    tree's children with readers time `views` first views in all (`_first_views`)."""
    from bench.command_path import run_child
    from bench.environment import _recreate_database

    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    old_env = replace(env, database_url=env.database_url.rstrip("/") + "_cost_old")
    if old_root:
        _recreate_database(old_env)
    results: dict = {}
    for turn in range(2):
        for readers in (READERS, 0):
            sides = (("old", old_root, old_env), ("new", here, env)) if old_root else (("new", here, env),)
            for name, root, side_env in sides:
                args = ["--readers", str(readers), "--moves", str(moves // 2)]
                args += ["--views", str(views // 2)] if name == "new" and readers else []
                args += ["--migrate"] if name == "old" and turn == 0 and readers == READERS else []
                result = run_child(os.path.abspath(__file__), root, side_env, args, timeout=1800)
                results.setdefault((name, readers), []).append(result)
    return results


PARTS = ("submitter", "relay", "worker", "backends", "readers")


def per_move_ms(runs: list[dict]) -> dict:
    """{"total", and each of `PARTS`}: ms of CPU per move over `runs` (a run of a tree before
    the readers' views were counted has none)."""
    moves = sum(r["moves"] for r in runs)
    found = {part: 1000 * sum(r.get(part, 0.0) for r in runs) / moves for part in PARTS}
    return {"total": sum(found.values()), **found}


def rows(env, *, quick: bool) -> list:
    """The two cost rows (bench.table.Row), each against BASELINE_COMMIT in the same run."""
    from bench.command_path import export
    from bench.table import Row

    moves, views = (QUICK_MOVES, QUICK_VIEWS) if quick else (MOVES, VIEWS)
    with tempfile.TemporaryDirectory(prefix="inis-bench-cost-") as tmp:
        old_root = export(BASELINE_COMMIT, tmp)
        results = _sides(env, moves=moves, views=views, old_root=old_root)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    found = []
    for readers, figure in ((READERS, f"{READERS} readers"), (0, "no reader on the web")):
        new = per_move_ms(results[("new", readers)])
        old = per_move_ms(results[("old", readers)]) if old_root else None

        def parts(cost: dict, shown: tuple = PARTS if readers else PARTS[:-1]) -> str:
            return ", ".join(f"{part} {cost[part]:.1f}" for part in shown)

        note = f"{moves} moves a side, 4 player seats; ms: {parts(new)}"
        note += f"; before: {parts(old)}" if old else ""
        found.append(
            Row(
                SECTION,
                f"CPU per move, end to end, {figure}",
                new["total"],
                "ms",
                f"commit {BASELINE_COMMIT} (before)"
                if old_root
                else f"commit {BASELINE_COMMIT}: no git export",
                old["total"] if old else None,
                goal=("<=", round(GOALS[readers], 3)),
                note=note + f"; load average at the end {load}",
            )
        )
    found.append(_view_row(results[("new", READERS)], load))
    found.append(_first_view_row(results[("new", READERS)], load))
    return found


# The issue's: the first view after a move at most ten times a minimal view (median, CPU).
FIRST_VIEW_GOAL = 10


def _first_view_row(runs: list[dict], load: str):
    """The row of the first view after a move of the player it asks to decide (their page
    rendered ahead by the worker: the page an emailed player opens), median CPU against a
    minimal view's median, each measured right after the other (`_first_views`)."""
    from bench.clock import median
    from bench.table import Row

    ahead = [x for run in runs for x in run["views"].get("ahead", [])]
    minimal = [x for run in runs for x in run["views"].get("minimal", [])]
    return Row(
        SECTION,
        "CPU of the first view after a move, the player it asks (page rendered ahead), median",
        1000 * median(ahead) if ahead else float("nan"),
        "ms",
        "minimal view, median",
        1000 * median(minimal) if minimal else float("nan"),
        goal=("<=", FIRST_VIEW_GOAL),
        note=(
            f"{len(ahead)} first views, one after each move that asked a player, {READERS} readers; "
            "CPU of the web process and its PostgreSQL backend; the same view's wall time: the web "
            f"section's rows; load average at the end {load}"
        ),
    )


def _view_row(runs: list[dict], load: str):
    """The row of a reader's first view rendered on demand (`_first_views` of `runs`), against a
    minimal view's CPU; no goal."""
    from bench.table import Row

    names = ("demand", "ahead", "minimal", "shared_first", "shared")
    timed = {name: [x for run in runs for x in run["views"].get(name, [])] for name in names}

    def mean_ms(name: str) -> float:
        return 1000 * sum(timed[name]) / len(timed[name]) if timed[name] else float("nan")

    return Row(
        SECTION,
        "CPU of a reader's first view rendered on demand",
        mean_ms("demand"),
        "ms",
        "minimal view",
        mean_ms("minimal"),
        note=(
            f"{len(timed['demand'])} first views, one after each move that asked another player, "
            f"{READERS} readers: a reader the move did not ask to decide, whose page the worker no "
            "longer renders ahead (built by the view); the view of the page rendered ahead for the "
            f"player it asks: {mean_ms('ahead'):.1f} ms; a spectator's fetch of the live part every "
            f"spectator shares (web.spectator_part, no session): {mean_ms('shared_first'):.1f} ms the "
            f"first after a move (renders it), {mean_ms('shared'):.2f} ms the next; mean CPU of the web process and its "
            f"PostgreSQL backend; load average at the end {load}"
        ),
    )


def _child(argv: list[str]) -> int:
    root = argv[argv.index("--root") + 1]
    readers = int(argv[argv.index("--readers") + 1])
    moves = int(argv[argv.index("--moves") + 1])
    views = int(argv[argv.index("--views") + 1]) if "--views" in argv else 0
    sys.path[0] = root  # not bench/, whose module names (mail, tasks, rules...) would shadow others
    os.environ["CELERY_QUEUE"] = f"inis-bench-cost-{os.getpid()}"
    # A reader's head marks them at the table (`players.at_the_table`), which holds the emails of
    # their decisions for AT_TABLE_SECONDS: the move's work would then wait that long, the relay
    # and the worker idling meanwhile. Not held here: each move's emails are written and sent, as
    # for players who answer by email, on both sides (a tree without the setting ignores it).
    os.environ["AT_TABLE_SECONDS"] = "0"
    import django

    django.setup()
    if "--migrate" in argv:
        from django.core.management import call_command

        call_command("migrate", verbosity=0)
    print(json.dumps(measure(root, readers=readers, moves=moves, views=views)))
    return 0


if __name__ == "__main__":
    sys.exit(_child(sys.argv[1:]))
