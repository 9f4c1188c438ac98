"""Celery tasks of notifications, by the names queued tasks and beat carry: they take ids, call a
service, may run twice, and are retried. Each is defined beside the service it runs (the module
that also enqueues it), and named here so that the worker's discovery finds them all:

- `deliver`, `deliver_many`, `deliver_pending`: the outbox (`notifications.outbox`);
- `send_reminder`: a decision's reminder (`notifications.reminders`);
- `send_digest`: a player's daily digest (`notifications.digests`);
- `send_news`: a seat's coalesced news email (`notifications.news`);
- `process_inbound`: a received email, acted on and answered (`notifications.inbound`).

The one periodic task, `notifications.tasks.sweep`, sweeps every room's due work: it is the
project's (`inis_pbem.tasks`). The deadline default and the stand-in bot are the play room's
(`games.play.tasks`).
"""

from __future__ import annotations

from notifications.digests import send_digest_task as send_digest
from notifications.inbound import process_inbound_task as process_inbound
from notifications.news import send_news_task as send_news
from notifications.outbox import deliver_many, deliver_pending
from notifications.outbox import deliver_task as deliver
from notifications.reminders import send_reminder_task as send_reminder

__all__ = [
    "deliver",
    "deliver_many",
    "deliver_pending",
    "process_inbound",
    "send_digest",
    "send_news",
    "send_reminder",
]
