"""A whole game played by email to its end, through a real Celery worker on the real Redis broker
and PostgreSQL, with anymail's test backend as the provider.

Four player seats, from a described position near the end of a game (email_positions.END: the
last Season of a game, about fourteen decisions including Triskel windows): each prompt the
worker delivers is answered by its seat as a raw RFC 822 reply with quoted history, built like a
reply from Gmail, Outlook, Apple Mail or an HTML-only client, and comes back through each door in
turn — Postmark's and Mailgun's inbound webhooks (processed by the worker) and `manage.py
receive_email` (a mail server's pipe). The replies alone (and the moves the rules leave only one
way to make, which nobody is asked) drive the game to its end.

The game is in the default reaction mode ("holders": a Triskel window asks only the seats able to
answer), and a player can tell every email apart by its subject: no prompt offers nothing but
"decline", and every subject starts with what the email is.
"""

from __future__ import annotations

import io
import json
import re
import uuid
from contextlib import contextmanager

import pytest
import redis
from celery.contrib.testing.worker import start_worker
from django.core import mail
from django.core.management import call_command
from django.test import Client

from games import rules, store
from games.models import Command, Game
from games.play.models import SeatClock
from games.record.options import reaction_mode
from inis_pbem.celery import app as celery_app
from notifications.models import InboundEmail, Outbox
from notifications.tokens import token_in_address
from players.signed_tokens import read_reply_token
from tests.faults.processes import wait_until
from tests.notifications import mail_clients
from tests.notifications.email_positions import EMAILS, END, game_from
from tests.notifications.test_webhooks import (
    BASIC_AUTH,
    SIGNING_KEY,
    _basic,
    mailgun_payload,
    postmark_payload,
)
from tests.relay import running_relay

pytestmark = [pytest.mark.redis, pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

CLIENT = {
    "green": mail_clients.gmail,
    "blue": mail_clients.outlook,
    "orange": mail_clients.apple_mail,
    "white": mail_clients.html_only,
}
# The door of each reply in turn (most seats' moves in this position are forced, so doors go by
# reply, not by seat).
DOORS = ("postmark", "mailgun", "pipe")
# What a subject starts with: each says what the email is (docs/email-commands.md).
PREFIXES = ("Your move: ", "Accepted: ", "Rejected: ", "News — ", "Reminder: ", "Game over: ")
OPTIONS = re.compile(r"What you may do now \(reply with the number, or in words\):\n((?:\d+\. .*\n)+)")


@contextmanager
def worker_thread():
    """A Celery worker thread of this process on the shared broker (REDIS_URL), consuming a queue
    of its own, and tasks sent through the broker to it: anymail's test backend, which the
    worker sends through, keeps the messages in this process's `mail.outbox`; and the relay in
    another thread, which publishes the tasks the commands leave."""
    queue = f"email-game-{uuid.uuid4().hex}"
    conf = celery_app.conf
    saved = (conf.task_always_eager, conf.task_default_queue)
    conf.task_always_eager, conf.task_default_queue = False, queue
    try:
        with (
            start_worker(
                celery_app, pool="solo", perform_ping_check=False, queues=[queue], shutdown_timeout=30
            ),
            running_relay(),
        ):
            yield
    finally:
        conf.task_always_eager, conf.task_default_queue = saved
        # Leave nothing behind in the shared broker: the queue, its bindings, any task left in it
        # (the queue's name is this test's own, so every key that names it is).
        broker = redis.Redis.from_url(conf.broker_url)
        for key in broker.scan_iter(match=f"*{queue}*"):
            broker.delete(key)


def words_for(colour: str, kind: str, state, turn: int) -> str:
    """What the player of `colour` writes: a Pretender token for green, blue's Bard, passes,
    Triskel windows declined in words, and the option number for anything else."""
    legal = rules.legal_commands(state, colour)
    types = {c["type"] for c in legal}
    if kind == "season_turn":
        if colour == "green" and "pretender" in types:
            return "I take a Pretender token."
        if colour == "blue" and any(c.get("card") == "act_bard" for c in legal):
            return "Play the bard please"
        return "pass" if turn % 2 else "1" if len(legal) == 1 else "Pass."
    if kind == "reaction":
        return "decline" if turn % 2 else "no"
    return "1"


def deliver_reply(client, door: str, raw: bytes) -> None:
    if door == "pipe":
        call_command("receive_email", stdin=io.BytesIO(raw), stdout=io.StringIO())
    elif door == "mailgun":
        assert (
            client.post(
                "/anymail/mailgun/inbound/", mailgun_payload(raw), HTTP_AUTHORIZATION=_basic()
            ).status_code
            == 200
        )
    else:
        assert (
            client.post(
                "/anymail/postmark/inbound/",
                json.dumps(postmark_payload(raw)),
                content_type="application/json",
                HTTP_AUTHORIZATION=_basic(),
            ).status_code
            == 200
        )


def quiet() -> bool:
    """Nothing received waiting to be processed, then nothing left to send. In this order: the
    processing of a reply commits its outbox rows and its own status together, so a reply seen
    processed has its rows visible to the next query (the other order could miss both)."""
    if InboundEmail.objects.filter(status=InboundEmail.Status.RECEIVED).exists():
        return False
    return not Outbox.objects.filter(status=Outbox.Status.PENDING).exists()


def current_prompt(game, colour: str):
    """The prompt delivered to `colour` for its open decision (by the seq its reply address carries)."""
    clock = SeatClock.objects.get(seat__game=game, seat__colour=colour)
    for message in reversed(mail.outbox):
        if (
            not message.reply_to
            or EMAILS[["green", "blue", "orange", "white"].index(colour)] not in message.to
        ):
            continue
        token = token_in_address(message.reply_to[0])
        if token and read_reply_token(token).seq == clock.seq and "Your move: " in message.subject:
            return message
    rows = [(r.kind, r.status, r.decision_seq, r.seq) for r in Outbox.objects.filter(seat=clock.seat)]
    raise AssertionError(
        f"no prompt for {colour}'s decision at #{clock.seq} arrived: {rows} "
        f"{[(m.to, m.body[:40]) for m in mail.outbox]}"
    )


def test_a_game_is_played_to_its_end_by_email_replies(settings):
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    settings.ANYMAIL = {"WEBHOOK_SECRET": ":".join(BASIC_AUTH), "MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY}
    client = Client()
    with worker_thread():
        game = game_from(END, seed="played-by-email")
        assert reaction_mode(game.options) == "holders"  # the default of a new game
        replies = 0
        while True:
            wait_until(quiet, timeout=30, what="the worker to deliver and process everything")
            state, _seq = store.load(game)
            pending = rules.pending(state)
            if not pending:
                break
            decision = pending[0]
            prompt = current_prompt(game, decision.seat)
            raw = CLIENT[decision.seat](
                prompt,
                words_for(decision.seat, decision.kind, state, replies),
                sender=EMAILS[["green", "blue", "orange", "white"].index(decision.seat)],
            )
            deliver_reply(client, DOORS[replies % len(DOORS)], raw)
            replies += 1
            assert replies <= 40, "the game should have ended by now"

    game = Game.objects.get(pk=game.pk)
    assert game.is_over and game.winner == "green"
    commands = Command.objects.filter(game=game)
    # Every command is a reply, or a move the rules left only one way to make (never asked).
    assert commands.filter(command_id__startswith="email:").count() == replies
    assert all(c.command_id.startswith(("email:", "forced:")) for c in commands)
    # Every reply was accepted, and said so once, in its seat's next email: a prompt ("Accepted:
    # … — Your move: …") or the game-over email (nobody ran the sweep, which would send an
    # acceptance no email carried). Every email arrived exactly once.
    assert InboundEmail.objects.filter(status=InboundEmail.Status.ACCEPTED).count() == replies
    assert sum(m.body.count("I read your reply as: ") for m in mail.outbox) == replies
    assert not [m for m in mail.outbox if m.body.startswith("Done.")]
    assert any(m.subject.startswith("Accepted: ") and " — Your move: " in m.subject for m in mail.outbox)
    # No subject is ambiguous: each says what the email is, and names the game.
    assert all(
        m.subject.startswith(PREFIXES) and m.subject.endswith(f"— Inis {game.pk}") for m in mail.outbox
    ), sorted({m.subject for m in mail.outbox})
    # No prompt offers only "decline": a Triskel window asked only seats that could answer.
    prompts = [m for m in mail.outbox if "Your move: " in m.subject or m.subject.startswith("Reminder: ")]
    assert prompts
    for prompt in prompts:
        options = OPTIONS.search(prompt.body)
        assert options, prompt.body
        listed = [line.split(". ", 1)[1] for line in options.group(1).splitlines()]
        assert listed != ["Decline (play no Triskel card)"], prompt.subject
    ids = [m.extra_headers["Message-ID"] for m in mail.outbox]
    assert len(ids) == len(set(ids))
    sent = Outbox.objects.filter(status=Outbox.Status.SENT)
    assert sorted(r.headers["Message-ID"] for r in sent) == sorted(ids)
    over = [m for m in mail.outbox if m.subject.startswith("Game over: ")]
    assert sorted(m.to[0] for m in over) == sorted(EMAILS)
    assert all(f"— Inis {game.pk}" in m.subject for m in over)
    assert "is over: you are the High King" in next(m.body for m in over if m.to == [EMAILS[0]])
    assert all("is over: green is the High King" in m.body for m in over if m.to != [EMAILS[0]])
    assert {r.source for r in InboundEmail.objects.all()} == {"postmark", "mailgun", "pipe"}
