"""Email rows.

- Prompt emails written and handed to anymail's test backend per second, through a real Celery
  worker (its own process, prefork, consuming the bench's queue on Redis): games are created
  through `services.create_game`, which writes each seat's prompt row into the outbox in the
  creating transaction and enqueues its delivery after the commit; the worker runs
  `notifications.tasks.deliver`, which writes the prompt from the log
  (`notifications.prompts_at_delivery`) and hands it to `anymail.backends.test.EmailBackend`.
  Timed from the first task sent to the last row sent. Baseline: as many no-op tasks
  (`bench.tasks.noop`) sent and run through the same worker in the same run.
- Inbound replies parsed and applied per second: the reply text is the command as the prompt
  words it (`rules.describe_command`), or its option number when the parser reads the words
  differently; the state is loaded, `notifications.command_language.parse_reply` reads the reply
  and `services.submit_command` applies it. Baseline: the same kind of commands submitted
  directly (as the web form does), in a twin game.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

from bench.environment import QUEUE
from bench.table import Row

SECTION = "email"
REPO = Path(__file__).resolve().parent.parent


class Worker:
    """A Celery worker process for the bench's queue, started and stopped by the bench."""

    def __init__(self, concurrency: int = 2):
        self.concurrency = concurrency
        self.process = None

    def __enter__(self):
        import redis
        from django.conf import settings

        from bench.tasks import COUNTER, noop

        self.redis = redis.Redis.from_url(settings.REDIS_URL)
        self.redis.delete(QUEUE, COUNTER)
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "celery",
                "-A",
                "inis_pbem",
                "worker",
                "-Q",
                QUEUE,
                "-I",
                "bench.tasks",
                "-c",
                str(self.concurrency),
                "-l",
                "WARNING",
                "-n",
                f"bench-{os.getpid()}@%h",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
            ],
            # Workers keep their database connection (as README's configuration advises).
            cwd=REPO,
            env=dict(os.environ, DB_CONN_MAX_AGE=os.environ.get("DB_CONN_MAX_AGE", "60")),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
        )
        noop.delay()
        self.wait_counter(1, timeout=60)
        return self

    def wait_counter(self, n: int, *, timeout: float) -> None:
        from bench.tasks import COUNTER

        deadline = time.monotonic() + timeout
        while int(self.redis.get(COUNTER) or 0) < n:
            if self.process.poll() is not None:
                raise RuntimeError(f"the bench worker died: {self.process.stderr.read().decode()[-2000:]}")
            if time.monotonic() > deadline:
                raise TimeoutError(f"the bench worker did not run {n} no-op tasks in {timeout} s")
            time.sleep(0.01)

    def __exit__(self, *exc):
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        self.redis.delete(QUEUE)


def noop_rate(worker: Worker, count: int) -> float:
    """No-op tasks sent and run through the worker per second."""
    from bench.tasks import COUNTER, noop

    start_count = int(worker.redis.get(COUNTER) or 0)
    start = time.perf_counter()
    for _ in range(count):
        noop.delay()
    worker.wait_counter(start_count + count, timeout=120)
    return count / (time.perf_counter() - start)


def pending_prompts(games: int) -> list[int]:
    """Create `games` games; return the ids of the prompt rows their creation wrote.

    Called before the worker starts: the delivery tasks their commits enqueued are dropped with
    the queue when the worker starts, so the rows stay PENDING for `delivery_rate`.
    """
    from bench.players import new_game
    from notifications.models import Outbox

    ids = [new_game(f"mail-{i}").pk for i in range(games)]
    return list(
        Outbox.objects.filter(game_id__in=ids, status=Outbox.Status.PENDING).values_list("pk", flat=True)
    )


def delivery_rate(row_ids: list[int]) -> tuple[float, dict]:
    """(rows sent per second, status counts): a delivery task sent for each row and run by the
    worker, which hands the message to anymail's test backend; timed until none is PENDING."""
    from django.db.models import Count

    from notifications.models import Outbox
    from notifications.tasks import deliver

    rows = Outbox.objects.filter(pk__in=row_ids)
    start = time.perf_counter()
    for row_id in row_ids:
        deliver.delay(row_id)
    deadline = time.monotonic() + 300
    while rows.filter(status=Outbox.Status.PENDING).exists():
        if time.monotonic() > deadline:
            raise TimeoutError("prompt emails still pending after 300 s")
        time.sleep(0.01)
    took = time.perf_counter() - start
    statuses = dict(rows.values_list("status").annotate(n=Count("id")).order_by())
    return statuses.get(Outbox.Status.SENT, 0) / took, statuses


def reply_for(state, seat: str, command: dict) -> str:
    """A reply as a player would write it: the prompt's wording of the command, or its number."""
    from games import rules
    from notifications.command_language import parse_reply

    text = rules.describe_command(state, command)
    try:
        if parse_reply(text, state, seat) == [command]:
            return f"{text}\n\nOn Monday, Inis wrote:\n> the prompt\n"
    except rules.CommandError:
        pass
    return f"{rules.legal_commands(state, seat).index(command) + 1}\n\nThanks!\n"


def inbound_rates(commands: int) -> tuple[float, float, int]:
    """(replies parsed + applied per second, direct submissions per second, replies by number)."""
    from bench.players import new_game, next_move
    from games import store
    from games.services import submit_command
    from notifications.command_language import parse_reply

    by_reply, direct = new_game("inbound-reply"), new_game("inbound-direct")
    numbers = 0
    timed = {"reply": 0.0, "direct": 0.0}
    for game, kind in ((by_reply, "reply"), (direct, "direct")):
        seats = {s.colour: s for s in game.seats.all()}
        rng = random.Random(kind)
        for _ in range(commands):
            start = time.perf_counter()
            state, seq = store.load(game)
            loaded = time.perf_counter() - start
            colour, command = next_move(state, rng)
            if kind == "reply":
                text = reply_for(state, colour, command)
                numbers += text.split("\n", 1)[0].isdigit()
                start = time.perf_counter() - loaded  # the load is part of reading a reply
                parsed = parse_reply(text, state, colour)
                result = submit_command(game=game, seat=seats[colour], command=parsed[0], expected_seq=seq)
            else:
                start = time.perf_counter()
                result = submit_command(game=game, seat=seats[colour], command=command, expected_seq=seq)
            timed[kind] += time.perf_counter() - start
            assert result.accepted, result.message
    return commands / timed["reply"], commands / timed["direct"], numbers


def run(*, quick: bool) -> list[Row]:
    games = 100 if quick else 400
    started = time.perf_counter()
    row_ids = pending_prompts(games)
    written = len(row_ids) / (time.perf_counter() - started)
    with Worker() as worker:
        noop = noop_rate(worker, len(row_ids))
        prompts, statuses = delivery_rate(row_ids)
        noop = (noop + noop_rate(worker, len(row_ids))) / 2  # bracket the prompts' run
    replies, direct, numbers = inbound_rates(30 if quick else 100)
    return [
        Row(
            SECTION,
            "prompt emails written and delivered by the Celery worker to anymail's test backend",
            prompts,
            "tasks/s",
            "no-op Celery task, same worker",
            noop,
            goal=(">=", 1 / 3),
            note=f"{len(row_ids)} prompts {statuses}; their rows written to the outbox by create_game at "
            f"{written:,.0f}/s (set-up and commit included); the worker writes each prompt from "
            f"the log before sending it",
        ),
        Row(
            SECTION,
            "inbound replies loaded + parsed (parse_reply) + applied",
            replies,
            "commands/s",
            "the same commands submitted directly",
            direct,
            note=f"{numbers} of {30 if quick else 100} replies by option number; the "
            "inbound pipeline (webhook, tokens) is not in this figure",
        ),
    ]
