"""The production smoke test: `scripts/serve-production` starts gunicorn, the outbox relay, a
Celery worker and beat with DJANGO_DEBUG=0 on PostgreSQL and Redis, and a game is played on it
as players play: two players sign in by the emailed link, then decide by the web page and by
replying to their prompt emails through `manage.py receive_email` (the Postfix pipe), while the
relay publishes and the worker plays the bots and delivers every email; then the script stops
the four processes. One of the players reads French: every email of the game reaches them in
French (the compiled catalogs at work in the production processes; docs/operations.md compiles
them at each release). The health probes of
docs/operations.md ("Watching it") are sent to it as written there, with and without the
monitor's token.

Loopback only: gunicorn on 127.0.0.1 (a free port), the PostgreSQL test database (each step
commits), the run's own queue on the shared Redis, and an email backend that records each
message in a file instead of sending it (tests/live_server.RecordingEmailBackend, which the
production checks accept). Every wait is bounded; the whole run takes well under a minute.
"""

from __future__ import annotations

import http.client
import json
import os
import random
import re
import shlex
import signal
import subprocess
import sys
import time
import uuid
from email.message import EmailMessage
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

from games import rules, store
from games.models import Command, Game
from games.store.verification import verify_game
from notifications import outbox
from notifications.management.commands.receive_email import EX_TEMPFAIL
from notifications.models import Outbox
from players.models import Player
from tests.faults.processes import Production, wait_until
from tests.live_server import CONFIG_PREFIXES, HOST, ROOT, SAFE_ENV, SITE_URL, Browser, read_mail

VENV = Path(sys.executable).parent.parent

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.slow,  # gunicorn, a Celery worker and beat, and a game played through them
]

RUN = uuid.uuid4().hex[:8]
HEALTHZ_TOKEN = f"monitor-{uuid.uuid4().hex}"


def server_env(tmp_path: Path, queue: str) -> dict:
    db = connection.settings_dict
    credentials = quote(db["USER"] or "", safe="") + (
        f":{quote(db['PASSWORD'], safe='')}" if db["PASSWORD"] else ""
    )
    base = {k: v for k, v in os.environ.items() if not k.startswith(CONFIG_PREFIXES)}
    return {
        **base,
        **SAFE_ENV,
        "DATABASE_URL": f"postgres://{credentials}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}",
        "REDIS_URL": os.environ["REDIS_URL"],
        "CELERY_QUEUE": queue,
        "EMAIL_BACKEND": "tests.live_server.RecordingEmailBackend",
        "LIVE_MAIL_LOG": str(tmp_path / "mail.jsonl"),
        "DEFAULT_FROM_EMAIL": f"Inis by email <inis@{HOST}>",
        # Each run signs in from client addresses of its own (the limits count an hour in Redis).
        "CLIENT_IP_HEADER": "X-Real-IP",
        "WEB_CONCURRENCY": "1",
        "WORKER_CONCURRENCY": "1",
        "BEAT_SCHEDULE": str(tmp_path / "beat" / "schedule"),
        "VENV": str(VENV),
        "HEALTHZ_TOKEN": HEALTHZ_TOKEN,
    }


def operations_probes() -> list[list[str]]:
    """The curl commands of docs/operations.md's "Watching it", each as its arguments."""
    text = (ROOT / "docs" / "operations.md").read_text()
    section = text[text.index("## Watching it") : text.index("## Backing up")]
    blocks = re.findall(r"```sh\n(.*?)```", section, re.S)
    return [
        shlex.split(line)
        for block in blocks
        for line in block.splitlines()
        if line.strip().startswith("curl ")
    ]


def probe(server: Production, command: list[str]) -> tuple[int, str]:
    """Send the request a documented `curl` command sends, to `server` in place of the address
    it names (127.0.0.1:8000), with the token of the server's settings for $HEALTHZ_TOKEN."""
    headers = dict(value.split(": ", 1) for flag, value in zip(command, command[1:]) if flag == "-H")
    headers = {k: v.replace("$HEALTHZ_TOKEN", HEALTHZ_TOKEN) for k, v in headers.items()}
    url = command[-1]
    assert url == "http://127.0.0.1:8000/healthz", url
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=20)
    try:
        connection.request("GET", "/healthz", headers=headers)
        answer = connection.getresponse()
        return answer.status, answer.read().decode()
    finally:
        connection.close()


def mail_to(env: dict, address: str) -> list[dict]:
    return [m for m in read_mail(env["LIVE_MAIL_LOG"]) if m["to"] == [address]]


def sign_in(server: Production, env: dict, address: str) -> Browser:
    """Ask for a link on /signin/, wait for the worker to deliver it, follow it: signed in."""
    visitor = Browser(server, client_ip=f"10.{random.randrange(256)}.{random.randrange(256)}.7")
    asked = visitor.post("/signin/", {"email": address}, csrf_from="/signin/")
    assert asked.status == 200 and "on its way" in asked.text, asked.text[:2000]
    link = wait_until(
        lambda: next(
            (re.search(re.escape(SITE_URL) + r"(/\S*sesame=\S+)", m["body"]) for m in mail_to(env, address)),
            None,
        ),
        timeout=30,
        what=f"the sign-in link to {address}",
    ).group(1)
    landing = visitor.get(link)
    assert landing.status == 302 and "sessionid" in visitor.cookies, landing.text[:2000]
    return visitor


def humans_to_decide(game) -> tuple | None:
    """(state, seq, colour) when only player seats have a decision pending (the bots have
    played), else None."""
    state, seq = store.load(game)
    pending = sorted({d.seat for d in rules.pending(state)})
    humans = {s.colour for s in game.seats.filter(is_bot=False)}
    return (state, seq, pending[0]) if pending and set(pending) <= humans else None


def reply_by_email(env: dict, seat, text: str) -> str:
    """Reply `text` to the seat's latest prompt, once the worker delivered it, through
    `manage.py receive_email` as the Postfix pipe runs it; its output line."""

    def current_prompt_sent():
        row = Outbox.objects.filter(seat=seat, kind=Outbox.Kind.PROMPT).order_by("-id").first()
        return row if row and row.status == Outbox.Status.SENT and not outbox.is_stale(row) else None

    prompt = wait_until(
        current_prompt_sent, timeout=30, what=f"the prompt of {seat.colour}'s decision delivered"
    )
    reply = EmailMessage()
    reply["From"], reply["To"] = seat.email, prompt.headers["Reply-To"]
    reply["Subject"] = f"Re: {prompt.subject}"
    reply["Message-ID"] = f"<smoke-{uuid.uuid4().hex}@mail.example.org>"
    reply["In-Reply-To"] = prompt.headers["Message-ID"]
    quoted = "\n".join("> " + line for line in prompt.body_text.splitlines())
    reply.set_content(f"{text}\n\nOn Mon, 23 Nov 2026, Inis by email wrote:\n{quoted}\n")
    for _ in range(3):
        done = subprocess.run(
            [sys.executable, "manage.py", "receive_email", "--envelope-to", prompt.headers["Reply-To"]],
            cwd=ROOT,
            env=env,
            input=reply.as_bytes(),
            capture_output=True,
            timeout=60,
        )
        if done.returncode != EX_TEMPFAIL:
            break
        time.sleep(1)  # 75: the mail server keeps the message and pipes it again later
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-3000:]
    return done.stdout.decode().strip()


def test_serve_production_plays_a_game_by_web_and_email_then_stops(tmp_path):
    queue = f"smoke-{RUN}"
    env = server_env(tmp_path, queue)
    server = Production(tmp_path, env)
    server.start()
    try:
        wait_until(server.serving, timeout=60, what="gunicorn to listen", interval=0.2)
        public, monitor = operations_probes()
        assert (
            "Authorization: Bearer $HEALTHZ_TOKEN" in monitor
            and "Authorization: Bearer $HEALTHZ_TOKEN" not in public
        )
        assert probe(server, public) == (200, '{"ok": true}')
        status, body = probe(server, monitor)
        report = json.loads(body)
        assert status == 200 and isinstance(report.pop("queue_length"), int), body
        assert report == {
            "ok": True,
            "database": "ok",
            "redis": "ok",
            "undelivered_mail": 0,
            "failed_mail": 0,
            "oldest_undelivered_mail_seconds": None,
            "mail_delayed": False,
        }, body

        players = [f"smoke{i}-{RUN}@example.org" for i in (1, 2)]
        browsers = {address: sign_in(server, env, address) for address in players}
        french = players[1]
        Player.objects.update_or_create(email=french, defaults={"language": Player.Language.FR})

        # The operator's command, with the same settings: its emails and bot moves go to the worker.
        made = subprocess.run(
            [
                sys.executable,
                "manage.py",
                "create_game",
                "--player",
                players[0],
                "--player",
                players[1],
                "--bots",
                "2",
                "--json",
            ],
            cwd=ROOT,
            env=env,
            capture_output=True,
            timeout=60,
        )
        assert made.returncode == 0, made.stderr.decode(errors="replace")[-3000:]
        made = json.loads(made.stdout)
        assert all(seat["url"].startswith(SITE_URL + "/") for seat in made["seats"])
        game = Game.objects.get(pk=made["game"])
        channels = []
        for move in range(4):  # web, email, web, email
            state, seq, colour = wait_until(
                lambda: humans_to_decide(game),
                timeout=30,
                what="the bots' moves (the worker) and a player's decision",
            )
            seat = game.seats.get(colour=colour)
            if move % 2 == 0:
                page = f"/games/{game.pk}/"
                command = rules.legal_commands(state, colour)[0]
                answer = browsers[seat.email].post(
                    page,
                    {
                        "seat": colour,
                        "expected_seq": seq,
                        "nonce": uuid.uuid4().hex,
                        "choice": json.dumps(command),
                    },
                    csrf_from=page,
                )
                assert answer.status == 302, answer.text[:2000]
            else:
                before = len(mail_to(env, seat.email))
                answered = Outbox.objects.filter(seat=seat, kind=Outbox.Kind.ANSWER).count()
                outcome = reply_by_email(env, seat, "1")
                assert outcome == f"accepted (game {game.pk}, {colour})", outcome
                # The acceptance goes in the seat's next prompt, or alone after ACCEPTANCE_GRACE:
                # either a mail delivered by the worker, or the acceptance held for that prompt.
                wait_until(
                    lambda: (
                        len(mail_to(env, seat.email)) > before
                        or Outbox.objects.filter(seat=seat, kind=Outbox.Kind.ANSWER).count() > answered
                    ),
                    timeout=30,
                    what="the answer to the reply, delivered by the worker or held for the next prompt",
                )
            wait_until(lambda: store.head(game)[0] > seq, timeout=10, what="the decision recorded")
            channels.append((colour, "web" if move % 2 == 0 else "email"))

        # The French player's game emails (prompts, answers) are in French, and none in English.
        subjects = [m["subject"] for m in mail_to(env, french) if f"Inis {game.pk}" in m["subject"]]
        assert any(subject.startswith("Votre coup") for subject in subjects), subjects
        assert not any(subject.startswith(("Your move", "Accepted", "Rejected")) for subject in subjects), (
            subjects
        )

        player_commands = Command.objects.filter(game=game, seat__is_bot=False).count()
        assert player_commands >= 4, channels
        assert verify_game(game).ok
        assert list((tmp_path / "beat").iterdir()), "beat never opened its schedule"
        assert server.process.poll() is None, server.output()

        server.process.send_signal(signal.SIGTERM)
        assert server.process.wait(timeout=45) == 0, server.output()
        wait_until(lambda: not server.group_alive(), timeout=15, what="gunicorn, the worker and beat to stop")
    finally:
        server.kill()
        import redis

        broker = redis.Redis.from_url(os.environ["REDIS_URL"], socket_timeout=5)
        for key in broker.scan_iter(match=f"*{queue}*"):
            broker.delete(key)
