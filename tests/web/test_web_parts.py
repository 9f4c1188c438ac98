"""The parts of the web pages: the SVG island, events in plain language, game options, and the
island at every point of a game."""

from __future__ import annotations

import random
import re

import pytest
from django.urls import reverse

from games import rules, store
from games.record.options import deadline_hours, rules_options, table_options
from games.story.event_text import TEXTS, describe_event
from web.board_svg import island_svg


def played(seed: str, seats=("green", "blue", "orange", "white"), steps: int = 600):
    """(events, state) of a game played by random legal commands from the rules alone."""
    events = rules.start_game(list(seats), seed=seed)
    state = rules.fold(events)
    rng = random.Random(seed)
    for _ in range(steps):
        pending = rules.pending(state)
        if not pending:
            break
        seat = rng.choice(pending).seat
        new = rules.decide(
            state, seat, rules.bot_command(state, seat, rng), rng=rules.rng_for(seed, state.seq)
        )
        for event in new:
            rules.evolve(state, event)
        events += new
    return events, state


def test_the_island_draws_every_territory_with_its_clans_buildings_and_marks(clash_position):
    state = rules.fold(
        rules.start_game(
            ["green", "blue"],
            seed="svg",
            setup={**clash_position, "festival": "plains", "deeds": {"blue": 2}, "pretenders": ["blue"]},
        )
    )
    view = rules.view_for(state, None)
    svg = island_svg(view, clash="cove")
    assert svg.count('<g class="territory"') == len(view["territories"]) == 4
    for tid, data in view["territories"].items():
        block = svg[svg.index(f'data-territory="{tid}"') :].split('<g class="territory"')[0]
        for colour, n in data["clans"].items():
            assert f'data-seat="{colour}" data-count="{n}"' in block
    cove = svg[svg.index('data-territory="cove"') :].split('<g class="territory"')[0]
    assert 'class="citadel" data-count="1"' in cove and "chieftain blue" in cove
    plains = svg[svg.index('data-territory="plains"') :].split('<g class="territory"')[0]
    assert 'class="capital"' in plains and 'class="festival"' in plains and 'class="sanctuary"' in plains
    assert svg.count('class="capital-rim"') == 1 and svg.count('class="clash"') == 1
    assert 'data-seat="blue"><circle' in svg and 'class="pretender"' in svg
    assert '<g class="deeds" data-count="2">' in svg and 'data-direction="clockwise"' in svg
    assert svg.count('class="brenn"') == 1
    assert "act_" not in svg and "ep_" not in svg  # no card of any hand


def test_every_event_of_a_game_is_worded_for_every_viewer_without_leaking_hidden_cards():
    events, state = played("words")
    unworded = set()
    for event in events:
        for viewer in (None, "green"):
            seen = rules.redact(event, viewer)
            text = describe_event(seen.type, seen.payload)
            if seen.type not in TEXTS or text.startswith(seen.type):
                unworded.add(seen.type)
            if seen.payload.get("redacted"):
                for card in re.findall(r"\b(?:act|ep|adv)_[a-z_]+", str(event.payload)):
                    if rules.CARDS[card].type != "advantage" and card not in str(seen.payload):
                        assert rules.card_name(card) not in text, (event, text)
    assert not unworded, f"events shown by their type only: {sorted(unworded)}"


def test_table_options_are_checked_and_rules_options_kept_apart():
    options = {
        **table_options(deadlines={"default": 10, "draft": 5}, reaction_mode="quick"),
        "buildings": "later_print",
    }
    assert rules_options(options) == {"buildings": "later_print"}
    assert deadline_hours(options, "draft") == 5 and deadline_hours(options, "maneuver") == 10
    assert deadline_hours({}, "reaction") == 12  # a game made without table options
    with pytest.raises(ValueError):
        table_options(reaction_mode="sometimes")
    with pytest.raises(ValueError):
        table_options(deadlines={"default": -1})


@pytest.mark.slow  # a whole game, its board drawn after every event
def test_the_island_can_be_shown_after_every_event(client, make_game, play):
    """Time travel folds to any seq, including those inside one command's events."""
    game = make_game(n_players=2, seed="every-seq")
    play(game, 40)
    last = store.head(game)[0]
    for seq in range(0, last + 1):
        response = client.get(reverse("games:island_at", args=[game.pk, seq]))
        assert response.status_code == 200, seq
        assert f"after event {seq} of {last}" in response.content.decode()
