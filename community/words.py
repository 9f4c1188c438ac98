"""The open tables in words, in the active language: a table's speed with the expected length
of a game at it, its language, its reaction mode, how long it has waited. Data stays
language-free (`OpenTable` holds "brisk", "fr"); these are read by the page and the email."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from community.models import OpenTable
from community.profiles import hidden_among
from games.record.options import DEADLINE_PRESETS
from lobby.speeds import expected_length

SPEED_WORDS = {
    "relaxed": pgettext_lazy("table speed", "relaxed (4 days a decision)"),
    "normal": pgettext_lazy("table speed", "normal (2 days a decision)"),
    "brisk": pgettext_lazy("table speed", "brisk (1 day a decision)"),
    "none": pgettext_lazy("table speed", "no deadlines"),
}
CUSTOM_SPEED = pgettext_lazy("table speed", "the host's own deadlines")
# Each language by its own name, as the language switch of every page writes it.
LANGUAGE_WORDS = dict(settings.LANGUAGES)
REACTION_WORDS = {
    "holders": pgettext_lazy("reaction mode", "only who can answer is asked"),
    "strict": pgettext_lazy("reaction mode", "every player who could answer is asked"),
    "quick": pgettext_lazy("reaction mode", "nobody is asked unless they turn asking on"),
}


@dataclass(frozen=True)
class TableLine:
    """One open table as players read it."""

    number: int
    host: str
    speed: str
    length: str
    language: str
    players: int
    seats_filled: int
    reactions: str
    rated: bool
    waited: str
    host_id: int | None = None

    @property
    def seats(self) -> str:
        """ "2 of 4": the seats taken out of the table's player count."""
        return _("{filled} of {players}").format(filled=self.seats_filled, players=self.players)

    @property
    def rated_words(self) -> str:
        return _("yes") if self.rated else _("no")


def waited_words(table: OpenTable) -> str:
    """ "3 hours", "2 days": how long `table` has waited for players."""
    hours = int((timezone.now() - table.created_at).total_seconds() // 3600)
    if hours < 1:
        return _("less than an hour")
    if hours < 48:
        return ngettext("{count} hour", "{count} hours", hours).format(count=hours)
    return ngettext("{count} day", "{count} days", hours // 24).format(count=hours // 24)


def table_lines(tables) -> list[TableLine]:
    """`tables` (OpenTable rows) in words; each speed's expected length is worked out once. A
    host who hides their profile from strangers is named without a link (`host_id` None): the
    list is the same for everybody. One query for the hidden profiles."""
    lengths: dict[tuple[str, str], str] = {}
    lines = []
    tables = list(tables)
    hidden = hidden_among(table.host_id for table in tables)
    for table in tables:
        key = (table.speed, table.reaction_mode)
        if key not in lengths:
            preset = DEADLINE_PRESETS.get(table.speed)
            lengths[key] = expected_length(preset, table.reaction_mode) if preset else ""
        lines.append(
            TableLine(
                number=table.number,
                host=table.host_name,
                speed=str(SPEED_WORDS.get(table.speed, CUSTOM_SPEED)),
                length=lengths[key],
                language=str(LANGUAGE_WORDS.get(table.language, table.language)),
                players=table.player_count,
                seats_filled=table.seats_filled,
                reactions=str(REACTION_WORDS.get(table.reaction_mode, "")),
                rated=table.rated,
                waited=waited_words(table),
                host_id=None if table.host_id in hidden else table.host_id,
            )
        )
    return lines


# One row of the list's table. Written here rather than in the template: the template engine
# spent about half a millisecond a row resolving a dozen variables, the whole page's time at 50
# rows; `format_html` escapes every value just the same (bench/open_tables.py).
_ROW = (
    '<tr data-table="{}"><td>{}</td><td>{}</td><td>{}{}</td><td>{}</td><td>{}</td><td>{}</td>'
    "<td>{}</td><td>{}</td><td>{}</td></tr>"
)


def rows_html(lines: list[TableLine], *, signed_in: bool, sign_in_prefix: str) -> SafeString:
    """The list's rows, escaped: each table's words and its join button (a button of the page's
    one form when `signed_in`, else the sign-in link `sign_in_prefix` + "<number>/join/")."""
    join_word, sign_in_word = _("Join"), _("Sign in to join")
    profiles = reverse("community:leaderboard")  # a profile is /players/<account>/

    def host(line: TableLine) -> SafeString | str:
        if line.host_id is None:
            return line.host
        return format_html('<a href="{}{}/">{}</a>', profiles, line.host_id, line.host)

    def cells(line: TableLine) -> tuple:
        length = format_html('<br><span class="hint">{}</span>', line.length) if line.length else ""
        action = (
            format_html('<button type="submit" name="table" value="{}">{}</button>', line.number, join_word)
            if signed_in
            else format_html(
                '<a class="button" href="{}{}/join/">{}</a>', sign_in_prefix, line.number, sign_in_word
            )
        )
        return (
            line.number,
            line.number,
            host(line),
            line.speed,
            length,
            line.language,
            line.seats,
            line.reactions,
            line.rated_words,
            line.waited,
            action,
        )

    return format_html_join("\n", _ROW, (cells(line) for line in lines))
