"""`my data` and `erase my account` by email (docs/email-commands.md, docs/privacy.md).

Written to the plain inbound address, on a line of its own (French: `mes données`, `effacer
mon compte`). The answer goes to the account of the sender's address, never anywhere else: a
forged sender only makes the real owner receive a link they did not ask for, which does
nothing by itself. `my data` answers with a link that downloads the archive and does nothing
else (`players.signed_tokens.my_data_token`, MY_DATA_LINK_DAYS days; it signs nobody in);
`erase my account` with the link to the erasure page (it acts ERASURE_LINK_HOURS hours, and
erases only on its button). A sender without an account is answered as any stranger is.
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils import translation

from notifications.command_language import reply_lines
from notifications.command_language.words import fold
from notifications.inbound_hooks import UnseatedAnswer
from notifications.prompts import render_email
from players.email_addresses import canonical_address
from players.models import Player
from players.signed_tokens import ERASURE_LINK_HOURS, MY_DATA_LINK_DAYS, erasure_token, my_data_token

COMMANDS = {
    "my data": "data",
    "mes donnees": "data",
    "erase my account": "erase",
    "effacer mon compte": "erase",
}


def read_command(text: str) -> str | None:
    """ "data" or "erase" when the first line written in `text` (a mail's text, or its HTML
    when it has no text part) is one of COMMANDS (any case, accents and a final full stop
    aside), else None. The first line is read as the open tables' commands read it
    (`reply_lines`: HTML as the text it shows, the quoted mail left out)."""
    lines = reply_lines(text or "")
    return COMMANDS.get(fold(lines[0]).strip().rstrip(".!").strip()) if lines else None


def answer_your_data_mail(token: str | None, text: str, sender: str) -> UnseatedAnswer | None:
    """The answer to `my data` / `erase my account` (see the module), or None when the message
    is not one of them, carries a reply token, or comes from no account."""
    kind = read_command(text) if token is None else None
    if kind is None:
        return None
    user = get_user_model().objects.filter(email=canonical_address(sender), is_active=True).first()
    if user is None:
        return None
    language = Player.objects.filter(email=user.email).values_list("language", flat=True).first() or "en"
    if kind == "data":
        token = my_data_token(user_id=user.pk, email=user.email)
        link = f"{settings.SITE_URL}{reverse('email:my_data_link', args=[token])}"
    else:
        token = erasure_token(user_id=user.pk, email=user.email)
        link = f"{settings.SITE_URL}{reverse('email:erase', args=[token])}"
    with translation.override(language):
        email = render_email(
            "your_data_answer",
            {"kind": kind, "link": link, "hours": ERASURE_LINK_HOURS, "days": MY_DATA_LINK_DAYS},
            headers={"Auto-Submitted": "auto-replied"},
        )
    # To the account's own address as stored, not as the From line spells it (docs/privacy.md).
    return UnseatedAnswer(
        status="accepted", detail=f"Your data: the {kind} link was sent.", email=email, to=user.email
    )
