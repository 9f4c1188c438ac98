"""The open tables in words, in the active language: a table's speed with the expected length
of a game at it, its language, its reaction mode, how long it has waited. Data stays
language-free (`OpenTable` holds "brisk", "fr"); these are read by the page and the email."""

from __future__ import annotations

from dataclasses import dataclass

from django.conf import settings
from django.urls import reverse
from django.utils import timezone
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from community.profiles import hidden_among
from games.record.options import DEADLINE_PRESETS
from lobby.speeds import expected_length
from players.display_names import UNNAMED

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


def waited_words(hours: int) -> str:
    """ "less than an hour", "3 hours", "2 days": a table's wait of `hours` whole hours."""
    if hours < 1:
        return _("less than an hour")
    if hours < 48:
        return ngettext("{count} hour", "{count} hours", hours).format(count=hours)
    return ngettext("{count} day", "{count} days", hours // 24).format(count=hours // 24)


def table_lines(tables) -> list[TableLine]:
    """`tables` (OpenTable rows) in words; each word is translated once a call (a speed's
    expected length, a language, a reaction mode, a waiting time in hours), not once a row. A
    host who hides their profile from strangers is named without a link (`host_id` None): the
    list is the same for everybody: read from the rows' `host_hidden` when they carry it
    (`community.open_tables.open_tables`), else in one query."""
    lengths: dict[tuple[str, str], str] = {}
    speeds = {name: str(words) for name, words in SPEED_WORDS.items()}
    custom_speed = str(CUSTOM_SPEED)
    reactions = {name: str(words) for name, words in REACTION_WORDS.items()}
    waits: dict[int, str] = {}
    now = timezone.now()
    lines = []
    tables = list(tables)
    if all(hasattr(table, "host_hidden") for table in tables):
        hidden = {table.host_id for table in tables if table.host_hidden}
    else:
        hidden = hidden_among(table.host_id for table in tables)
    unnamed = _(UNNAMED)
    for table in tables:
        key = (table.speed, table.reaction_mode)
        if key not in lengths:
            preset = DEADLINE_PRESETS.get(table.speed)
            lengths[key] = expected_length(preset, table.reaction_mode) if preset else ""
        hours = int((now - table.created_at).total_seconds() // 3600)
        if hours not in waits:
            waits[hours] = waited_words(hours)
        lines.append(
            TableLine(
                number=table.number,
                host=table.host_name or unnamed,
                speed=speeds.get(table.speed, custom_speed),
                length=lengths[key],
                language=LANGUAGE_WORDS.get(table.language, table.language),
                players=table.player_count,
                seats_filled=table.seats_filled,
                reactions=reactions.get(table.reaction_mode, ""),
                rated=table.rated,
                waited=waits[hours],
                host_id=None if table.host_id in hidden else table.host_id,
            )
        )
    return lines


# One row of the list's table. Written here rather than in the template: the template engine
# spent about half a millisecond a row resolving a dozen variables, the whole page's time at 50
# rows. Every value is escaped (`django.utils.html.escape`) before it is put in, each distinct
# word once a call (bench/open_tables.py).
_ROW = (
    '<tr data-table="{number}"><td>{number}</td><td>{host}</td><td>{speed}{length}</td>'
    "<td>{language}</td><td>{seats}</td><td>{reactions}</td><td>{rated}</td><td>{waited}</td>"
    "<td>{action}</td></tr>"
)


def rows_html(
    lines: list[TableLine], *, signed_in: bool, sign_in_prefix: str, mine: frozenset[int] = frozenset()
) -> SafeString:
    """The list's rows, escaped: each table's words and its join button (a button of the page's
    one form when `signed_in`, else the sign-in link `sign_in_prefix` + "<number>/join/"); a
    table of `mine` (the viewer hosts it or has a seat there) links to its page instead."""
    escaped: dict[str, str] = {}

    def word(text: str) -> str:
        """`text` escaped, once a call: the rows repeat a few words many times."""
        if text not in escaped:
            escaped[text] = escape(text)
        return escaped[text]

    profiles = escape(reverse("community:leaderboard"))  # a profile is /players/<account>/
    seats_words, yes, no = _("{filled} of {players}"), word(_("yes")), word(_("no"))
    join_word, sign_in_word, prefix = escape(_("Join")), escape(_("Sign in to join")), escape(sign_in_prefix)
    yours_word = escape(_("Your table"))
    rows = []
    for line in lines:
        number = int(line.number)
        host: str = escape(line.host)
        if line.host_id is not None:
            host = f'<a href="{profiles}{int(line.host_id)}/">{host}</a>'
        if number in mine:
            page = escape(reverse("lobby:proposal", args=[number]))
            action = f'<a class="button secondary" href="{page}">{yours_word}</a>'
        elif signed_in:
            action = f'<button type="submit" name="table" value="{number}">{join_word}</button>'
        else:
            action = f'<a class="button" href="{prefix}{number}/join/">{sign_in_word}</a>'

        rows.append(
            _ROW.format(
                number=number,
                host=host,
                speed=word(line.speed),
                length=f'<br><span class="hint">{word(line.length)}</span>' if line.length else "",
                language=word(line.language),
                seats=escape(seats_words.format(filled=line.seats_filled, players=line.players)),
                reactions=word(line.reactions),
                rated=yes if line.rated else no,
                waited=word(line.waited),
                action=action,
            )
        )
    return mark_safe("\n".join(rows))  # noqa: S308 - every value above is escaped or an int
