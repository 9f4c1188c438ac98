"""The mail's part of a person's data (docs/privacy.md): the stored emails to and from them for
their archive; when they are erased, those and the copies of others' emails that quote them.

Registered as a personal data holder (`players.personal_data`) in `NotificationsConfig.ready()`.
What goes: every outbox row to their address; every inbound email from it (the row stays with
its Message-ID and status, so that a provider delivering it again is still recognised, but its
message, sender and detail are emptied); every stored copy, to anyone, that holds one of their
traces (their address, their name, the words of their table talk): outbox rows, digest lines
(`NewsItem`), inbound messages, the development mailbox.
"""

from __future__ import annotations

import email
import email.policy
import re

from django.db.models import Q

from notifications.command_language.reply_parts import html_to_text
from notifications.models import DevEmail, InboundEmail, NewsItem, Outbox
from players.personal_data import Person

# Rows read at a time while looking for traces in stored copies.
CHUNK = 500
# What mail programs put before a line they quote: ">", "> ", ">> ", "> > ".
_QUOTE_PREFIX = re.compile(r"^[ \t]*(?:>[ \t]?)+")


def _holding(model, fields: tuple[str, ...], traces: list[str]) -> Q:
    """A filter of the rows of `model` whose `fields` contain any of `traces`."""
    found = Q(pk__in=[])
    for trace in traces:
        for name in fields:
            found |= Q(**{f"{name}__contains": trace})
    return found


def _folded(text: str) -> str:
    """`text` as a quoted copy keeps it, whatever the mail program did to the lines: each line
    without its quote prefixes ("> ", ">> ", "> > "), every run of white space one space,
    case folded. A message of several lines, quoted line by line and re-wrapped, folds to the
    same text as the message itself."""
    lines = (_QUOTE_PREFIX.sub("", line) for line in text.splitlines())
    return " ".join(" ".join(lines).split()).casefold()


def _readable_text(raw: bytes) -> str:
    """What a reader of the raw RFC 822 message `raw` sees: its headers decoded (RFC 2047 words)
    and every text part decoded (quoted-printable, base64, its charset), HTML as the text it
    shows. Never raises: a part that does not decode is read as its bytes in UTF-8, a message
    that does not parse as its bytes."""
    try:
        message = email.message_from_bytes(raw, policy=email.policy.default)
        texts = [f"{name}: {value}" for name, value in message.items()]
        for part in message.walk():
            if part.get_content_maintype() != "text":
                continue
            try:
                content = part.get_content()
            except (LookupError, ValueError, UnicodeError, AssertionError):  # an unknown charset...
                payload = part.get_payload(decode=True)
                content = payload.decode("utf-8", errors="replace") if isinstance(payload, bytes) else ""
            texts.append(html_to_text(content) if part.get_content_subtype() == "html" else content)
    except Exception:  # a message the parser refuses still holds its bytes
        return raw.decode("utf-8", errors="replace")
    return "\n".join(texts)


def _raw_holding(traces: list[str]) -> list[int]:
    """The inbound emails whose message holds one of `traces`, as a reader reads it: decoded
    (`_readable_text`), quoted or not, a trace of several lines matched line by line
    (`_folded`). Read in Python: the database sees a BinaryField as bytes, and mail programs
    send accented text as quoted-printable or base64, which no search of the bytes finds."""
    needles = [folded for folded in (_folded(t) for t in traces) if folded]
    found = []
    rows = InboundEmail.objects.exclude(raw=b"").order_by("pk").values_list("pk", "raw")
    for pk, raw in rows.iterator(chunk_size=CHUNK):
        raw = bytes(raw)
        read = _folded(_readable_text(raw))
        if any(needle in read for needle in needles) or any(t.encode("utf-8") in raw for t in traces):
            found.append(pk)
    return found


def _dev_mail_holding(traces: list[str]) -> list[int]:
    """The development mailbox's emails that hold one of `traces` anywhere (read in Python: its
    recipients are a JSON list)."""
    found = []
    for stored in DevEmail.objects.order_by("pk").iterator(chunk_size=CHUNK):
        whole = " ".join(
            [
                stored.from_email,
                *stored.to,
                stored.subject,
                stored.body_text,
                stored.body_html,
                str(stored.headers),
            ]
        )
        if any(trace in whole for trace in traces):
            found.append(stored.pk)
    return found


def erase_mail(person: Person) -> None:
    """Delete and empty the copies described in the module docstring, in the caller's transaction."""
    traces = person.traces()
    Outbox.objects.filter(
        Q(to_email__iexact=person.email) | _holding(Outbox, ("subject", "body_text", "body_html"), traces)
    ).delete()
    NewsItem.objects.filter(_holding(NewsItem, ("text",), traces)).delete()
    DevEmail.objects.filter(pk__in=_dev_mail_holding(traces)).delete()
    inbound = set(_raw_holding(traces))
    inbound |= set(InboundEmail.objects.filter(from_email__iexact=person.email).values_list("pk", flat=True))
    inbound |= set(
        InboundEmail.objects.filter(_holding(InboundEmail, ("detail", "envelope_to"), traces)).values_list(
            "pk", flat=True
        )
    )
    InboundEmail.objects.filter(pk__in=inbound).update(raw=b"", from_email="", detail="", envelope_to="")


def collect_mail(person: Person) -> dict[str, object]:
    """`person`'s part of their archive: "emails_to_you.json" (the outbox rows to their address,
    as stored) and "your_replies.json" (the inbound emails from it, the message as received)."""
    sent = Outbox.objects.filter(to_email__iexact=person.email).order_by("created_at", "id")
    received = InboundEmail.objects.filter(from_email__iexact=person.email).order_by("received_at", "id")
    return {
        "emails_to_you.json": [
            {
                "kind": row.kind,
                "status": row.status,
                "written_at": row.created_at.isoformat(),
                "sent_at": row.sent_at.isoformat() if row.sent_at else None,
                "subject": row.subject,
                "body": row.body_text,
            }
            for row in sent
        ],
        "your_replies.json": [
            {
                "received_at": row.received_at.isoformat(),
                "status": row.status,
                "message": bytes(row.raw).decode("utf-8", errors="replace"),
            }
            for row in received
        ],
    }
