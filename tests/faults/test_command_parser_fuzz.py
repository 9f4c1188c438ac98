"""The email command parser fuzzed (hypothesis): whatever a reply holds, `parse_reply` either
returns commands the seat may send now or raises one of the three command errors, and never
reaches its last-resort handler for internal faults (which would also answer with an error, but
means a bug): no other exception, no "internal" log.

Positions: states of a random 4-player game at several kinds of decision (set-up, draft, Season,
clash), for the seat that must decide and for one that must not.
"""

from __future__ import annotations

import logging
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games import rules
from games.rules.catalog import CARDS, TERRITORY_INFO
from games.rules.simulate import play_game
from notifications.command_language import ANY_TIME, parse_reply
from notifications.command_language.parser import MAX_LINES

ERRORS = (rules.InvalidCommand, rules.IllegalCommand, rules.AmbiguousCommand)


def _positions() -> list:
    """(state, seat) pairs: one per decision kind met in a random game, deciding seat and another."""
    seen, positions = set(), []

    def keep(state, _events):
        decisions = rules.pending(state)
        if not decisions or decisions[0].kind in seen:
            return
        seen.add(decisions[0].kind)
        deciding = decisions[0].seat
        other = next(s for s in state.seats if s != deciding)
        positions.extend([(state.clone(), deciding), (state.clone(), other)])

    play_game(4, "fuzz", max_rounds=3, check=keep)
    return positions


POSITIONS = _positions()

WORDS = sorted(
    {
        *(c.replace("_", " ") for c in CARDS),
        *CARDS,
        *TERRITORY_INFO,
        "play",
        "pass",
        "attack",
        "move",
        "to",
        "from",
        "yes",
        "no",
        "and",
        "et",
        "vers",
        "green",
        "blue",
        "orange",
        "white",
        "vert",
        "bleu",
        "blanc",
        "me",
        "never",
        "always",
        "ask",
        "peace",
        "pretender",
        "citadel",
        "withdraw",
        "#3",
        "option 2",
        "n°1",
        "12",
        "-- ",
        "> quoted",
        "On Monday, Inis wrote:",
        "<p>",
        "<br>",
        "</div>",
        "<blockquote>",
        "&amp;",
        "\u00a0",
        "→",
        "=>",
        "->",
        ":",
        ",",
        ";",
        "é",
        "l'anse",
        "\r\n",
        "\n",
    }
)


class _Faults(logging.Handler):
    """Keeps the ERROR records the parser logs (its last-resort handler logs the exception)."""

    def __init__(self):
        super().__init__(level=logging.ERROR)
        self.records = []

    def emit(self, record):
        self.records.append(record)


reply_text = st.one_of(
    st.text(max_size=400),
    st.lists(st.sampled_from(WORDS), max_size=40).map(" ".join),
    st.lists(st.lists(st.sampled_from(WORDS), max_size=8).map(" ".join), max_size=25).map("\n".join),
    st.binary(max_size=300).map(lambda b: b.decode("latin-1")),
)


@settings(max_examples=400, deadline=None)
@given(text=reply_text, which=st.integers(min_value=0), language=st.sampled_from(["en", "fr", "de"]))
def test_a_reply_gives_legal_commands_or_one_of_the_three_errors(text, which, language):
    state, seat = POSITIONS[which % len(POSITIONS)]
    faults = _Faults()
    logger = logging.getLogger("notifications.command_language")
    logger.addHandler(faults)
    try:
        commands = parse_reply(text, state, seat, language=language)
    except ERRORS as error:
        assert str(error).strip(), "an error must say what was wrong"
        commands = None
    finally:
        logger.removeHandler(faults)
    assert not faults.records, f"the parser failed internally on {text!r}: {faults.records[0].exc_info}"
    if commands is not None:
        # Read at any time, judged when they are played, not by the decision open now: policies,
        # standing orders, and a take-back ("take back", "reprends"), judged on what the replied
        # email showed.
        judged_later = (*ANY_TIME, rules.TAKE_BACK)
        legal = rules.legal_commands(state, seat)
        for command in commands:
            assert command in legal or command.get("type") in judged_later, command


# Words a player could write on a line of their own: no quote, signature, attribution or markup
# (which end or reshape the command part of a reply), no line break.
PLAIN_WORDS = [
    w for w in WORDS if w.strip() and not w.startswith("-") and not any(c in w for c in "<>&\r\n:")
]


@pytest.mark.parametrize("size", [10_000, 300_000])
def test_an_oversized_reply_is_refused_with_a_command_error(size):
    """A reply of `size` characters of command words, one a line: refused for holding more lines
    than a reply may, saying so and what is allowed; nothing of it is read as a command."""
    state, seat = POSITIONS[0]
    rng = random.Random(size)
    text = "\n".join(rng.choice(PLAIN_WORDS) for _ in range(size // 5))
    with pytest.raises(rules.InvalidCommand) as refusal:
        parse_reply(text, state, seat)
    assert "lines of text in your reply" in str(refusal.value)
    assert f"a reply holds at most {MAX_LINES} command lines" in str(refusal.value)


def test_an_oversized_line_is_refused_with_a_command_error():
    """One line of 300,000 characters is too long to be a command, and the refusal says so."""
    state, seat = POSITIONS[0]
    rng = random.Random(1)
    line = " ".join(rng.choice(PLAIN_WORDS) for _ in range(60_000))[:300_000]
    assert len(line) == 300_000
    with pytest.raises(rules.InvalidCommand, match="is too long to be a command"):
        parse_reply(line, state, seat)
