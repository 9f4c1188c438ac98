"""The outbox sweep (`notifications.tasks.sweep`, the one task celery beat runs) delivers what the
broker or a dead worker lost, each prompt exactly once (issue 5).

With the fixtures of this directory: a Redis server of the test's own, real worker processes
against the test database, and the recording provider (tests/faults/mailer.py). Unlike the tests
of test_delivery_faults.py, nothing here re-sends by hand: the sweep, sent through the broker to a
worker as beat sends it, finds the rows still pending and enqueues them.

- The broker dies with the game's first prompts queued in it (no persistence: they are gone) and a
  command commits while it is down; it comes back empty.
- A whole worker machine dies (SIGKILL of the worker and its pool) in the middle of a send: its
  task stays unacknowledged in the broker for the visibility timeout (an hour), and the sweep of
  another worker sends the prompt meanwhile, once the hand-off's wait has passed; when the lost
  task comes back, the row is sent already.

No relay runs in these tests (the sweep is the last resort when none does): what it would
publish is published by hand or lost with the broker.
"""

from __future__ import annotations

import os
import signal
import time
import uuid

import pytest

from games import rules, store
from games.services import submit_command
from inis_pbem.tasks import sweep
from notifications.models import Outbox
from notifications.outbox import deliver_many
from tests.faults.mailer import read_log
from tests.faults.processes import assert_each_prompt_sent_once, wait_until
from tests.notifications.email_positions import ASSEMBLY, END, game_from

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


def settled(game) -> bool:
    return not Outbox.objects.filter(game=game, status=Outbox.Status.PENDING).exists()


def sweeping_worker(own_redis, start_worker, queue, **env):
    """A worker whose own sweep re-sends at once (OUTBOX_RESEND_AFTER=0) on the test's queue."""
    return start_worker(own_redis.url, queue, OUTBOX_RESEND_AFTER=0, CELERY_QUEUE=queue, **env)


def test_broker_down_while_a_command_commits_the_sweep_sends_every_prompt_once(
    own_redis, broker_at, start_worker, tmp_path
):
    queue = f"sweep-{uuid.uuid4().hex}"
    broker_at(own_redis.url, queue)
    game = game_from(ASSEMBLY, seed="sweep-broker-down")  # four prompts queued; no worker yet
    state, seq = store.load(game)

    own_redis.stop()
    green = game.seats.get(colour="green")
    result = submit_command(
        game=game, seat=green, command=rules.legal_commands(state, "green")[0], expected_seq=seq
    )
    assert result.accepted  # a broker outage never refuses a move
    own_redis.start()  # empty: every delivery task so far is lost

    sweeping_worker(own_redis, start_worker, queue)
    sweep.delay()
    wait_until(lambda: settled(game), timeout=90, what="the sweep to deliver every row")

    rows = list(Outbox.objects.filter(game=game))
    assert_each_prompt_sent_once(rows, tmp_path / "mail.log")
    # Green's first prompt was overtaken by its own move: skipped, not sent late.
    skipped = [(r.seat.colour, r.kind) for r in rows if r.status == Outbox.Status.SKIPPED]
    assert skipped == [("green", Outbox.Kind.PROMPT)]


def test_a_worker_dying_in_a_send_its_prompt_is_sent_once_by_the_sweep(
    own_redis, broker_at, start_worker, tmp_path
):
    queue = f"sweep-{uuid.uuid4().hex}"
    broker_at(own_redis.url, queue)
    dying = start_worker(own_redis.url, queue, FAULT_MAIL_DELAY=3600, CELERY_QUEUE=queue)
    game = game_from(END, seed="sweep-worker-dies")
    # No relay runs here: the rows are published by hand, as the relay would.
    pending = Outbox.objects.filter(game=game, status=Outbox.Status.PENDING).order_by("queued_at", "id")
    deliver_many.delay(list(pending.values_list("pk", flat=True)))
    log = tmp_path / "mail.log"
    wait_until(
        lambda: [e for e in read_log(log) if e["event"] == "start"], timeout=60, what="a send to start"
    )

    os.killpg(dying.process.pid, signal.SIGKILL)  # the worker and its pool, mid-send
    dying.process.wait(timeout=30)
    assert not settled(game)  # the send's transaction died with it: the row is still pending

    # The row was handed over when the worker died: the sweep's delivery leaves it alone for
    # OUTBOX_HAND_OFF_WAIT (1 s here), then sends it again (the provider never took it).
    sweeping_worker(own_redis, start_worker, queue, OUTBOX_HAND_OFF_WAIT=1)
    time.sleep(1.5)
    sweep.delay()
    wait_until(lambda: settled(game), timeout=90, what="the sweep to send the prompt")
    assert_each_prompt_sent_once(list(Outbox.objects.filter(game=game)), log)
