"""A moment as the pages write it in words, worked out here apart from the site's own formatting
(`games.story.dates.dated`) so that a test of a page checks it: "1 January 2026, 14:03" in
English, "1er janvier 2026, 14:03" in French ("1er" on the first of a month, every other day a
number: docs/translation.md)."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime

ENGLISH_MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
FRENCH_MONTHS = [
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
]


def in_words(moment: datetime, language: str, *, time: bool = True) -> str:
    """`moment` (aware) in UTC as a page writes it in `language` ("en" or "fr"): the day, the
    month's name and the year, then ", HH:MM" when `time`; no zone name (the page adds " UTC")."""
    moment = moment.astimezone(UTC)
    months = FRENCH_MONTHS if language == "fr" else ENGLISH_MONTHS
    day = "1er" if language == "fr" and moment.day == 1 else str(moment.day)
    words = f"{day} {months[moment.month - 1]} {moment.year}"
    return f"{words}, {moment:%H:%M}" if time else words


def machine_forms(moment: datetime) -> list[str]:
    """The ISO forms of `moment`'s day a page must not show to its reader ("2026-01-01",
    "2026-01-01T14:03:00+00:00"): kept for attributes (`<time datetime>`) only."""
    moment = moment.astimezone(UTC)
    return [f"{moment:%Y-%m-%d}", moment.isoformat()]


def text_of(markup: str) -> str:
    """What a reader of `markup` reads: the tags (and their attributes) left out, the entities
    read ("l&#x27;" is "l'")."""
    return html.unescape(re.sub(r"<[^>]+>", " ", markup))
