"""The email channel, the first registered: a written outbox row as an anymail message, sent
through Django's mail backend (EMAIL_BACKEND)."""

from __future__ import annotations

from urllib.parse import urlsplit

from anymail.message import AnymailMessage
from django.conf import settings

from notifications.models import Outbox


def message(row: Outbox) -> AnymailMessage:
    """The email of the written `row` (its Message-ID the same at every send), carrying its id as anymail metadata (`outbox`), which the
    provider's tracking webhook reports back (`notifications.tracking`); an anymail message is
    an EmailMultiAlternatives, which other backends send as such."""
    headers = dict(row.headers)
    # An email written without a Message-ID (a sign-in link) gets one from its row, not a fresh
    # one per send: sent again after a stop, its copies are one message to mail programs.
    headers.setdefault(
        "Message-ID", f"<inis-outbox-{row.pk}@{urlsplit(settings.SITE_URL).hostname or 'localhost'}>"
    )
    reply_to = headers.pop("Reply-To", None)
    email = AnymailMessage(
        subject=row.subject,
        body=row.body_text,
        from_email=settings.DEFAULT_FROM_EMAIL,
        to=[row.to_email],
        reply_to=[reply_to] if reply_to else None,
        headers=headers,
        metadata={"outbox": str(row.pk)},
    )
    if row.body_html:
        email.attach_alternative(row.body_html, "text/html")
    return email


def send(row: Outbox) -> None:
    """Send the written email `row` (the channel's sender); raises what the backend raised."""
    message(row).send()
