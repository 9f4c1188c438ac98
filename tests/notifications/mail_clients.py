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
- `outlook_google_sync`: Outlook through Google Apps Sync: the history after a dashed rule and a
  "*From:* / *Sent:* / *To:* / *Subject:*" block (bold turned into asterisks), not quoted.
- `outlook_word_html`: Outlook's HTML-only reply, Word HTML: a `<style>` block and conditional
  comments in `<head>`, `MsoNormal` paragraphs, the history under a bordered `<div>` header.
- `gmail_french`: Gmail in French: "Le lun. 23 nov. 2026 à 00:19, Inis by email" then
  "<address> a écrit :" on the next line, the history quoted with "> ".
- `bottom_posted`: Thunderbird set to answer under the quote: the attribution, the quoted
  history, then what the player typed (`above`: what they left above the attribution).

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


def gmail(
    original, words: str, *, sender="Alice Player <player1@example.org>", to=None, message_id=None
) -> bytes:
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
        f"{quoted_html}</blockquote></div>",
        subtype="html",
    )
    return message.as_bytes()


def outlook(
    original, words: str, *, sender="Bob Player <player2@example.org>", to=None, message_id=None
) -> bytes:
    """An Outlook reply: the history below an underscore rule and a From/Sent/To/Subject block."""
    message = _base(original, sender=sender, to=to, message_id=message_id)
    message["Thread-Index"] = "AQHZ" + uuid.uuid4().hex[:20]
    block = (
        f"________________________________\nFrom: {SENDER}\nSent: Monday, November 23, 2026 "
        f"4:19 PM\nTo: {sender}\nSubject: {original.subject}\n\n{original.body}"
    )
    message.set_content(f"{words}\n\n{block}\n")
    body_html = "".join(f"<div>{html.escape(line)}</div>" for line in words.splitlines())
    message.add_alternative(
        f'<html><body><div dir="ltr">{body_html}</div><hr style="display:inline-block;width:98%">'
        f'<div id="divRplyFwdMsg" dir="ltr"><b>From:</b> {html.escape(SENDER)}<br><b>Sent:</b> '
        f"Monday, November 23, 2026 4:19 PM<br><b>Subject:</b> {html.escape(original.subject)}"
        f"</div><div>{html.escape(original.body)}</div></body></html>",
        subtype="html",
    )
    return message.as_bytes()


def apple_mail(
    original,
    words: str,
    *,
    sender="Carol Player <player3@example.org>",
    to=None,
    message_id=None,
    signature="Carol\nSent from my iPhone",
) -> bytes:
    """An Apple Mail reply: text only, a signature, then "On ..., at ..., X wrote:" and "> "."""
    message = _base(original, sender=sender, to=to, message_id=message_id)
    text = (
        f"{words}\n\n{signature}\n\n> On 23 Nov 2026, at 16:19, Inis by email "
        f"<{_reply_to(original)}> wrote:\n> \n{_quoted(original.body)}\n"
    )
    message.set_content(text, params={"format": "flowed"})
    return message.as_bytes()


def thunderbird(
    original,
    words: str,
    *,
    sender="Alice Player <player1@example.org>",
    to=None,
    message_id=None,
    delsp: bool = False,
    width: int = 72,
) -> bytes:
    """A Thunderbird reply: `text/plain; format=flowed` (RFC 3676), each line of `words` wrapped at
    `width` characters, every wrap marked by a space at the line's end (with `delsp`, the space
    the client added, `DelSp=yes`, as Apple Mail sends), then the attribution and the quote."""
    lines = []
    for line in words.splitlines():
        wrapped = textwrap.wrap(line, width=width - 1, break_on_hyphens=False) or [""]
        # The space between the two words stays at the end of the first line; with DelSp=yes
        # the client adds one more, the mark of its break, which the reader drops.
        mark = "  " if delsp else " "
        lines += [part + mark for part in wrapped[:-1]] + wrapped[-1:]
    text = "\n".join(lines) + f"\n\nOn 23/11/2026 16:19, Inis by email wrote:\n{_quoted(original.body)}\n"
    message = _base(original, sender=sender, to=to, message_id=message_id)
    message.set_content(text, cte="8bit", params={"format": "flowed", "delsp": "yes" if delsp else "no"})
    return message.as_bytes()


def html_only(
    original, words: str, *, sender="Dan Player <player4@example.org>", to=None, message_id=None
) -> bytes:
    """A reply with a single text/html part, the history in a blockquote."""
    message = _base(original, sender=sender, to=to, message_id=message_id)
    body_html = "".join(f"<p>{html.escape(line)}</p>" for line in words.splitlines())
    message.set_content(
        f'<html><body>{body_html}<blockquote type="cite">{html.escape(original.body)}'
        f"</blockquote></body></html>",
        subtype="html",
    )
    return message.as_bytes()


def outlook_google_sync(
    original, words: str, *, sender="Eve Player <player1@example.org>", to=None, message_id=None
) -> bytes:
    """Outlook through Google Apps Sync: a dashed rule, then a bold From/Sent/To/Subject block
    written with asterisks in the text part, then the history unquoted."""
    message = _base(original, sender=sender, to=to, message_id=message_id)
    block = (
        f"-----------------------------\n*From:* Inis by email [mailto:{_reply_to(original)}]\n"
        f"*Sent:* Monday, November 23, 2026 4:19 PM\n*To:* {sender}\n"
        f"*Subject:* {original.subject}\n\n{original.body}"
    )
    message.set_content(f"{words}\n\n{block}\n")
    body_html = "".join(f"<div>{html.escape(line)}</div>" for line in words.splitlines())
    message.add_alternative(
        f"<html><body>{body_html}<br><hr><b>From:</b> Inis by email "
        f"[mailto:{html.escape(_reply_to(original))}]<br><b>Sent:</b> Monday, November 23, 2026 "
        f"4:19 PM<br><b>Subject:</b> {html.escape(original.subject)}<br><br>"
        f"{html.escape(original.body).replace(chr(10), '<br>')}</body></html>",
        subtype="html",
    )
    return message.as_bytes()


WORD_HEAD = """<head>
<meta http-equiv="Content-Type" content="text/html; charset=utf-8">
<meta name="Generator" content="Microsoft Word 15 (filtered medium)">
<style><!--
/* Font Definitions */
@font-face
\t{font-family:"Cambria Math";
\tpanose-1:2 4 5 3 5 4 6 3 2 4;}
@font-face
\t{font-family:Calibri;
\tpanose-1:2 15 5 2 2 2 4 3 2 4;}
/* Style Definitions */
p.MsoNormal, li.MsoNormal, div.MsoNormal
\t{margin:0in;
\tfont-size:11.0pt;
\tfont-family:"Calibri",sans-serif;}
a:link, span.MsoHyperlink
\t{mso-style-priority:99;
\tcolor:#0563C1;
\ttext-decoration:underline;}
span.EmailStyle19
\t{mso-style-type:personal-reply;
\tfont-family:"Calibri",sans-serif;
\tcolor:windowtext;}
.MsoChpDefault
\t{mso-style-type:export-only;
\tfont-size:10.0pt;}
@page WordSection1
\t{size:8.5in 11.0in;
\tmargin:1.0in 1.0in 1.0in 1.0in;}
div.WordSection1
\t{page:WordSection1;}
--></style><!--[if gte mso 9]><xml>
<o:shapedefaults v:ext="edit" spidmax="1026" />
</xml><![endif]--><!--[if gte mso 9]><xml>
<o:shapelayout v:ext="edit">
<o:idmap v:ext="edit" data="1" />
</o:shapelayout></xml><![endif]-->
</head>"""


def outlook_word_html(
    original, words: str, *, sender="Frank Player <player1@example.org>", to=None, message_id=None
) -> bytes:
    """Outlook's HTML-only reply: Word HTML with its `<style>` in `<head>`, the history below a
    bordered header `<div>`."""
    message = _base(original, sender=sender, to=to, message_id=message_id)
    message["Thread-Index"] = "AQHZ" + uuid.uuid4().hex[:20]
    typed = "".join(
        f'<p class="MsoNormal">{html.escape(line)}<o:p></o:p></p>\n' for line in words.splitlines()
    )
    history = "".join(
        f'<p class="MsoNormal">{html.escape(line) or "<o:p>&nbsp;</o:p>"}<o:p></o:p></p>\n'
        for line in original.body.splitlines()
    )
    message.set_content(
        '<html xmlns:v="urn:schemas-microsoft-com:vml" '
        'xmlns:o="urn:schemas-microsoft-com:office:office" '
        'xmlns:w="urn:schemas-microsoft-com:office:word" '
        'xmlns:m="http://schemas.microsoft.com/office/2004/12/omml" '
        f'xmlns="http://www.w3.org/TR/REC-html40">\n{WORD_HEAD}\n'
        '<body lang="EN-US" link="#0563C1" vlink="#954F72" style="word-wrap:break-word">\n'
        f'<div class="WordSection1">\n{typed}<p class="MsoNormal"><o:p>&nbsp;</o:p></p>\n'
        '<div style="border:none;border-top:solid #E1E1E1 1.0pt;padding:3.0pt 0in 0in 0in">\n'
        f'<p class="MsoNormal"><b>From:</b> Inis by email &lt;{html.escape(_reply_to(original))}'
        f"&gt; <br>\n<b>Sent:</b> Monday, November 23, 2026 4:19 PM<br>\n<b>To:</b> "
        f"{html.escape(sender)}<br>\n<b>Subject:</b> {html.escape(original.subject)}"
        f'<o:p></o:p></p>\n</div>\n<p class="MsoNormal"><o:p>&nbsp;</o:p></p>\n{history}'
        "</div>\n</body>\n</html>\n",
        subtype="html",
    )
    return message.as_bytes()


def gmail_french(
    original, words: str, *, sender="Gaëlle Joueuse <player1@example.org>", to=None, message_id=None
) -> bytes:
    """Gmail in French: the attribution wrapped over two lines, "... a écrit :" on the second."""
    message = _base(original, sender=sender, to=to, message_id=message_id)
    when = "lun. 23 nov. 2026 à 00:19"
    attribution = f"Le {when}, Inis by email\n<{_reply_to(original)}> a écrit :"
    message.set_content(f"{words}\n\n{attribution}\n\n{_quoted(original.body)}\n")
    body_html = "<br>".join(html.escape(line) for line in words.splitlines())
    message.add_alternative(
        f'<div dir="ltr">{body_html}</div><br><div class="gmail_quote"><div dir="ltr" '
        f'class="gmail_attr">Le {when}, Inis by email &lt;{html.escape(_reply_to(original))}'
        f'&gt; a écrit&nbsp;:<br></div><blockquote class="gmail_quote" style="margin:0px 0px 0px '
        f'0.8ex">{html.escape(original.body).replace(chr(10), "<br>")}</blockquote></div>',
        subtype="html",
    )
    return message.as_bytes()


def bottom_posted(
    original,
    words: str,
    *,
    above: str = "",
    sender="Hugo Player <player1@example.org>",
    to=None,
    message_id=None,
) -> bytes:
    """Thunderbird answering under the quote: attribution, "> " history, then `words`."""
    message = _base(original, sender=sender, to=to, message_id=message_id)
    head = f"{above}\n\n" if above else ""
    message.set_content(
        f"{head}On 23/11/2026 16:19, Inis by email wrote:\n{_quoted(original.body)}\n\n{words}\n"
    )
    return message.as_bytes()


def plain(
    *,
    sender: str,
    to: str,
    subject: str,
    words: str,
    headers: dict | None = None,
    message_id: str | None = None,
) -> bytes:
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


CLIENTS = {
    "gmail": gmail,
    "outlook": outlook,
    "apple_mail": apple_mail,
    "html_only": html_only,
    "outlook_google_sync": outlook_google_sync,
    "outlook_word_html": outlook_word_html,
    "gmail_french": gmail_french,
    "bottom_posted": bottom_posted,
}


def address(name: str, email: str) -> str:
    """`Name <email>`."""
    return formataddr((name, email))
