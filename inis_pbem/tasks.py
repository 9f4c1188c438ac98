"""The one periodic task: the sweep, run by Celery beat every minute (settings/celery.py).

It wires every room's due work, so it lives with the wiring: it enqueues outbox rows whose
delivery task was lost, and failed ones due for another try (with backoff), acceptances no
prompt carried within ACCEPTANCE_GRACE, reminders, deadline
defaults, the delayed passes of Season turns a seat's hand leaves only the pass, the stand-in
bot, digests, followers' digests, inbound emails whose processing task was lost, and bot moves
lost with the broker; it plays the forced moves of games whose set-up stalled on one
(`games.play.stalled_set_ups`); it closes the open tables not filled within a week
(`lobby.services.close_stale_tables`) and feeds the read models (`community.projections`) left
behind; it forgets old mail (`notifications.retention`) and the table channels of games ended
TABLE_CHANNEL_KEEP_DAYS ago (`games.play.table.forget_ended_table_channels`); and it removes the
push devices whose browser session ended without a sign-out (`players.push_devices`).
Nothing is ever scheduled far ahead: a deadline lives in the database and the sweep finds it
when due. Its name is the one beat and queued tasks carry, `notifications.tasks.sweep`.
"""

from __future__ import annotations

from celery import shared_task
from django.conf import settings
from django.utils import timezone

from community import projections
from games.play import schedule
from games.play.stalled_set_ups import restart_stalled_set_ups
from games.play.table import forget_ended_table_channels
from games.play.tasks import apply_deadline, enqueue_due_passes, enqueue_waiting_bots, play_standins
from lobby.services import close_stale_tables
from notifications import acceptances, digests, inbound, outbox, retention
from notifications.outbox import deliver_pending, retry_failed
from notifications.tasks import process_inbound, send_digest, send_reminder
from players.push_devices import remove_devices_of_ended_sessions
from watching import digest as follower_digest
from watching import tasks as watching_tasks


@shared_task(name="notifications.tasks.sweep")
def sweep() -> dict:
    """Enqueue everything due. Returns how many of each kind it enqueued: {"outbox",
    "outbox_retried" (failed emails tried again), "acceptances" (sent alone after
    ACCEPTANCE_GRACE), "followers", "reminders", "deadlines", "passes" (delayed passes due),
    "standins", "digests", "inbound", "bots", "tables_closed", "projections" (log rows folded),
    "pruned", "inbound_forgotten", "bodies_purged", "table_channels_forgotten" (of games ended
    TABLE_CHANNEL_KEEP_DAYS ago), "devices_of_ended_sessions" (push devices
    whose browser session ended without a sign-out: `players.push_devices`), "set_ups_restarted"
    (games whose set-up stalled on a forced move, moved on: `games.play.stalled_set_ups`)}."""
    counts = {"outbox": deliver_pending(), "outbox_retried": retry_failed()}
    released = acceptances.release_due()
    outbox.schedule(released)
    counts["acceptances"] = len(released)
    now = timezone.now()
    due = schedule.due_work(now)
    due["digests"] = digests.due_digests(now)
    for clock_id, seq in due["reminders"]:
        send_reminder.delay(clock_id, seq)
    for clock_id, seq in due["deadlines"]:
        apply_deadline.delay(clock_id, seq)
    counts["passes"] = enqueue_due_passes(now)
    for game_id in due["standins"]:
        play_standins.delay(game_id)
    for player_id in due["digests"]:
        send_digest.delay(player_id)
    followers = follower_digest.due_followers()
    for user_id in followers:
        watching_tasks.send_follower_digest.delay(user_id)
    counts["followers"] = len(followers)
    inbound_ids = inbound.stale_inbound_ids(older_than_seconds=settings.OUTBOX_RESEND_AFTER)
    for inbound_id in inbound_ids:
        process_inbound.delay(inbound_id)
    counts.update({k: len(v) for k, v in due.items()}, inbound=len(inbound_ids))
    counts["bots"] = enqueue_waiting_bots(older_than_seconds=settings.OUTBOX_RESEND_AFTER)
    counts["tables_closed"] = len(close_stale_tables(now))
    counts["projections"] = projections.feed()
    counts["pruned"] = retention.prune_outbox(keep_days=settings.OUTBOX_KEEP_DAYS)
    counts["inbound_forgotten"] = retention.forget_inbound(keep_days=settings.INBOUND_KEEP_DAYS)
    counts["bodies_purged"] = retention.purge_bodies(keep_days=settings.EMAIL_BODY_KEEP_DAYS)
    counts["table_channels_forgotten"] = forget_ended_table_channels(
        keep_days=settings.TABLE_CHANNEL_KEEP_DAYS, now=now
    )
    counts["devices_of_ended_sessions"] = remove_devices_of_ended_sessions(now=now)
    counts["set_ups_restarted"] = restart_stalled_set_ups()
    return counts
