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
- `pace | emails of every kind per seat and round / (real decisions + 1)`: a 4-player game
  played end to end by email through the real worker (`play_by_email`): every seat answers its
  prompt by a reply (a raw message to the prompt's Reply-To, stored by `inbound.receive`, read
  and played by the worker's `process_inbound` task) as soon as the worker has delivered
  everything, one seat at a time, choosing its command as `rules.bot_command` does. The bench
  runs the sweep's acceptance step (`acceptances.release_due`) after each reply; the
  acceptances still held when the measure stops (the last replies, whose next prompt has not
  come yet) are reported apart, not counted as emails. Counted: every outbox row
  SENT to a seat's address, whatever its kind (prompts, answers, news, reminders, notices,
  press, digests, game over); real decisions as `bench.pacing` counts them (a prompt with more
  than one answer), decline-only prompts too (goal: 0). A Season turn that only the seat's
  hidden hand leaves the pass is no email and no decision: the bench plays its delayed pass when
  the seat is chosen, as the sweep would once its drawn time has come
  (`games.play.delayed_passes`). Three tables: the default settings
  (acceptances on, ACCEPTANCE_GRACE), players who turned acceptances off, and the default
  settings at a slow table (grace 0: every acceptance that its reply's own transaction did not
  give a prompt goes alone, as when the others answer after hours).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import make_msgid
from pathlib import Path

from bench.environment import QUEUE
from bench.table import Row

SECTION = "email"
PACE_SECTION = "pace"
EMAILS_PER_DECISION = "emails of every kind per seat and round / (real decisions + 1)"
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
            # The tasks the worker itself enqueues (an answer's delivery) go to the bench's queue.
            env=dict(os.environ, DB_CONN_MAX_AGE=os.environ.get("DB_CONN_MAX_AGE", "60"), CELERY_QUEUE=QUEUE),
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


@dataclass
class MailGame:
    """One game played by email through the worker (`play_by_email`). emails, real,
    decline_only: totals over its seats; rounds: rounds played (the last one possibly
    unfinished); single_option: prompts with one answer (the service asks them when the seat's
    hidden cards decide it); hand_forced: Season turns the seat's hand left only the pass,
    passed later without a prompt; by_kind: emails SENT by outbox kind; folded: acceptances said in a prompt;
    held: acceptances still held when the measure stopped (their seat's next prompt not written
    yet, or their player takes no acceptances); replies: how
    many replies the seats sent."""

    label: str
    seats: int
    rounds: int
    emails: int = 0
    real: int = 0
    decline_only: int = 0
    single_option: int = 0
    hand_forced: int = 0
    replies: int = 0
    folded: int = 0
    held: int = 0
    by_kind: dict = field(default_factory=dict)

    @property
    def per_seat_round(self) -> tuple[float, float]:
        """(emails, real decisions) per seat and round."""
        seat_rounds = self.seats * max(self.rounds, 1)
        return self.emails / seat_rounds, self.real / seat_rounds

    @property
    def ratio(self) -> float:
        """Emails per seat and round / (real decisions per seat and round + 1): the goal is ≤ 1."""
        emails, real = self.per_seat_round
        return emails / (real + 1)


def settle(worker: Worker, *, timeout: float = 120) -> None:
    """Wait until the worker has processed every reply received and sent every email written
    (held acceptances are not waited for: nothing sends them but the sweep's step). The bench
    is the outbox relay meanwhile: it publishes what the commits queued (`inis_pbem.relay`)."""
    from inis_pbem import relay
    from notifications.models import InboundEmail, Outbox

    deadline = time.monotonic() + timeout
    while True:
        relay.publish_all_due()
        if not (
            InboundEmail.objects.filter(status=InboundEmail.Status.RECEIVED).exists()
            or Outbox.objects.filter(status=Outbox.Status.PENDING).exists()
        ):
            return
        if worker.process.poll() is not None:
            raise RuntimeError(f"the bench worker died: {worker.process.stderr.read().decode()[-2000:]}")
        if time.monotonic() > deadline:
            waiting = list(
                InboundEmail.objects.filter(status=InboundEmail.Status.RECEIVED).values_list("pk", flat=True)
            ) + list(
                Outbox.objects.filter(status=Outbox.Status.PENDING).values_list(
                    "kind", "attempts", "last_error"
                )
            )
            raise TimeoutError(f"replies or emails still waiting after {timeout} s: {waiting[:5]}")
        time.sleep(0.01)


def reply_to(prompt, address: str, text: str) -> bytes:
    """A reply to the outbox row `prompt` (a prompt as it was sent) from `address`, as a mail
    client writes it: to its Reply-To, in its thread."""
    message = EmailMessage()
    message["From"] = address
    message["To"] = prompt.headers["Reply-To"]
    message["Subject"] = f"Re: {prompt.subject}"
    message["Message-ID"] = make_msgid("bench-reply", domain="example.org")
    message["In-Reply-To"] = prompt.headers["Message-ID"]
    message["References"] = f"{prompt.headers.get('References', '')} {prompt.headers['Message-ID']}".strip()
    message.set_content(text)
    return message.as_bytes()


def play_by_email(
    worker: Worker,
    seed: str,
    *,
    rounds: int,
    acceptances: bool = True,
    grace_seconds: int | None = None,
    mailbox: str = "pace",
) -> MailGame:
    """Play a 4-player game (the service's default options) by email through `worker` until
    round `rounds` is over (or the game), and count what each seat received (module docstring).

    acceptances: every player's preference; grace_seconds: the sweep step's grace (None:
    ACCEPTANCE_GRACE); mailbox: the players' addresses are `<mailbox>-<n>@example.org` (one
    set per game, so that each game's mail is counted apart). Raises RuntimeError when a seat that must decide has no prompt sent
    for its decision, or the worker refuses a legal reply; TimeoutError when the worker stalls.
    """
    from django.db.models import Count
    from django.utils import timezone

    from bench.pacing import SeatCount, by_seat, count_prompt
    from games import rules, services, store
    from games.play import delayed_passes
    from games.play.models import SeatClock
    from notifications import acceptances as held
    from notifications import inbound, outbox
    from notifications.models import InboundEmail, Outbox
    from players.models import Player

    addresses = [f"{mailbox}-{i}@example.org" for i in range(1, 5)]
    for address in addresses:
        Player.objects.update_or_create(email=address, defaults={"acceptances": acceptances})
    game = services.create_game(seats=[services.SeatSpec(email=a) for a in addresses], seed=seed)
    seats = {s.colour: s for s in game.seats.all()}
    counts = {colour: SeatCount() for colour in seats}
    current: dict[str, list] = {}

    def refresh(state):
        now = by_seat(state)
        for colour in seats:
            mine = now.get(colour)
            if mine and mine != current.get(colour):
                count_prompt(counts[colour], state, colour, mine[0].kind, game.options or {})
        current.clear()
        current.update(now)

    settle(worker)
    state, _seq = store.load(game)
    refresh(state)
    rng = random.Random(f"{seed}/replies")
    replies = 0
    while not rules.is_over(state) and state.round <= rounds:
        colour = rng.choice(sorted(current))
        seat = seats[colour]
        clock = SeatClock.objects.get(seat=seat)
        if clock.pass_at is not None:
            # Hand-forced: no prompt; its drawn time is taken as come, as the sweep would.
            SeatClock.objects.filter(pk=clock.pk).update(pass_at=timezone.now())
            if not delayed_passes.play_delayed_pass(clock.pk, clock.seq):
                raise RuntimeError(f"{colour}'s delayed pass (since event {clock.seq}) was not played")
            settle(worker)
            state, _seq = store.load(game)
            refresh(state)
            continue
        prompt = (
            Outbox.objects.filter(
                seat=seat, kind=Outbox.Kind.PROMPT, status=Outbox.Status.SENT, decision_seq=clock.seq
            )
            .order_by("-pk")
            .first()
        )
        if prompt is None:
            raise RuntimeError(
                f"{colour} must decide (since event {clock.seq}) but no prompt was sent for it"
            )
        command = rules.bot_command(state, colour, rng)
        inbound.receive(reply_to(prompt, seat.email, reply_for(state, colour, command)), source="bench")
        replies += 1
        settle(worker)
        outbox.schedule(held.release_due(grace_seconds=grace_seconds))  # the sweep's step
        settle(worker)
        refused = InboundEmail.objects.exclude(status=InboundEmail.Status.ACCEPTED).filter(game=game)
        first_refused = refused.first()
        if first_refused is not None:
            raise RuntimeError(f"a legal reply was not played: {first_refused.detail}")
        state, _seq = store.load(game)
        refresh(state)
    rows = Outbox.objects.filter(to_email__in=addresses)
    by_kind = dict(
        rows.filter(status=Outbox.Status.SENT).values_list("kind").annotate(n=Count("id")).order_by()
    )
    total = SeatCount()
    for count in counts.values():
        total.add(count)
    return MailGame(
        label="",
        seats=len(seats),
        rounds=min(state.round, rounds),
        emails=sum(by_kind.values()),
        real=total.real,
        decline_only=total.decline_only,
        single_option=total.single_option,
        hand_forced=total.hand_forced,
        replies=replies,
        folded=rows.filter(status=Outbox.Status.FOLDED).count(),
        held=rows.filter(status=Outbox.Status.HELD).count(),
        by_kind=by_kind,
    )


def emails_per_decision(worker: Worker, *, rounds: int) -> list[MailGame]:
    """`play_by_email` in the three settings of the module docstring, the same seed in each (the
    same deal; the replies' choices, drawn from that seed too, diverge once the mail differs)."""
    games: list[MailGame] = []
    for label, options in (
        ("default settings", {}),
        ("acceptances off", {"acceptances": False}),
        ("slow table (grace 0)", {"grace_seconds": 0}),
    ):
        game = play_by_email(worker, "one-email", rounds=rounds, mailbox=f"pace{len(games)}", **options)
        game.label = label
        games.append(game)
    return games


def pace_rows(games: list[MailGame]) -> list[Row]:
    """The rows of `emails_per_decision`: the default settings against the goal (ratio ≤ 1,
    decline-only prompts 0); the two other settings beside it, without a goal."""
    out = []
    for game in games:
        emails, real = game.per_seat_round
        default = game.label == "default settings"
        kinds = ", ".join(
            f"{kind} {n / (game.seats * max(game.rounds, 1)):.2f}" for kind, n in sorted(game.by_kind.items())
        )
        out.append(
            Row(
                PACE_SECTION,
                EMAILS_PER_DECISION + ("" if default else f" ({game.label})"),
                emails,
                "emails",
                "real decisions + 1",
                real + 1,
                goal=("<=", 1.0) if default else None,
                note=f"{game.label}: {game.rounds} rounds by email through the worker, {game.replies} replies; "
                f"per seat and round: {kinds}; acceptances said in a prompt: {game.folded}, "
                f"still held when the measure stopped: {game.held}; prompts with one answer (hidden cards decide it): "
                f"{game.single_option / (game.seats * max(game.rounds, 1)):.2f}, of which decline-only: "
                f"{game.decline_only}; Season turns passed later, unasked (the hand leaves only the pass): "
                f"{game.hand_forced / (game.seats * max(game.rounds, 1)):.2f}",
            )
        )
    by_default = next(g for g in games if g.label == "default settings")
    seat_rounds = by_default.seats * max(by_default.rounds, 1)
    out.append(
        Row(
            PACE_SECTION,
            "decline-only prompts per seat and round (the game by email, default settings)",
            by_default.decline_only / seat_rounds,
            "prompts",
            "real decisions",
            by_default.real / seat_rounds,
            goal=("<=", 0.0),
            note="a prompt whose only answer is to decline",
        )
    )
    return out


def run(*, quick: bool) -> list[Row]:
    games = 100 if quick else 400
    started = time.perf_counter()
    row_ids = pending_prompts(games)
    written = len(row_ids) / (time.perf_counter() - started)
    with Worker() as worker:
        noop = noop_rate(worker, len(row_ids))
        prompts, statuses = delivery_rate(row_ids)
        noop = (noop + noop_rate(worker, len(row_ids))) / 2  # bracket the prompts' run
        by_email = emails_per_decision(worker, rounds=1 if quick else 3)
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
        *pace_rows(by_email),
    ]
