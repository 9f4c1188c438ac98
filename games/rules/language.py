"""The rules' words in the reader's language: English (the source) or French.

Every sentence the rules write for a player (decision prompts, `describe_command`, error
messages, the text board) goes through `gettext` (`_`) at the moment it is written, so it comes
out in the language active then. Messages are marked for Django's `makemessages` with the usual
names (`gettext`, `ngettext`, `pgettext`, `gettext_noop`); the French catalog is
`games/rules/locale/fr/LC_MESSAGES/django.po` (docs/translation.md).

Two ways the language is chosen, one at a time:
- without Django (the rules alone, `python -m games.verify`): `speaking("fr")` sets it for the
  current context, and the catalog is read with Python's own `gettext` from the compiled `.mo`;
  without a compiled catalog the words stay English.
- inside the Django project, `games.apps` calls `install(django.utils.translation)` at start-up:
  from then on Django's active language (a player's preference, `translation.override`) decides,
  and `speaking` is Django's `override`.

Placeholders are `str.format` names (`{territory}`): translate the sentence, then fill it with
names that are themselves translated (`territory_name`, `card_name`, `colour_name`).
"""
from __future__ import annotations

import contextvars
import gettext as stdlib_gettext
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path

LANGUAGES = ("en", "fr")
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

_language: contextvars.ContextVar[str] = contextvars.ContextVar("inis_rules_language", default="en")
_django = None  # django.utils.translation once `install` ran


def install(translation_module) -> None:
    """Let Django's translation machinery (`django.utils.translation`) choose the language and
    read the catalogs from now on (called once, by `games.apps.GamesConfig.ready`)."""
    global _django
    _django = translation_module


def language_code(language: str | None) -> str:
    """"fr" for any French code ("fr", "fr-CA", "FR"), else "en"."""
    return "fr" if str(language or "").lower().startswith("fr") else "en"


def current_language() -> str:
    """The language sentences are written in now: "en" or "fr"."""
    if _django is not None:
        return language_code(_django.get_language())
    return _language.get()


@contextmanager
def speaking(language: str | None):
    """Write in `language` ("en", "fr", or a code such as "fr-FR"; None: English) inside the block."""
    code = language_code(language)
    if _django is not None:
        with _django.override(code):
            yield
        return
    token = _language.set(code)
    try:
        yield
    finally:
        _language.reset(token)


@lru_cache(maxsize=None)
def _catalog(code: str):
    return stdlib_gettext.translation("django", localedir=str(LOCALE_DIR), languages=[code], fallback=True)


def gettext(message: str) -> str:
    """`message` in the current language (unchanged in English or when no translation exists)."""
    if _django is not None:
        return _django.gettext(message)
    code = _language.get()
    return message if code == "en" else _catalog(code).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural form for `count` (a number of things), in the current language."""
    if _django is not None:
        return _django.ngettext(singular, plural, count)
    code = _language.get()
    if code == "en":
        return singular if count == 1 else plural
    return _catalog(code).ngettext(singular, plural, count)


def pgettext(context: str, message: str) -> str:
    """`message` translated in `context` (for words whose translation depends on their use)."""
    if _django is not None:
        return _django.pgettext(context, message)
    code = _language.get()
    return message if code == "en" else _catalog(code).pgettext(context, message)


def gettext_noop(message: str) -> str:
    """Marks `message` for the catalog without translating it (module-level tables); translate
    it with `gettext` where it is used."""
    return message


_ = gettext

COLOUR_WORDS = {
    "green": gettext_noop("green"),
    "blue": gettext_noop("blue"),
    "orange": gettext_noop("orange"),
    "white": gettext_noop("white"),
}


def colour_name(colour: str | None, *, capital: bool = False) -> str:
    """A seat's colour as a player reads it ("green"; in French "vert"); `capital` for the start
    of a sentence. An unknown value is returned as it is."""
    if colour is None:
        return ""
    text = gettext(COLOUR_WORDS[colour]) if colour in COLOUR_WORDS else str(colour)
    return text[:1].upper() + text[1:] if capital else text


# The French article of each territory's name (the French rulebook says "la Forêt", "le Plateau"...):
# French contracts "de le" and "à le", so phrases are built here rather than in the sentences.
FRENCH_ARTICLES = {
    "cove": "l'", "forest": "la ", "gates": "les ", "highlands": "le ", "hills": "les ",
    "iron_mine": "la ", "lost_vale": "le ", "meadows": "la ", "misty_lands": "la ", "moor": "la ",
    "mountains": "les ", "plains": "la ", "salt_mine": "la ", "stone_circle": "le ", "swamp": "le ",
    "valley": "la ",
}
_FRENCH_CONTRACTIONS = {
    "of": {"le ": "du ", "les ": "des ", "la ": "de la ", "l'": "de l'"},
    "to": {"le ": "au ", "les ": "aux ", "la ": "à la ", "l'": "à l'"},
}


def territory_phrase(tid: str, case: str = "the", *, capital: bool = False) -> str:
    """A territory named with its article, for a placeholder in a sentence: `case` "the"
    ("the Valley" / "la Vallée"), "of" ("of the Valley" / "de la Vallée", "du Plateau") or "to"
    ("to the Valley" / "à la Vallée", "au Plateau"). `capital` for the start of a sentence.
    Raises KeyError for an unknown territory id or case."""
    from .catalog import territory_name

    name = territory_name(tid)
    if current_language() == "fr":
        article = FRENCH_ARTICLES.get(tid, "")
        text = (_FRENCH_CONTRACTIONS[case].get(article, article) if case != "the" else article) + name
    else:
        text = {"the": "the ", "of": "of the ", "to": "to the "}[case] + name
    return text[:1].upper() + text[1:] if capital else text
