"""manage.py receive_email < message.eml — one email from a mail server's pipe (docs/management-commands.md)."""
from __future__ import annotations

import sys

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from notifications import inbound
from notifications.models import InboundEmail

# sysexits.h: a temporary failure; the mail server keeps the message and tries again later.
EX_TEMPFAIL = 75
# The largest message read (bytes): replies are short; a bigger one is refused, not stored.
MAX_BYTES = 10 * 1024 * 1024


class Command(BaseCommand):
    # `call_command("receive_email", stdin=BytesIO(raw))` in tests; the real pipe is sys.stdin.
    stealth_options = ("stdin",)
    help = ("Read one raw RFC 822 email on standard input (as a mail server pipes it), act on it as "
            "a reply and answer it. Prints one line: the outcome.")

    def add_arguments(self, parser):
        parser.add_argument("--envelope-to", default="", metavar="ADDRESS",
                            help="the envelope recipient given by the mail server (e.g. Postfix ${recipient})")

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
            row, created = inbound.receive(raw, source="pipe", envelope_to=options["envelope_to"], enqueue=False)
            status = inbound.process(row.pk) if created else None
        except DatabaseError as error:
            # The mail server keeps the message and pipes it again later.
            self.stderr.write(f"Temporary failure: {error.__class__.__name__}")
            sys.exit(EX_TEMPFAIL)
        if status is None:
            self.stdout.write(f"duplicate: message already received ({InboundEmail.objects.get(pk=row.pk).status})")
            return
        row.refresh_from_db()
        where = f" (game {row.game_id}, {row.seat.colour})" if row.seat_id else ""
        self.stdout.write(f"{status}{where}")
