"""The name other players read for a person: the display name they chose (`Player.display_name`,
asked for at first sign-in and in the preferences), never their email address.

A person who has not chosen one yet is named by the part of their address before the "@"
("ann" for ann@example.org) among the players who know them by address (a table its host made
by invitation); strangers (the open tables, profiles, the leaderboard, an open table's page)
read "a player with no name yet" (`public_names_for`): with the common domains, the part
before the "@" is the address itself, which other players must never read (docs/security.md).

A chosen name may not pass for another player's, nor for a bot or the stand-in
(`check_not_taken`, docs/profiles.md, "Names"): names are compared by their `skeleton`, which
folds case, Unicode compatibility forms (NFKC), accents, and the letters that look alike.
"""

from __future__ import annotations

import functools
import re
import unicodedata

from django import forms
from django.conf import settings
from django.db.models import OuterRef, Subquery
from django.db.models.functions import Lower
from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import rules
from games.store.models import Seat
from players.email_addresses import canonical_address
from players.models import Player

# The longest display name, in characters (`Player.display_name`).
MAX_NAME = 30


# Characters that do not show, or that change how the text around them reads, but are no control
# characters: the Unicode categories Cf (format: zero-width spaces and joiners, the direction
# marks, overrides and isolates, the soft hyphen, the byte order mark), Co and Cn (private use,
# unassigned), Zl and Zp (line and paragraph separators), and the letters and marks Unicode lists
# as default ignorable (drawn as nothing): the Hangul fillers, the combining grapheme joiner, the
# Khmer and Mongolian invisible vowels and selectors, the variation selectors. "A<word joiner>nn"
# reads "Ann"; "<right-to-left override>nnA" reads "Ann" too.
HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})
IGNORABLE = re.compile(
    "[\u034f\u115f\u1160\u17b4\u17b5\u180b-\u180f\u3164\ufe00-\ufe0f\uffa0\U000e0100-\U000e01ef]"
)
# The most combining marks (accents) one letter may carry: Vietnamese stacks two ("ệ"); more
# pile up over the lines above and below a name.
MAX_MARKS = 3


def hidden(ch: str) -> bool:
    """Whether `ch` is a character that does not show as itself (`HIDDEN_CATEGORIES`,
    `IGNORABLE`): control characters included."""
    return unicodedata.category(ch) in HIDDEN_CATEGORIES or IGNORABLE.match(ch) is not None


def _most_marks(name: str) -> int:
    """The most combining marks one letter of `name` carries, decomposed (NFD)."""
    most = run = 0
    for ch in unicodedata.normalize("NFD", name):
        run = run + 1 if unicodedata.category(ch) in ("Mn", "Me") else 0
        most = max(most, run)
    return most


def clean_name(value: str) -> str:
    """`value` as a display name: spaces collapsed. Raises forms.ValidationError (in the active
    language) for an email address (an "@"), control characters, characters that do not show
    or turn the text around (`hidden`: a name that reads as another player's, which
    `check_not_taken` would not see), or a letter with more than `MAX_MARKS` accents."""
    name = " ".join((value or "").split())
    if "@" in name:
        raise forms.ValidationError(_("A name, not an email address: other players see it."))
    if any(ord(ch) < 32 or ord(ch) == 127 for ch in name):
        raise forms.ValidationError(_("Letters, digits and spaces only."))
    if any(hidden(ch) for ch in name):
        raise forms.ValidationError(
            _("Only characters that show: no invisible ones, nor ones that turn the text around.")
        )
    if _most_marks(name) > MAX_MARKS:
        raise forms.ValidationError(_("Too many accents on one letter."))
    return name


def fallback_name(email: str) -> str:
    """The name of a person who chose none: their address before the "@" ("" for none)."""
    return (email or "").partition("@")[0][:MAX_NAME]


# The name strangers read for a person who chose none (`public_names_for`).
UNNAMED = gettext_noop("a player with no name yet")


def chosen_names_for(emails) -> dict:
    """{email as given: the display name its person chose, "" for none} for `emails`, in one
    query: what a read model may keep (no word of the address, no word of a language)."""
    emails = [e for e in emails if e]
    kept = {e: canonical_address(e) for e in emails}
    chosen = dict(
        Player.objects.filter(email__in=set(kept.values()))
        .exclude(display_name="")
        .values_list("email", "display_name")
    )
    return {e: chosen.get(kept[e], "") for e in emails}


def public_names_for(emails) -> dict:
    """{email as given: the name strangers read}: the chosen display name, else `UNNAMED` in the
    active language; never a part of the address. One query."""
    return {e: name or _(UNNAMED) for e, name in chosen_names_for(emails).items()}


def public_name(email: str) -> str:
    """`public_names_for` of one address ("" for no address)."""
    return public_names_for([email]).get(email, "") if email else ""


def names_for(emails) -> dict:
    """{email as given: the name the players who know them by address read} for `emails`
    (strings), in one query: the chosen name, else `fallback_name`. Strangers read
    `public_names_for`."""
    return {e: name or fallback_name(e) for e, name in chosen_names_for(emails).items()}


def name_for(email: str) -> str:
    """The name other players read for the person of `email` (one query)."""
    return names_for([email]).get(email, "")


def needs_name(email: str) -> bool:
    """Whether the person of `email` has not chosen a display name yet (one query)."""
    return not Player.objects.filter(email=canonical_address(email)).exclude(display_name="").exists()


# Look-alike letters and digits, each mapped to the Latin letter it passes for (after NFKC and
# case folding, so only lower case is listed): Cyrillic and Greek letters drawn like Latin ones,
# and the digits and strokes that are hard to tell apart in many fonts. A small table in the
# spirit of Unicode's confusables (UTS #39), for the scripts players here write in. A capital I
# is an upright stroke, as l is (`UPRIGHT_CAPITALS`, mapped before case folding); a small i is
# not, for its dot: it passes for l only once the pairs are read (`DOTTED_I`), so that "Ciara"
# does not become "Clara" and then "Dara" ("cl" passes for "d").
# fmt: off
LOOK_ALIKES = str.maketrans(
    {
        # Cyrillic
        "а": "a", "в": "b", "е": "e", "ё": "e", "з": "3", "и": "u", "і": "i", "ї": "i", "ј": "j",
        "к": "k", "м": "m", "н": "h", "о": "o", "п": "n", "р": "p", "с": "c", "т": "t", "у": "y",
        "х": "x", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "ь": "b", "һ": "h", "ӏ": "l",
        # Greek
        "α": "a", "β": "b", "γ": "y", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o",
        "ρ": "p", "τ": "t", "υ": "u", "χ": "x", "ω": "w", "ζ": "z", "μ": "u",
        # Latin and digits that pass for each other: 0/O, 1/l/I, 5/S, and "|"
        "0": "o", "1": "l", "|": "l", "!": "l", "5": "s", "$": "s",
    }
)
# Capitals drawn as one upright stroke, like a small l: the Latin, Cyrillic and Greek I.
UPRIGHT_CAPITALS = str.maketrans({"I": "l", "І": "l", "Ι": "l", "Ӏ": "l"})
# A small i passes for l (and 1) by itself, not inside a pair.
DOTTED_I = str.maketrans({"i": "l"})
# Pairs of letters drawn like one: "rn" passes for "m", "vv" for "w", "cl" for "d".
LOOK_ALIKE_PAIRS = (("rn", "m"), ("vv", "w"), ("cl", "d"))
# fmt: on


def skeleton(name: str) -> str:
    """What `name` looks like, for comparing names (a string; equal skeletons: names a reader
    could take for one another): NFKC (full-width and other compatibility forms), a capital I
    read as l, case folded, accents dropped, look-alike letters mapped (`LOOK_ALIKES`), the
    spaces, dots, hyphens, underscores and characters that do not show (`hidden`, in a name
    chosen before `clean_name` refused them) left out, the pairs read (`LOOK_ALIKE_PAIRS`), then
    a small i read as l."""
    upright = unicodedata.normalize("NFKC", name).translate(UPRIGHT_CAPITALS)
    folded = upright.casefold()
    bare = "".join(ch for ch in unicodedata.normalize("NFD", folded) if not unicodedata.combining(ch))
    mapped = unicodedata.normalize("NFC", bare).translate(LOOK_ALIKES)
    mapped = "".join(ch for ch in mapped if ch not in " ._-" and not hidden(ch))
    for pair, single in LOOK_ALIKE_PAIRS:
        mapped = mapped.replace(pair, single)
    return mapped.translate(DOTTED_I)


# Names the site itself gives (bots by level and the stand-in, in English and French): no
# player may take one, nor a look-alike of one.
# fmt: off
RESERVED_NAMES = (
    "bot", "a bot", "robot", "un robot", "random", "easy", "hard", "random bot", "easy bot",
    "hard bot", "the easy bot", "the hard bot", "stand-in", "standin", "the stand-in",
    "remplaçant", "le remplaçant", "host", "hôte", "inis", "robot aléatoire", "robot facile",
    "robot difficile", "strong", "strong bot", "the strong bot", "robot fort",
)
# fmt: on
_RESERVED_SKELETONS = frozenset(skeleton(name) for name in RESERVED_NAMES)
# The words the site's pages and emails give a seat or a person, in each language of the site:
# a bot by its level (`BOT_NAMES`), a person who chose no name (`UNNAMED`), a departed player.
# A player who took one would pass for that seat ("Player 2 (left)" beside the real one).
# ("a player who left" and "the bot" are the notifications' and the host's page's words, in
# their catalogs.)
SITE_LABELS = (UNNAMED, "a player who left", "the bot")
LEFT_SEAT = gettext_noop("Player {number} (left)")


@functools.cache
def _site_label_skeletons() -> tuple[frozenset[str], tuple[re.Pattern[str], ...]]:
    """(skeletons of `SITE_LABELS` and the bots' names, patterns of "Player N (left)") in every
    language of the site (settings.LANGUAGES), read once: the catalogs do not change while the
    process runs. A number's digits are matched as their skeletons read them (0 as o, 1 as l)."""
    labels, patterns = set(), []
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            labels |= {skeleton(_(label)) for label in (*SITE_LABELS, *BOT_NAMES.values())}
            # The number's place, marked by a sign no skeleton drops or maps (a snowman).
            before, _marker, after = skeleton(_(LEFT_SEAT).format(number="\u2603")).partition("\u2603")
            patterns.append(re.compile(re.escape(before) + "[0-9los]+" + re.escape(after)))
    return frozenset(labels), tuple(patterns)


def passes_for_a_site_label(name: str) -> bool:
    """Whether `name` passes for a name the site gives (`RESERVED_NAMES`, `SITE_LABELS`, a bot's
    name, "Player N (left)"), in any of the site's languages: equal `skeleton`s."""
    key = skeleton(name)
    labels, patterns = _site_label_skeletons()
    return key in _RESERVED_SKELETONS or key in labels or any(p.fullmatch(key) for p in patterns)


@functools.cache
def _colour_skeletons() -> frozenset[str]:
    """The skeletons of the seats' colours as the site writes them, in every language of the
    site, singular and plural ("blue", "bleu", "bleus"...). Read once."""
    words = set()
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            for colour in rules.COLOURS:
                words |= {skeleton(rules.colour_name(colour, plural=plural)) for plural in (False, True)}
    return frozenset(words)


def names_a_colour(name: str) -> bool:
    """Whether `name` passes for a seat's colour or carries one: it is a colour alone ("Blue": the
    pages name a seat whose player chose no name by its colour, so "Blue (orange) to everyone"
    read as blue's), or holds a colour in brackets ("Ann (green)" at orange reads as Ann's seat
    next to it), in any language of the site, look-alikes included (`skeleton`)."""
    colours = _colour_skeletons()
    if skeleton(name) in colours:
        return True
    for inside in re.findall(r"[(\[{]([^()\[\]{}]*)", name):
        if any(skeleton(word) in colours for word in re.split(r"[\s,;:/]+", inside)):
            return True
    return False


def check_not_taken(name: str, *, email: str) -> None:
    """Raise forms.ValidationError (in the active language) when `name` (a cleaned display
    name, "" allowed) passes for a name the site gives (`passes_for_a_site_label`), names a seat's
    colour (`names_a_colour`) or passes for the display
    name another person chose (any Player but the one of `email`): equal `skeleton`s. Reads
    every chosen name once (a name is chosen rarely)."""
    key = skeleton(name)
    if not key:
        return
    if passes_for_a_site_label(name):
        raise forms.ValidationError(
            _("That name is the site's own (for a bot or the stand-in): choose another one.")
        )
    if names_a_colour(name):
        raise forms.ValidationError(
            _(
                "A colour names a seat at the table: choose a name that is no colour and holds none "
                "in brackets."
            )
        )
    others = (
        Player.objects.exclude(display_name="")
        .exclude(email=canonical_address(email))
        .values_list("display_name", flat=True)
        .iterator()
    )
    if any(skeleton(other) == key for other in others):
        raise forms.ValidationError(
            _(
                "Another player already has that name, or one that looks just like it: "
                "choose another one, so that nobody takes one of you for the other."
            )
        )


def seat_names(seats) -> dict:
    """{colour: the name other players see}: the player's chosen display name
    (`players.Player.display_name`), a bot's seat by its level ("Hard bot", `bot_name`), ""
    when none was chosen, "Player N (left)" for a seat whose player erased their account (N: its
    position + 1; docs/privacy.md). Never the email address. A bot's and a departed player's
    names are in the active language: an email words them inside its reader's (`seat_names_in`
    for several readers). One query for the seats given."""
    seats = list(seats)
    chosen = _chosen_names(seats)
    return {s.colour: _seat_name(s, chosen) for s in seats}


def game_seat_names(game_id: int) -> dict:
    """`seat_names` of the seats of the game `game_id`, read with their players' chosen names in
    one query (a prompt's delivery, which has not read the seats)."""
    chosen = (
        Player.objects.filter(email=Lower(OuterRef("email"))).exclude(display_name="").values("display_name")
    )
    seats = Seat.objects.filter(game_id=game_id).order_by("position").annotate(chosen=Subquery(chosen[:1]))
    return {
        s.colour: _seat_name(s, {(s.email or "").lower(): s.chosen} if s.chosen and not s.is_bot else {})
        for s in seats
    }


def seat_names_by_game(seats) -> dict[int, dict[str, str]]:
    """{game id: `seat_names` of that game's seats among `seats`}, for an email that tells of
    several games (a follower's digest). One query for all the seats given."""
    seats = list(seats)
    chosen = _chosen_names(seats)
    names: dict[int, dict[str, str]] = {}
    for s in seats:
        names.setdefault(s.game_id, {})[s.colour] = _seat_name(s, chosen)
    return names


def seat_names_in(seats, languages) -> dict[str, dict[str, str]]:
    """{language: `seat_names` of `seats` worded in that language} for each of `languages`
    (codes, "en", "fr"): the emails of one append go to readers of several languages, and a
    bot's seat and a departed player's are named in each reader's own ("Robot au hasard",
    "Joueur 2 (parti)"). One query for all the languages."""
    seats = list(seats)
    chosen = _chosen_names(seats)
    named = {}
    for language in languages:
        with translation.override(language):
            named[language] = {s.colour: _seat_name(s, chosen) for s in seats}
    return named


def _chosen_names(seats: list) -> dict:
    """{address: display name} of the players holding `seats` who chose a name."""
    emails = {s.email.lower() for s in seats if s.email and not s.is_bot}
    if not emails:
        return {}
    return dict(
        Player.objects.filter(email__in=emails).exclude(display_name="").values_list("email", "display_name")
    )


def _seat_name(seat, chosen: dict) -> str:
    if seat.left_at is not None:  # its player erased their account (docs/privacy.md)
        return _("Player {number} (left)").format(number=seat.position + 1)
    return bot_name(seat.bot_level) if seat.is_bot else chosen.get((seat.email or "").lower(), "")


# A bot as the table names it, by its level (games.bots.LEVELS).
BOT_NAMES = {
    "random": gettext_noop("Random bot"),
    "easy": gettext_noop("Easy bot"),
    "hard": gettext_noop("Hard bot"),
    "strong": gettext_noop("Strong bot"),
}


def bot_name(level: str) -> str:
    """A bot seat's name in the active language, by its level: "Hard bot" ("Robot difficile")."""
    return _(BOT_NAMES[level]) if level in BOT_NAMES else _("bot")
