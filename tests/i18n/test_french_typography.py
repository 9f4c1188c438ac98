"""French typography in what players read: in French a space goes before ";", ":", "!" and "?",
and inside « ». The catalogs write an ordinary space there (U+0020, as in "Possibles : ..."; a
no-break one, U+00A0 or U+202F, would do too), so a French text never reads "Citadelle dans la
Vallée; Citadelle dans l'Anse" nor "Prochaine manœuvre: vert".

Three places could lose that space: a French sentence of a catalog; punctuation a template
writes outside its translated sentences (after a name or a translated word: "{{ label }}:"),
which French readers would read unchanged; and a list joined in code ("; ".join), whose
separator is the catalogs' `pgettext("between the parts of a list", "; ")` (French " ; ")."""

from __future__ import annotations

import gettext
import re
from pathlib import Path

import pytest
from django.utils import translation

from games.rules import IllegalCommand

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = sorted(p for p in ROOT.rglob("locale/fr/LC_MESSAGES/django.mo") if ".venv" not in p.parts)
TEMPLATES = sorted(
    p for p in (ROOT / "templates").rglob("*") if p.suffix in (".html", ".txt") and "locale" not in p.parts
)
SPACES = " \u00a0\u202f"

# What a French text may write with no space before its ":", "?"...: a web address
# ("https://...", "ntfy://" alone), a time ("12:30"), and a placeholder ({hours:.0f}, %(name)s).
NOT_PROSE = re.compile(r"[a-z][a-z0-9+.-]*://\S*|\d:\d|\{[^{}]*\}|%\([^)]*\)[sd]", re.IGNORECASE)
# What a player types, quoted as code in a sentence (<code>dis vert:</code>): written as typed.
TYPED = re.compile(r"<code>.*?</code>", re.DOTALL)


def unspaced(text: str) -> list[str]:
    """The places of `text` (a French text) where ";", ":", "!", "?" or "»" has no space before
    it, or "«" none after it, each with a few characters around it."""
    prose = NOT_PROSE.sub(" ", TYPED.sub(" ", text))
    found = [
        m for m in re.finditer(r"[;:!?»]", prose) if m.start() > 0 and prose[m.start() - 1] not in SPACES
    ]
    found += [m for m in re.finditer(r"«", prose) if m.end() < len(prose) and prose[m.end()] not in SPACES]
    return [prose[max(0, m.start() - 20) : m.end() + 5] for m in found]


@pytest.mark.parametrize("mo", CATALOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_french_sentence_spaces_its_high_punctuation(mo):
    with open(mo, "rb") as handle:
        catalog = gettext.GNUTranslations(handle)._catalog
    bad = [f"{french!r}: {where}" for key, french in catalog.items() if key for where in unspaced(french)]
    assert not bad, "\n".join(bad[:40])


def test_the_check_finds_a_missing_space_and_leaves_addresses_times_and_placeholders():
    assert len(unspaced("Possibles: Citadelle dans la Vallée; Citadelle dans l'Anse.")) == 2
    assert unspaced("«passer» ou « jouer » !")
    assert not unspaced("Donnez ntfys://ntfy.sh/inis-1a2b, à 12:30 ({hours:.0f} h) : %(who)s ?")
    assert not unspaced("Répondez <code>dis vert:</code> : c'est tout.")


# "Re:" opens the subject of an answer as mail clients write it, in every language.
MAIL_REPLY_PREFIX = re.compile(r"^Re: ")


def text_outside_translations(source: str) -> str:
    """What a template writes in every language: its text with the translated sentences
    ({% translate %}, {% blocktranslate %}) read as the word T, variables as V, other tags,
    comments, scripts, styles and HTML tags (their attributes: no reader reads them) removed. A
    tag is removed without a trace: "<strong>Ann</strong>:" reads "Ann:" to a French reader."""
    text = re.sub(r"\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}", "", source, flags=re.DOTALL)
    text = re.sub(
        r"\{% blocktranslate.*?\{% endblocktranslate %\}|\{% translate .*?%\}", "T", text, flags=re.DOTALL
    )
    text = re.sub(r"<(script|style)\b.*?</\1>", "", text, flags=re.DOTALL)
    text = re.sub(r"\{\{.*?\}\}", "V", text, flags=re.DOTALL)
    text = re.sub(r"\{%.*?%\}", "", text, flags=re.DOTALL)
    return re.sub(r"<[^>]*>", "", text)


@pytest.mark.parametrize("template", TEMPLATES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_template_writes_high_punctuation_outside_its_sentences(template):
    """Punctuation written by the template itself ("{{ label }}:", "{% endif %}; ") reaches
    French readers without its space: it belongs inside the translated sentence
    ("%(label)s:", French "%(label)s :") or is the translated list separator."""
    text = text_outside_translations(template.read_text())
    lines = [MAIL_REPLY_PREFIX.sub("", line.strip()) for line in text.splitlines()]
    bad = [line for line in lines if re.search(r"\S[;:!?](\s|$|[A-Za-z])", line)]
    assert not bad, bad


# -- lists joined in code -------------------------------------------------------------------------

ROOMS = ("games", "web", "notifications", "players", "lobby", "press", "watching", "community")


def test_no_code_joins_a_list_with_a_bare_semicolon():
    """A list a player reads is joined with the catalogs' separator,
    `pgettext("between the parts of a list", "; ")` (French " ; "), never a bare "; "."""
    bare = re.compile(r"""["']; ["']\.join\(""")
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
        for room in ROOMS
        for path in sorted((ROOT / room).rglob("*.py"))
        if "migrations" not in path.parts
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if bare.search(line)
    ]
    assert not found, "\n".join(found)


def test_a_french_refusal_lists_what_is_allowed_with_spaced_semicolons():
    """Green holds Citadel and is present in the Valley, the Cove and the Forest: naming the
    Plains, the rules' refusal lists the three places a French player may choose."""
    from tests.notifications.command_language.test_parser import season_table

    with translation.override("fr"):
        message = season_table().refuse(
            "green", "play", card="act_citadel", territory="plains", error=IllegalCommand
        )
    assert "Citadelle dans la Vallée ; Citadelle dans l'Anse ; Citadelle dans la Forêt." in message
    assert not unspaced(message), message


def test_a_french_email_reply_of_two_decisions_is_answered_with_spaced_semicolons():
    from tests.notifications.command_language.test_parser import refusal, season_table

    with translation.override("fr"):
        message = refusal(IllegalCommand, season_table(), "green", "citadelle vallée\npasser", language="fr")
    assert "(Jouer Citadelle dans la Vallée ; Passer)" in message, message
    assert not unspaced(message), message
