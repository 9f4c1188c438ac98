"""The command language of email replies: a player's words in, engine commands out.

    parse_reply("play migration from valley: 2 to cove, 1 to plains", state, "green")
    -> [{"type": "play", "card": "act_migration", "from": "valley",
         "moves": {"cove": 2, "plains": 1}}]

The language is documented for players in docs/email-commands.md (a stable interface). How it
works: a line that is an option line as a prompt prints it (`describe_command`, in English or
French, its number in front or not) is that option; any other line is read word by word. The
reply is cut into command lines (quoted history, signatures and greetings dropped); each
line is read into *readings* — what it says about the command (a verb, cards, territories with
counts and prepositions, colours, yes/no, a cell), one reading per way of taking its ambiguous
words ("cove" is a territory and an Advantage card). Every legal command (`legal_commands`, plus
`set_policy`, always allowed) is described by the same kinds of facts, and a reading denotes the
commands whose facts account for every word of it. One command: that is the answer; several:
`AmbiguousCommand`; none: `IllegalCommand` naming what was understood and what is allowed.

Only the replying seat's own legal commands and public facts go into messages: nothing here
looks at another seat's hand. Pure Python (no Django): the module is tested on its own.
"""

from __future__ import annotations

import difflib
import functools
import logging
import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from games.rules import (
    CARDS,
    TAKE_BACK,
    TRISKEL,
    AmbiguousCommand,
    CommandError,
    IllegalCommand,
    InvalidCommand,
    asks_triskel,
    card_name,
    decide,
    describe_command,
    legal_commands,
    pending,
    pending_for,
    player_name,
    speaking,
    territory_name,
    usual_moves,
)
from games.story.names import joined
from notifications.command_language import words
from notifications.command_language.help import describe_syntax, message
from notifications.command_language.matching import Facts, command_facts, fits, typed
from notifications.command_language.orders import read_order_line
from notifications.command_language.reading import Reading, lex, readings_of
from notifications.command_language.reply_parts import split_reply
from notifications.command_language.translations import catalog

__all__ = ["parse_reply", "describe_syntax", "found_no_command", "move_test"]

# The name it had as one module: log settings and handlers that name it keep working.
logger = logging.getLogger("notifications.command_language")

MAX_LINES = 20  # command lines read from one reply
# Commands a reply may hold beside its one decision: Triskel policies and standing orders.
ANY_TIME = ("set_policy", "standing_order", "cancel_order")
MAX_LINE_CHARS = 1000  # a longer line is not a command
MAX_TOKENS = 80
MAX_LISTED = 15  # options listed in an error message
POLICY_CARDS = frozenset(c for c, info in CARDS.items() if TRISKEL in info.timings)


# -- the reply as lines ------------------------------------------------------------------------

_CUT = [
    re.compile(p, re.I)
    for p in (
        r"^--\s*$",
        r"^_{5,}\s*$",
        r"^-{3,}.*(original|origine|forwarded|transf)",
        r"^on\b.*\bwrote\s*:?\s*$",
        r"^le\b.*\ba [ée]crit\s*:?\s*$",
        # Mobile and webmail signatures, English and French: "Sent from my iPhone", "Sent with
        # Proton Mail", "Envoyé à partir de Courrier pour Windows", "Obtenir Outlook pour iOS".
        r"^(sent (from|with|via|using)|envoy[ée] (de|depuis|[àa] partir de|avec|via|par))\b",
        r"^(get|obtenir|obtenez|t[ée]l[ée]charger|t[ée]l[ée]chargez) outlook\b",
        r"^\*?(from|de|von)\s*:\*?.*(@|mailto)",
    )
]
# A phone number alone on its line, perhaps labelled: "06 12 34 56 78", "+33 6 12 34 56 78",
# "+1 (555) 123-4567", "Tél. : 06.12.34.56.78". No command is written so: an option number has
# at most 4 digits and a cell ("1,-1", "(1, -1)", "1 -1") two small ones, with a comma or not.
_PHONE = re.compile(
    r"^(?:(?:t[ée]l[ée]?(?:phone)?|phone|mobile?|mob|portable|port|cell(?:ular)?|gsm|fax|fixe"
    r"|[mtpf])\s*[.:]?\s*:?\s*)?"
    r"\+?[\d\s().\-/]+$",
    re.I,
)
PHONE_DIGITS = 8  # the fewest digits of a phone number (Denmark, Norway; France has 10)
_CONTINUES = re.compile(r"([,:;&+/]|->|=>|\b(and|et|to|vers|from|de|depuis|then|puis))\s*$")
_CONTINUATION = re.compile(r"^\s*([,;&+]|(and|et)\b)")
_OPTION = re.compile(
    r"^\s*(?:(?:option|choice|choix|number|numero|nr|no|n|num|#|n°)\s*[.:#°]?\s*)?"
    r"#?\s*([0-9]{1,4})\s*[.):!]?\s*$"
)
_ATTRIBUTION_END = re.compile(r"\b(wrote|a [ée]crit)\s*:?\s*$", re.I)
# An option line as the prompt lists it: "3. Take a Pretender token" (the number, then its words).
_LISTED = re.compile(r"^\s*(?:option\s*)?#?\s*([0-9]{1,4})\s*[.):]\s*(\S.*)$", re.I)
PRINTED_LANGUAGES = ("en", "fr")  # option lines are printed in the player's language, one of these


def reply_lines(text: str) -> list[str]:
    """The command lines a reply holds above the mail it quotes (`reply_parts.split_reply`:
    HTML read as text, the quoted mail set apart), as `command_lines` cuts them."""
    return command_lines(split_reply(text).above)


def command_lines(text: str) -> list[str]:
    """The command lines of a text: quoted lines (">") dropped, everything from a signature, a
    phone number (`is_phone_line`) or an "On ... wrote:" / "Le ... a écrit :" line (one line or
    two) cut, blank lines dropped, and a line ending with a comma, a colon or "and"/"to"...
    joined with the next one (mail clients wrap long lines). The libraries behind `split_reply`
    find most quoted mail; these rules catch what they leave."""
    raw = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    kept: list[str] = []
    for i, line in enumerate(raw):
        stripped = line.strip()
        if any(p.search(stripped) for p in _CUT) or is_phone_line(stripped):
            break
        if (
            stripped.lower().startswith(("on ", "le "))
            and i + 1 < len(raw)
            and _ATTRIBUTION_END.search(raw[i + 1].strip())
        ):
            break
        if stripped.startswith(">") or not stripped:
            continue
        if (
            kept
            and not _courteous(kept[-1])
            and not _courteous(stripped)
            and (_CONTINUES.search(words.fold(kept[-1])) or _CONTINUATION.match(stripped))
        ):
            kept[-1] = f"{kept[-1]} {stripped}"
        else:
            kept.append(stripped)
    return kept


def is_phone_line(line: str) -> bool:
    """Whether `line` is only a phone number (`_PHONE`, at least `PHONE_DIGITS` digits): the
    line of a signature under a reply ("Alice Martin" then "06 12 34 56 78"). It is cut with
    what follows it, never read: its digits would be read as cells ("6,12"), and a leading "+"
    would join it to the name above ("Alice +33 6...")."""
    return bool(_PHONE.match(line)) and sum(c.isdigit() for c in line) >= PHONE_DIGITS


def _courteous(line: str) -> bool:
    """Whether `line` opens with a greeting, thanks or closing word ("Hi all,", "Thanks a lot",
    "Take care", "À bientôt": `words.COURTESY`, `words.COURTESY_OPENINGS`). Such a line is never
    joined with its neighbours; one with unknown words is skipped beside a command."""
    found = tuple(_WORDS_AND_NUMBERS.findall(words.fold(line)))
    return bool(found) and (found[0] in words.COURTESY or found[:2] in words.COURTESY_OPENINGS)


# -- one reply, one seat ----------------------------------------------------------------------


@dataclass
class Option:
    """A command the seat may send: `number` (1-based place in legal_commands, None for
    policies), the command, its facts."""

    number: int | None
    command: dict
    facts: Facts


class _Reader:
    """Reads the lines of one reply against one state, for one seat."""

    def __init__(self, state, seat: str, language: str):
        self.state, self.seat, self.lang = state, seat, language
        self.legal = legal_commands(state, seat)
        seats = frozenset(state.seats)
        self.options = [Option(n, c, command_facts(c, seats)) for n, c in enumerate(self.legal, 1)]
        self.policies = [
            Option(
                None,
                {"type": "set_policy", "card": c, "policy": p},
                command_facts({"type": "set_policy", "card": c, "policy": p}, seats),
            )
            for c in ["all"] + sorted(POLICY_CARDS)
            for p in ("never", "ask")
        ]
        self.relevant = {c for o in self.options for c in o.facts.cards}

    # -- option lines copied as printed --
    @functools.cached_property
    def printed_index(self) -> dict:
        """{the words of an option line as a prompt prints it (`printed_key`): [Option, ...]},
        the lines in English and in French (a player may copy from an email written before
        they changed their language), said to the seat ("then you maneuver") and, as emails
        printed them before, naming it."""
        index: dict = {}
        for language in PRINTED_LANGUAGES:
            with speaking(language):
                for option in self.options:
                    for reader in (self.seat, None):
                        try:
                            text = describe_command(self.state, option.command, reader)
                        except Exception:  # noqa: S112 - a command the describer cannot word is not printed either
                            continue
                        # As the prompt prints it: a player who left named as a sentence says
                        # it ("contre Joueur 2 (parti, bleu)", `games.story.names.joined`).
                        for key in dict.fromkeys((printed_key(text), printed_key(joined(text)))):
                            found = index.setdefault(key, [])
                            if option not in found:
                                found.append(option)
        return index

    def printed(self, line: str) -> dict | None:
        """The command whose option line `line` is, word for word (its number in front or not),
        or None when `line` is no printed option line. Case, accents and punctuation do not
        count, as everywhere in the language.

        :raises AmbiguousCommand: the words are the line of several options and no number says
            which (the message lists them numbered)."""
        listed = _LISTED.match(line)
        number, words_part = (int(listed.group(1)), listed.group(2)) if listed else (None, line)
        found = self.printed_index.get(printed_key(words_part))
        if not found:
            return None
        if len(found) > 1:
            chosen = [o for o in found if o.number == number]
            if not chosen:
                raise AmbiguousCommand(self.msg("ambiguous", line=line) + "\n" + self.listing(found))
            found = chosen
        return dict(found[0].command)

    # -- messages --
    def msg(self, key: str, **kw) -> str:
        return message(key, self.lang, **kw)

    def describe(self, option: Option) -> str:
        try:
            text = describe_command(self.state, option.command, self.seat)
        except Exception:  # a command type the English describer does not know yet
            text = " ".join(f"{k}={v}" for k, v in option.command.items())
        return f"{option.number}. {text}" if option.number else text

    def listing(self, options: list) -> str:
        """Options numbered as in legal_commands; a long list of several kinds of command shows
        the first of each kind."""
        kinds: dict = {}
        for o in options:
            kinds.setdefault((o.facts.type, tuple(sorted(o.facts.cards))), []).append(o)
        if len(options) <= MAX_LISTED or len(kinds) == 1:
            lines = ["  " + self.describe(o) for o in options[:MAX_LISTED]]
            if len(options) > MAX_LISTED:
                lines.append("  " + self.msg("more", n=len(options) - MAX_LISTED))
            return "\n".join(lines)
        lines = []
        for group in list(kinds.values())[:MAX_LISTED]:
            more = self.msg("alike", n=len(group) - 1) if len(group) > 1 else ""
            lines.append("  " + self.describe(group[0]) + more)
        shown = sum(len(g) for g in list(kinds.values())[:MAX_LISTED])
        if shown < len(options):
            lines.append("  " + self.msg("more", n=len(options) - shown))
        return "\n".join(lines)

    def syntax(self) -> str:
        kinds = [d.kind for d in pending(self.state) if d.seat == self.seat]
        if not kinds:
            return describe_syntax(None, language=self.lang)
        offered = usual_moves(self.state, self.seat, kinds[0]).offered
        return describe_syntax(kinds[0], language=self.lang, offered=offered or None, legal=self.legal)

    def nothing_to_decide(self) -> str:
        # pending_for: never who a private Triskel window asked (docs/rulings.md).
        known = {d.seat for d in pending_for(self.state, self.seat)}
        with speaking(self.lang):  # the players as the reader names them ("vert"; "Ann (green)")
            named = [player_name(s) for s in sorted(s for s in known if s)]
        waiting = named + ([self.msg("possible_reactions")] if None in known else [])
        return self.msg(
            "nothing_to_decide", waiting=self.msg("waiting", seats=", ".join(waiting)) if waiting else ""
        )

    # -- reading --
    def read_line(self, line: str) -> list[dict]:
        """The commands of one line (a policy may follow a decision on the same line)."""
        if len(line) > MAX_LINE_CHARS:
            raise InvalidCommand(self.msg("too_long", line=line[:60]))
        if is_take_back_line(line):
            return [{"type": TAKE_BACK}]
        standing = read_order_line(line, self.lang)
        if standing is not None:
            return standing
        option = _OPTION.match(words.fold(line))
        if option:
            return [self.numbered(int(option.group(1)))]
        printed = self.printed(line)
        if printed is not None:
            return [printed]
        tokens = words.tokenize(words.fold(line))
        if len(tokens) > MAX_TOKENS:
            raise InvalidCommand(self.msg("too_long", line=line[:60]))
        parts, start = [], 0
        for i, tok in enumerate(tokens):
            if (
                tok.kind == "marker"
                and tok.text in ("XNEVER", "XASK")
                and i > start
                and any(t.kind in ("word", "marker", "num") for t in tokens[start:i])
            ):
                parts.append(tokens[start:i])
                start = i
        parts.append(tokens[start:])
        return [self.read_tokens(part, line) for part in parts]

    def numbered(self, n: int) -> dict:
        if not self.legal:
            raise IllegalCommand(self.nothing_to_decide())
        if not 1 <= n <= len(self.legal):
            raise IllegalCommand(
                self.msg("no_option", n=n, count=len(self.legal)) + "\n" + self.listing(self.options)
            )
        return dict(self.legal[n - 1])

    def read_tokens(self, tokens, line: str) -> dict:
        policy = any(t.kind == "marker" and t.text in ("XNEVER", "XASK") for t in tokens)
        relevant = self.relevant | (POLICY_CARDS if policy else set())
        slots, unknown = lex(tokens, relevant)
        if unknown:
            raise _Unknown(
                self.unknown_message(line, unknown),
                recognised=any(a[0].kind not in _SMALL_WORDS for alts in slots for a in alts),
            )
        readings = readings_of(slots)
        if not slots or not readings:
            raise (
                InvalidCommand(self.msg("too_complex", line=line))
                if slots and not readings
                else _Unknown(self.msg("no_command", line=line), recognised=False)
            )
        readings = [r for r in readings if r.has_content()]
        if not readings:
            raise _Unknown(self.msg("no_command", line=line), recognised=False)
        if all(r.contradictory for r in readings):
            raise InvalidCommand(
                self.msg("contradictory", line=line, words=self.echo(readings[0])) + "\n\n" + self.syntax()
            )
        found: dict = {}
        for reading in readings:
            for option in self.candidates(reading):
                if fits(reading, option.facts, self.seat):
                    found[id(option)] = option
        matches = sorted(found.values(), key=lambda o: o.number or 0)
        plain = [o for o in matches if "then" not in o.command]
        if len(matches) > 1 and len(plain) == 1:
            # A Triskel answer with a card said ahead for later in the clash step is chosen by its
            # number (docs/email-commands.md): words fitting it and the answer alone mean the latter.
            matches = plain
        if len(matches) == 1:
            return dict(matches[0].command)
        if matches:
            raise AmbiguousCommand(self.msg("ambiguous", line=line) + "\n" + self.listing(matches))
        raise IllegalCommand(self.illegal_message(next(r for r in readings if not r.contradictory)))

    def candidates(self, reading: Reading) -> list:
        if reading.flags & {"never", "ask"}:
            return self.policies
        if reading.types is None:
            return self.options
        return [o for o in self.options if typed(o.facts, reading.types)]

    def unknown_message(self, line: str, unknown: list) -> str:
        """The refusal of `line` for its `unknown` words (folded), each with the closest word of
        the player's language, if any ("did you mean"), then the syntax. In French the words are
        shown as the player typed them and the hints with their accents ("valée", "vallée"), in
        « »; in English both are folded, in “ ”."""
        hints = []
        vocabulary = words.known_words(self.lang)
        typed = _as_typed(line) if self.lang == "fr" else {}
        quoted = catalog(self.lang).pgettext("email command: a word of a reply, quoted", "“{word}”")
        for word in list(dict.fromkeys(unknown))[:5]:
            # A word known elsewhere (a lobby command) is not "did you mean" itself.
            close = difflib.get_close_matches(word, [w for w in vocabulary if w != word], n=1, cutoff=0.75)
            hint = self.msg("did_you_mean", s=words.spelled(close[0], self.lang)) if close else ""
            hints.append(quoted.format(word=typed.get(word, word)[:30]) + hint)
        return self.msg("unknown", words=", ".join(hints), line=line[:200]) + "\n\n" + self.syntax()

    def illegal_message(self, reading: Reading) -> str:
        understood = self.echo(reading)
        if reading.flags & {"never", "ask"}:
            names = ", ".join(card_name(c, self.lang) for c in sorted(POLICY_CARDS))
            return self.msg("not_policy", understood=understood) + " " + self.msg("policy_cards", cards=names)
        if not self.legal:
            return self.msg("illegal", understood=understood) + " " + self.nothing_to_decide()
        reason = self.engine_reason(reading)
        understood = self.msg("illegal", understood=understood) + (f" {reason}" if reason else "")
        options = self.options
        if reading.types is not None:
            options = [o for o in options if typed(o.facts, reading.types)] or options
        named = {c for c, _ in reading.cards}
        if named:
            options = [o for o in options if named & set(o.facts.cards)] or options
        return understood + "\n" + self.msg("allowed") + "\n" + self.listing(options)

    def engine_reason(self, reading: Reading) -> str:
        """The rules' own explanation, when the reading names a whole command (e.g. "pretender",
        "attack white", "play geis"): `decide` is asked on a copy and its refusal quoted."""
        command = _whole_command(reading, self.state, self.seat, offered=self.relevant)
        if command is None:
            return ""
        try:
            # A dry run for its refusal only: the draws are thrown away with the events.
            with speaking(self.lang):  # the reason in the reply's language, as the rest of it
                decide(self.state, self.seat, command, rng=random.Random(0))  # noqa: S311
        except CommandError as error:
            return str(error)
        except Exception:  # the rules may not expect a half-built command: no reason then
            return ""
        return ""

    def echo(self, reading: Reading) -> str:
        """What was understood, in words: only what the player wrote (no hidden facts)."""
        places = iter(reading.places)
        out = []
        for index, item in enumerate(reading.items):
            if item.kind == "kw":
                out.append(message("label:" + item.value.label, self.lang))
            elif item.kind == "card":
                out.append(card_name(item.value, self.lang))
            elif item.kind == "territory":
                p = next(places)
                prep = message("prep:" + p.prep, self.lang) if p.prep else ""
                out.append(
                    " ".join(
                        x
                        for x in (
                            str(p.count) if p.count is not None else "",
                            prep,
                            territory_name(p.territory, self.lang),
                        )
                        if x
                    )
                )
            elif item.kind == "seat":
                out.append(message("seat:" + item.value, self.lang))
            elif item.kind == "self":
                out.append(self.seat)
            elif item.kind == "cell":
                out.append(item.value)
            elif item.kind == "num" and index in reading.free_at:
                out.append(str(item.value))
            elif item.kind == "sep" and out and not out[-1].endswith(","):
                out[-1] += ","
        return " ".join(out).strip(" ,")


_WORDS_AND_NUMBERS = re.compile(r"[^\W\d_]+|\d+")
# What a line's small words are read as ("the", "please", "and", "to", "à"): they say nothing by
# themselves, so a line whose only known words are these and some unknown ones is no command
# ("Thanks a lot", "Good luck to all", "Bonne journée à tous") and is skipped beside one.
_SMALL_WORDS = ("filler", "sep", "prep")


def _as_typed(line: str) -> dict[str, str]:
    """{folded word: the word as `line` writes it} ("valee": "valée"), for each word of `line`."""
    typed: dict[str, str] = {}
    for written in re.findall(r"[^\W\d_]+", line):
        typed.setdefault(words.fold(written), written)
    return typed


def is_take_back_line(line: str) -> bool:
    """Whether `line` asks to take back the seat's last move: its words (folded: case, accents
    and punctuation do not count) are one of `words.TAKE_BACK_PHRASES` ("take back", "undo",
    "reprendre", "annuler"), followed only by words of `words.TAKE_BACK_MORE` ("my last move",
    "mon coup"). "annuler ordre 2" is no take-back: it cancels a standing order."""
    found = tuple(_WORDS_AND_NUMBERS.findall(words.fold(line)))
    return any(
        found[: len(phrase)] == phrase and all(w in words.TAKE_BACK_MORE for w in found[len(phrase) :])
        for phrase in words.TAKE_BACK_PHRASES
    )


def read_tables_command(text: str) -> tuple[str, int | None] | None:
    """The open tables' command of a mail (docs/email-commands.md, "Finding a table"): its first
    command line (`reply_lines`: quotes and signatures left out), folded, is `list` ("liste")
    -> ("list", None), `join N` ("rejoindre N", "join table N") -> ("join", N), or `leave N`
    ("quitter N", "leave table N") -> ("leave", N); anything else -> None (the mail is no such
    command)."""
    lines = reply_lines(text)
    if not lines:
        return None
    found = tuple(_WORDS_AND_NUMBERS.findall(words.fold(lines[0])))
    if found in words.TABLES_LIST_PHRASES:
        return ("list", None)
    for verb, phrases in (("join", words.TABLES_JOIN_PHRASES), ("leave", words.TABLES_LEAVE_PHRASES)):
        for phrase in phrases:
            rest = found[len(phrase) :]
            if found[: len(phrase)] == phrase and len(rest) == 1 and rest[0].isdigit() and len(rest[0]) <= 9:
                return (verb, int(rest[0]))
    return None


def printed_key(text: str) -> tuple:
    """The words and numbers of an option line, folded as the reader folds a reply (case,
    accents, punctuation and brackets left out): two lines with the same key say the same."""
    return tuple(t.text for t in words.tokenize(words.fold(text)) if t.kind in ("word", "num", "marker"))


BARE_TYPES = ("pass", "pretender", "end_clash", "propose_peace", "citadel", "no_citadel", "decline")


def _whole_command(reading: Reading, state, seat: str, *, offered: set[str]) -> dict | None:
    """The one command a reading names without needing the legal list, or None. `offered`: the
    cards the seat's legal commands name (a card held but offered in none, such as a Triskel card
    on your turn, is asked of the rules, whose refusal says why)."""
    types = reading.types or frozenset()
    bare = [t for t in types if t in BARE_TYPES]
    if len(bare) == 1 and not (reading.cards or reading.seats or reading.places or reading.cell):
        return {"type": bare[0]}
    if types == {"attack"} and len(reading.seats) == 1 and not (reading.cards or reading.places):
        return {"type": "attack", "target": next(iter(reading.seats))}
    drafting = any(d.seat == seat and d.kind == "draft" for d in pending(state))
    if drafting and "draft" in types and reading.cards and not (reading.seats or reading.places):
        # "keep festival, geis" in a pick of one: the rules say how many the pick keeps.
        return {"type": "draft", "keep": [card for card, _words in reading.cards]}
    if (
        len(reading.cards) == 1
        and not reading.seats
        and not reading.flags
        and (reading.types is None or types & {"play", "react"})
    ):
        card = reading.cards[0][0]
        if card in state.hands.get(seat, ()) and card in offered:
            return None  # held and offered: the allowed list says how it may be played
        # A Triskel window folded into the seat's maneuver asks about its cards too.
        reacting = any(asks_triskel(d) for d in pending(state) if d.seat == seat)
        return {"type": "react" if reacting else "play", "card": card}
    return None


class _Unknown(InvalidCommand):
    """A line with unknown words; `recognised`: whether anything in it but small words
    (`_SMALL_WORDS`) was understood (a line with nothing understood, such as "Bob", "Thanks!" or
    "Thanks a lot", is skipped when others hold commands)."""

    def __init__(self, message_text: str, recognised: bool):
        super().__init__(message_text)
        self.recognised = recognised


def move_test(state, seat: str, *, language: str = "en") -> Callable[[str], bool]:
    """A test of single lines: `test(line)` is whether `line` alone reads as commands `seat`
    may send now, as `parse_reply` reads a line (legal commands only; a line that fits several,
    or none, is no move). One reader serves every line tested (a message may have many lines).
    Never raises."""
    if seat not in getattr(state, "seats", ()):
        return lambda line: False
    reader = _Reader(state, seat, "fr" if str(language).lower().startswith("fr") else "en")

    def test(line: str) -> bool:
        line = line.strip()
        if not line or len(line) > MAX_LINE_CHARS:
            return False
        try:
            return bool(reader.read_line(line))
        except CommandError:
            return False
        except Exception:  # a bug must not lose a message: the line stays words of it
            logger.exception("command language: could not test a line of %s", seat)
            return False

    return test


def parse_reply(text: str, state, seat: str, *, language: str = "en") -> list[dict]:
    """The engine commands written in an email reply `text` by `seat` (docs/email-commands.md).

    One command per line; at most one decision per reply, plus any `set_policy` lines and
    standing-order lines (`standing_order`, `cancel_order`: `command_language.orders`); or a
    take-back line alone (`{"type": "take_back"}`, `is_take_back_line`: whether the log allows
    it is the caller's to judge, `games.play.take_backs`). The quoted mail (`reply_parts.split_reply`), lines starting with ">" and everything after a
    signature ("-- ") or an "On ... wrote:" line are ignored; what is written under the quoted
    mail is read only when nothing above it is a command. `language` ("en" or "fr") is the language of the error messages; both languages are
    always understood. Returns the commands in the order written.

    :raises InvalidCommand: nothing in the reply can be understood (unknown words, no command);
        `found_no_command(error)` tells when nothing at all in it reads as a command.
    :raises AmbiguousCommand: the words fit several legal commands; the message lists them
        numbered as in `legal_commands(state, seat)`, so the player can answer with a number.
    :raises IllegalCommand: the command was understood but is not allowed now; the message says
        what was understood and lists what is allowed (a take-back beside other commands too).
    No other exception escapes, whatever the text.
    """
    lang = "fr" if str(language).lower().startswith("fr") else "en"
    if not isinstance(text, str):
        raise InvalidCommand(message("no_reply", lang))
    if seat not in getattr(state, "seats", ()):
        raise InvalidCommand(message("no_seat", lang, seat=str(seat)[:20]))
    try:
        return _parse(text, state, seat, lang)
    except CommandError:
        raise
    except Exception:  # a bug must not bounce an email with a stack trace: log it, answer plainly
        logger.exception("command language: could not read a reply of %s", seat)
        raise InvalidCommand(message("internal", lang)) from None


def _parse(text: str, state, seat: str, lang: str) -> list[dict]:
    """The commands of a reply: those above the quoted mail; those under it when nothing above
    is a command (a reply written under the quote, or only "Hi," above it)."""
    reader = _Reader(state, seat, lang)
    parts = split_reply(text)
    above, below = command_lines(parts.above), command_lines(parts.below)
    if not above and not below:
        raise _nothing(message("empty", lang) + "\n\n" + reader.syntax())
    if not above:
        try:
            return _read_lines(reader, below, lang, under_quote=True)
        except _NoCommand as nothing:
            raise _nothing(str(nothing) + "\n\n" + reader.syntax()) from None
    try:
        return _read_lines(reader, above, lang)
    except _NoCommand as nothing_above:
        if not below:
            raise _nothing(str(nothing_above)) from None
        try:
            return _read_lines(reader, below, lang, under_quote=True)
        except _NoCommand:
            raise _nothing(
                message("above_quote", lang, line=above[0][:80]) + "\n\n" + reader.syntax()
            ) from None


def _read_lines(reader: _Reader, lines: list[str], lang: str, *, under_quote: bool = False):
    """The commands of `lines` (at most one decision, any number of policies).

    :raises _NoCommand: nothing in any line is recognised (a name, "Hi,", "Thanks!").
    :raises CommandError: any other refusal, naming the line when there are several."""
    where = message("under_quote", lang) if under_quote else ""
    if len(lines) > MAX_LINES:
        raise InvalidCommand(
            where + message("too_many_lines", lang, count=len(lines), n=MAX_LINES, first=lines[0][:60])
        )
    commands, first_error = [], None
    for number, line in enumerate(lines, 1):
        try:
            for command in reader.read_line(line):
                if command not in commands:
                    commands.append(command)
        except _Unknown as error:
            # A courtesy line with unknown words ("Take care", "Thanks in advance") is taken for
            # one, not for a misspelt command: like a line with nothing recognised in it, it is
            # refused only when no other line holds a command.
            if error.recognised and not _courteous(line):
                raise _located(InvalidCommand, error, number, line, lines, lang, where) from None
            first_error = first_error or _located(_NoCommand, error, number, line, lines, lang, where)
        except CommandError as error:
            raise _located(type(error), error, number, line, lines, lang, where) from None
    if not commands:
        raise first_error or _NoCommand(message("empty", lang))
    if len(commands) > 1 and any(c.get("type") == TAKE_BACK for c in commands):
        raise IllegalCommand(where + message("take_back_alone", lang))
    decisions = [c for c in commands if c.get("type") not in ANY_TIME]
    if len(decisions) > 1:
        listed = (
            catalog(lang)
            .pgettext("between the parts of a list", "; ")
            .join(reader.describe(Option(None, c, None)) for c in decisions)
        )
        raise IllegalCommand(where + message("one_decision", lang, n=len(decisions), commands=listed))
    return commands


class _NoCommand(InvalidCommand):
    """Nothing in the lines read is a command: the caller may look under the quoted mail."""


def _nothing(text: str) -> InvalidCommand:
    """The InvalidCommand for a reply in which nothing at all reads as a command."""
    error = InvalidCommand(text)
    error.no_command = True
    return error


def found_no_command(error: CommandError) -> bool:
    """Whether `error` (from `parse_reply`) says that nothing at all in the reply reads as a
    command — it is empty, or only "Hi,", a name, "Thanks!" — rather than that a command was
    misread or refused: beside table talk, such a reply holds no move."""
    return bool(getattr(error, "no_command", False))


def _located(cls, error: CommandError, number: int, line: str, lines: list, lang: str, where: str = ""):
    """The error as the player's class, prefixed with its line when the reply has several (and
    with `where`, e.g. "Under the quoted mail: ")."""
    text = str(error)
    if len(lines) > 1:
        text = message("line", lang, n=number, line=line[:80]) + text
    return cls(where + text)
