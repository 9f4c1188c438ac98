"""The command language's sentences in a player's language, from the gettext catalog of the mail.

The command language is pure Python (no Django), yet its help and answers are translated like
every other sentence of the mail: marked in the source (`gettext_noop` in tables, or
`pgettext` calls on a catalog where a word needs its context), extracted by Django's
`makemessages` into the catalog of `notifications` (`notifications/locale/fr/LC_MESSAGES/
django.po`, docs/translation.md), and read here with Python's own `gettext` from the compiled
`.mo` that `scripts/ensure-venv` makes. The language is always given ("en" or "fr"): a reply
is read and answered in its player's language, whatever language is active.
"""

from __future__ import annotations

import gettext
from functools import cache
from pathlib import Path

LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"


def gettext_noop(message: str) -> str:
    """Marks `message` for the catalog without translating it (tables); translate it with
    `catalog(language).gettext` where it is used."""
    return message


def language_code(language: str | None) -> str:
    """ "fr" for any French code ("fr", "fr-CA", "FR"), else "en"."""
    return "fr" if str(language or "").lower().startswith("fr") else "en"


@cache
def catalog(language: str | None) -> gettext.NullTranslations:
    """The sentences of `language` ("en", "fr" or a code such as "fr-FR"; anything else:
    English): its `gettext`, `pgettext` and `ngettext` give a sentence in that language. English
    is the source (no catalog); without a compiled French catalog the sentences stay English."""
    code = language_code(language)
    if code == "en":
        return gettext.NullTranslations()
    return gettext.translation("django", localedir=str(LOCALE_DIR), languages=[code], fallback=True)
