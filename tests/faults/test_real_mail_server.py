"""The whole mail loop through a real mail server, set up as docs/operations.md says.

A Postfix of the test's own on loopback (tests/faults/mail_server.py) with the guide's main.cf,
transport and master.cf lines, its wrapper and its env file (the variant "without a mail
provider", with this run's database, Redis and Postfix port); the production processes
(`scripts/serve-production`: gunicorn, a Celery worker and beat) send every email by SMTP to
that Postfix, which delivers it to the players' mailboxes (a pipe keeping each message). Two
players and two bots:

- a player replies to the prompt by SMTP: Postfix pipes the reply through the wrapper to
  `receive_email`, the move is played, and the answer and the next prompts come back by SMTP;
- Redis is stopped, then a player replies: the move is played once, Postfix delivers the reply
  once and bounces nothing; once Redis is back, the sweep sends the answer;
- Postfix is stopped until a prompt's send has failed for good (its task's tries spent: the
  row is *failed*); once Postfix is back, the sweep sends it again and it arrives;
- the same with the failed prompt older than OUTBOX_RETRY_DAYS: the sweep leaves it, and the
  operator's admin action ("Send the selected failed messages again") sends it;
- the worker's pool is killed (`kill -9`) while it hands an email to Postfix (Postfix's processes
  stopped meanwhile): the email is sent again after OUTBOX_HAND_OFF_WAIT and arrives at least
  once and, as docs/operations.md says for SMTP, at most twice with the same Message-ID.

The processes run with short delays from the environment (the sweep every 5 s, a failed email
tried again after 1 s then 2 s, a hand-off waited for 3 s), so that the whole runs in minutes.
Every message the players receive parses under `email.policy.strict`, none is a bounce, and
none but that email arrives twice.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import smtplib
import tempfile
import uuid
from datetime import timedelta
from email.message import EmailMessage
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games import rules, store
from games.models import Command, Game
from games.services import SeatSpec, create_game, submit_command
from games.store.verification import verify_game
from notifications.models import InboundEmail, Outbox
from tests.faults.mail_server import PLAYERS_DOMAIN, PrivatePostfix, settle, venv_for_nobody
from tests.faults.processes import wait_until
from tests.faults.test_serve_production import VENV, Production, humans_to_decide
from tests.live_server import CONFIG_PREFIXES, SAFE_ENV
from tests.operations_guide import (
    block_after,
    copy_checkout,
    env_file_without_provider,
    systemd_environment_file,
)

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,  # Postfix, gunicorn, a Celery worker and beat, and a game played through them
]

PLAYERS = [f"mta{i}@{PLAYERS_DOMAIN}" for i in (1, 2)]


@pytest.fixture
def mail_server_dir():
    """A directory the pipe's unprivileged user can read (pytest's own are root's alone)."""
    if shutil.which("postfix") is None:
        pytest.fail("Postfix is not installed: .ci/run installs it (apt-get install postfix)")
    assert os.geteuid() == 0, "a Postfix instance is started as root"
    directory = Path(tempfile.mkdtemp(prefix="inis-mta-", dir="/tmp"))
    directory.chmod(0o755)
    yield directory
    shutil.rmtree(directory, ignore_errors=True)


def write_wrapper(directory: Path, *, env_path: Path, app: Path, venv: Path) -> Path:
    """The guide's /srv/inis/receive-email, for this run's places."""
    text = block_after("`/srv/inis/receive-email`, mode 755")
    wrapper = directory / "receive-email"
    wrapper.write_text(
        text.replace("/etc/inis.env", str(env_path))
        .replace("/srv/inis/app", str(app))
        .replace("/srv/inis/venv", str(venv))
    )
    wrapper.chmod(0o755)
    return wrapper


def current_prompt(postfix: PrivatePostfix, game: Game):
    """(seat, the prompt message the player received for the seat's current decision), once a
    player seat alone must decide and Postfix delivered its prompt; else None."""
    found = humans_to_decide(game)
    if found is None:
        return None
    seat = game.seats.get(colour=found[2])
    row = Outbox.objects.filter(seat=seat, kind=Outbox.Kind.PROMPT).order_by("-id").first()
    if row is None or row.status != Outbox.Status.SENT:
        return None
    delivered = [m for m in postfix.mail_to(seat.email) if m["Message-ID"] == row.headers["Message-ID"]]
    return (seat, delivered[0]) if delivered else None


def reply_by_smtp(postfix: PrivatePostfix, seat, prompt, text: str) -> str:
    """The player's reply `text` to `prompt`, sent to Postfix as their mail server would; its
    idempotency key (Message-ID without <>)."""
    reply = EmailMessage()
    reply["From"], reply["To"] = seat.email, str(prompt["Reply-To"])
    reply["Subject"] = f"Re: {prompt['Subject']}"
    key = f"mta-{uuid.uuid4().hex}@{PLAYERS_DOMAIN}"
    reply["Message-ID"] = f"<{key}>"
    reply["In-Reply-To"] = str(prompt["Message-ID"])
    reply.set_content(f"{text}\n")
    with smtplib.SMTP("127.0.0.1", postfix.port, timeout=20) as client:
        client.send_message(reply, from_addr=seat.email, to_addrs=[str(prompt["Reply-To"])])
    return key


def accepted(key: str) -> bool:
    row = InboundEmail.objects.filter(message_key=key).first()
    assert row is None or row.status in (InboundEmail.Status.RECEIVED, InboundEmail.Status.ACCEPTED), (
        row.detail
    )
    return row is not None and row.status == InboundEmail.Status.ACCEPTED


def answered(postfix: PrivatePostfix, seat, key: str) -> bool:
    return any(str(m["In-Reply-To"]) == f"<{key}>" for m in postfix.mail_to(seat.email))


def handed_after(before: int) -> Outbox | None:
    """An email written after the row `before`, handed to the mail server and not yet sent."""
    return Outbox.objects.filter(id__gt=before, status=Outbox.Status.PENDING, handed_at__isnull=False).first()


def sent(row: Outbox) -> bool:
    return Outbox.objects.get(pk=row.pk).status == Outbox.Status.SENT


def in_mailbox(postfix: PrivatePostfix, row: Outbox) -> int:
    """How many copies of the email `row` reached its player's mailbox."""
    return sum(1 for m in postfix.mail_to(row.to_email) if m["Message-ID"] == row.headers["Message-ID"])


def fail_a_prompt(game: Game, seat) -> Outbox:
    """With Postfix stopped: the seat's first legal move, then the first prompt this writes once
    it is FAILED (its deliver task's tries spent, OUTBOX_RETRY_FIRST_DELAY 1 s apart, then 2 s)."""
    state, seq = store.load(game)
    before = Outbox.objects.order_by("-id").values_list("id", flat=True).first()
    command = dict(rules.legal_commands(state, seat.colour)[0])
    submit_command(game=game, seat=seat, command=command, expected_seq=seq)
    return wait_until(
        lambda: (
            Outbox.objects.filter(id__gt=before, kind=Outbox.Kind.PROMPT, status=Outbox.Status.FAILED)
            .exclude(last_error="")
            .first()
        ),
        timeout=90,
        what="a prompt failed while Postfix is down",
    )


def test_replies_and_prompts_go_through_postfix_and_survive_redis_and_postfix_stopping(
    mail_server_dir, own_redis, broker_at, settings, tmp_path
):
    directory = mail_server_dir
    app = copy_checkout(directory / "app")
    venv = venv_for_nobody(directory / "venv")
    env_path = directory / "inis.env"
    wrapper = directory / "receive-email"
    postfix = PrivatePostfix(directory / "postfix", wrapper=wrapper)
    write_wrapper(directory, env_path=env_path, app=app, venv=venv)

    queue = f"mta-{uuid.uuid4().hex[:8]}"
    db = connection.settings_dict
    this_run = {
        "SECRET_KEY": SAFE_ENV["SECRET_KEY"],
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        "REDIS_URL": own_redis.url,
        "CELERY_QUEUE": queue,
        "EMAIL_PORT": str(postfix.port),
        # The sweep, every 5 s here (not every minute), sends what could not be queued after 5 s
        # (not 5 minutes).
        "SWEEP_EVERY": "5",
        "OUTBOX_RESEND_AFTER": "5",
        # An acceptance that no prompt of its seat carries goes alone after 5 s (one email per
        # decision, docs/email-commands.md): at the sweep's next run.
        "ACCEPTANCE_GRACE": "5",
        # A failed email tried again after 1 s, then 2 s (not 30 s doubling to 10 minutes): its
        # task's tries spent, it is failed about 10 s after its first failure.
        "OUTBOX_RETRY_FIRST_DELAY": "1",
        "OUTBOX_RETRY_MAX_DELAY": "2",
        # An email handed over by a killed worker is sent again after 3 s (not 10 minutes).
        "OUTBOX_HAND_OFF_WAIT": "3",
    }
    text = env_file_without_provider()
    assert "EMAIL_HOST=127.0.0.1" in text
    env_path.write_text(text + "".join(f"{k}={v}\n" for k, v in this_run.items()))
    env_path.chmod(0o644)

    # The production processes read the same file, as systemd's EnvironmentFile= reads it.
    base = {k: v for k, v in os.environ.items() if not k.startswith(CONFIG_PREFIXES)}
    server = Production(
        tmp_path,
        {
            **base,
            **systemd_environment_file(env_path.read_text())[0],
            "VENV": str(VENV),
            "BEAT_SCHEDULE": str(tmp_path / "beat" / "schedule"),
            "WEB_CONCURRENCY": "1",
            "WORKER_CONCURRENCY": "1",
        },
    )
    broker_at(own_redis.url, queue)  # this process's commands queue their tasks for that worker
    settings.SECRET_KEY = SAFE_ENV["SECRET_KEY"]
    try:
        postfix.start()
        server.start()
        wait_until(server.serving, timeout=60, what="gunicorn to listen", interval=0.2)
        game = create_game(
            seats=[SeatSpec(email=PLAYERS[0]), SeatSpec(email=PLAYERS[1])] + [SeatSpec(is_bot=True)] * 2,
            seed="through postfix",
        )

        # 1. A reply by SMTP, piped by Postfix to receive_email; the answer comes back by SMTP.
        seat, prompt = wait_until(
            lambda: current_prompt(postfix, game), timeout=60, what="the first prompt through Postfix"
        )
        key = reply_by_smtp(postfix, seat, prompt, "1")
        wait_until(lambda: accepted(key), timeout=60, what="the reply played through the pipe")
        wait_until(lambda: answered(postfix, seat, key), timeout=90, what="the answer through Postfix")

        # 2. Redis stopped, then a reply: played once, delivered once, not bounced.
        seat, prompt = wait_until(
            lambda: current_prompt(postfix, game), timeout=60, what="the next prompt through Postfix"
        )
        own_redis.stop()
        key = reply_by_smtp(postfix, seat, prompt, "1")
        wait_until(lambda: accepted(key), timeout=60, what="the reply played with Redis down")
        assert Command.objects.filter(game=game, command_id__startswith=f"email:{key}:").count() == 1
        own_redis.start()  # the same port, empty: the sweep queues what waits
        wait_until(
            lambda: answered(postfix, seat, key), timeout=150, what="the answer sent by the sweep after Redis"
        )

        # 3. Postfix down long enough for a prompt to fail (its task's tries spent): once Postfix
        # is back, the sweep sends it again, and it arrives.
        seat, prompt = wait_until(
            lambda: current_prompt(postfix, game), timeout=60, what="a prompt before stopping Postfix"
        )
        postfix.stop()
        failed = fail_a_prompt(game, seat)
        postfix.start()
        wait_until(lambda: sent(failed), timeout=60, what="the failed prompt sent again by the sweep")
        wait_until(lambda: in_mailbox(postfix, failed), timeout=30, what="the failed prompt in the mailbox")

        # 4. A prompt failed for longer than OUTBOX_RETRY_DAYS: the sweep leaves it to the
        # operator, whose admin action ("Send the selected failed messages again") sends it.
        seat, prompt = wait_until(lambda: current_prompt(postfix, game), timeout=60, what="the next prompt")
        postfix.stop()
        failed = fail_a_prompt(game, seat)
        Outbox.objects.filter(pk=failed.pk).update(created_at=timezone.now() - timedelta(days=4))
        wait_until(
            lambda: Outbox.objects.get(pk=failed.pk).status == Outbox.Status.FAILED,
            timeout=60,
            what="the old prompt failed again (a retry the sweep started before it was old)",
        )
        postfix.start()
        settle(12)  # two sweeps
        assert Outbox.objects.get(pk=failed.pk).status == Outbox.Status.FAILED
        operator = Client()
        operator.force_login(get_user_model().objects.create_superuser("operator", "op@example.org", "x"))
        answer = operator.post(
            reverse("admin:notifications_outbox_changelist"),
            {"action": "send_again", "_selected_action": [failed.pk]},
        )
        assert answer.status_code == 302, answer.content[:2000]
        wait_until(lambda: sent(failed), timeout=60, what="the failed prompt sent by the admin action")
        wait_until(lambda: in_mailbox(postfix, failed), timeout=30, what="the re-sent prompt in the mailbox")

        # 5. The worker's pool killed while it hands an email to Postfix (Postfix's processes
        # stopped: the worker waits for its greeting): the email is sent again after
        # OUTBOX_HAND_OFF_WAIT, nothing is lost, and, as docs/operations.md says for SMTP, the
        # same Message-ID arrives at most twice.
        postfix.pause()
        before = Outbox.objects.order_by("-id").values_list("id", flat=True).first()
        handing = None
        for _move in range(4):  # until a move writes an email (one may leave a decision open)
            seat, _prompt = wait_until(lambda: current_prompt(postfix, game), timeout=90, what="a decision")
            state, seq = store.load(game)
            command = dict(rules.legal_commands(state, seat.colour)[0])
            submit_command(game=game, seat=seat, command=command, expected_seq=seq)
            found = wait_until(
                lambda: handed_after(before) or (current_prompt(postfix, game) and "another decision"),
                timeout=120,  # the answer, or the next prompt after the bots' take-back grace
                what="an email being handed to Postfix, or another decision",
            )
            if isinstance(found, Outbox):
                handing = found
                break
        assert handing is not None, "four moves wrote no email"
        assert server.kill_children_of(f"-Q {queue} ") >= 1
        postfix.pause(False)
        wait_until(lambda: sent(handing), timeout=60, what="the email sent after the worker's kill")
        wait_until(lambda: in_mailbox(postfix, handing), timeout=30, what="that email in the mailbox")
        settle(3)
        assert 1 <= in_mailbox(postfix, handing) <= 2
        handed_twice = {handing.headers["Message-ID"]}

        # Everything the players received: parsed strictly (captured()), no bounce, none twice.
        received = postfix.captured()
        ids = [m["Message-ID"] for m in received if m["Message-ID"] not in handed_twice]
        assert len(ids) == len(set(ids)), "a message arrived twice"
        assert not [m["Subject"] for m in received if "Undelivered" in str(m["Subject"])]
        log = postfix.log()
        assert "status=bounced" not in log, log[-3000:]
        # Each reply went through the pipe once, at the first try: receive_email exited 0 (a 75
        # would show as "deferred", anything else as "bounced").
        piped = re.findall(r"relay=inis, .*status=(\w+)", log)
        assert piped == ["sent"] * 2, piped
        assert verify_game(game).ok
        assert server.process.poll() is None, server.output()
        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=45) == 0, server.output()
    finally:
        server.kill()
        postfix.stop()
