"""manage.py receive_email < message.eml — one email from a mail server's pipe (docs/management-commands.md).

The mail server reads the exit status and whatever is written on standard output and standard
error (Postfix puts it in its log, and in the bounce when it bounces): 0 once the message is
handled, 75 (EX_TEMPFAIL) only when it must be piped again; never a traceback. Every log line of
the run is one line on standard error, without traceback, under the logger
`notifications.receive_email` for the command's own lines (docs/operations.md, "Inbound mail").
"""

from __future__ import annotations

import logging
import sys
from contextlib import contextmanager

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, SystemCheckError

from notifications import inbound
from notifications.database_outage import through_database_outage
from notifications.inbound_cap import NotStored
from notifications.models import InboundEmail

logger = logging.getLogger("notifications.receive_email")

# sysexits.h: a temporary failure; the mail server keeps the message and tries again later.
EX_TEMPFAIL = 75
# The largest message read (bytes): replies are short; a bigger one is refused, not stored.
MAX_BYTES = 10 * 1024 * 1024


def is_queue_outage(error: BaseException | None) -> bool:
    """Whether `error` (or an error it was raised from) says the task queue (Redis, REDIS_URL)
    cannot be reached: kombu's OperationalError, or redis' connection and time-out errors."""
    from kombu.exceptions import OperationalError as BrokerUnreachable
    from redis.exceptions import ConnectionError as RedisUnreachable
    from redis.exceptions import TimeoutError as RedisTimeout

    seen = set()
    while error is not None and id(error) not in seen:
        if isinstance(error, (BrokerUnreachable, RedisUnreachable, RedisTimeout)):
            return True
        seen.add(id(error))
        error = error.__cause__ or error.__context__
    return False


class _OneLine(logging.Formatter):
    """A handler's own format, on one line: an exception is named (its kind and message), never
    written out as a traceback."""

    def __init__(self, inner: logging.Formatter | None):
        super().__init__()
        self.inner = inner or logging.Formatter()

    def format(self, record: logging.LogRecord) -> str:
        flat = logging.makeLogRecord(record.__dict__)
        error = record.exc_info[1] if record.exc_info else None
        flat.exc_info, flat.exc_text, flat.stack_info = None, None, None
        text = self.inner.format(flat)
        if error is not None:
            text += f" [{error.__class__.__name__}: {error}]"
        return " ".join(text.split())


class _QueueOutages(logging.Filter):
    """Counts, and keeps out of the log, the records of a task that could not be queued because
    the task queue is down: the command says it once, in one warning line."""

    def __init__(self):
        super().__init__()
        self.count = 0

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and is_queue_outage(record.exc_info[1]):
            self.count += 1
            return False
        return True


@contextmanager
def _pipe_logging():
    """For the run: every handler of every logger writes one line per record (`_OneLine`) and
    leaves out the queue outages (`_QueueOutages`, yielded); restored afterwards."""
    outages = _QueueOutages()
    loggers = [logging.getLogger()] + [
        item for item in logging.Logger.manager.loggerDict.values() if isinstance(item, logging.Logger)
    ]
    handlers = {id(h): h for log in loggers for h in log.handlers}.values()
    saved = [(handler, handler.formatter) for handler in handlers]
    for handler, formatter in saved:
        handler.setFormatter(_OneLine(formatter))
        handler.addFilter(outages)
    try:
        yield outages
    finally:
        for handler, formatter in saved:
            handler.setFormatter(formatter)
            handler.removeFilter(outages)


class Command(BaseCommand):
    # `call_command("receive_email", stdin=BytesIO(raw))` in tests; the real pipe is sys.stdin.
    stealth_options = ("stdin",)
    # The system checks run in `handle`, where a refusal (a setting left at the guide's
    # placeholder) is a failure of ours: 75 and one line, never a bounce of the player's reply.
    requires_system_checks: list[str] = []
    help = (
        "Read one raw RFC 822 email on standard input (as a mail server pipes it), act on it as "
        "a reply and answer it. Prints one line: the outcome."
    )

    def add_arguments(self, parser):
        parser.add_argument(
            "--envelope-to",
            default="",
            metavar="ADDRESS",
            help="the envelope recipient given by the mail server (e.g. Postfix ${recipient})",
        )

    def handle(self, *args, **options):
        if not options.get("skip_checks"):  # as BaseCommand.execute would (`--skip-checks`)
            self._check_the_deployment()
        stream = options.get("stdin") or sys.stdin.buffer
        raw = stream.read(MAX_BYTES + 1)
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        if not raw.strip():
            raise CommandError("No message on standard input.")
        if len(raw) > MAX_BYTES:
            raise CommandError(f"The message is larger than {MAX_BYTES} bytes.")
        with _pipe_logging() as outages:
            try:
                outcome = self._receive_waiting_for_the_database(raw, options["envelope_to"])
            except Exception as error:
                # Whatever fails once the message is read is ours, not the sender's: never a
                # bounce. Exit 75 and the mail server keeps the message and pipes it again later;
                # if it was stored, the next delivery (or the sweep) plays it from its row.
                logger.error("the message could not be handled now; it is kept", exc_info=True)
                self.stderr.write(
                    f"Temporary failure ({error.__class__.__name__}): the message is kept; try again later."
                )
                sys.exit(EX_TEMPFAIL)
            if outages.count:
                # The reply is recorded (and answered in the outbox); only the tasks that send the
                # mail could not be queued: the sweep sends it. Not a reason to pipe it again.
                logger.warning(
                    "the task queue (REDIS_URL) cannot be reached: the reply is recorded (%s) and its "
                    "emails go out with the sweep, within %s seconds of the queue's return",
                    outcome,
                    settings.OUTBOX_RESEND_AFTER + 60,
                )
        self.stdout.write(outcome)

    def _check_the_deployment(self) -> None:
        """Django's system checks, as every other command runs them first; an error among them
        exits 75 with one line on standard error (the report goes to the log), so the mail
        server keeps the message until the operator fixes the settings."""
        try:
            self.check()
        except SystemCheckError as error:
            report = " ".join(line.strip() for line in str(error).splitlines() if line.strip())
            logger.error("the system checks refused the settings, the message is kept: %s", report)
            self.stderr.write("Temporary failure (SystemCheckError): the message is kept; try again later.")
            sys.exit(EX_TEMPFAIL)

    def _receive_waiting_for_the_database(self, raw: bytes, envelope_to: str) -> str:
        """`_receive`, tried again while the database is out of reach, for about 30 s
        (`notifications.database_outage`): a mail server tries a deferred message again only
        after minutes (Postfix's backoff), so a database blip must not cost the reply those
        minutes. Safe to repeat: the message is stored once per Message-ID and acted on once."""
        return through_database_outage(lambda: self._receive(raw, envelope_to), what="a piped reply")

    def _receive(self, raw: bytes, envelope_to: str) -> str:
        """Store the message once, act on it unless that was done already; the outcome line."""
        try:
            row, created = inbound.receive(raw, source="pipe", envelope_to=envelope_to, enqueue=False)
        except NotStored as refused:  # logged; exit 0: the mail server neither bounces nor retries
            return f"not stored: {refused}"
        if not created and row.status != InboundEmail.Status.RECEIVED:
            return f"duplicate: message already received ({row.status})"
        # New, or stored by an earlier delivery that failed before acting on it.
        status = inbound.process(row.pk)
        row.refresh_from_db()
        where = f" (game {row.game_id}, {row.seat.colour})" if row.seat_id else ""
        return f"{status}{where}"
