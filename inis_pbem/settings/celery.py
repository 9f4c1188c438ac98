"""Celery: the broker and how tasks run (the app itself is `inis_pbem/celery.py`).

Environment:
- REDIS_URL: the broker, e.g. redis://127.0.0.1:6379/0. When it is unset, tasks run in-process
  at once (`task_always_eager`), so development needs no worker; production refuses that
  (inis_pbem.checks).
- CELERY_QUEUE (default "celery"): the queue tasks go to and workers read, so that deployments
  (or test runs) sharing one Redis do not take each other's tasks.
- BOTS_QUEUE (default: none, the tasks go to CELERY_QUEUE): the queue of the tasks that think
  for a seat (the bot seats' moves, the stand-ins', the deadline default), read by a worker of
  its own (`celery -A inis_pbem worker -Q <BOTS_QUEUE>`), so that a bot's thinking never takes
  the worker a person's prompt needs. `scripts/serve-production` sets it and starts that worker.
- SWEEP_EVERY (default 60): seconds between two runs of the sweep by celery beat.
"""

from datetime import timedelta

from inis_pbem.env import env_int, env_str

REDIS_URL = env_str("REDIS_URL")

CELERY_BROKER_URL = REDIS_URL or "memory://localhost/"
CELERY_TASK_ALWAYS_EAGER = REDIS_URL is None
CELERY_TASK_DEFAULT_QUEUE = env_str("CELERY_QUEUE", "celery")
BOTS_QUEUE = env_str("BOTS_QUEUE", "")
# The tasks that think for a seat (a hard bot's turn: seconds of CPU), by the names they carry.
BOT_TASKS = (
    "games.tasks.play_bots",
    "notifications.tasks.play_standins",
    "notifications.tasks.apply_deadline",
)
CELERY_TASK_ROUTES = {name: {"queue": BOTS_QUEUE} for name in BOT_TASKS} if BOTS_QUEUE else {}
# In-process tasks raise their errors where they were called; the callers that must not fail
# (transaction.on_commit hooks) are registered with robust=True, which logs instead.
CELERY_TASK_EAGER_PROPAGATES = True
# Our tasks are idempotent (they take ids and check state), so a task is acknowledged only after
# it ran: a worker that dies mid-task leaves it to be run again rather than lost.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

# One periodic task (celery beat): the sweep enqueues whatever is due — outbox rows whose
# on-commit enqueue was lost (broker down at that moment), reminders, deadline defaults, the
# stand-in bot, digests. Deadlines live in the database, never in long-delayed tasks.
CELERY_BEAT_SCHEDULE = {
    "sweep": {
        "task": "notifications.tasks.sweep",
        "schedule": timedelta(seconds=env_int("SWEEP_EVERY", 60)),
    },
}

# Celery closes the database connection after every task unless told to reuse it; opening one
# (a new PostgreSQL backend) cost more than sending the email (bench: prompt delivery, 97/s ->
# 223/s). Connections are reused; `inis_pbem.celery` closes after each task those that broke or
# outlived DB_CONN_MAX_AGE (set it above 0 on workers, e.g. 60, for the reuse to happen).
CELERY_DB_REUSE_MAX = 1_000_000
