"""Reach rows: what a player with web push on receives, and how soon a push leaves after a move.

Two 4-player games (the service's default options) are played through the real outbox relay
(`manage.py relay_outbox`, woken by the commits' NOTIFY) and a real Celery worker (a solo
pool on the bench's queue: `bench.move_cost.Processes`), with web push on (WEB_PUSH, a VAPID
key pair of the run's own) and every seat's player holding one device subscribed to the
bench's own push service on 127.0.0.1 (`bench.push_service`: it decrypts each push, RFC 8291,
as the device would, and the bench checks that it names the seat it reached). Every seat
answers each decision "from the push": once the worker has posted that decision's push, the
seat plays at once on the page (`services.submit_command` with a form's `web:` command id, as
the game page does), choosing as `rules.bot_command` does, well before the email's delay. A
Season turn that only the hand leaves the pass is played as the sweep would play its delayed
pass (as in `bench.mail`).

- `reach | notifications per seat and decision, push on`: the players keep the default delay
  (`Player.email_after_push`, 30 minutes). Counted: every outbox row SENT to a seat's player,
  whatever its channel (push, chat, email) and kind (prompts, reminders, answers, news,
  digests, notices, press, game over), per seat and round, against the decisions the service
  put to the seats (prompts, counted as `bench.pacing` counts them) per seat and round; goal:
  ratio ≤ 1.05. When the measure stops, the emails still waiting for their delay are made due
  at once: those of decisions answered meanwhile must be dropped (SKIPPED) and are counted if
  sent; those of the decisions still open at the stop (no answer yet, so their email would
  come) are reported apart, not counted. 3 rounds (1 with `--quick`).
- `reach | emails per seat and round, push on`: the same game's emails (of every kind) per seat
  and round; goal: at most 1. Beside it: the decisions per seat and round, what a game without
  push would send at the least.
- `reach | push hand-off after the commit, p95`: a second game whose players take their
  decisions' emails "at once, with the push" (`email_after_push` 0), so that each decision is
  a push and an email written by the same commit and handed off by the same relay and worker:
  from the commit (the bench's clock when `submit_command` returned) to the push's arrival at
  the push service, 95th percentile, against the email's hand-off (from the same commit to the
  row marked SENT once the mail backend, anymail's test backend, took it), 95th percentile;
  goal: the push's at most 2 s. 80 commands (25 with `--quick`).
"""

from __future__ import annotations

import os
import random
import time
import uuid
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from bench.clock import median, percentile
from bench.environment import QUEUE
from bench.pacing import SeatCount
from bench.table import Row

SECTION = "reach"
NOTIFICATIONS = "notifications per seat and decision, push on"
EMAILS = "emails per seat and round, push on"
HAND_OFF = "push hand-off after the commit, p95"
REPO = Path(__file__).resolve().parent.parent
NOTIFICATION_GOAL = 1.05  # the issue's: notifications per seat and decision
EMAIL_GOAL = 1.0  # the issue's: emails per seat and round
HAND_OFF_GOAL = 2.0  # the issue's: seconds from the commit to the push, p95
SETTLE_TIMEOUT = 120  # seconds
PER_SEAT_ROUND = "per seat and round"


@dataclass
class ReachGame:
    """One game played from the push (`play_from_the_push`). seats, rounds: played (the last
    one possibly unfinished); counts: the seats' decisions (`bench.pacing.SeatCount`, summed);
    sent: {(channel, kind): rows SENT to the seats' players}; still_open: emails of decisions
    still open when the measure stopped (not counted); commands: the seats' answers;
    push_seconds, email_seconds: hand-offs after their commit, in seconds; pushes: pushes the
    push service received for the seats' devices."""

    seats: int
    rounds: int = 0
    counts: SeatCount = field(default_factory=SeatCount)
    sent: dict = field(default_factory=dict)
    still_open: int = 0
    dropped: int = 0
    commands: int = 0
    push_seconds: list[float] = field(default_factory=list)
    email_seconds: list[float] = field(default_factory=list)
    pushes: int = 0

    def per_seat_round(self, number: float) -> float:
        return number / (self.seats * max(self.rounds, 1))

    def total(self, channel: str | None = None) -> int:
        """Rows sent, of `channel` only when given."""
        return sum(n for (ch, _kind), n in self.sent.items() if channel in (None, ch))


@contextmanager
def push_on():
    """Web push on for this process (settings) and for the relay and worker started inside the
    block (their environment), with a VAPID key pair of the run's own."""
    from django.test import override_settings

    from bench.push_service import vapid_pair

    private, public = vapid_pair()
    values = {
        "WEB_PUSH": "1",
        "WEB_PUSH_VAPID_PRIVATE_KEY": private,
        "WEB_PUSH_VAPID_PUBLIC_KEY": public,
        "WEB_PUSH_CONTACT": "mailto:bench@example.org",
        # The bench's push service listens on 127.0.0.1, which a real endpoint may never be.
        "LOOPBACK_TARGETS_FOR_TESTS": "1",
    }
    before = {name: os.environ.get(name) for name in values}
    os.environ.update(values)
    try:
        with override_settings(**{**values, "WEB_PUSH": True, "LOOPBACK_TARGETS_FOR_TESTS": True}):
            yield
    finally:
        for name, value in before.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def settle(processes, game, *, timeout: float = SETTLE_TIMEOUT) -> None:
    """Wait until the relay and the worker have handed off every row of `game` that is due (the
    emails waiting for their delay are not due). Raises RuntimeError when a process died,
    TimeoutError after `timeout` seconds."""
    from django.db.models import Q
    from django.utils import timezone

    from notifications.models import Outbox

    deadline = time.monotonic() + timeout
    while True:
        due = Outbox.objects.filter(game=game, status=Outbox.Status.PENDING).filter(
            Q(not_before__isnull=True) | Q(not_before__lte=timezone.now())
        )
        if not due.exists():
            return
        for process in (processes.relay, processes.worker):
            if process.poll() is not None:
                raise RuntimeError(f"the bench's relay or worker stopped (exit {process.returncode})")
        if time.monotonic() > deadline:
            waiting = list(due.values_list("channel", "kind", "attempts", "last_error")[:5])
            raise TimeoutError(f"rows still due after {timeout} s: {waiting}")
        time.sleep(0.005)


class Table:
    """The 4 seats of a game played from the push: their players, each with one device of the
    push service `service`, taking a decision's email after `email_after_push` seconds."""

    def __init__(self, service, mailbox: str, *, email_after_push: int, seed: str):
        from games import services
        from players.models import Player, PushSubscription

        self.service = service
        self.addresses = [f"{mailbox}-{i}@example.org" for i in range(1, 5)]
        self.devices = {}
        for address in self.addresses:
            player, _new = Player.objects.update_or_create(
                email=address, defaults={"email_after_push": email_after_push}
            )
            device = service.device()
            PushSubscription.objects.create(
                player=player, endpoint=device.endpoint, **device.keys, device="bench"
            )
            self.devices[address] = device
        self.game = services.create_game(
            seats=[services.SeatSpec(email=a) for a in self.addresses], seed=seed
        )
        self.committed = time.time()
        self.seats = {s.colour: s for s in self.game.seats.all()}
        self.seen = 0  # pushes of the service already read
        self.last_row = 0  # the last outbox row already timed

    def read_pushes(self, into: ReachGame) -> None:
        """Time the pushes and emails handed off since the last commit (`self.committed`), and
        check each push: it decrypts with its device's keys and names that device's seat.
        Raises RuntimeError for a push that does not."""
        from notifications.models import Outbox

        by_endpoint = {d.endpoint: (a, d) for a, d in self.devices.items()}
        colour_of = {seat.email: colour for colour, seat in self.seats.items()}
        for push in self.service.pushes[self.seen :]:
            found = by_endpoint.get(self.service.base + push.path)
            if found is None:  # another game's device
                continue
            address, device = found
            note = device.decrypt(push.body)
            if note.get("tag") != f"inis-{self.game.pk}-{colour_of[address]}":
                raise RuntimeError(f"a push to {address} names another seat: {note.get('tag')}")
            into.push_seconds.append(push.at - self.committed)
            into.pushes += 1
        self.seen = len(self.service.pushes)
        emails = Outbox.objects.filter(
            game=self.game, pk__gt=self.last_row, channel=Outbox.Channel.EMAIL, sent_at__isnull=False
        )
        into.email_seconds += [
            sent.timestamp() - self.committed
            for sent in emails.values_list("sent_at", flat=True)
            if sent is not None
        ]
        self.last_row = (
            Outbox.objects.filter(game=self.game).order_by("-pk").values_list("pk", flat=True).first() or 0
        )

    def pushed(self, colour: str, decision_seq: int) -> bool:
        """Whether the seat's push for its decision `decision_seq` reached its device."""
        from notifications.models import Outbox

        return Outbox.objects.filter(
            seat=self.seats[colour],
            channel=Outbox.Channel.WEB_PUSH,
            kind=Outbox.Kind.PROMPT,
            decision_seq=decision_seq,
            status=Outbox.Status.SENT,
        ).exists()


def answer(table: Table, state, seq: int, colour: str, rng: random.Random) -> None:
    """The seat `colour` answers its decision from the push: on the page, at once. Raises
    RuntimeError when no push came for the decision or the service refuses a legal command."""
    from django.utils import timezone

    from games import rules, services
    from games.play import delayed_passes
    from games.play.models import SeatClock

    clock = SeatClock.objects.get(seat=table.seats[colour])
    if clock.seq is None:
        raise RuntimeError(f"{colour} was chosen to answer but has no decision")
    if clock.pass_at is not None:
        # Hand-forced: no push; its drawn time is taken as come, as the sweep would.
        SeatClock.objects.filter(pk=clock.pk).update(pass_at=timezone.now())
        if not delayed_passes.play_delayed_pass(clock.pk, clock.seq):
            raise RuntimeError(f"{colour}'s delayed pass (since event {clock.seq}) was not played")
        table.committed = time.time()
        return
    if not table.pushed(colour, clock.seq):
        raise RuntimeError(f"{colour} must decide (since event {clock.seq}) but no push reached its device")
    result = services.submit_command(
        game=table.game,
        seat=table.seats[colour],
        command=dict(rules.bot_command(state, colour, rng)),
        expected_seq=seq,
        command_id=f"web:{uuid.uuid4().hex}",
    )
    table.committed = time.time()
    if not result.accepted:
        raise RuntimeError(f"a legal answer was refused: {result.message}")


def play_from_the_push(processes, table: Table, *, rounds: int, commands: int | None = None) -> ReachGame:
    """Play `table`'s game from the push until round `rounds` is over (or the game, or
    `commands` answers) and count what its seats' players received (module docstring)."""
    from bench.pacing import by_seat, count_prompt
    from games import rules, store

    played = ReachGame(seats=len(table.seats))
    current: dict[str, list] = {}

    def refresh(state):
        now = by_seat(state)
        for colour in table.seats:
            mine = now.get(colour)
            if mine and mine != current.get(colour):
                count_prompt(played.counts, state, colour, mine[0].kind, table.game.options or {})
        current.clear()
        current.update(now)

    settle(processes, table.game)
    table.read_pushes(played)
    state, seq = store.load(table.game)
    refresh(state)
    rng = random.Random(f"{table.game.seed}/answers")
    while (
        not rules.is_over(state)
        and state.round <= rounds
        and (commands is None or played.commands < commands)
    ):
        answer(table, state, seq, rng.choice(sorted(current)), rng)
        played.commands += 1
        settle(processes, table.game)
        table.read_pushes(played)
        state, seq = store.load(table.game)
        refresh(state)
    played.rounds = min(state.round, rounds)
    return played


def stop_and_count(processes, table: Table, played: ReachGame) -> None:
    """The measure stops: the emails still waiting for their delay are made due at once, but
    those of decisions still open (`played.still_open`); once handed off, count what was SENT to
    the seats' players by channel and kind (`played.sent`)."""
    from django.db.models import Count
    from django.utils import timezone

    from games.play.models import SeatClock
    from notifications.models import Outbox

    open_now = {(c.seat_id, c.seq) for c in SeatClock.objects.filter(seat__game=table.game)}
    waiting = Outbox.objects.filter(game=table.game, status=Outbox.Status.PENDING, not_before__isnull=False)
    still_open = [row.pk for row in waiting if (row.seat_id, row.decision_seq) in open_now]
    now = timezone.now()
    waiting.exclude(pk__in=still_open).update(not_before=now, queued_at=now)
    settle(processes, table.game)
    played.still_open = len(still_open)
    played.dropped = Outbox.objects.filter(
        game=table.game, channel=Outbox.Channel.EMAIL, status=Outbox.Status.SKIPPED
    ).count()
    rows = Outbox.objects.filter(to_email__in=table.addresses, status=Outbox.Status.SENT)
    played.sent = {
        (channel, kind): n
        for channel, kind, n in rows.values_list("channel", "kind").annotate(n=Count("id")).order_by()
    }


def measure(*, quick: bool) -> tuple[ReachGame, ReachGame]:
    """(the game with the default delay, the game with emails at once), each played from the
    push through the relay and the worker."""
    from bench.move_cost import Processes
    from bench.push_service import PushService

    service = PushService().start()
    try:
        with push_on(), Processes(str(REPO), QUEUE) as processes:
            table = Table(service, "reach", email_after_push=1800, seed="reach")
            counted = play_from_the_push(processes, table, rounds=1 if quick else 3)
            stop_and_count(processes, table, counted)
            table = Table(service, "reach-at-once", email_after_push=0, seed="reach-at-once")
            timed = play_from_the_push(processes, table, rounds=99, commands=25 if quick else 80)
    finally:
        service.stop()
    return counted, timed


def rows(counted: ReachGame, timed: ReachGame) -> list[Row]:
    """The three rows of the module docstring."""
    decisions = counted.per_seat_round(counted.counts.prompts)
    kinds = ", ".join(
        f"{channel} {kind} {counted.per_seat_round(n):.2f}"
        for (channel, kind), n in sorted(counted.sent.items())
    )
    played = (
        f"{counted.rounds} rounds through the relay and the worker, {counted.commands} answers from the "
        f"push (of which {counted.counts.hand_forced} Season passes the hand forced, played later unasked: "
        f"no push); {counted.pushes} pushes decrypted, each naming its seat; sent per seat and round: {kinds}; emails dropped "
        f"after their delay as answered: {counted.dropped}; emails of decisions still open at the "
        f"stop (not counted): {counted.still_open}"
    )
    push_p95, email_p95 = percentile(timed.push_seconds, 95), percentile(timed.email_seconds, 95)
    return [
        Row(
            SECTION,
            NOTIFICATIONS,
            counted.per_seat_round(counted.total()),
            PER_SEAT_ROUND,
            "decisions put to the seats",
            decisions,
            goal=("<=", NOTIFICATION_GOAL),
            note=f"push, chat and email of every kind, per seat and round; {played}",
        ),
        Row(
            SECTION,
            EMAILS,
            counted.per_seat_round(counted.total("email")),
            PER_SEAT_ROUND,
            "decisions put to the seats",
            decisions,
            goal=("<=", EMAIL_GOAL),
            goal_on="value",
            note=f"every kind, per seat and round, the same game (default delay: 30 minutes); {played}",
        ),
        Row(
            SECTION,
            HAND_OFF,
            push_p95,
            "s",
            "an email's hand-off after the same commits, p95",
            email_p95,
            goal=("<=", HAND_OFF_GOAL),
            goal_on="value",
            note=f"{timed.commands} answers from the push, emails at once with the push; "
            f"{len(timed.push_seconds)} pushes (median {median(timed.push_seconds):.3f} s), "
            f"{len(timed.email_seconds)} emails (median {median(timed.email_seconds):.3f} s); in the "
            f"game above (emails after 30 minutes), the pushes' p95: {percentile(counted.push_seconds, 95):.3f} s",
        ),
    ]


def run(*, quick: bool) -> list[Row]:
    return rows(*measure(quick=quick))
