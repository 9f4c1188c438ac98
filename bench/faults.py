"""Faults rows: the longest stall of a game while a fault hits the production processes (issue 43).

The processes are started as production runs them, by `scripts/serve-production`
(`tests.faults.processes.Production`, with its default settings: gunicorn with 2 workers, the
outbox relay, a Celery worker with 2 processes, the bots' worker and beat; DJANGO_DEBUG=0), on
the bench database and a Redis server of the run's own (`tests.faults.processes.RedisServer`, on
a free port, so that it can be stopped and started again). Mail goes to a recording provider
(`tests.faults.mailer.RecordingBackend`: each message handed over is a line of a file).

`GAMES` games of 4 player seats are played by a steady stream of email replies: each prompt the
worker delivered is answered by one of its numbered options (a move in words when it has none),
posted as Postmark posts a reply to the service's inbound webhook; a post refused or cut off is
posted again a second later, as a provider tries again. While they play, five faults in turn:

- worker `kill -9`: the Celery worker's pool processes (those that run the tasks) killed; the
  worker's main process starts new ones (a main process that exits, serve-production starts
  again, as it does when a worker exits because Redis went down);
- Redis down: the run's redis-server stopped for `REDIS_DOWN` seconds, then started again on the
  same port, empty;
- web worker `kill -9`: gunicorn's worker processes killed just after a reply's post committed
  (its inbound row is in the database), while the post is still being answered;
- database connections terminated: every connection of the service's processes to the bench
  database ended by `pg_terminate_backend`, again and again for `DATABASE_DOWN` seconds;
- beat down: beat stopped (SIGSTOP: stopped, not exited, so that serve-production does not
  start it again) for `BEAT_DOWN` seconds, then continued.

A fault's window runs from the fault's start to `AFTER` seconds after its end. Its stall is the
longest, over the moves of the window, of (a) a reply's wait from its first post until the
webhook took it (answered 200: the provider's retries, here a second apart, and the time a web
worker takes to come back), (b) from its arrival (the inbound row stored) until it was played
(the row processed), and (c) from a move's command committed
(`Command.accepted_at`) until the next prompt it opened was handed to the provider
(`Outbox.sent_at` of the first prompt written at that command's log length); a reply or prompt
still waiting when the run ends counts to the end of the run. Goal: at most 10 s each. The note
checks what the goal assumes: prompts and replies of the window lost (still pending or
unprocessed at the end), Message-IDs handed over twice, and `verify_game` of every game.

    python -m bench --only faults [--write]
"""

from __future__ import annotations

import http.client
import os
import random
import re
import signal
import sys
import tempfile
import threading
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from email.utils import make_msgid
from pathlib import Path

SECTION = "faults"
GOAL_SECONDS = 10.0
GAMES = 3
PACE = 0.5  # seconds between two replies at most: a stream the service keeps up with
WARM_UP = 15.0  # seconds of play before the first fault (the no-fault stall is measured there)
AFTER = 20.0  # seconds of play watched after each fault's end
REDIS_DOWN = 5.0
DATABASE_DOWN = 6.0
BEAT_DOWN = 30.0
DRAIN = 60.0
RESTART_WAIT = 240.0  # at most this long for the moves to go on after serve-production restarted  # at most this long after the last fault for what waits to be done
WEBHOOK_SECRET = "inbound:faults-" + "Pq7Rt2Lx9Vb4" * 2
OPTION = re.compile(r"^\s*(\d{1,3})\.\s+\S", re.M)
# scripts/serve-production's line when it starts again a process that stopped by itself.
STARTED_AGAIN = re.compile(r"^serve-production: (\w+) stopped \(status (\d+)\) after (\d+) s; started again")
PROCESS_NAMES = {"web": "web (gunicorn)", "bots": "bots' worker"}


@dataclass
class Window:
    """A fault's name and its window: from `start` to `end` (time.time() seconds)."""

    name: str
    what: str
    start: float = 0.0
    end: float = 0.0
    posts_failed: int = 0
    restarts: list = field(default_factory=list)  # why serve-production stopped, each time
    # (process, status, seconds it ran) of each process serve-production started again.
    started_again: list = field(default_factory=list)


@dataclass
class Players:
    """The stream of replies: answers each delivered prompt of `games` once (again after a
    failed post), at most one post at a time."""

    port: int
    host: str
    games: list
    rng: random.Random = field(default_factory=lambda: random.Random(43))
    answered: set = field(default_factory=set)
    posts: int = 0
    failed: int = 0
    # {prompt row id: (the reply's Message-ID, time.time() of its first post)}: a post posted
    # again is the same message, as a provider's retry is.
    replies: dict = field(default_factory=dict)
    # [(time.time() of a reply's first post, seconds until the webhook took it)]
    waits: list = field(default_factory=list)
    # Called with the window at each turn: serve-production started again if it stopped.
    supervise: Callable[[Window], None] | None = None

    def due(self) -> list:
        """The prompts delivered for a decision still open and not answered yet."""
        from notifications import outbox
        from notifications.models import Outbox

        rows = (
            Outbox.objects.filter(
                game__in=self.games,
                kind=Outbox.Kind.PROMPT,
                channel=Outbox.Channel.EMAIL,
                status=Outbox.Status.SENT,
            )
            .exclude(pk__in=self.answered)
            .order_by("sent_at")
        )
        return [row for row in rows if not outbox.is_stale(row)]

    def reply_text(self, row) -> str | None:
        from bench.scale.players import words_for_a_legal_move

        numbers = OPTION.findall(row.body_text)
        return self.rng.choice(numbers) if numbers else words_for_a_legal_move(row.to_email, self.rng)

    def post(self, row) -> int:
        """Post the reply to `row` as Postmark's inbound webhook; the HTTP status (0: no answer)."""
        from bench.scale.players import post_to_postmark_webhook, postmark_json

        message_id, first = self.replies.setdefault(
            row.pk, (make_msgid(domain="players.example.org"), time.time())
        )
        text = self.reply_text(row) or "pass"
        body = postmark_json(row.to_email, row.headers["Reply-To"], f"Re: {row.subject}", text, message_id)
        self.posts += 1
        try:
            status = post_to_postmark_webhook(self.port, WEBHOOK_SECRET, self.host, body, timeout=30)
        except (OSError, http.client.HTTPException):
            status = 0
        if status == 200:
            self.answered.add(row.pk)
            self.waits.append((first, time.time() - first))
        else:
            self.failed += 1
        return status

    def play_for(self, seconds: float, *, window: Window | None = None) -> None:
        """Answer what is due for `seconds`, one reply every PACE seconds at most (the oldest
        prompt first); a failed post is posted again at the next turn."""
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            if self.supervise is not None and window is not None:
                self.supervise(window)
            for row in self.due()[:1]:
                if self.post(row) != 200 and window is not None:
                    window.posts_failed += 1
            time.sleep(PACE)


def _terminate_connections(env, seconds: float, own: int) -> int:
    """pg_terminate_backend of every other connection to the bench database but `own` (the
    bench's players' backend pid), again and again for `seconds`; how many were ended."""
    import psycopg

    ended = 0
    until = time.monotonic() + seconds
    with psycopg.connect(env.conninfo, autocommit=True) as admin:
        while time.monotonic() < until:
            ended += len(
                admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s "
                    "AND pid <> %s AND pid <> pg_backend_pid()",
                    (env.dbname, own),
                ).fetchall()
            )
            time.sleep(0.2)
    return ended


def _kill_web_after_a_commit(server, players: Players) -> None:
    """Post a reply and kill gunicorn's workers as soon as its inbound row is committed."""
    from notifications.models import InboundEmail

    rows = players.due()
    while not rows:
        time.sleep(0.1)
        rows = players.due()
    before = InboundEmail.objects.count()
    posting = threading.Thread(target=players.post, args=(rows[0],))
    posting.start()
    while posting.is_alive() and InboundEmail.objects.count() == before:
        time.sleep(0.005)
    server.kill_children_of("gunicorn")
    posting.join(timeout=60)


def _moving(games) -> bool:
    """Whether a command of `games` was accepted in the last 5 seconds."""
    from games.models import Command

    return Command.objects.filter(game__in=games, accepted_at__gte=_aware(time.time() - 5)).exists()


def _stalls(games, players: Players, window: Window, run_end: float) -> tuple[float, str, int]:
    """(longest stall in seconds, what it was, moves counted) of the window."""
    from games.models import Command
    from notifications.models import InboundEmail, Outbox

    start, end = _aware(window.start), _aware(window.end)
    longest, what, moves = 0.0, "none", 0
    for first, wait in players.waits:
        if window.start <= first <= window.end and wait > longest:
            longest, what = wait, "a reply until the webhook took it"
    for row in InboundEmail.objects.filter(received_at__gte=start, received_at__lte=end):
        done = row.processed_at.timestamp() if row.processed_at else run_end
        if done - row.received_at.timestamp() > longest:
            longest, what = done - row.received_at.timestamp(), "a reply until played"
    commands = Command.objects.filter(game__in=games, accepted_at__gte=start, accepted_at__lte=end)
    for command in commands:
        prompts = Outbox.objects.filter(
            game=command.game_id, kind=Outbox.Kind.PROMPT, channel=Outbox.Channel.EMAIL, seq=command.last_seq
        ).exclude(status=Outbox.Status.SKIPPED)
        sent = [p.sent_at.timestamp() if p.sent_at else run_end for p in prompts]
        if not sent:
            continue
        moves += 1
        stall = min(sent) - command.accepted_at.timestamp()
        if stall > longest:
            longest, what = stall, "a move until the next prompt"
    return longest, what, moves


def _lost_and_doubled(games, window: Window, mail_log: Path) -> tuple[int, int]:
    """(rows of the window still pending or unprocessed, Message-IDs of the window's emails
    handed over more than once)."""
    from notifications.models import InboundEmail, Outbox
    from tests.faults.mailer import read_log

    start, end = _aware(window.start), _aware(window.end)
    rows = Outbox.objects.filter(game__in=games, created_at__gte=start, created_at__lte=end)
    lost = rows.filter(status=Outbox.Status.PENDING, channel=Outbox.Channel.EMAIL).count()
    lost += InboundEmail.objects.filter(
        received_at__gte=start, received_at__lte=end, status=InboundEmail.Status.RECEIVED
    ).count()
    handed: dict[str, int] = {}
    for line in read_log(mail_log):
        if line["event"] == "sent":
            handed[line["message_id"]] = handed.get(line["message_id"], 0) + 1
    ids = {row.headers.get("Message-ID") for row in rows.filter(status=Outbox.Status.SENT)}
    return lost, sum(1 for message_id in ids if handed.get(message_id, 0) > 1)


def _aware(seconds: float):
    from datetime import UTC

    return datetime.fromtimestamp(seconds, tz=UTC)


def _service_env(tmp: Path, redis_url: str, queue: str) -> dict:
    """serve-production's environment: production settings (as the smoke test's), the bench
    database, the run's Redis and queue, the recording provider, the default concurrency."""
    from tests.faults.test_serve_production import server_env

    env = server_env(tmp, queue)
    for default in ("WEB_CONCURRENCY", "WORKER_CONCURRENCY"):
        env.pop(default)
    env.update(
        REDIS_URL=redis_url,
        EMAIL_BACKEND="tests.faults.mailer.RecordingBackend",
        FAULT_MAIL_LOG=str(tmp / "mail.log"),
        ANYMAIL_WEBHOOK_SECRET=WEBHOOK_SECRET,
        PYTHONPATH=str(Path(__file__).resolve().parents[1]),
    )
    return env


def _point_celery_at(redis_url: str, queue: str) -> None:
    from inis_pbem.celery import app

    app.conf.broker_url, app.conf.task_default_queue = redis_url, queue
    app._pool = None
    app.amqp._producer_pool = None


def run(env, *, quick: bool = False) -> list:
    """The five rows (`quick` changes nothing: the faults need their windows)."""
    from django.db import connection

    from bench.table import Row
    from games.services import SeatSpec, create_game
    from games.store.verification import verify_game
    from tests.faults.processes import Production, RedisServer, wait_until
    from tests.live_server import HOST

    tmp = Path(tempfile.mkdtemp(prefix="inis-bench-faults-"))
    redis = RedisServer(tmp)
    redis.start()
    queue = f"inis-bench-faults-{uuid.uuid4().hex[:6]}"
    service_env = _service_env(tmp, redis.url, queue)
    _point_celery_at(redis.url, queue)
    server = Production(tmp, service_env)
    windows: list[Window] = []
    try:
        server.start()
        wait_until(server.serving, timeout=90, what="gunicorn to listen", interval=0.2)
        games = [
            create_game(
                seats=[SeatSpec(email=f"faults{g}-{i}@example.org") for i in range(4)], seed=f"faults-{g}"
            )
            for g in range(GAMES)
        ]
        players = Players(port=server.port, host=HOST, games=games)

        def supervise(window: Window) -> None:
            """As a supervisor (systemd's Restart=always) would: serve-production stopped (one
            of its processes exited in its first RESTART_AFTER seconds, and it stopped the
            others) is started again."""
            if server.process is not None and server.process.poll() is None:
                return
            lines = server.log.read_text(errors="replace").splitlines()
            window.restarts.append(next((line for line in lines if "Unrecoverable error" in line), lines[-1]))
            print(
                f"[bench] faults: serve-production stopped: {window.restarts[-1]}",
                file=sys.stderr,
                flush=True,
            )
            server.start()

        players.supervise = supervise
        # The worker and the relay boot after gunicorn listens: play once every game's first
        # prompts are out (the boot is no fault).
        booted = time.monotonic()
        wait_until(
            lambda: len({row.game_id for row in players.due()}) == GAMES,
            timeout=240,
            what="the first prompts",
        )
        print(
            f"[bench] faults: first prompts after {time.monotonic() - booted:.0f} s",
            file=sys.stderr,
            flush=True,
        )
        calm = Window("none", "no fault", start=time.time())
        players.play_for(WARM_UP)
        calm.end = time.time()

        def fault(name: str, what: str, act) -> None:
            window = Window(name, what, start=time.time())
            print(f"[bench] faults: {name}", file=sys.stderr, flush=True)
            log_lines = len(server.log.read_text(errors="replace").splitlines())
            act(window)
            players.play_for(AFTER, window=window)
            # serve-production started again: the window lasts until moves are played again.
            while window.restarts and not _moving(games) and time.time() - window.start < RESTART_WAIT:
                players.play_for(2.0, window=window)
            window.end = time.time()
            window.started_again = [
                found.groups()
                for line in server.log.read_text(errors="replace").splitlines()[log_lines:]
                if (found := STARTED_AGAIN.match(line))
            ]
            windows.append(window)

        def worker_kill(window: Window) -> None:
            server.kill_children_of(f"-Q {queue} ")

        def redis_down(window: Window) -> None:
            # Started again REDIS_DOWN seconds after the stop began, on a timer: a reply posted
            # while Redis is down may take seconds to be answered, and the players' turn must not
            # make the outage longer than the fault's (runs at load 20 waited 6.5 s and more).
            down = time.monotonic()
            answered: list[float] = []

            def come_back() -> None:
                redis.start()
                answered.append(time.monotonic() - down)

            redis.stop()
            back = threading.Timer(max(0.0, REDIS_DOWN - (time.monotonic() - down)), come_back)
            back.start()
            players.play_for(REDIS_DOWN, window=window)
            back.join()
            if not answered:
                raise RuntimeError("redis-server did not start again")
            window.what += f" ({answered[0]:.1f} s from its stop until it answered again)"

        def web_kill(window: Window) -> None:
            _kill_web_after_a_commit(server, players)

        def database_down(window: Window) -> None:
            connection.ensure_connection()
            own = connection.connection.info.backend_pid
            done = threading.Thread(target=_terminate_connections, args=(env, DATABASE_DOWN, own))
            done.start()
            players.play_for(DATABASE_DOWN, window=window)
            done.join()

        def beat_down(window: Window) -> None:
            beat = server.started("beat")
            os.kill(beat, signal.SIGSTOP)
            try:
                players.play_for(BEAT_DOWN, window=window)
            finally:
                os.kill(beat, signal.SIGCONT)

        fault("worker kill -9", "the worker's pool processes killed", worker_kill)
        fault("Redis down", f"redis-server stopped {REDIS_DOWN:.0f} s", redis_down)
        fault("web worker kill -9", "gunicorn's workers killed after a reply's commit", web_kill)
        fault(
            "database connections terminated",
            f"pg_terminate_backend for {DATABASE_DOWN:.0f} s",
            database_down,
        )
        fault("beat down", f"beat stopped {BEAT_DOWN:.0f} s", beat_down)
        _drain(games, DRAIN)
        run_end = time.time()
        verified = all(verify_game(game).ok for game in games)
        calm_stall, _what, calm_moves = _stalls(games, players, calm, run_end)
        rows = []
        for window in windows:
            stall, what, moves = _stalls(games, players, window, run_end)
            lost, doubled = _lost_and_doubled(games, window, tmp / "mail.log")
            rows.append(
                Row(
                    SECTION,
                    f"longest stall, {window.name}",
                    stall if moves or stall else None,  # no move in the window: nothing measured
                    "s",
                    baseline_name="goal",
                    baseline=GOAL_SECONDS,
                    goal=("<=", 1.0),
                    note=(
                        f"{window.what}; {moves} moves in {window.end - window.start:.0f} s, "
                        f"longest: {what}; "
                        + "".join(
                            f"serve-production stopped ({why.strip()[-160:]}) and started again; "
                            for why in window.restarts
                        )
                        + "".join(
                            f"serve-production started the {PROCESS_NAMES.get(name, name)} again (it exited "
                            f"with status {status} after {ran} s); "
                            for name, status, ran in window.started_again
                        )
                        + f"{lost} lost, {doubled} doubled, verify_game "
                        f"{'OK' if verified else 'FAILED'} ({GAMES} games); {window.posts_failed} posts "
                        f"refused or cut off (posted again); without a fault: {calm_stall:.1f} s over "
                        f"{calm_moves} moves"
                    ),
                )
            )
        return rows
    finally:
        server.kill()
        redis.stop()


def _drain(games, seconds: float) -> None:
    """Wait (at most `seconds`) until no email of the games is pending and no reply unprocessed."""
    from notifications.models import InboundEmail, Outbox

    until = time.monotonic() + seconds
    while time.monotonic() < until:
        pending = Outbox.objects.filter(
            game__in=games, status=Outbox.Status.PENDING, channel="email"
        ).exists()
        waiting = InboundEmail.objects.filter(status=InboundEmail.Status.RECEIVED).exists()
        if not pending and not waiting:
            return
        time.sleep(0.5)


def main() -> None:
    from bench import environment
    from bench.table import markdown

    env = environment.prepare()
    print(markdown(run(env)))


if __name__ == "__main__":
    main()
