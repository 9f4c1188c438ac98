"""A moment in words, in the active language: Django's date format, but for the French ordinal
of the first day of a month ("1er décembre"; every other day stays a number: "2 décembre"), which
the format's `j` does not write. The emails' deadlines and the pages' `|dated` filter
(`games/templatetags/game_words.py`) use it."""

from __future__ import annotations

import re
from datetime import date

from django.utils import dateformat, translation

# The day of the month in a format (`j`), not escaped ("\j" is a letter j).
_DAY = re.compile(r"(?<!\\)j")


def dated(value: date | None, format: str) -> str:
    """`value` in Django's date `format` ("l j F Y, H:i"), in the active language; "" for None.
    In French the first of a month is "1er" ("lundi 1er décembre 2025")."""
    if value is None:
        return ""
    if value.day == 1 and (translation.get_language() or "").startswith("fr"):
        format = _DAY.sub(r"1\\e\\r", format)
    return dateformat.format(value, format)
