"""What a player typed in a reply, set apart from the mail it quotes (docs/email-commands.md).

Mail programs quote the email being answered in many layouts: "> " lines under "On ... wrote:"
(Gmail, Apple Mail, Thunderbird), wrapped over two lines when the sender's address is long, in
French "Le ... a écrit :"; a rule of underscores or dashes then a "From: / Sent:" block (Outlook,
and Outlook through Google Apps Sync with "*From:*" in bold); `<blockquote>`, `gmail_quote` and
Word's bordered `<div>` in HTML. Finding them is what `quotequail` does (plain text and HTML,
several languages, wrapped attribution lines); turning HTML into text — Word HTML with its
`<style>` block in `<head>`, `<o:p>` tags, conditional comments — is what `inscriptis` does. This
module only joins the two and caps the work a hostile message can cause.

Pure Python (no Django): `notifications.command_language` reads the parts it returns.
"""

from __future__ import annotations

import html
import logging
import re
from dataclasses import dataclass
from typing import Any

import inscriptis
import quotequail

logger = logging.getLogger(__name__)

MAX_CHARS = 200_000  # of a body: more is no reply a person typed
MAX_LINES = 400  # lines searched for the quoted mail; commands come long before that

_HTML = re.compile(r"<(?:p|br|div|html|body|span|blockquote|table|head|style)\b", re.I)
_TAG = re.compile(r"<[^<>]{0,500}>")
_RULE = re.compile(r"^[\s\-_=*~]+$")


@dataclass(frozen=True)
class ReplyParts:
    """A reply cut around the mail it quotes.

    above: what was typed before the quoted mail (the whole text when nothing is quoted);
    below: what was typed after it ("" when nothing; a reply written under the quote);
    quoted: whether a quoted mail was found.
    """

    above: str
    below: str = ""
    quoted: bool = False


def split_reply(body: str) -> ReplyParts:
    """The parts of a reply body `body` (text, or HTML when the reply has no text part).

    HTML is cut around its quoted mail on its structure first (`<blockquote>`, Gmail's and
    Outlook's quote blocks), then each part becomes text; plain text is cut on its attribution
    line or header block. Never raises: a body the libraries cannot take is returned whole, as
    text, for the command reader's own rules (quoted ">" lines, "On ... wrote:" lines)."""
    body = (body or "")[:MAX_CHARS].replace("\r\n", "\n").replace("\r", "\n")
    if looks_like_html(body):
        parts = _split_html(body)
        if parts is not None:
            return parts
        body = html_to_text(body)
    return _split_text(body)


def looks_like_html(text: str) -> bool:
    """Whether `text` is HTML markup (a reply's only part may be HTML)."""
    return bool(_HTML.search(text))


def html_to_text(markup: str) -> str:
    """The text a reader sees in HTML `markup`: block elements on their own lines, `<head>`,
    `<style>` and `<script>` left out, entities decoded. Never raises."""
    if not markup.strip():
        return ""
    try:
        text: str = inscriptis.get_text(markup)
        return text
    except Exception:  # lxml refuses some garbage: drop the tags, keep the words
        logger.info("reply HTML not parsed; read with its tags dropped", exc_info=True)
        return html.unescape(_TAG.sub("\n", markup))


def _split_html(markup: str) -> ReplyParts | None:
    try:
        found = quotequail.unwrap_html(markup)
    except Exception:  # a document lxml cannot build: read it as text
        logger.info("reply HTML not searched for a quote", exc_info=True)
        return None
    if not found or not _is_quoted_mail(found):
        return None
    return ReplyParts(
        _trimmed(html_to_text(found.get("html_top", ""))),
        _trimmed(html_to_text(found.get("html_bottom", ""))),
        True,
    )


def _split_text(text: str) -> ReplyParts:
    lines = text.split("\n")
    head, tail = lines[:MAX_LINES], lines[MAX_LINES:]
    try:
        found = quotequail.unwrap("\n".join(head))
    except Exception:  # the library's bug must not lose the reply: read it whole
        logger.info("reply text not searched for a quote", exc_info=True)
        found = None
    if not found or not _is_quoted_mail(found):
        return ReplyParts(text)
    below = found.get("text_bottom", "")
    if tail and below:
        below = "\n".join([below, *tail])
    return ReplyParts(_trimmed(found.get("text_top", "")), _trimmed(below), True)


def _is_quoted_mail(found: dict[str, Any]) -> bool:
    """Whether what quotequail found is a mail: an attribution line, a forward rule, quoted ">"
    lines — or a header block naming an address, a date or a subject. A reply whose own lines
    happen to read "from: valley" / "to: cove" is no header block."""
    if found.get("type") != "forward" or "subject" in found or "date" in found:
        return True
    return any("@" in str(found.get(key, "")) for key in ("from", "to", "cc", "reply-to"))


def _trimmed(text: str) -> str:
    """`text` without the blank lines and the rules (dashes, underscores) around it: the rule
    above an Outlook header block belongs to the quote, not to the reply."""
    lines = text.split("\n")
    while lines and (not lines[-1].strip() or _RULE.match(lines[-1])):
        lines.pop()
    while lines and (not lines[0].strip() or _RULE.match(lines[0])):
        lines.pop(0)
    return "\n".join(lines)
