"""English words left in French text: the check behind the French tests (docs/translation.md).

The English vocabulary is every word of the English source of the French catalogs (their msgids)
and of the English card and territory names. A word of French text that is in that vocabulary is
English left behind, unless it is also French: a word of an official French card or territory name,
or one of `SHARED_WORDS`, the short documented list of words both languages write alike.
"""

from __future__ import annotations

import gettext
import re
from functools import lru_cache
from pathlib import Path

from games.rules import CARDS, TERRITORY_INFO, card_name, territory_name

ROOT = Path(__file__).resolve().parents[2]

# Words English and French write alike, as the French text uses them (docs/translation.md keeps
# this list): game terms the French rulebook keeps (Brenn, Triskel, clan, draft, Action), and
# ordinary words of both languages.
SHARED_WORDS = frozenset(
    {
        # the French rulebook's own terms
        "brenn",
        "triskel",
        "clan",
        "clans",
        "draft",
        "action",
        "actions",
        "orange",
        # French elisions (l'Anse, n'a, s'il, d'un, qu'il, j'ai, c'est, m'envoyer), split off by `words`
        "l",
        "n",
        "s",
        "d",
        "qu",
        "j",
        "c",
        "m",
        # French words spelt like English ones
        "a",
        "as",
        "du",
        "en",
        "est",
        "il",
        "le",
        "les",
        "on",
        "plus",
        "pas",
        "place",
        "pour",
        "sa",
        "si",
        "son",
        "sont",
        "tu",
        "une",
        "vote",
        "votes",
        "minute",
        "minutes",
        "message",
        "messages",
        "page",
        "pages",
        "tables",
        "date",
        "options",
        "option",
        "invitation",
        "invitations",
        "type",
        "note",
        "notes",
        "question",
        "questions",
        "seed",
        "simple",
        "total",
        "direction",
        "position",
        "positions",
        "menu",
        "email",
        "emails",
        "lien",
        "nature",
        "effet",
        "prison",
        "table",
        "texte",
        "description",
        "site",
        "moment",
        "places",
        "types",
        "mail",
        "face",
        "change",
    }
)
WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿŒœ]+")


def words(text: str) -> list[str]:
    """The words of `text`, lower-cased (apostrophes split: "l'Anse" is "l" and "anse")."""
    return [w.lower() for w in WORD.findall(text)]


def _catalogs() -> list[Path]:
    return sorted(p for p in ROOT.rglob("locale/fr/LC_MESSAGES/django.mo") if ".venv" not in p.parts)


@lru_cache(maxsize=1)
def english_vocabulary() -> frozenset[str]:
    """Every English word the French text could wrongly contain (see the module docstring)."""
    vocabulary: set[str] = set()
    for mo in _catalogs():
        with open(mo, "rb") as handle:
            catalog = gettext.GNUTranslations(handle)._catalog
        for key in catalog:
            msgid = key[0] if isinstance(key, tuple) else key
            msgid = msgid.split("\x04", 1)[-1]  # a pgettext context
            # Placeholders ({territory}, %(count)s) and template variables are not words.
            msgid = re.sub(r"\{[^{}]*\}|%\([^)]*\)[sdr]|%[sd]", " ", msgid)
            vocabulary.update(words(msgid))
    for info in CARDS.values():
        vocabulary.update(words(info.name))
    for info in TERRITORY_INFO.values():
        vocabulary.update(words(info.name))
    return frozenset(vocabulary - french_name_words() - SHARED_WORDS)


def french_name_words() -> frozenset[str]:
    """The words of the official French card and territory names."""
    return frozenset(
        w
        for name in [card_name(c, "fr") for c in CARDS] + [territory_name(t, "fr") for t in TERRITORY_INFO]
        for w in words(name)
    )


def leftovers(text: str, also_english: frozenset[str] = frozenset()) -> list[str]:
    """The English words of `text` (a French sentence), in order; [] when it is all French.
    `also_english`: more English words, e.g. those of the same texts rendered in English."""
    vocabulary = english_vocabulary() | (also_english - french_name_words() - SHARED_WORDS)
    return [w for w in words(text) if w in vocabulary]
