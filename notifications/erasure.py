"""The mail's part of a person's data (docs/privacy.md): the stored emails to and from them for
their archive; when they are erased, those and the copies of others' emails that quote them.

Registered as a personal data holder (`players.personal_data`) in `NotificationsConfig.ready()`.
What goes: every outbox row to their address; every inbound email from it (the row stays with
its Message-ID and status, so that a provider delivering it again is still recognised, but its
message, sender and detail are emptied); every stored copy, to anyone, that holds one of their
traces (their address, their name, the words of their table talk): outbox rows already sent (or
that will never be), digest lines already mailed, inbound messages (where a trace stands as an
address or as words of its own, whatever its case: `Person.tracer`; "Don" is not in "Done."),
the development mailbox.

What another player has not received yet is theirs, not the erased person's: an email still to
be sent to someone else (a prompt for an open decision among them), and a news line still
waiting for its digest, are kept and rewritten as the site now reads (`_rewrite`): the name and
address become the seat's "Player N (left)" (in the reader's language; "a player who left"
outside a game of theirs) and their words the sentence the site shows for erased words. A
prompt written at its delivery holds no text yet (`notifications.prompts_at_delivery`): it is
written later, from the log and the seats as they then read.
"""

from __future__ import annotations

import email
import email.policy
import json
import re
from html import unescape

from django.db.models import Q, TextField
from django.db.models.functions import Cast
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext as _

from games import rules
from games.models import Seat
from games.story.names import joined
from notifications.command_language.reply_parts import html_to_text
from notifications.models import DevEmail, InboundEmail, NewsItem, Outbox
from players.display_names import seat_names
from players.email_addresses import canonical_address
from players.models import Player
from players.personal_data import Person, as_words

# Rows read at a time while looking for traces in stored copies.
CHUNK = 500
# The rows not sent yet, to be sent: another player's, kept and rewritten (the module docstring).
UNSENT = (Outbox.Status.PENDING, Outbox.Status.HELD, Outbox.Status.FAILED)
# An outbox row's text fields, and its JSON ones (what a prompt is written from, its headers).
_TEXT_FIELDS = ("subject", "body_text", "body_html")
_JSON_FIELDS = ("render_spec", "headers")


def _holding(model, fields: tuple[str, ...], traces: list[str]) -> Q:
    """A filter of the rows of `model` whose `fields` contain any of `traces`, in any case."""
    found = Q(pk__in=[])
    for trace in traces:
        for name in fields:
            found |= Q(**{f"{name}__icontains": trace})
    return found


def _outbox_holding(traces: list[str]) -> Q:
    """A filter of the outbox rows whose text or JSON fields hold any of `traces` (a JSON field
    read as its text, where a trace is JSON-escaped: its line breaks and quotes as `\\n`, `\\"`).
    Needs `_with_json_text`'s annotations."""
    escaped = [json.dumps(trace, ensure_ascii=False)[1:-1] for trace in traces]
    return _holding(Outbox, _TEXT_FIELDS, traces) | _holding(
        Outbox, tuple(f"{name}_text" for name in _JSON_FIELDS), escaped
    )


def _with_json_text(rows):
    """`rows` (outbox rows) annotated with their JSON fields as text (`<field>_text`)."""
    return rows.annotate(**{f"{name}_text": Cast(name, TextField()) for name in _JSON_FIELDS})


def remember_seats(person: Person) -> None:
    """Erasure's first step (`players.personal_data`): note `person`'s seats in `person.seats`
    before they are left, so that the copies kept for other players name them as their seat
    then reads ("Player N (left)")."""
    seats = Seat.objects.filter(Q(user_id=person.user_id) | Q(email=person.email), is_bot=False)
    person.seats.extend(seats.values_list("pk", flat=True))


def _rewrite(text: str, person: Person, *, who: str, erased: str, html: bool = False) -> str:
    """`text` with `person`'s traces (`Person.traces`) replaced: their words by `erased`, their
    address (whatever its case) and name by `who`, the longest first (words may hold the name);
    html: `text` is HTML, where a trace may stand escaped, and the replacements are escaped.
    The name and words are replaced only where they stand as words of their own
    (`personal_data.as_words`): "Don" leaves "Done." as it is, a message "ok" leaves "book"
    (the rows are found by any text holding them; what another player reads keeps its words)."""
    words = set(person.words)
    for trace in sorted(person.traces(), key=len, reverse=True):
        replacement = erased if trace in words else who
        replacement = escape(replacement) if html else replacement
        # A template's replacement is taken as it is, backslashes included.
        said = replacement.replace("\\", "\\\\")
        for found in {trace, escape(trace)} if html else {trace}:
            if trace == person.email:
                text = re.sub(re.escape(found), said, text, flags=re.IGNORECASE)
            else:
                text = re.sub(as_words(found), said, text)
    return text


def _rewrite_json(value, person: Person, *, who: str, erased: str):
    """The JSON value `value` with every string in it rewritten (`_rewrite`)."""
    if isinstance(value, str):
        return _rewrite(value, person, who=who, erased=erased)
    if isinstance(value, list):
        return [_rewrite_json(item, person, who=who, erased=erased) for item in value]
    if isinstance(value, dict):
        return {key: _rewrite_json(item, person, who=who, erased=erased) for key, item in value.items()}
    return value


def _as_read_now(person: Person, *, game_id: int | None, reader: str) -> tuple[str, str, str]:
    """(what names `person` now, what their words read now, the reader's language) for the
    reader of address `reader`, in their language: their seat's name in the game `game_id`
    ("Player 2 (left)"), "a player who left" outside a game of theirs; the sentence the site
    shows for erased words."""
    language = (
        Player.objects.filter(email=canonical_address(reader)).values_list("language", flat=True).first()
        if reader
        else None
    ) or "en"
    with translation.override(language):
        seats = Seat.objects.filter(pk__in=person.seats, game_id=game_id) if game_id is not None else []
        names = list(seat_names(seats).values())
        who = names[0] if names else _("a player who left")
        return who, _("(erased: its author left and took their words with them)"), language


def _joined(text: str, *, who: str, language: str) -> str:
    """`text` (rewritten: `who` in place of the name) with `who` joined with its seat's colour as
    a sentence says it: "Don (green)" became "Player 1 (left) (green)", which reads "Player 1
    (left, green)" (`games.story.names.joined`), in the reader's `language`."""
    with translation.override(language):
        for colour in rules.COLOURS:
            if f"{who} ({rules.colour_name(colour)})" in text:
                with rules.players_named({colour: who}):
                    text = joined(text)
    return text


def _keep_for_others(person: Person, traces: list[str]) -> None:
    """Rewrite the copies another player has not received yet (the module docstring): the
    outbox rows to others still to be sent, the news lines still waiting for a digest."""
    rows = _with_json_text(Outbox.objects.filter(status__in=UNSENT).exclude(to_email__iexact=person.email))
    for row in rows.filter(_outbox_holding(traces)).select_related("seat"):
        who, erased, language = _as_read_now(person, game_id=row.game_id, reader=row.to_email)
        row.subject = _joined(
            _rewrite(row.subject, person, who=who, erased=erased), who=who, language=language
        )
        row.body_text = _joined(
            _rewrite(row.body_text, person, who=who, erased=erased), who=who, language=language
        )
        row.body_html = _joined(
            _rewrite(row.body_html, person, who=who, erased=erased, html=True), who=who, language=language
        )
        row.render_spec = _rewrite_json(row.render_spec, person, who=who, erased=erased)
        row.headers = _rewrite_json(row.headers, person, who=who, erased=erased)
        row.save(update_fields=[*_TEXT_FIELDS, *_JSON_FIELDS])
    waiting = NewsItem.objects.filter(_holding(NewsItem, ("text",), traces), mailed_at__isnull=True)
    for item in waiting.select_related("seat"):
        who, erased, language = _as_read_now(person, game_id=item.game_id, reader=item.seat.email)
        item.text = _joined(_rewrite(item.text, person, who=who, erased=erased), who=who, language=language)
        item.save(update_fields=["text"])


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


def _raw_holding(person: Person) -> list[int]:
    """The inbound emails whose message holds one of `person`'s traces (`Person.tracer`), as a reader
    reads it, decoded (`_readable_text`), or as its bytes stand. Read in Python: the database
    sees a BinaryField as bytes, and mail programs send accented text as quoted-printable or
    base64, which no search of the bytes finds."""
    holds = person.tracer()
    found = []
    rows = InboundEmail.objects.exclude(raw=b"").order_by("pk").values_list("pk", "raw")
    for pk, raw in rows.iterator(chunk_size=CHUNK):
        raw = bytes(raw)
        if holds(_readable_text(raw)) or holds(raw.decode("utf-8", errors="replace")):
            found.append(pk)
    return found


def _inbound_lines_holding(person: Person) -> list[int]:
    """The inbound emails whose outcome's line or envelope address holds one of `person`'s
    traces (`Person.tracer`): those holding one in any case, as the database finds them, then read."""
    holds = person.tracer()
    fields = ("detail", "envelope_to")
    found = Q(pk__in=[])
    for trace in person.traces():
        for name in fields:
            found |= Q(**{f"{name}__icontains": trace})
    rows = InboundEmail.objects.filter(found).values_list("pk", *fields)
    return [pk for pk, *texts in rows if any(holds(text) for text in texts)]


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


def _strings(value) -> list[str]:
    """Every string of the JSON value `value` (keys and leaves, at any depth)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [text for item in value for text in _strings(item)]
    if isinstance(value, dict):
        return [text for key, item in value.items() for text in [key, *_strings(item)]]
    return []


def _sent_copies(person: Person, traces: list[str]) -> list[int]:
    """The outbox rows to others already sent (or that will never be) that hold one of `person`'s
    traces as `Person.tracer` finds it ("Don" is not in "Done."), in their subject, their text,
    their HTML as it reads (its entities decoded), or a string of what they are written from or
    of their headers: those holding one anywhere, as the database finds them, then read."""
    holds = person.tracer()
    rows = _with_json_text(Outbox.objects.exclude(status__in=UNSENT)).filter(_outbox_holding(traces))
    found = []
    for row in rows.only("pk", *_TEXT_FIELDS, *_JSON_FIELDS).iterator(chunk_size=CHUNK):
        texts = [row.subject, row.body_text, unescape(row.body_html)]
        if any(holds(text) for text in texts + _strings(row.render_spec) + _strings(row.headers)):
            found.append(row.pk)
    return found


def erase_mail(person: Person) -> None:
    """Delete, empty and rewrite the copies described in the module docstring, in the caller's
    transaction. Runs after the seats were left (`person.seats`, `remember_seats`).

    The stored emails are emptied first, then the outbox rows and news lines changed: an email
    being processed locks its stored email's row before the outbox rows and news lines it
    changes (the acceptances held for a seat, said in its game-over email; the news lines a
    prompt tells), so the erasure waits for it holding none of them (docs/privacy.md's order).
    Their outbox rows go before the acceptances held for them, for the same reason: a prompt
    being delivered locks its row, then the acceptances it says."""
    traces = person.traces()
    inbound = set(_raw_holding(person))
    inbound |= set(InboundEmail.objects.filter(from_email__iexact=person.email).values_list("pk", flat=True))
    inbound |= set(_inbound_lines_holding(person))
    InboundEmail.objects.filter(pk__in=inbound).update(raw=b"", from_email="", detail="", envelope_to="")
    gone = Outbox.objects.filter(Q(to_email__iexact=person.email) | Q(pk__in=_sent_copies(person, traces)))
    # The acceptances held for their next email last: its delivery locks that email, then them
    # (`acceptances.fold_into`); held first, they would wait for the email it holds.
    gone.exclude(kind=Outbox.Kind.ANSWER, status=Outbox.Status.HELD).delete()
    gone.delete()
    holds = person.tracer()
    mailed = NewsItem.objects.filter(_holding(NewsItem, ("text",), traces), mailed_at__isnull=False)
    NewsItem.objects.filter(
        pk__in=[pk for pk, text in mailed.values_list("pk", "text") if holds(text)]
    ).delete()
    _keep_for_others(person, traces)
    DevEmail.objects.filter(pk__in=_dev_mail_holding(traces)).delete()


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
