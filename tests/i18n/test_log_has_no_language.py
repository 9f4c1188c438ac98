"""The event log is in no language: the same game played while French is active writes the very
same events as in English (docs/translation.md: "Data stays language-free"). A card's name or a
sentence stored in an event would make a French player's game replay differently and show
French words to an English reader."""

from __future__ import annotations

import json
import random

import pytest
from django.utils import translation

from games.rules import bot_command, decide, evolve, fold, is_over, pending, rng_for, start_game


def _played(seed: str, language: str, players: int) -> list[dict]:
    with translation.override(language):
        events = start_game(
            ["green", "blue", "orange", "white"][:players], seed=seed, options={"reactions": "holders"}
        )
        state = fold(events)
        rng = random.Random(seed)
        while not is_over(state) and state.round <= 12:
            seat = rng.choice(sorted({d.seat for d in pending(state)}))
            for event in decide(state, seat, bot_command(state, seat, rng), rng=rng_for(seed, state.seq)):
                evolve(state, event)
                events.append(event)
        return [e.to_json() for e in events]


@pytest.mark.parametrize(
    "seed,players", [("log-language-1", 4), ("log-language-2", 3), ("log-language-3", 2)]
)
def test_a_game_played_in_french_writes_the_same_log_as_in_english(seed, players):
    english = _played(seed, "en", players)
    french = _played(seed, "fr", players)
    assert len(english) > 500
    for number, (en, fr) in enumerate(zip(english, french), start=1):
        assert json.dumps(fr, sort_keys=True) == json.dumps(en, sort_keys=True), f"event #{number} differs"
    assert len(french) == len(english)
