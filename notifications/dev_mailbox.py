"""Answering by email in development: the development mailbox's reply form.

A reply typed under an email of the mailbox is written as a mail client writes it (From the
email's recipient, To its Reply-To address, `Re:` subject, In-Reply-To and References, the new
text above the quoted email) and handed to the same entry point as a message piped to
`manage.py receive_email`: stored once (`inbound.receive`), then played and answered
(`inbound.process`). The answer lands in the mailbox like every other email.
"""

from __future__ import annotations

from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.policy import default
from email.utils import format_datetime, make_msgid

from django.utils import timezone

from notifications import inbound
from notifications.models import DevEmail, InboundEmail

# InboundEmail.source of the replies made here (the mailbox lists them).
SOURCE = "dev-mailbox"


def reply_address(email: DevEmail) -> str | None:
    """Where a reply to `email` goes (its Reply-To), or None for an email nobody answers."""
    return email.headers.get("Reply-To") or None


def reply_message(email: DevEmail, text: str) -> bytes:
    """The raw RFC 822 reply (bytes) to `email` with `text` above the quoted original, as a mail
    client sends it. Raises ValueError for an email without a Reply-To."""
    to = reply_address(email)
    if to is None:
        raise ValueError("This email has no reply address.")
    message = EmailMessage()
    message["From"] = email.to[0]
    message["To"] = to
    subject = email.subject
    message["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    message["Date"] = format_datetime(timezone.now())
    message["Message-ID"] = make_msgid("dev-reply", domain="mailbox.localhost")
    original = email.headers.get("Message-ID")
    if original:
        message["In-Reply-To"] = original
        message["References"] = " ".join(filter(None, [email.headers.get("References"), original]))
    quoted = "\n".join(f"> {line}" if line else ">" for line in email.body_text.splitlines())
    sent = timezone.localtime(email.created_at).strftime("%a, %d %b %Y at %H:%M")
    message.set_content(f"{text.strip()}\n\nOn {sent}, {email.from_email} wrote:\n{quoted}\n")
    return message.as_bytes()


def send_reply(email: DevEmail, text: str) -> InboundEmail:
    """Reply to `email` with `text` through the `receive_email` path; the stored reply, played
    and answered (its `status` says what became of it). Raises ValueError for an email without
    a Reply-To; an error while playing it is recorded on the row (FAILED) and raised again."""
    row, created = inbound.receive(
        reply_message(email, text), source=SOURCE, envelope_to=reply_address(email), enqueue=False
    )
    if created or row.status == InboundEmail.Status.RECEIVED:
        inbound.process(row.pk)
        row.refresh_from_db()
    return row


def recent_replies(limit: int = 20) -> list[tuple[InboundEmail, str]]:
    """The replies sent from the mailbox, newest first: (row, its subject)."""
    rows = InboundEmail.objects.filter(source=SOURCE)[:limit]
    return [
        (row, str(BytesHeaderParser(policy=default).parsebytes(bytes(row.raw))["Subject"] or ""))
        for row in rows
    ]
