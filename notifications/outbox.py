"""The outbox: emails, web pushes and chat messages written with the events that caused them,
delivered after the commit.

`enqueue` runs inside the caller's transaction; `deliver` sends one row at most once, through
its channel's sender (`notifications.channels.registry`), and skips a prompt or reminder whose
decision was taken meanwhile (by the web, by a deadline, by a reply, from a push).
"""

from __future__ import annotations

import logging
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError, transaction
from django.db.models import F, Q, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from games.models import Seat
from games.play.models import SeatClock
from games.play.relay import through_relay
from games.store import sql as store_sql
from notifications import acceptances, prompts_at_delivery, sql
from notifications.channels import registry as channels
from notifications.database_outage import through_database_outage
from notifications.models import NewsItem, Outbox
from notifications.prompts import RenderedEmail
from players import at_the_table
from players.models import Player

logger = logging.getLogger(__name__)

# A failed email is tried again after a delay that doubles with each failed attempt of that
# email, from OUTBOX_RETRY_FIRST_DELAY after its first failure to OUTBOX_RETRY_MAX_DELAY
# (seconds; settings, default 30 and 600): first by its `deliver` task (RETRY_TASK_ATTEMPTS more
# times), then, once FAILED, by the sweep at the same pace. A mail server down for three minutes
# delays its mail by less than that again; one down for an hour costs a few tries, and its mail
# goes out within OUTBOX_RETRY_MAX_DELAY (plus a sweep) of its return.
RETRY_TASK_ATTEMPTS = 5


class NotHandedOver(Exception):
    """`deliver` stopped before the hand-off (the database or Redis failed): no attempt counted; the
    relay publishes the row again, or the task that ran it retries."""


# Kinds that are about one decision of the seat: stale once the seat's clock has moved on.
DECISION_KINDS = (Outbox.Kind.PROMPT, Outbox.Kind.REMINDER)
# Seats whose prompts are written but not yet scheduled (`holding_prompts`).
_HELD: ContextVar[frozenset] = ContextVar("held_prompt_seats", default=frozenset())


@contextmanager
def holding_prompts(seat_id: int):
    """Within this block, prompts to the seat `seat_id` are written without being scheduled
    (whatever command causes them: the seat's own, a forced move after it); the caller schedules
    them with `release_prompts` once the email that must come first (the answer to the seat's
    reply) is written. A prompt never released is sent by the sweep."""
    token = _HELD.set(_HELD.get() | {seat_id})
    try:
        yield
    finally:
        _HELD.reset(token)


def enqueue(
    *,
    kind: str,
    to_email: str,
    email: RenderedEmail,
    seq: int,
    game=None,
    seat=None,
    decision_seq: int | None = None,
    deliver: bool = True,
) -> Outbox:
    """Write an outbox row, to be delivered after the commit: queued for the relay
    (`queued_at`: now), or, without a broker, delivered in-process at the commit (`schedule`).

    kind: an `Outbox.Kind`; seq: the log's length the message was written against (0 when it is
    about no game); decision_seq: for prompts and reminders, the seat clock's seq they are about.
    (`enqueue_all` also takes a prompt given as `render_spec` instead of `email`: it is written
    at its delivery, `notifications.prompts_at_delivery`, and, for a row of another channel than
    email, `channel` (an `Outbox.Channel`) and no email: its sender writes it; `not_before`, a
    datetime before which it is not sent.)
    deliver=False (and any prompt to a seat inside `holding_prompts`) writes the row without
    scheduling it: the caller schedules it later in the same transaction (`release_prompts`), or
    the sweep sends it after OUTBOX_RESEND_AFTER.
    """
    return enqueue_all(
        [
            dict(
                kind=kind,
                to_email=to_email,
                email=email,
                seq=seq,
                game=game,
                seat=seat,
                decision_seq=decision_seq,
                deliver=deliver,
            )
        ]
    )[0]


def enqueue_all(items: list[dict], *, along: tuple[str, list] | None = None) -> list[Outbox]:
    """`enqueue` for several emails (dicts of its keyword arguments) in one insert; the rows, in
    order, delivered after the commit (`schedule`).

    along: `(sql, params)` of one more data-modifying statement (an UPDATE) that the caller
    needs anyway; on PostgreSQL it runs in the same statement, as a WITH before the insert, so
    the command path pays one round trip for both (`notifications.receivers`). Elsewhere it is
    run first, on its own.
    """
    held = _HELD.get()
    now = timezone.now()
    queued = [
        item.get("deliver", True)
        and not (
            item["kind"] == Outbox.Kind.PROMPT and item.get("seat") is not None and item["seat"].pk in held
        )
        for item in items
    ]
    rows = sql.insert_outbox(
        [
            _row(item, queued_at=(item.get("not_before") or now) if ready else None)
            for item, ready in zip(items, queued)
        ],
        along=along,
    )
    # A row held until later (`not_before`) is published by the relay then (or by the sweep).
    schedule([row.pk for row, ready in zip(rows, queued) if ready and row.not_before is None])
    return rows


def _row(item: dict, *, queued_at) -> Outbox:
    row = Outbox(
        game=item.get("game"),
        seat=item.get("seat"),
        kind=item["kind"],
        seq=item["seq"],
        decision_seq=item.get("decision_seq"),
        to_email=item["to_email"],
        queued_at=queued_at,
        channel=item.get("channel", Outbox.Channel.EMAIL),
        not_before=item.get("not_before"),
    )
    email = item.get("email")
    if email is None:  # a prompt written at its delivery (an email), or by its channel's sender
        row.render_spec = item.get("render_spec")
        row.headers = item.get("headers", {})  # what the sender writes it from (table news)
    else:
        _fill(row, email)
    return row


def _fill(row: Outbox, email: RenderedEmail) -> None:
    row.subject, row.body_text, row.body_html, row.headers = (
        email.subject,
        email.text,
        email.html,
        email.headers,
    )


WRITTEN_FIELDS = ["subject", "body_text", "body_html", "headers", "render_spec"]


def written(row: Outbox) -> Outbox:
    """`row` with its email written, for a reader that needs the text before the delivery: a
    prompt still waiting for its delivery is written now, as the delivery will write it, and
    kept on the row; any other row as it is."""
    if row.render_spec is not None:
        clock = _clock_of(row)
        _write(row, deadline=clock[4] if clock else None)
        Outbox.objects.filter(pk=row.pk, render_spec__isnull=False).update(
            **{name: getattr(row, name) for name in WRITTEN_FIELDS}
        )
    return row


def _write(row: Outbox, *, deadline, player: Player | None = None) -> None:
    """Fill in `row`'s email from its `render_spec` (`notifications.prompts_at_delivery.write`;
    player: the Player of its address when the caller read it), not saved. The acceptances held
    for its seat go into it (`acceptances.fold_into`, in the caller's transaction)."""
    # The delivery's read says whether any is held (`sql.locked_for_delivery`); other readers ask.
    held = row.kind == Outbox.Kind.PROMPT and getattr(row, "acceptances_held", True)
    accepted = acceptances.fold_into(row.seat_id, row.to_email) if held else []
    _fill(row, prompts_at_delivery.write(row, deadline=deadline, player=player, accepted=accepted))
    row.render_spec = None


def schedule(row_ids: list[int]) -> None:
    """Without a broker (Celery in-process: development, most tests), deliver the queued rows
    `row_ids` at the commit, in this order, with one `deliver_many` run (robust: its error is
    logged, the sweep sends the rows later). With a broker, nothing: the rows carry their
    `queued_at`, and the relay (`inis_pbem.relay`) publishes them once committed, so that a
    command never talks to the broker (`games.play.relay`).
    """
    if not row_ids or through_relay():
        return
    ids = list(row_ids)
    transaction.on_commit(lambda: deliver_many.delay(ids), robust=True)


def release_prompts(seat) -> int:
    """Queue the seat's held prompts (those written while its email reply was being played,
    `holding_prompts`) after anything already queued in this transaction (the answer to that
    reply): their `queued_at` is now, later than the answer's, and the relay publishes in that
    order. Returns how many."""
    held = Outbox.objects.filter(
        seat=seat, kind=Outbox.Kind.PROMPT, status=Outbox.Status.PENDING, queued_at__isnull=True
    )
    found = list(held.order_by("id").values_list("pk", "not_before"))
    ids = [pk for pk, _not_before in found]
    if ids:
        # An email held after its push (`not_before`) keeps its later time.
        Outbox.objects.filter(pk__in=ids).update(queued_at=Coalesce("not_before", Value(timezone.now())))
    schedule([pk for pk, not_before in found if not_before is None])
    return len(ids)


def is_stale(row: Outbox) -> bool:
    """True for a prompt or reminder whose seat no longer waits on that decision, or whose seat
    is no longer played from the row's address (the host gave it to someone else or to the bot:
    the seat's links are the new player's, and a prompt written at its delivery would carry
    them)."""
    return _stale(row, _clock_of(row))


def _clock_of(row: Outbox) -> tuple | None:
    """`_clock_facts` of the row's seat as it is now (one query)."""
    if row.kind not in DECISION_KINDS or row.seat_id is None:
        return None
    seat = Seat.objects.select_related("clock").filter(pk=row.seat_id).first()
    return _clock_facts(seat) if seat is not None else None


def _clock_facts(seat) -> tuple | None:
    """(seq, stand_in, seat email, seat is_bot, deadline) of `seat` (read with its clock);
    None when it has no clock."""
    try:
        clock = seat.clock
    except SeatClock.DoesNotExist:
        return None
    return clock.seq, clock.stand_in, seat.email, seat.is_bot, clock.deadline


def news_untold(row: Outbox) -> int:
    """Give the news a prompt `row` marked mailed when it was written (`render_spec["news_ids"]`,
    `notifications.receivers`) back to its seat's digest or news emails, the prompt being
    skipped unsent: table talk a digest player was sent, private words included, must reach
    them by email still (docs/notifications.md). Returns how many lines; no query for none."""
    ids = (row.render_spec or {}).get("news_ids") or []
    if not ids:
        return 0
    return NewsItem.objects.filter(pk__in=ids, mailed_at__isnull=False).update(mailed_at=None)


def _stale(row: Outbox, clock: tuple | None) -> bool:
    if row.kind not in DECISION_KINDS or row.seat_id is None:
        return False
    if clock is None:
        return True
    seq, stand_in, email, is_bot, _deadline = clock
    return (
        seq != row.decision_seq or stand_in or is_bot or email.strip().lower() != row.to_email.strip().lower()
    )


def deliver(outbox_id: int, *, final_attempt: bool = False) -> bool:
    """Send the row `outbox_id` if it is still pending; True when this call sent it. A prompt
    not yet written is written first (`notifications.prompts_at_delivery`), and kept on the row
    with its status; a retry after a failed attempt writes it again, with the same Message-ID.

    Three steps, so that a message handed to the mail backend is on record before it leaves:
    1. under the row's lock (SELECT ... FOR UPDATE), check it is PENDING, not stale (a stale
       prompt or reminder, `is_stale`, is marked SKIPPED) and not handed over already
       (`_interrupted_hand_off`), write it, record `handed_at`, and commit;
    2. hand it to its channel's sender (`channels.registry.send`: the mail backend for email);
    3. mark it SENT (only if still PENDING).
    A run that finds the row handed over less than OUTBOX_HAND_OFF_WAIT seconds ago (another
    run is sending it, or stopped while sending it) leaves it alone; later the relay publishes
    it again and `_interrupted_hand_off` decides. A send that fails clears `handed_at` (the
    backend said it did not take it), records `attempts` and `last_error`, keeps the row
    PENDING and raises the error again for the task's retry; with `final_attempt` the row is
    marked FAILED instead. When the database or Redis fails before the hand-off (`_infrastructure`),
    no attempt is counted and NotHandedOver is raised: the relay publishes the row again within
    seconds, where a failed attempt would wait OUTBOX_RETRY_FIRST_DELAY. Raises
    Outbox.DoesNotExist for an unknown id.
    """
    try:
        row = _hand_over(outbox_id)
    except Outbox.DoesNotExist:
        raise
    except Exception as error:
        if _infrastructure(error):
            # The database or Redis failed before anything was handed over: no attempt of the
            # email failed, so none is counted (its retry would wait OUTBOX_RETRY_FIRST_DELAY);
            # the relay publishes the row again OUTBOX_REPUBLISH_AFTER after its claim.
            logger.warning("outbox %s: not handed over (%r); published again by the relay", outbox_id, error)
            raise NotHandedOver(outbox_id) from error
        _record_failure(outbox_id, error, final_attempt=final_attempt)
        logger.warning("outbox %s: delivery failed (final=%s): %r", outbox_id, final_attempt, error)
        raise
    if row is None:
        return False
    try:
        channels.send(row)
    except Exception as error:
        _record_failure(outbox_id, error, final_attempt=final_attempt)
        logger.warning("outbox %s: delivery failed (final=%s): %r", outbox_id, final_attempt, error)
        raise
    return _mark_sent(outbox_id)


def _mark_sent(outbox_id: int) -> bool:
    """Step 3 of `deliver`: the row handed over is SENT; True unless its sender closed it unsent
    (a channel the operator turned off, `channels.turned_off`: SKIPPED). The provider has the message, so a
    database blip here must neither count as a failed attempt (it would be sent twice) nor leave
    the row to wait OUTBOX_HAND_OFF_WAIT as an interrupted hand-off: the update is tried again on
    fresh connections for about 30 s (`notifications.database_outage`). Should the database stay
    out of reach longer, its error is raised and the row keeps its `handed_at`: a later run finds
    the hand-off interrupted (`_interrupted_hand_off` decides)."""

    def mark() -> bool:
        marked = Outbox.objects.filter(pk=outbox_id, status=Outbox.Status.PENDING).update(
            status=Outbox.Status.SENT,
            sent_at=timezone.now(),
            attempts=F("attempts") + 1,
            last_error="",
            retry_at=None,
        )
        # Not PENDING any more: SENT by a first try whose commit the outage hid, or closed unsent.
        return bool(marked) or Outbox.objects.filter(pk=outbox_id, status=Outbox.Status.SENT).exists()

    try:
        return through_database_outage(mark, what=f"outbox {outbox_id} sent")
    except DatabaseError as error:
        logger.warning("outbox %s: handed over, but not marked sent (%r)", outbox_id, error)
        raise


def _not_yet(row: Outbox) -> bool:
    """Whether `row` waits: for its `not_before` (an email after a push), or, an email about a
    decision of a player at the table (their game page open: `players.at_the_table`), for
    AT_TABLE_SECONDS more (its `not_before` moved, saved by the caller's transaction). Left
    PENDING, the relay publishes it then; answered on the page meanwhile, it is stale."""
    now = timezone.now()
    if row.not_before is not None and row.not_before > now:
        return True
    seat = row.seat if row.seat_id is not None else None
    if (
        row.channel != Outbox.Channel.EMAIL
        or row.kind not in DECISION_KINDS
        or seat is None
        or not row.game_id
    ):
        return False
    if not at_the_table.at_the_table(row.game_id, seat.user_id):
        return False
    row.not_before = row.queued_at = now + timedelta(seconds=settings.AT_TABLE_SECONDS)
    store_sql.update(row, ["not_before", "queued_at"])
    return True


def _infrastructure(error: Exception) -> bool:
    """Whether `error` is no fault of the email or its provider: the database's (a connection
    ended, a failover) or Redis's (`players.at_the_table` reads its cache)."""
    # Imported when needed: the processes that import this module without delivering (the mail
    # server's pipe, `receive_email`) do not load the Redis client for it.
    from redis.exceptions import RedisError

    return isinstance(error, DatabaseError | RedisError)


def _hand_over(outbox_id: int) -> Outbox | None:
    """Step 1 of `deliver`, in its own transaction: the row `outbox_id`, written if needed, with
    `handed_at` recorded; None when there is nothing to send (not pending, waiting, stale,
    reported by the provider, or handed over moments ago). Raises Outbox.DoesNotExist, and what
    the database, Redis or the writing raised."""
    with transaction.atomic():
        row, player = sql.locked_for_delivery(outbox_id)
        if row.status != Outbox.Status.PENDING or _not_yet(row):
            return None
        clock = _clock_facts(row.seat) if row.seat_id is not None else None
        if _stale(row, clock):
            row.status = Outbox.Status.SKIPPED
            store_sql.update(row, ["status"])
            news_untold(row)
            return None
        if row.handed_at is not None:
            verdict = _interrupted_hand_off(row)
            if verdict == "provider has it":
                row.status, row.sent_at = Outbox.Status.SENT, row.provider_seen_at
                store_sql.update(row, ["status", "sent_at"])
                logger.info("outbox %s: handed over before a stop, the provider has it: sent", outbox_id)
                return None
            if verdict == "wait":
                return None
            logger.warning("outbox %s: handed over before a stop, no record of it: sent again", outbox_id)
        fields = ["handed_at"]
        if row.render_spec is not None:
            _write(row, deadline=clock[4] if clock else None, player=player)
            fields += WRITTEN_FIELDS
        row.handed_at = timezone.now()
        store_sql.update(row, fields)
    return row


def _interrupted_hand_off(row: Outbox) -> str:
    """What to do with a PENDING `row` already handed to the mail backend (`handed_at`) by a
    delivery that has not recorded SENT: "provider has it" (its tracking webhook reported the
    message: it is not sent again), "wait" (less than OUTBOX_HAND_OFF_WAIT seconds ago: that
    delivery may still be sending it, or the provider's report may still come), or "send again"
    (the provider never reported it, or, without MAIL_TRACKING, nobody can tell: sent again
    with the same Message-ID, which mail programs show once; or it was never handed over)."""
    if row.provider_seen_at is not None and settings.MAIL_TRACKING:
        return "provider has it"
    if row.handed_at is None:
        return "send again"
    if timezone.now() - row.handed_at < timedelta(seconds=settings.OUTBOX_HAND_OFF_WAIT):
        return "wait"
    return "send again"


def retry_delay(attempts: int) -> int:
    """Seconds before the sweep tries again an email that failed `attempts` times (1 or more):
    OUTBOX_RETRY_FIRST_DELAY, doubled with each attempt, at most OUTBOX_RETRY_MAX_DELAY."""
    first, most = settings.OUTBOX_RETRY_FIRST_DELAY, settings.OUTBOX_RETRY_MAX_DELAY
    return min(first * 2 ** min(max(attempts - 1, 0), 20), most)


def _record_failure(outbox_id: int, error: Exception, *, final_attempt: bool) -> None:
    """Count the failed attempt on the row (still PENDING; FAILED when `final_attempt`), with the
    error and when the sweep may try again."""
    unsent = Outbox.objects.filter(pk=outbox_id, status=Outbox.Status.PENDING)
    attempts = unsent.values_list("attempts", flat=True).first()
    if attempts is None:  # sent or skipped meanwhile, by another run
        return
    unsent.update(
        attempts=F("attempts") + 1,
        last_error=repr(error)[:2000],
        handed_at=None,  # the backend said it did not take it: no hand-off to wait for
        status=Outbox.Status.FAILED if final_attempt else Outbox.Status.PENDING,
        retry_at=timezone.now() + timedelta(seconds=retry_delay(attempts + 1)),
    )


def pending_ids(*, older_than_seconds: int) -> list[int]:
    """Ids of PENDING rows written more than `older_than_seconds` ago (their enqueue was lost),
    but those whose last attempt failed less than their `retry_delay` ago (their task retries
    them itself) and those due (`not_before`) less than `older_than_seconds` ago (the relay
    publishes them)."""
    now = timezone.now()
    cutoff = now - timedelta(seconds=older_than_seconds)
    return list(
        Outbox.objects.filter(status=Outbox.Status.PENDING, created_at__lt=cutoff)
        .filter(Q(retry_at__isnull=True) | Q(retry_at__lte=now))
        .filter(Q(not_before__isnull=True) | Q(not_before__lte=cutoff))
        .values_list("pk", flat=True)
    )


def retry_failed(*, retry_days: float | None = None) -> int:
    """Send again, by a `deliver` task each, the FAILED rows whose `retry_at` has come and that
    were written less than `retry_days` days ago (default OUTBOX_RETRY_DAYS); returns how many.
    Each is PENDING again first, so that a task lost with the broker is sent by the next sweep
    (`deliver_pending`). Older failed rows stay FAILED: an operator sends them again from the
    admin (`send_again`)."""
    now = timezone.now()
    if retry_days is None:
        retry_days = settings.OUTBOX_RETRY_DAYS
    due = Outbox.objects.filter(
        status=Outbox.Status.FAILED,
        retry_at__lte=now,
        created_at__gte=now - timedelta(days=retry_days),
    )
    return send_again(list(due.values_list("pk", flat=True)))


def send_again(outbox_ids: list[int]) -> int:
    """Make the FAILED rows among `outbox_ids` PENDING again and deliver them after the commit
    (one `deliver` task each, with its retries); rows in any other state are left as they are.
    Returns how many were FAILED."""
    with transaction.atomic():
        again = list(
            Outbox.objects.select_for_update()
            .filter(pk__in=outbox_ids, status=Outbox.Status.FAILED)
            .values_list("pk", flat=True)
        )
        Outbox.objects.filter(pk__in=again).update(status=Outbox.Status.PENDING, retry_at=None)
        for outbox_id in again:
            transaction.on_commit(lambda outbox_id=outbox_id: deliver_task.delay(outbox_id), robust=True)
    return len(again)


def answers_sent_recently(to_email: str, *, hours: float = 1.0) -> int:
    """How many answers (and stranger answers) went to `to_email` in the last `hours`."""
    since = timezone.now() - timedelta(hours=hours)
    return Outbox.objects.filter(
        kind=Outbox.Kind.ANSWER, to_email__iexact=to_email, created_at__gte=since
    ).count()


# The delivery's tasks (`notifications.tasks` names them all): they take ids, may run twice, and
# are retried.


@shared_task(name="notifications.tasks.deliver", bind=True, max_retries=RETRY_TASK_ATTEMPTS)
def deliver_task(self, outbox_id: int) -> bool:
    """Send the outbox row `outbox_id` once (see `deliver`). A failed send is retried (Celery's
    `retry` with a `countdown`) after the row's `retry_delay`, counted from the email's first
    failure (not from this task's retries: a task started again by the sweep or the admin goes
    on at the email's pace); the last allowed run marks the row FAILED, for the sweep."""
    try:
        return deliver(outbox_id, final_attempt=self.request.retries >= self.max_retries)
    except Outbox.DoesNotExist:
        raise
    except Exception as error:
        if self.request.retries >= self.max_retries:
            raise
        raise self.retry(exc=error, countdown=_countdown(outbox_id)) from error


def _countdown(outbox_id: int) -> int:
    """Seconds until the row `outbox_id` may be tried again: until its `retry_at`, recorded by
    the failure; OUTBOX_RETRY_FIRST_DELAY when no failure could be recorded (the database itself out
    of reach: the retry must not come at once)."""
    try:
        retry_at = Outbox.objects.filter(pk=outbox_id).values_list("retry_at", flat=True).first()
    except DatabaseError:
        return settings.OUTBOX_RETRY_FIRST_DELAY
    if retry_at is None or retry_at <= timezone.now():
        return settings.OUTBOX_RETRY_FIRST_DELAY
    return max(1, round((retry_at - timezone.now()).total_seconds()))


@shared_task(name="notifications.tasks.deliver_many", bind=True)
def deliver_many(self, outbox_ids: list[int]) -> int:
    """Send the outbox rows `outbox_ids` in order (the emails one command wrote, or an answer
    then the prompts held for it); returns how many this run sent. A row that fails gets a
    `deliver` task of its own, with its retries, on the queue this task came from (as a retry
    would be); a row that no longer exists is passed over."""
    routing_key = (self.request.delivery_info or {}).get("routing_key")
    sent = 0
    for outbox_id in outbox_ids:
        try:
            sent += deliver(outbox_id)
        except (Outbox.DoesNotExist, NotHandedOver):
            continue  # gone; or published again by the relay, at its pace
        except Exception:  # recorded on the row by deliver; retried alone, at the email's pace
            deliver_task.apply_async(
                (outbox_id,),
                countdown=_countdown(outbox_id),
                **({"queue": routing_key} if routing_key else {}),
            )
    return sent


@shared_task(name="notifications.tasks.deliver_pending")
def deliver_pending(older_than_seconds: int | None = None) -> int:
    """Enqueue every row left PENDING longer than OUTBOX_RESEND_AFTER seconds (or
    `older_than_seconds`): their on-commit enqueue was lost, or their worker died."""
    if older_than_seconds is None:
        older_than_seconds = settings.OUTBOX_RESEND_AFTER
    ids = pending_ids(older_than_seconds=older_than_seconds)
    for outbox_id in ids:
        deliver_task.delay(outbox_id)
    return len(ids)
