"""The French catalogs are complete and are what `makemessages` makes of today's sources
(docs/translation.md): a sentence marked for translation but missing from its catalog, left
without French, or whose French lost a placeholder fails here rather than reaching a player in
English or as a crash."""

from __future__ import annotations

import difflib
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CATALOGS = sorted(p for p in ROOT.rglob("locale/fr/LC_MESSAGES/django.po") if ".venv" not in p.parts)


def test_there_is_a_catalog_for_every_area():
    areas = {str(p.relative_to(ROOT)).split("/locale/")[0] for p in CATALOGS}
    assert {
        "games/rules",
        "games",
        "notifications",
        "lobby",
        "press",
        "watching",
        "templates/games",
        "templates/emails",
    } <= areas


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_sentence_has_its_french_with_the_same_placeholders(po):
    # msgfmt --check compares the placeholders of every python-format / python-brace-format entry.
    done = subprocess.run(
        ["msgfmt", "--check", "--statistics", "-o", "/dev/null", str(po)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert "untranslated" not in done.stderr and "fuzzy" not in done.stderr, done.stderr


@pytest.mark.slow  # runs makemessages over a copy of the sources
def test_the_catalogs_hold_every_marked_sentence_of_the_sources(tmp_path):
    """`scripts/update-translations` over a copy of the sources leaves every catalog unchanged."""
    copy = tmp_path / "copy"
    shutil.copytree(
        ROOT,
        copy,
        ignore=shutil.ignore_patterns(
            ".venv",
            ".git",
            "*.mo",
            "__pycache__",
            "test-artifacts",
            "db.sqlite3*",
            "var",
            "node_modules",
            ".hypothesis",
            ".pytest_cache",
            "staticfiles",
        ),
    )
    (copy / ".venv").symlink_to(ROOT / ".venv")
    done = subprocess.run(
        ["scripts/update-translations"], cwd=copy, capture_output=True, text=True, timeout=600
    )
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    stale = []
    for po in CATALOGS:
        mine = po.read_text().splitlines()
        theirs = (copy / po.relative_to(ROOT)).read_text().splitlines()
        if mine != theirs:
            diff = "\n".join(list(difflib.unified_diff(mine, theirs, lineterm="", n=0))[:30])
            stale.append(f"{po.relative_to(ROOT)}:\n{diff}")
    assert not stale, "catalogs out of date (run scripts/update-translations):\n" + "\n".join(stale)


def test_no_sentence_has_two_different_french_texts():
    """Django merges the catalogs, the first of LOCALE_PATHS winning: an English text translated
    two ways in two areas would read one area's French in the other. Such texts take a context
    (`pgettext`) instead."""
    import gettext

    seen: dict = {}
    clashes = []
    for po in CATALOGS:
        mo = po.with_suffix(".mo")
        with open(mo, "rb") as handle:
            catalog = gettext.GNUTranslations(handle)._catalog
        for key, french in catalog.items():
            if key == "" or not french:
                continue
            earlier = seen.setdefault(key, (french, po))
            if earlier[0] != french:
                clashes.append(
                    f"{key!r}: {earlier[0]!r} ({earlier[1].relative_to(ROOT)}) "
                    f"vs {french!r} ({po.relative_to(ROOT)})"
                )
    assert not clashes, "\n".join(clashes[:40])


def test_the_sites_name_stays_in_french():
    """docs/translation.md: the site's name, "Inis by email", stays as it is: a French email says
    "une partie d'Inis by email", never "Inis par courriel"."""
    import gettext

    renamed = []
    for po in CATALOGS:
        with open(po.with_suffix(".mo"), "rb") as handle:
            catalog = gettext.GNUTranslations(handle)._catalog
        for key, french in catalog.items():
            english = key[1] if isinstance(key, tuple) else key
            if "Inis by email" in str(english) and "Inis by email" not in french:
                renamed.append(f"{french!r} ({po.relative_to(ROOT)})")
    assert not renamed, "\n".join(renamed)


def test_the_sites_words_are_one_each_in_french():
    """docs/translation.md: a French reader meets one word for each of the site's things: "un
    email" (never "e-mail" or "courriel"), "une place" for a seat (never "siège"), in every
    catalog, in the email command language's own French and in the data download's README."""
    import gettext
    import re

    from notifications.command_language import orders
    from players.archive import README

    other_word = re.compile(r"\b(e-mails?|courriels?|sièges?)\b", re.IGNORECASE)
    found = []
    for po in CATALOGS:
        with open(po.with_suffix(".mo"), "rb") as handle:
            catalog = gettext.GNUTranslations(handle)._catalog
        found += [
            f"{french!r} ({po.relative_to(ROOT)})"
            for french in catalog.values()
            if other_word.search(str(french))
        ]
    found += [f"{line!r} (players/archive.py)" for line in README.splitlines() if other_word.search(line)]
    source = Path(orders.__file__).read_text(encoding="utf-8")
    found += [
        f"{m.group(0)!r} (notifications/command_language/orders.py)" for m in other_word.finditer(source)
    ]
    assert not found, "\n".join(found)
