"""What happened, in words, for one seat: the "since your last prompt" part of emails, and news.

Every event goes through `rules.redact(event, colour)` first and only the redacted payload is
worded (by `games.story.event_text`, the wording of the history pages), so a line can never name what
the seat may not see: another seat's cards, the set-aside Action card, a deck's order. Emails leave
out what the history page keeps for completeness: the engine's bookkeeping, turn markers, the
hidden draws and draft steps of other seats (a line "blue was dealt 4 cards" says nothing). Cards a
seat passes away in the draft are counted, not named: they are another seat's hand from then on.
Lines speak to the seat that reads them: its own colour becomes "you" ("You attacked blue in the
Moor.", `games.story.second_person`; in French the history's wording does it itself,
`games.story.event_text.describe_event(..., viewer=colour)`). Lines are written in the reader's language
(`language`, the player's preference). An email or a chat shows no event numbers: a line says in
words what the history page says by number ("Blue took back their last move.", not "(events
173–174)": `numbered=False`).
"""

from __future__ import annotations

from collections.abc import Iterable

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import rules
from games.store.models import Command
from games.story.event_text import describe_event as history_line
from games.story.event_text import hidden_discards_line, is_bookkeeping, sentence
from games.story.names import player_name
from games.story.second_person import second_person

# Events that are news: worth an email (or a digest line) to a seat that has nothing to decide.
NEWS_TYPES = frozenset(
    {
        "RoundStarted",
        "BrennAssigned",
        "SeasonEnded",
        "PretenderTaken",
        "ClashStarted",
        "ClashEnded",
        "AttackDeclared",
        "ClansRemoved",
        "CardCancelled",
        "CardGiven",
        "HandRevealed",
        "DeedGained",
        "GameWon",
    }
)

# Steps that a player reading an email does not need, on top of the engine's bookkeeping.
QUIET = frozenset(
    {
        "TurnStarted",
        "DraftBlockCompleted",
        "CitadelsStepEnded",
        "ManeuverPerformed",
        "ClashInitiated",
        "VictoryChecked",
        "ReactionLapsed",
        "TerritoryPlaced",
        # Who was asked in a Triskel window that asks only the seats able to answer is hidden
        # information (docs/rulings.md): no seat, asked or not, gets a line for it.
        "ReactionsAsked",
        "ReactionAnsweredPrivately",
    }
)
# Private events worth a line only to the seat that may read them whole.
OWN_ONLY = frozenset(
    {
        "ActionCardsDealt",
        "DraftCardsKept",
        "DraftPackTaken",
        "ReactionAnswered",
        "PolicySet",
        "TerritoryTilesDrawn",
    }
)


def describe_event(event, colour: str | None, *, language: str = "en") -> str | None:
    """One line for `event` (a `rules.Event`, as stored) as `colour` may see it and told to it
    ("you"), in `language` ("en"/"fr"), or None when an email need not say it. The event is
    redacted for `colour` here."""
    with translation.override(language):
        return _describe(event, colour, french=translation.get_language() == "fr")


def _describe(event, colour: str | None, *, french: bool) -> str | None:
    if is_bookkeeping(event.type) or event.type in QUIET:
        return None  # told before redacting, which keeps the type: most events of a prompt are steps
    seen = rules.redact(event, colour)
    payload = seen.payload
    if seen.type in OWN_ONLY and payload.get("redacted"):
        return None
    if is_bookkeeping(seen.type, payload):
        return None  # another line of the same move says it (a card discarded after its play...)
    if seen.type == "DraftCardsPassed":
        if payload.get("from") == colour:
            count = (
                len(payload["cards"]) if isinstance(payload.get("cards"), list) else payload.get("count", 0)
            )
            return ngettext(
                "You passed {count} card to {seat}.", "You passed {count} cards to {seat}.", count
            ).format(count=count, seat=player_name(payload.get("to")))
        if payload.get("to") != colour or payload.get("redacted"):
            return None
        names = ", ".join(rules.card_name(c) for c in payload.get("cards", []))
        return sentence(
            _("{seat} passed you {cards}.").format(seat=player_name(payload.get("from")), cards=names)
        )
    if french:
        # The history's French wording speaks to the viewer itself ("Vous avez attaqué bleu").
        return history_line(seen.type, payload, viewer=colour, numbered=False)
    line = history_line(seen.type, payload, numbered=False)
    return second_person(line, colour) if line else line


def lines_for(
    events: Iterable,
    colour: str | None,
    *,
    language: str = "en",
    only: frozenset | None = None,
    passed_for_the_hand: frozenset[int] = frozenset(),
) -> list[tuple[int, str]]:
    """`[(seq, line)]` for `events` (pairs `(seq, rules.Event)`) as `colour` may see them, steps
    an email leaves out skipped; with `only`, just the events of those types (e.g. NEWS_TYPES).
    passed_for_the_hand: seqs of `colour`'s own passes that the service played because no card
    of its hand could be played (`passes_for_the_hand`), told as such to `colour`."""
    out: list[tuple[int, str]] = []
    hidden: list = []  # a run of another seat's face-down discards, told as one line
    with translation.override(language):  # once for all the lines, not once a line
        french = translation.get_language() == "fr"
        for seq, event in events:
            if only is not None and event.type not in only:
                continue
            if seq in passed_for_the_hand:
                out.append((seq, _("You passed: nothing in your hand could be played.")))
                continue
            line = _describe(event, colour, french=french)
            if not line:
                continue
            key = _hidden_discard(event, colour)
            if hidden and key != hidden[0][2]:
                out.append(_one_line(hidden, colour))
                hidden = []
            if key is not None:
                hidden.append((seq, line, key))
            else:
                out.append((seq, line))
        if hidden:
            out.append(_one_line(hidden, colour))
    return out


def _hidden_discard(event, colour: str | None) -> tuple | None:
    """(seat, kind, cause) of a face-down card discarded by another seat than `colour` (which may
    not see the card), else None: such discards in a row are told as one line (the end of the
    Season discards every Action card in hand, rulebook "End of the Season")."""
    if event.type != "CardDiscarded":
        return None
    seen = rules.redact(event, colour).payload
    if "card" in seen or seen.get("seat") == colour:
        return None
    return (seen.get("seat"), seen.get("type", "action"), seen.get("cause"))


def _one_line(run: list, colour: str | None) -> tuple[int, str]:
    """The line of a run of hidden discards (`_hidden_discard`): the line itself for one card,
    "Bob (blue) discarded 3 Action cards (end of the Season)." for several."""
    seq, line, (seat, kind, cause) = run[-1]
    if len(run) == 1:
        return seq, line
    payload = {"seat": seat, "type": kind, **({"cause": cause} if cause else {})}
    return seq, hidden_discards_line(payload, len(run))


# Keys of the commands the service plays for a seat whose hand leaves it only the pass: the
# delayed pass (`games.play.delayed_passes`) and the forced move played at once.
_PASSES_FOR_THE_HAND = ("hand:", "forced:")


def passes_for_the_hand(game, colour: str, events: list) -> frozenset[int]:
    """Seqs of the `Passed` events of `colour` among `events` (pairs `(seq, rules.Event)`) that the
    service played for it because no card of its hand could be played (a delayed pass or a
    forced move): for `colour`'s own emails only (the others read "White passed." as for any
    pass). One query, made only when `events` hold a pass of `colour`."""
    passes = [seq for seq, event in events if event.type == "Passed" and event.payload.get("seat") == colour]
    if not passes:
        return frozenset()
    spans = [
        (first, last)
        for first, last, key in Command.objects.filter(
            game=game, seat__colour=colour, first_seq__lte=max(passes), last_seq__gte=min(passes)
        ).values_list("first_seq", "last_seq", "command_id")
        if (key or "").startswith(_PASSES_FOR_THE_HAND)
    ]
    return frozenset(seq for seq in passes if any(first <= seq <= last for first, last in spans))
