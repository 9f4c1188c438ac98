"""Table speeds: the deadline presets a host chooses from, each with the expected length of a
game at that speed (`games.play.pace.expected_days`, the calendar simulation), in words."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.play import pace
from games.record.options import DEADLINE_PRESETS, reaction_options


def length_words(days: float) -> str:
    """ "about 5 weeks" (from 14 days on), "about 9 days" (below), in the active language."""
    if days >= 14:
        weeks = round(days / 7)
        return ngettext("about {count} week", "about {count} weeks", weeks).format(count=weeks)
    count = max(1, round(days))
    return ngettext("about {count} day", "about {count} days", count).format(count=count)


def expected_length(deadlines: dict, reaction_mode: str = "holders") -> str:
    """ "a game takes about 11 weeks": the expected length of a 4-player game with these
    `deadlines` (hours by decision kind) and Triskel reaction mode, in words. Raises ValueError
    for an unknown reaction mode."""
    reactions = reaction_options(reaction_mode).get("reactions")
    days = pace.expected_days(deadlines, reactions=reactions)
    return _("a game takes {length}").format(length=length_words(days))


def speed_choices(labels: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """`labels` ([(preset name, its words)], the presets of DEADLINE_PRESETS) with the expected
    length of a game at each, in the default reaction mode: "Normal: … — a game takes about 11
    weeks"."""
    return [(name, f"{label} — {_speed_length(DEADLINE_PRESETS[name])}") for name, label in labels]


def _speed_length(deadlines: dict) -> str:
    """`expected_length` of a preset; for one without deadlines, also what that means for length:
    the game waits for every answer, so the figure (the same as Normal's: the calendar draws
    answers well inside its deadlines) holds only while everyone answers as usual."""
    length = expected_length(deadlines)
    if any(deadlines.values()):
        return length
    return _(
        "{length} while everyone answers within a day or two, as at Normal speed; with no deadlines "
        "the game waits for every answer, so it lasts longer whenever someone is away"
    ).format(length=length)
