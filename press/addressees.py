"""Who a message of table talk is to, in words, for answers, emails and pages (in the active
language)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.rules import colour_name
from press.models import PressMessage


def addressee_words(message: PressMessage) -> str:
    """ "everyone at the table" or the recipients' colours ("blue"), for answers and pages, in
    the active language."""
    return _("everyone at the table") if message.recipients is None else addressee_list(message.recipients)


def addressee_list(recipients, reader: str | None = None) -> str:
    """The colours of a private message's `recipients` as words, "you" for `reader`'s own:
    "blue", "you", "you and blue" (French: "bleu", "vous", "vous et bleu")."""
    words = [pgettext("addressee", "you") if c == reader else colour_name(c) for c in recipients]
    text = words[0] if words else ""
    for word in words[1:]:
        text = _("{first} and {second}").format(first=text, second=word)
    return text
