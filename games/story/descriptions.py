"""Commands in words for players, never failing the page, the email or the write around them.

`rules.describe_command` is cosmetic, but it runs inside a command's transaction (the result
message, the prompt emails written with the events) and on every seat page: a fault in the
wording of one card must not refuse a legal command or hide a seat's page. On such a fault the
command's JSON stands in for its description and the fault is logged as an error.
"""

from __future__ import annotations

import logging

from games import rules
from games.record.hashchain import canonical_json
from games.story.names import joined

logger = logging.getLogger(__name__)


def describe_command(state, command: dict, reader: str | None = None) -> str:
    """`rules.describe_command(state, command, reader)` (its players named as a sentence says
    them: `games.story.names.joined`), or the command's JSON if that raises."""
    try:
        return joined(rules.describe_command(state, command, reader))
    except Exception:
        logger.exception("rules.describe_command failed for %s at seq %s", canonical_json(command), state.seq)
        return canonical_json(command)


def describe_card_play(card: str, args: dict) -> str:
    """A card played, in words, as the history says it ("Migration from the Valley: 2 to the
    Cove": `rules.describe_args`, in the active language), or the play's JSON if that
    raises."""
    try:
        return joined(rules.describe_args(card, args))
    except Exception:
        logger.exception("rules.describe_args failed for %s", card)
        return canonical_json({"card": card, **args})


def card_ref(card: str) -> dict:
    """`card_reference(card)` in the active language (name, type, timing; the printed text is
    the English card's), plus "kind": the card's type as data ("action", "advantage", "epic"),
    for a page's styles whatever the language."""
    ref = rules.card_reference(card, rules.current_language())
    ref["kind"] = rules.CARDS[card].type
    return ref
