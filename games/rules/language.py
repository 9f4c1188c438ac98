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
names that are themselves translated (`territory_name`, `card_name`, `colour_name`). A French
sentence comes back as a `FrenchSentence`, whose `format` contracts "de"/"à" with the article of
a territory put after them ("de {the_territory}" reads "du Plateau", "aux Collines"), so a
translation writes plain French around the placeholder. Counts of clans are worded here too
(`clans_to`, `clans_from`, `clans_placed`, `colour_clans`): a count always says "clan(s)".
"""

from __future__ import annotations

import contextvars
import gettext as stdlib_gettext
import re
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

LANGUAGES = ("en", "fr")
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

_language: contextvars.ContextVar[str] = contextvars.ContextVar("inis_rules_language", default="en")
_django = None  # django.utils.translation once `install` ran


def install(translation_module: Any) -> None:
    """Let Django's translation machinery (`django.utils.translation`) choose the language and
    read the catalogs from now on (called once, by `games.apps.GamesConfig.ready`)."""
    global _django
    _django = translation_module


def language_code(language: str | None) -> str:
    """ "fr" for any French code ("fr", "fr-CA", "FR"), else "en"."""
    return "fr" if str(language or "").lower().startswith("fr") else "en"


def current_language() -> str:
    """The language sentences are written in now: "en" or "fr"."""
    if _django is not None:
        return language_code(_pinned.get() or _django.get_language())
    return _language.get()


# The language key (`language_key`) known to be active, set by `pinned_language` around work
# that writes many words in one language and switches none (the decisions of a state: about a
# hundred words a command, each of which would read Django's active language through a
# context-local). None: ask. `speaking` clears it inside its block.
_pinned: contextvars.ContextVar[str | None] = contextvars.ContextVar(
    "inis_rules_pinned_language", default=None
)


def language_key() -> str:
    """The active language as the translations are looked up by: Django's active language code
    (e.g. "en-us", "fr") once `install` ran, else "en" or "fr". Sentences written under the
    same key are the same words."""
    pinned = _pinned.get()
    if pinned is not None:
        return pinned
    if _django is not None:
        return str(_django.get_language())
    return _language.get()


@contextmanager
def pinned_language(key: str) -> Iterator[None]:
    """Inside the block, take `key` (what `language_key()` gives now) as the active language
    without asking for it again: for code that switches no language (`speaking` may still be
    used inside: it unpins)."""
    token = _pinned.set(key)
    try:
        yield
    finally:
        _pinned.reset(token)


@contextmanager
def speaking(language: str | None) -> Iterator[None]:
    """Write in `language` ("en", "fr", or a code such as "fr-FR"; None: English) inside the block."""
    code = language_code(language)
    unpinned = _pinned.set(None)
    try:
        if _django is not None:
            with _django.override(code):
                yield
            return
        token = _language.set(code)
        try:
            yield
        finally:
            _language.reset(token)
    finally:
        _pinned.reset(unpinned)


@cache
def _catalog(code: str) -> stdlib_gettext.NullTranslations:
    return stdlib_gettext.translation("django", localedir=str(LOCALE_DIR), languages=[code], fallback=True)


class FrenchSentence(str):
    """A French sentence to fill in: its `format` contracts "de" and "à" with the article of a
    territory name put after them ("de {the_territory}" with "le Plateau" gives "du Plateau",
    "à {the_territory}" with "les Collines" gives "aux Collines"; `french_contractions`), so a
    translation writes the French it needs around a territory's placeholder."""

    def format(self, *args: Any, **kwargs: Any) -> str:
        return french_contractions(str.format(self, *args, **kwargs))

    def format_map(self, mapping: Any) -> str:
        return french_contractions(str.format_map(self, mapping))


def _sentence(text: str) -> str:
    return FrenchSentence(text) if current_language() == "fr" else text


# Django's translations already looked up, by (Django's language code, context, message): a
# command writes about a hundred prompt words (`rules.pending`), and asking Django each time
# cost a tenth of a command's CPU (its active language is read through a context-local). The
# catalogs do not change while the process runs. Emptied when it grows past _MAX_TRANSLATED
# (messages made up at run time would otherwise fill it).
_translated: dict[tuple[str, str | None, str], str] = {}
_MAX_TRANSLATED = 20_000


def _django_translated(context: str | None, message: str) -> str:
    """`message` (in `context`, or none) in Django's active language, as `gettext` and
    `pgettext` return it. Only once `install` ran."""
    django = _django
    assert django is not None, "called only with Django's translations installed"
    language = _pinned.get() or django.get_language()
    key = (language, context, message)
    found = _translated.get(key)
    if found is None:
        text = django.gettext(message) if context is None else django.pgettext(context, message)
        found = FrenchSentence(text) if language_code(language) == "fr" else text
        if len(_translated) >= _MAX_TRANSLATED:
            _translated.clear()
        _translated[key] = found
    return found


def gettext(message: str) -> str:
    """`message` in the current language (unchanged in English or when no translation exists);
    in French a `FrenchSentence`, whose `format` contracts "de le Plateau" into "du Plateau"."""
    if _django is not None:
        return _django_translated(None, message)
    code = _language.get()
    return message if code == "en" else FrenchSentence(_catalog(code).gettext(message))


def translated(message: str, language: str | None = None) -> str:
    """`message` (a name or sentence of the rules' catalog) as a plain string in `language`
    ("en", "fr" or a code such as "fr-FR"), whatever language is active: read from the rules'
    own compiled catalog, so it works at import time and without Django. None: in the current
    language (`gettext`)."""
    if language is None:
        return str(gettext(message))
    code = language_code(language)
    return message if code == "en" else _catalog(code).gettext(message)


def ngettext(singular: str, plural: str, count: int) -> str:
    """The singular or plural form for `count` (a number of things), in the current language
    (in French a `FrenchSentence`)."""
    if _django is not None:
        return _sentence(_django.ngettext(singular, plural, count))
    code = _language.get()
    if code == "en":
        return singular if count == 1 else plural
    return FrenchSentence(_catalog(code).ngettext(singular, plural, count))


def pgettext(context: str, message: str) -> str:
    """`message` translated in `context` (for words whose translation depends on their use; in
    French a `FrenchSentence`)."""
    if _django is not None:
        return _django_translated(context, message)
    code = _language.get()
    return message if code == "en" else FrenchSentence(_catalog(code).pgettext(context, message))


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


def colour_name(colour: str | None, *, capital: bool = False, plural: bool = False) -> str:
    """A seat's colour as a player reads it ("green"; in French "vert"); `capital` for the start
    of a sentence; `plural` for the colour of several clans (French agrees: "2 clans verts",
    "bleus", "blancs", "orange"). An unknown value is returned as it is."""
    if colour is None:
        return ""
    if colour not in COLOUR_WORDS:
        text = str(colour)
    elif plural:
        text = {
            "green": pgettext("colour of several clans", "green"),
            "blue": pgettext("colour of several clans", "blue"),
            "orange": pgettext("colour of several clans", "orange"),
            "white": pgettext("colour of several clans", "white"),
        }[colour]
    else:
        text = gettext(COLOUR_WORDS[colour])
    return str(text[:1].upper() + text[1:] if capital else text)


# The players' names at the table whose sentences are being written (`players_named`): {colour:
# name}. Empty: sentences name each seat by its colour alone.
_players: contextvars.ContextVar[dict[str, str] | None] = contextvars.ContextVar(
    "inis_rules_players", default=None
)


@contextmanager
def players_named(names: dict[str, str]) -> Iterator[None]:
    """Inside the block, sentences that name a player (`player_name`) say the name given for its
    colour with the colour in brackets ("Ann (blue)"); a colour with no name (or "") stays its
    colour alone. Names are public at a table; nothing stored depends on them (events hold
    colours), so a game replays the same whatever names were in use."""
    token = _players.set({c: n for c, n in names.items() if n})
    try:
        yield
    finally:
        _players.reset(token)


def players_key() -> tuple[tuple[str, str], ...]:
    """The names in use (`players_named`) as a key: sentences written under the same key name
    the players alike (the rules' memo of decisions compares it, as it does the language)."""
    return tuple(sorted((_players.get() or {}).items()))


def player_name(colour: str | None, *, capital: bool = False) -> str:
    """A seat as a sentence names the player who holds it: "Ann (blue)" when `players_named`
    gave it a name, else its colour ("blue"; `colour_name`; `capital` for the start of a
    sentence, which a name already has)."""
    name = (_players.get() or {}).get(colour) if colour else None
    if not name:
        return colour_name(colour, capital=capital)
    return str(_("{name} ({colour})").format(name=name, colour=colour_name(colour)))


def colour_clans(count: int, colour: str) -> str:
    """`count` clans of a seat's colour: "1 blue clan", "2 blue clans" ("2 clans bleus")."""
    return ngettext("{count} {colour} clan", "{count} {colour} clans", count).format(
        count=count, colour=colour_name(colour, plural=count > 1)
    )


def clan_letter(colour: str) -> str:
    """The short mark of a seat's clans on the island's picture, before their count ("G3"): the
    colour's initial in English (G, B, O, W); in French "V", "Bl", "O", "Bc" (vert, bleu, orange,
    blanc: bleu and blanc share their initial, so both take two letters, as French charts write
    them). An unknown colour gives its own first letter, capitalised."""
    letters = {
        "green": pgettext("clan letter of green", "G"),
        "blue": pgettext("clan letter of blue", "B"),
        "orange": pgettext("clan letter of orange", "O"),
        "white": pgettext("clan letter of white", "W"),
    }
    return str(letters.get(colour, str(colour)[:1].upper()))


# The French article of each territory's name (the French rulebook says "la Forêt", "le Plateau"...):
# French contracts "de le" and "à le" (`territory_phrase`'s cases, `french_contractions`).
FRENCH_ARTICLES = {
    "cove": "l'",
    "forest": "la ",
    "gates": "les ",
    "highlands": "le ",
    "hills": "les ",
    "iron_mine": "la ",
    "lost_vale": "le ",
    "meadows": "la ",
    "misty_lands": "la ",
    "moor": "la ",
    "mountains": "les ",
    "plains": "la ",
    "salt_mine": "la ",
    "stone_circle": "le ",
    "swamp": "le ",
    "valley": "la ",
}
_FRENCH_CONTRACTIONS = {
    "of": {"le ": "du ", "les ": "des ", "la ": "de la ", "l'": "de l'"},
    "to": {"le ": "au ", "les ": "aux ", "la ": "à la ", "l'": "à l'"},
}


# The territories' names are the catalog's, and the catalog names them through this module (the
# active language): the catalog hands its reader over when it is imported (`name_territories_by`)
# rather than this module importing it back.
_territory_names: list[Callable[[str, str | None], str]] = []


def name_territories_by(reader: Callable[[str, str | None], str]) -> None:
    """Called once by the catalog: `reader(tid, language)` gives a territory's name (language
    None: the active one)."""
    _territory_names[:] = [reader]


def _territory_name(tid: str, language: str | None) -> str:
    if not _territory_names:
        raise RuntimeError("games.rules.catalog is not imported: no territory names")
    return _territory_names[0](tid, language)


_CONTRACTED = {("de", "le"): "du", ("de", "les"): "des", ("à", "le"): "au", ("à", "les"): "aux"}


@lru_cache(maxsize=1)
def _contractible() -> re.Pattern[str]:
    """ "de"/"à" followed by the article "le"/"les" of a territory's French name."""
    names = sorted(
        (
            _territory_name(tid, "fr")
            for tid, article in FRENCH_ARTICLES.items()
            if article in ("le ", "les ")
        ),
        key=len,
        reverse=True,
    )
    return re.compile(
        r"\b(de|à) (le|les) (?=(?:%s)\b)" % "|".join(re.escape(n) for n in names), re.IGNORECASE
    )


def french_contractions(text: str) -> str:
    """`text` (French) with "de le Plateau" written "du Plateau", "de les Collines" "des
    Collines", "à le Cromlech" "au Cromlech", "à les Montagnes" "aux Montagnes": French contracts
    the preposition with the article of a name. Only before a territory's name, where "le"/"les"
    is its article (never a pronoun: "de le défausser" stays)."""

    def contract(found: re.Match[str]) -> str:
        word = _CONTRACTED[(found[1].lower(), found[2].lower())]
        return (word[:1].upper() + word[1:] if found[1][:1].isupper() else word) + " "

    return _contractible().sub(contract, text)


def territory_phrase(tid: str, case: str = "the", *, capital: bool = False) -> str:
    """A territory named with its article, for a placeholder in a sentence: `case` "the"
    ("the Valley" / "la Vallée"), "of" ("of the Valley" / "de la Vallée", "du Plateau") or "to"
    ("to the Valley" / "à la Vallée", "au Plateau"). `capital` for the start of a sentence.
    Raises KeyError for an unknown territory id or case."""
    name = _territory_name(tid, None)
    if current_language() == "fr":
        article = FRENCH_ARTICLES.get(tid, "")
        text = (_FRENCH_CONTRACTIONS[case].get(article, article) if case != "the" else article) + name
    else:
        text = {"the": "the ", "of": "of the ", "to": "to the "}[case] + name
    return text[:1].upper() + text[1:] if capital else text


def clans_to(moves: dict[str, Any]) -> str:
    """Clans moved to territories, in words: "2 clans to the Cove, 1 clan to the Plains"
    (`moves`: {territory id: clans})."""
    return ", ".join(
        ngettext("{count} clan to {the_territory}", "{count} clans to {the_territory}", n).format(
            count=n, the_territory=territory_phrase(t)
        )
        for t, n in moves.items()
    )


def clans_from(moves: dict[str, Any]) -> str:
    """Clans moved from territories, in words: "2 clans from the Cove, 1 clan from the Plains"
    (`moves`: {territory id: clans})."""
    return ", ".join(
        ngettext("{count} clan from {the_territory}", "{count} clans from {the_territory}", n).format(
            count=n, the_territory=territory_phrase(t)
        )
        for t, n in moves.items()
    )


def clans_placed(placements: dict[str, Any]) -> str:
    """Clans placed, in words: "placing 2 clans in the Cove, 1 clan in the Plains"
    (`placements`: {territory id: clans})."""
    where = ", ".join(
        ngettext("{count} clan in {the_territory}", "{count} clans in {the_territory}", n).format(
            count=n, the_territory=territory_phrase(t)
        )
        for t, n in placements.items()
    )
    return _("placing {clans}").format(clans=where)


def listed(items: Sequence[str]) -> str:
    """`items` in one phrase, in the active language: "A", "A and B", "A, B and C" ("A, B et C");
    "" for none."""
    if len(items) <= 1:
        return "".join(items)
    return _("{some} and {last}").format(some=", ".join(items[:-1]), last=items[-1])
