"""manage.py receive_email < message.eml — one email from a mail server's pipe (docs/management-commands.md)."""

from __future__ import annotations

import logging
import sys

from django.core.management.base import BaseCommand, CommandError

from notifications import inbound
from notifications.models import InboundEmail

logger = logging.getLogger(__name__)

# sysexits.h: a temporary failure; the mail server keeps the message and tries again later.
EX_TEMPFAIL = 75
# The largest message read (bytes): replies are short; a bigger one is refused, not stored.
MAX_BYTES = 10 * 1024 * 1024


class Command(BaseCommand):
    # `call_command("receive_email", stdin=BytesIO(raw))` in tests; the real pipe is sys.stdin.
    stealth_options = ("stdin",)
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
        stream = options.get("stdin") or sys.stdin.buffer
        raw = stream.read(MAX_BYTES + 1)
        if isinstance(raw, str):
            raw = raw.encode("utf-8", "surrogateescape")
        if not raw.strip():
            raise CommandError("No message on standard input.")
        if len(raw) > MAX_BYTES:
            raise CommandError(f"The message is larger than {MAX_BYTES} bytes.")
        try:
            self.stdout.write(self._receive(raw, options["envelope_to"]))
        except Exception as error:
            # Whatever fails once the message is read is ours, not the sender's: never a bounce.
            # Exit 75 and the mail server keeps the message and pipes it again later; if it was
            # stored, the next delivery (or the sweep) plays it from its row.
            logger.exception("receive_email: the message could not be handled now")
            self.stderr.write(
                f"Temporary failure ({error.__class__.__name__}): the message is kept; try again later."
            )
            sys.exit(EX_TEMPFAIL)

    def _receive(self, raw: bytes, envelope_to: str) -> str:
        """Store the message once, act on it unless that was done already; the outcome line."""
        row, created = inbound.receive(raw, source="pipe", envelope_to=envelope_to, enqueue=False)
        if not created and row.status != InboundEmail.Status.RECEIVED:
            return f"duplicate: message already received ({row.status})"
        # New, or stored by an earlier delivery that failed before acting on it.
        status = inbound.process(row.pk)
        row.refresh_from_db()
        where = f" (game {row.game_id}, {row.seat.colour})" if row.seat_id else ""
        return f"{status}{where}"
