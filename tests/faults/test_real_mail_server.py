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
- Postfix is stopped while the worker sends: the send fails, and once Postfix is back the email
  is delivered, once.

Every message the players receive parses under `email.policy.strict`, none is a bounce, and
none arrives twice.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import smtplib
import tempfile
import uuid
from email.message import EmailMessage
from pathlib import Path

import pytest
from django.db import connection

from games import rules, store
from games.models import Command, Game
from games.services import SeatSpec, create_game, submit_command
from games.store.verification import verify_game
from notifications.models import InboundEmail, Outbox
from tests.faults.mail_server import PLAYERS_DOMAIN, PrivatePostfix, venv_for_nobody
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

        # 3. Postfix stopped while the worker sends: delivered once it is back.
        seat, prompt = wait_until(
            lambda: current_prompt(postfix, game), timeout=60, what="a prompt before stopping Postfix"
        )
        postfix.stop()
        state, seq = store.load(game)
        before = Outbox.objects.order_by("-id").values_list("id", flat=True).first()
        submit_command(
            game=game, seat=seat, command=rules.legal_commands(state, seat.colour)[0], expected_seq=seq
        )
        failed = wait_until(
            lambda: (
                Outbox.objects.filter(id__gt=before, attempts__gte=1, status=Outbox.Status.PENDING)
                .exclude(last_error="")
                .first()
            ),
            timeout=60,
            what="a send refused while Postfix is down",
        )
        postfix.start()
        wait_until(
            lambda: Outbox.objects.get(pk=failed.pk).status == Outbox.Status.SENT,
            timeout=90,
            what="the refused email sent once Postfix is back",
        )
        message_id = Outbox.objects.get(pk=failed.pk).headers["Message-ID"]
        wait_until(
            lambda: any(m["Message-ID"] == message_id for m in postfix.mail_to(failed.to_email)),
            timeout=30,
            what="the refused email in the player's mailbox",
        )

        # Everything the players received: parsed strictly (captured()), no bounce, none twice.
        received = postfix.captured()
        ids = [m["Message-ID"] for m in received]
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
