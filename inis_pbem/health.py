"""`/healthz`: whether this deployment can play games by email now, for monitoring
(docs/operations.md, "Watching it").

HTTP 200 when every check passes and 503 otherwise. To anybody, the answer is only that:

    {"ok": true}                        # or {"ok": false}, with 503

The whole report, for a signed-in staff user or a request carrying the HEALTHZ_TOKEN setting as
`Authorization: Bearer <token>` (compared in constant time; unset, no header opens it), is one
JSON object:

    {"ok": true,
     "database": "ok",                  # "ok" | "failing"
     "redis": "ok",                     # "ok" | "failing" | "not used" (no REDIS_URL: in-process tasks)
     "queue_length": 0,                 # tasks waiting in the Celery queue; null without Redis
     "undelivered_mail": 0,             # outbox rows not yet sent: pending or failed
     "failed_mail": 0,                  # of them, those whose delivery failed and whose task
                                        # gave up: the sweep tries them again for
                                        # OUTBOX_RETRY_DAYS, the admin's "Send again" at once
     "oldest_undelivered_mail_seconds": null,   # how long the oldest unsent has been due (an
                                        # email held on purpose, `not_before`, from then);
                                        # null when none is due
     "mail_delayed": false}             # that age is over 3 x OUTBOX_RESEND_AFTER: the worker
                                        # or beat is not running, or the provider refuses mail

No secret, host, address or error text is shown even then: a failing check says only "failing"
(the cause goes to the log). The queue length and the mail waiting tell how busy the site is and
whether its mail goes out, which is nobody else's business. GET or HEAD, never cached.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.db import connection
from django.db.models.functions import Coalesce, Greatest
from django.http import JsonResponse
from django.utils import timezone
from django.utils.crypto import constant_time_compare
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from notifications.models import Outbox

logger = logging.getLogger(__name__)

REDIS_TIMEOUT_SECONDS = 2
# Celery's Redis transport keeps one list per priority step, named "<queue>" for the default
# step and "<queue>\x06\x16<step>" for the others (kombu.transport.redis, PRIORITY_STEPS).
PRIORITY_STEPS = (0, 3, 6, 9)
PRIORITY_SEP = "\x06\x16"


@never_cache
@require_safe
def healthz(request):
    """The health report described in the module docstring (200 healthy, 503 not): the whole
    report for staff and the monitor's token, {"ok"} alone for anybody else."""
    report = {"database": _database(), **_redis(), **_mail()}
    delayed = report.get("mail_delayed", False)
    report = {"ok": report["database"] == "ok" and report["redis"] != "failing" and not delayed, **report}
    status = 200 if report["ok"] else 503
    if not _may_read_the_report(request):
        return JsonResponse({"ok": report["ok"]}, status=status)
    return JsonResponse(report, status=status)


def _may_read_the_report(request) -> bool:
    """A signed-in staff user, or `Authorization: Bearer <HEALTHZ_TOKEN>` (when that is set)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated and user.is_staff:
        return True
    token = getattr(settings, "HEALTHZ_TOKEN", None)
    scheme, _, given = request.headers.get("Authorization", "").partition(" ")
    return bool(token) and scheme.lower() == "bearer" and constant_time_compare(given.strip(), token)


def _database() -> str:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
    except Exception:  # any failure is "failing"; the cause is for the log, never the page
        logger.warning("healthz: the database does not answer", exc_info=True)
        return "failing"
    return "ok"


def _redis() -> dict:
    url = getattr(settings, "REDIS_URL", None)
    if not url:
        return {"redis": "not used", "queue_length": None}
    import redis  # the broker's client; only needed when there is a broker

    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    try:
        client = redis.Redis.from_url(
            url, socket_timeout=REDIS_TIMEOUT_SECONDS, socket_connect_timeout=REDIS_TIMEOUT_SECONDS
        )
        client.ping()
        length = sum(
            client.llen(queue if step == 0 else f"{queue}{PRIORITY_SEP}{step}") for step in PRIORITY_STEPS
        )
    except Exception:
        logger.warning("healthz: Redis does not answer", exc_info=True)
        return {"redis": "failing", "queue_length": None}
    return {"redis": "ok", "queue_length": length}


def _mail() -> dict:
    try:
        unsent = Outbox.objects.filter(status__in=(Outbox.Status.PENDING, Outbox.Status.FAILED))
        count = unsent.count()
        failed = unsent.filter(status=Outbox.Status.FAILED).count()
        # An email held on purpose (`not_before`: a decision's email after its push, a player's
        # delay) has waited only since it became due; one still held has not waited at all.
        due_since = Greatest("created_at", Coalesce("not_before", "created_at"))
        oldest = (
            unsent.exclude(status=Outbox.Status.PENDING, not_before__gt=timezone.now())
            .annotate(due_since=due_since)
            .order_by("due_since")
            .values_list("due_since", flat=True)
            .first()
        )
    except Exception:  # the database check reports it
        return {
            "undelivered_mail": None,
            "failed_mail": None,
            "oldest_undelivered_mail_seconds": None,
            "mail_delayed": False,
        }
    age = None if oldest is None else round((timezone.now() - oldest).total_seconds())
    limit = 3 * settings.OUTBOX_RESEND_AFTER
    return {
        "undelivered_mail": count,
        "failed_mail": failed,
        "oldest_undelivered_mail_seconds": age,
        "mail_delayed": age is not None and age > limit,
    }
