"""`manage.py receive_email` never bounces a message that arrived because of our own failure.

A mail server's pipe reads the exit status: 0 handled, 75 (EX_TEMPFAIL) keep it and try again
later; anything else (1 with a traceback) bounces the player's reply. Whatever fails once the
message is read gives 75, with the message kept (in its stored row, or in the mail server's queue
when it could not be stored), and the next delivery of the same message plays it. When only the
task queue (Redis) is down, the reply is played and answered in the outbox: exit 0, one warning
line, and the mail server's next try of the same message changes nothing.
"""

from __future__ import annotations

import io
import logging
import os
import subprocess
import sys
import uuid
from email.message import EmailMessage

import pytest
from django.core.management import call_command
from django.db import connection

from games import rules, store
from games.models import Command
from games.services import SeatSpec, create_game
from notifications import inbound, outbox
from notifications.models import InboundEmail, Outbox
from tests.faults.processes import free_port
from tests.live_server import CONFIG_PREFIXES, ROOT, SAFE_ENV
from tests.notifications import mail_clients

pytestmark = pytest.mark.django_db(transaction=True)

RAW = mail_clients.plain(
    sender="player1@example.org", to="Inis <inis@localhost>", subject="Hello", words="Is this the game?"
)


def pipe(raw: bytes) -> tuple[int, str, str]:
    """(exit status, stdout, stderr) of `receive_email` fed `raw` as the pipe would."""
    out, err = io.StringIO(), io.StringIO()
    try:
        call_command("receive_email", stdin=io.BytesIO(raw), stdout=out, stderr=err)
    except SystemExit as leaving:
        return leaving.code, out.getvalue(), err.getvalue()
    return 0, out.getvalue(), err.getvalue()


def test_a_failure_while_storing_the_message_asks_the_mail_server_to_retry(monkeypatch):
    def broken_parser(*args, **kwargs):
        raise RuntimeError("parser fault")

    monkeypatch.setattr(inbound, "receive", broken_parser)
    status, _out, err = pipe(RAW)
    assert status == 75
    assert "Traceback" not in err and "try again" in err
    assert not InboundEmail.objects.exists()  # kept by the mail server, which delivers it again

    monkeypatch.undo()
    assert pipe(RAW)[0] == 0
    assert InboundEmail.objects.get().status == InboundEmail.Status.NO_TOKEN


def test_a_failure_after_storing_keeps_the_message_and_the_next_delivery_handles_it(monkeypatch):
    process = inbound.process

    def lost_connection(inbound_id):
        raise ConnectionError("database went away")

    monkeypatch.setattr(inbound, "process", lost_connection)
    status, _out, err = pipe(RAW)
    assert status == 75 and "Traceback" not in err
    row = InboundEmail.objects.get()
    assert row.status == InboundEmail.Status.RECEIVED and bytes(row.raw) == RAW  # kept

    monkeypatch.setattr(inbound, "process", process)
    status, out, _err = pipe(RAW)  # the mail server's next try
    assert status == 0 and out.strip() == "no_token"
    assert InboundEmail.objects.get().status == InboundEmail.Status.NO_TOKEN


@pytest.mark.postgres
def test_the_database_dropping_its_connections_costs_the_reply_a_second_not_a_retry_later():
    """The operator restarts PostgreSQL (or it terminates the connections) as a reply arrives:
    the command opens a fresh connection and handles the message at once, instead of answering
    75 and leaving it to the mail server's next try, minutes later."""
    import psycopg

    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    dsn = connection.get_connection_params()
    with psycopg.connect(
        **{k: v for k, v in dsn.items() if k in ("host", "port", "user", "password", "dbname")}
    ) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])
    status, out, err = pipe(RAW)
    assert (status, out.strip()) == (0, "no_token"), err
    assert InboundEmail.objects.get().status == InboundEmail.Status.NO_TOKEN


def test_a_database_out_for_good_is_waited_for_about_30_s_then_the_message_is_kept(monkeypatch):
    from django.db import OperationalError

    from notifications import database_outage

    class Clock:
        now = 0.0
        pauses: list[float] = []

        @classmethod
        def monotonic(cls) -> float:
            return cls.now

        @classmethod
        def sleep(cls, seconds: float) -> None:
            cls.pauses.append(seconds)
            cls.now += seconds

    def database_down(*args, **kwargs):
        raise OperationalError("connection to server at 127.0.0.1 port 5432 failed: Connection refused")

    monkeypatch.setattr(database_outage, "time", Clock)
    monkeypatch.setattr(inbound, "receive", database_down)
    status, _out, err = pipe(RAW)
    assert status == 75 and "Traceback" not in err and "try again later" in err
    assert Clock.pauses[0] <= 1 and 20 <= sum(Clock.pauses) <= 30, Clock.pauses
    assert max(Clock.pauses) <= 5  # short pauses: the database is used as soon as it is back


def test_settings_the_checks_refuse_are_a_failure_of_ours_not_a_bounce():
    """docs/management-commands.md: "A message is never bounced because of our own failure".
    The guide's env file with a placeholder left in (the production checks refuse it), or a
    setting that cannot be read: 75 and one line, never Django's report or a traceback."""
    base = {k: v for k, v in os.environ.items() if not k.startswith(CONFIG_PREFIXES)}

    def pipe_as_the_mail_server(**settings: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "manage.py", "receive_email"],
            cwd=ROOT,
            env={**base, **SAFE_ENV, **settings},
            input=RAW,
            capture_output=True,
            timeout=120,
        )

    placeholder = {"ANYMAIL_WEBHOOK_SECRET": "inbound:A-LONG-RANDOM-PASSWORD"}  # inis_pbem.E007
    for settings in (placeholder, {"RELAY_POLL": "two"}):
        done = pipe_as_the_mail_server(**settings)
        err = done.stderr.decode()
        assert done.returncode == 75, (settings, err)
        assert "Traceback" not in err and "try again later" in err, (settings, err)
        assert err.count("try again later") == 1 and len(err.strip().splitlines()) <= 2, err


def test_a_failure_in_the_outcome_line_is_not_a_bounce(monkeypatch):
    monkeypatch.setattr(InboundEmail, "refresh_from_db", lambda self, *a, **k: 1 / 0)
    status, _out, err = pipe(RAW)
    assert status == 75 and "Traceback" not in err
    assert InboundEmail.objects.get().status == InboundEmail.Status.NO_TOKEN  # handled and answered


def test_a_failure_is_logged_on_one_line_without_traceback(monkeypatch):
    def broken_parser(*args, **kwargs):
        raise RuntimeError("parser fault")

    # A handler as the settings' console handler is (standard error, tracebacks by default).
    written = io.StringIO()
    handler = logging.StreamHandler(written)
    logging.getLogger().addHandler(handler)
    try:
        monkeypatch.setattr(inbound, "receive", broken_parser)
        assert pipe(RAW)[0] == 75
    finally:
        logging.getLogger().removeHandler(handler)
    logged = written.getvalue()
    assert "Traceback" not in logged
    assert logged.splitlines() == [
        "the message could not be handled now; it is kept [RuntimeError: parser fault]"
    ], logged
    assert handler.formatter is None  # the handler's own format is back after the run


def _reply_to_the_first_prompt(game) -> tuple:
    """(seat, raw reply choosing the first option, its Reply-To) for the seat deciding first."""
    state, _seq = store.load(game)
    seat = game.seats.get(colour=rules.pending(state)[0].seat)
    prompt = outbox.written(Outbox.objects.filter(seat=seat, kind=Outbox.Kind.PROMPT).order_by("-id")[0])
    reply = EmailMessage()
    reply["From"], reply["To"] = seat.email, prompt.headers["Reply-To"]
    reply["Subject"] = f"Re: {prompt.subject}"
    reply["Message-ID"] = f"<redis-down-{uuid.uuid4().hex}@mail.example.org>"
    reply["In-Reply-To"] = prompt.headers["Message-ID"]
    reply.set_content("1\n")
    return seat, reply.as_bytes(), prompt.headers["Reply-To"]


@pytest.mark.postgres
@pytest.mark.slow  # starts manage.py as the mail server does
def test_with_redis_unreachable_the_reply_is_played_once_exit_0_and_one_warning_line(settings):
    settings.SECRET_KEY = SAFE_ENV["SECRET_KEY"]  # the reply token is checked with the deployment's key
    game = create_game(
        seats=[SeatSpec(email=f"redis-down{i}@example.org") for i in range(1, 5)],
        seed="redis down",
        play_bots=False,
    )
    seat, raw, reply_to = _reply_to_the_first_prompt(game)
    db = connection.settings_dict
    env = {k: v for k, v in os.environ.items() if not k.startswith(CONFIG_PREFIXES)}
    env.update(
        SAFE_ENV,
        DATABASE_URL=f"postgres://{db['USER']}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        REDIS_URL=f"redis://127.0.0.1:{free_port()}/0",  # nothing listens there
    )

    def pipe_as_the_mail_server() -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "manage.py", "receive_email", "--envelope-to", reply_to],
            cwd=ROOT,
            env=env,
            input=raw,
            capture_output=True,
            timeout=120,
        )

    done = pipe_as_the_mail_server()
    err = done.stderr.decode()
    assert done.returncode == 0, err
    assert done.stdout.decode().strip() == f"accepted (game {game.pk}, {seat.colour})"
    assert "Traceback" not in err and len(err.splitlines()) <= 1, err
    # With the outbox relay a reply never talks to the task queue itself (nothing to say); where
    # a path still does, the outage is one warning line.
    assert (
        not err or "WARNING notifications.receive_email: the task queue (REDIS_URL) cannot be reached" in err
    )
    assert Command.objects.filter(game=game, seat=seat).count() == 1
    # The answer is written: held for the seat's next prompt (one email per decision), or
    # waiting for the relay to publish it.
    assert Outbox.objects.filter(
        seat=seat, kind=Outbox.Kind.ANSWER, status__in=[Outbox.Status.HELD, Outbox.Status.PENDING]
    ).exists()

    again = pipe_as_the_mail_server()  # had the mail server kept it, its next try
    assert again.returncode == 0 and again.stdout.decode().startswith("duplicate"), again.stderr.decode()
    assert Command.objects.filter(game=game, seat=seat).count() == 1
