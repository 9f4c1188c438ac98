"""The whole game in French: every decision kind's prompt and every event's line.

Issue: "A test renders every decision kind's prompt and every event's line in French and fails on
any English word left outside a small documented list." The positions are real games: the
described positions and random bot games of `tests/games/test_every_event_folds.py`, which between
them hold every event type the rules register; every decision kind the rules can ask is met on the
way (checked against the kinds written in the rules' source).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.utils import translation

from games import rules
from games.rules import Event, evolve, legal_commands, pending
from games.story import event_text
from notifications import happenings, wording
from tests.games.test_every_event_folds import _every_evolver, _real_logs
from tests.i18n.leftover_english import leftovers, words

# The texts come from bot games played until every event type appeared (french_texts).
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
SEATS = ("green", "blue", "orange", "white")


def _decision_kinds_in_the_rules() -> set[str]:
    """Every kind a `Decision(...)` of the rules' source is made with."""
    kinds = set()
    for path in (ROOT / "games" / "rules").glob("*.py"):
        kinds |= set(re.findall(r"Decision\([^,]+,\s*\"([a-z_]+)\"", path.read_text()))
    return kinds


@pytest.fixture(scope="module")
def french_texts():
    """What a French player reads along every logged game ("texts": {where: [(label, text)]}),
    the English words of the same texts read in English ("english"), and the decision kinds and
    event types met."""
    logs = _real_logs(_every_evolver())
    french = _texts(logs, "fr")
    english = _texts(logs, "en")
    english_words = frozenset(
        w for pairs in english["texts"].values() for _label, text in pairs for w in words(text)
    )
    return {**french, "english": english_words}


def _texts(logs: list, language: str) -> dict:
    texts = {"prompt": [], "option": [], "title": [], "history": [], "email": [], "board": []}
    kinds, event_types = set(), set()
    seen_prompts, seen_options = set(), set()
    with translation.override(language):
        for log in logs:
            events = [Event.from_json(e) if isinstance(e, dict) else e for e in log]
            state = None
            for number, event in enumerate(events, start=1):
                if state is None:
                    state = rules.fold([event])
                else:
                    evolve(state, event)
                event_types.add(event.type)
                for seat in (None,) + SEATS[: len(state.seats)]:
                    seen = rules.redact(event, seat)
                    line = event_text.describe_event(seen.type, seen.payload)
                    if line:
                        texts["history"].append((f"{event.type} as {seat}", line))
                    if seat is not None:
                        email_line = happenings.describe_event(event, seat, language=language)
                        if email_line:
                            texts["email"].append((f"{event.type} to {seat}", email_line))
                for decision in pending(state):
                    kinds.add(decision.kind)
                    if (decision.kind, decision.prompt) in seen_prompts:
                        continue
                    seen_prompts.add((decision.kind, decision.prompt))
                    texts["prompt"].append((decision.kind, decision.prompt))
                    texts["title"].append((decision.kind, wording.decision_title(decision, decision.seat)))
                    for command in legal_commands(state, decision.seat)[:12]:
                        shape = (decision.kind, command.get("type"), command.get("card"))
                        if shape in seen_options:
                            continue
                        seen_options.add(shape)
                        texts["option"].append(
                            (f"{decision.kind} {command}", rules.describe_command(state, command))
                        )
                if number % 97 == 0:
                    texts["board"].append((f"board at {number}", rules.render_board(state, state.seats[0])))
    return {"texts": texts, "kinds": kinds, "event_types": event_types}


def test_the_games_meet_every_decision_kind_and_every_event_type(french_texts):
    assert sorted(_decision_kinds_in_the_rules() - french_texts["kinds"]) == []
    assert sorted(_every_evolver() - french_texts["event_types"]) == []


@pytest.mark.parametrize("where", ["prompt", "option", "title", "history", "email", "board"])
def test_a_french_player_reads_no_english_word(french_texts, where):
    """Every prompt, option line, subject title, history line, email line and text board, as
    a French player reads them: no English word outside the documented shared words."""
    texts = french_texts["texts"][where]
    assert texts, f"no {where} text was produced"
    english = {}
    # The same line comes back for many events and seats: each distinct text is read once.
    first_label = {}
    for label, text in texts:
        first_label.setdefault(text, label)
    for text, label in first_label.items():
        found = leftovers(text, french_texts["english"])
        if found:
            english.setdefault(" ".join(sorted(set(found))), (label, text))
    report = "\n".join(
        f"{words!r} in {label}: {text}" for words, (label, text) in sorted(english.items())[:40]
    )
    assert not english, f"{len(english)} kinds of English left in {where} texts:\n{report}"
