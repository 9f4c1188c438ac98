"""Celery tasks of notifications: they take ids, call a service, may run twice, and are retried.

Celery beat runs one periodic task, `sweep`, which enqueues whatever is due: outbox rows whose
delivery task was lost, reminders, deadline defaults, the stand-in bot, digests, inbound emails
whose processing task was lost; and it forgets old mail (`notifications.retention`). Nothing is
ever scheduled far ahead: a deadline lives in the database and the sweep finds it when due. The one countdown, at most a minute, holds a news email
back so that a burst of news makes one email (`notifications.news`; the sweep sends it if that
task is lost).
"""
from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.db import OperationalError

from games import store
from notifications import clocks, outbox, retention
from notifications.models import Outbox


@shared_task(
    bind=True,
    autoretry_for=(Exception,),
    dont_autoretry_for=(Outbox.DoesNotExist,),
    retry_backoff=True,  # 1 s, 2 s, 4 s ... with jitter
    retry_backoff_max=600,
    retry_jitter=True,
    max_retries=8,
)
def deliver(self, outbox_id: int) -> bool:
    """Send the outbox row `outbox_id` once (see `notifications.outbox.deliver`)."""
    return outbox.deliver(outbox_id, final_attempt=self.request.retries >= self.max_retries)


@shared_task(bind=True)
def deliver_many(self, outbox_ids: list[int]) -> int:
    """Send the outbox rows `outbox_ids` in order (the emails one command wrote, or an answer
    then the prompts held for it); returns how many this run sent. A row that fails gets a
    `deliver` task of its own, with its retries, on the queue this task came from (as a retry
    would be); a row that no longer exists is passed over."""
    routing_key = (self.request.delivery_info or {}).get("routing_key")
    sent = 0
    for outbox_id in outbox_ids:
        try:
            sent += outbox.deliver(outbox_id)
        except Outbox.DoesNotExist:
            continue
        except Exception:  # recorded on the row by outbox.deliver; retried alone
            deliver.apply_async((outbox_id,), countdown=1, **({"queue": routing_key} if routing_key else {}))
    return sent


@shared_task
def deliver_pending(older_than_seconds: int | None = None) -> int:
    """Enqueue every row left PENDING longer than OUTBOX_RESEND_AFTER seconds (or
    `older_than_seconds`): their on-commit enqueue was lost, or their worker died."""
    if older_than_seconds is None:
        older_than_seconds = settings.OUTBOX_RESEND_AFTER
    ids = outbox.pending_ids(older_than_seconds=older_than_seconds)
    for outbox_id in ids:
        deliver.delay(outbox_id)
    return len(ids)


# Errors worth another try a little later: a lost race with a concurrent command, a database blip.
TRANSIENT = (store.ConcurrencyConflict, OperationalError)


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, retry_backoff_max=60, max_retries=5)
def send_reminder(clock_id: int, seq: int) -> bool:
    """The reminder of a seat's decision (`notifications.clocks.send_reminder`)."""
    return clocks.send_reminder(clock_id, seq)


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, retry_backoff_max=60, max_retries=5)
def apply_deadline(clock_id: int, seq: int) -> str | None:
    """The default of a decision whose deadline passed (`notifications.clocks.apply_deadline`)."""
    return clocks.apply_deadline(clock_id, seq)


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, retry_backoff_max=60, max_retries=5)
def play_standins(game_id: int) -> int:
    """The bot's moves for seats whose player is away (`notifications.clocks.play_standins`)."""
    return clocks.play_standins(game_id)


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, retry_backoff_max=60, max_retries=5)
def send_digest(player_id: int) -> int:
    """A player's daily digest (`notifications.clocks.send_digest`)."""
    return clocks.send_digest(player_id)


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, retry_backoff_max=60, max_retries=5)
def send_news(seat_id: int) -> int:
    """A seat's coalesced news email, when its minute is up (`notifications.news.send_news`)."""
    from notifications import news  # news enqueues this task

    return news.send_news(seat_id)


@shared_task(autoretry_for=TRANSIENT, retry_backoff=True, retry_backoff_max=60, max_retries=5)
def process_inbound(inbound_id: int) -> str:
    """Act on a received email and answer it (`notifications.inbound.process`)."""
    from notifications import inbound  # inbound enqueues this task

    return inbound.process(inbound_id)


@shared_task
def sweep() -> dict:
    """The one periodic task (every minute, settings/celery.py): enqueue everything due. Returns
    how many of each kind it enqueued."""
    counts = {"outbox": deliver_pending()}
    due = clocks.due_work()
    for clock_id, seq in due["reminders"]:
        send_reminder.delay(clock_id, seq)
    for clock_id, seq in due["deadlines"]:
        apply_deadline.delay(clock_id, seq)
    for game_id in due["standins"]:
        play_standins.delay(game_id)
    for player_id in due["digests"]:
        send_digest.delay(player_id)
    from watching import digest as follower_digest, tasks as watching_tasks  # watching reads this app

    followers = follower_digest.due_followers()
    for user_id in followers:
        watching_tasks.send_follower_digest.delay(user_id)
    counts["followers"] = len(followers)
    inbound_ids = clocks.stale_inbound_ids(older_than_seconds=settings.OUTBOX_RESEND_AFTER)
    for inbound_id in inbound_ids:
        process_inbound.delay(inbound_id)
    counts.update({k: len(v) for k, v in due.items()}, inbound=len(inbound_ids))
    from games.tasks import enqueue_waiting_bots  # bot moves lost with the broker, too
    counts["bots"] = enqueue_waiting_bots(older_than_seconds=settings.OUTBOX_RESEND_AFTER)
    counts["pruned"] = retention.prune_outbox(keep_days=settings.OUTBOX_KEEP_DAYS)
    counts["inbound_forgotten"] = retention.forget_inbound(keep_days=settings.INBOUND_KEEP_DAYS)
    return counts
