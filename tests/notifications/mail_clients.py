"""Replies as common mail clients write them, as raw RFC 822 bytes, for the inbound tests.

Each builder takes the email being answered (a `django.core.mail.EmailMessage` as the test
backends keep it) and the words the player types above the quoted history:

- `gmail`: multipart/alternative; the text part ends with Gmail's attribution line, wrapped over
  two lines when the sender's address is long, then the history quoted with "> "; the HTML part
  quotes it in `<div class="gmail_quote"><blockquote>`.
- `outlook`: multipart/alternative; the history follows an underscore rule and a
  "From: / Sent: / To: / Subject:" block, not quoted with ">"; Thread-Index header.
- `apple_mail`: text/plain (format=flowed) with "On <date>, at <time>, <sender> wrote:" and the
  history quoted with "> ", the player's signature above it.
- `html_only`: a single text/html part (some webmail and phone apps send nothing else).

`to` defaults to the answered email's Reply-To (what pressing "Reply" does).
"""
from __future__ import annotations

import html
import textwrap
import uuid
from email.message import EmailMessage
from email.utils import format_datetime, formataddr

from django.utils import timezone

SENDER = "Inis by email <inis@localhost>"


def _headers_of(original) -> dict:
    return {k: v for k, v in (getattr(original, "extra_headers", None) or {}).items()}


def _reply_to(original) -> str:
    reply_to = list(getattr(original, "reply_to", None) or [])
    if reply_to:
        return reply_to[0]
    return _headers_of(original).get("Reply-To") or original.from_email


def _base(original, *, sender: str, to: str | None, message_id: str | None) -> EmailMessage:
    headers = _headers_of(original)
    their_id = headers.get("Message-ID", "")
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to or _reply_to(original)
    subject = original.subject
    message["Subject"] = subject if subject.lower().startswith("re:") else f"Re: {subject}"
    message["Date"] = format_datetime(timezone.now())
    message["Message-ID"] = message_id or f"<{uuid.uuid4().hex}@mail.example.org>"
    if their_id:
        message["In-Reply-To"] = their_id
        message["References"] = " ".join(x for x in (headers.get("References"), their_id) if x)
    return message


def _quoted(text: str) -> str:
    return "\n".join(("> " + line) if line else ">" for line in text.splitlines())


def gmail(original, words: str, *, sender="Alice Player <player1@example.org>", to=None,
          message_id=None) -> bytes:
    """A Gmail reply: text and HTML, attribution wrapped over two lines, history quoted."""
    message = _base(original, sender=sender, to=to, message_id=message_id)
    when = "Mon, Nov 23, 2026 at 4:19 PM"
    attribution = textwrap.fill(f"On {when} Inis by email <{_reply_to(original)}> wrote:", width=72)
    text = f"{words}\n\n{attribution}\n\n{_quoted(original.body)}\n"
    message.set_content(text)
    body_html = "<br>".join(html.escape(line) for line in words.splitlines())
    quoted_html = html.escape(original.body).replace("\n", "<br>")
    message.add_alternative(
        f'<div dir="ltr">{body_html}</div><br><div class="gmail_quote"><div dir="ltr" '
        f'class="gmail_attr">On {when} Inis by email &lt;{html.escape(_reply_to(original))}&gt; '
        f'wrote:<br></div><blockquote class="gmail_quote" style="margin:0px 0px 0px 0.8ex">'
        f"{quoted_html}</blockquote></div>", subtype="html")
    return message.as_bytes()


def outlook(original, words: str, *, sender="Bob Player <player2@example.org>", to=None,
            message_id=None) -> bytes:
    """An Outlook reply: the history below an underscore rule and a From/Sent/To/Subject block."""
    message = _base(original, sender=sender, to=to, message_id=message_id)
    message["Thread-Index"] = "AQHZ" + uuid.uuid4().hex[:20]
    block = (f"________________________________\nFrom: {SENDER}\nSent: Monday, November 23, 2026 "
             f"4:19 PM\nTo: {sender}\nSubject: {original.subject}\n\n{original.body}")
    message.set_content(f"{words}\n\n{block}\n")
    body_html = "".join(f"<div>{html.escape(line)}</div>" for line in words.splitlines())
    message.add_alternative(
        f'<html><body><div dir="ltr">{body_html}</div><hr style="display:inline-block;width:98%">'
        f'<div id="divRplyFwdMsg" dir="ltr"><b>From:</b> {html.escape(SENDER)}<br><b>Sent:</b> '
        f"Monday, November 23, 2026 4:19 PM<br><b>Subject:</b> {html.escape(original.subject)}"
        f"</div><div>{html.escape(original.body)}</div></body></html>", subtype="html")
    return message.as_bytes()


def apple_mail(original, words: str, *, sender="Carol Player <player3@example.org>", to=None,
               message_id=None, signature="Carol\nSent from my iPhone") -> bytes:
    """An Apple Mail reply: text only, a signature, then "On ..., at ..., X wrote:" and "> "."""
    message = _base(original, sender=sender, to=to, message_id=message_id)
    text = (f"{words}\n\n{signature}\n\n> On 23 Nov 2026, at 16:19, Inis by email "
            f"<{_reply_to(original)}> wrote:\n> \n{_quoted(original.body)}\n")
    message.set_content(text, params={"format": "flowed"})
    return message.as_bytes()


def html_only(original, words: str, *, sender="Dan Player <player4@example.org>", to=None,
              message_id=None) -> bytes:
    """A reply with a single text/html part, the history in a blockquote."""
    message = _base(original, sender=sender, to=to, message_id=message_id)
    body_html = "".join(f"<p>{html.escape(line)}</p>" for line in words.splitlines())
    message.set_content(
        f"<html><body>{body_html}<blockquote type=\"cite\">{html.escape(original.body)}"
        f"</blockquote></body></html>", subtype="html")
    return message.as_bytes()


def plain(*, sender: str, to: str, subject: str, words: str, headers: dict | None = None,
          message_id: str | None = None) -> bytes:
    """A new message (not a reply): for forged, misaddressed and automatic mail."""
    message = EmailMessage()
    message["From"] = sender
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = format_datetime(timezone.now())
    message["Message-ID"] = message_id or f"<{uuid.uuid4().hex}@mail.example.org>"
    for name, value in (headers or {}).items():
        message[name] = value
    message.set_content(words)
    return message.as_bytes()


CLIENTS = {"gmail": gmail, "outlook": outlook, "apple_mail": apple_mail, "html_only": html_only}


def address(name: str, email: str) -> str:
    """`Name <email>`."""
    return formataddr((name, email))
