"""The development mailbox: an email backend that keeps every message in the database.

Selected by default (settings/email.py) so that a developer sees every prompt at /dev/mailbox/
without a mail server; the production checks refuse it (inis_pbem.checks).
"""

from __future__ import annotations

from django.core.mail.backends.base import BaseEmailBackend


class DevMailboxBackend(BaseEmailBackend):
    """Stores each message as a `DevEmail` row; never sends anything."""

    def send_messages(self, email_messages) -> int:
        from notifications.models import DevEmail  # the backend is loaded before the app registry

        stored = 0
        for message in email_messages:
            html = ""
            for content, mimetype in getattr(message, "alternatives", []) or []:
                if mimetype == "text/html":
                    html = content
            mime = message.message()
            DevEmail.objects.create(
                from_email=message.from_email,
                to=list(message.recipients()),
                subject=message.subject,
                body_text=message.body,
                body_html=html,
                headers={key: str(value) for key, value in mime.items()},
            )
            stored += 1
        return stored
