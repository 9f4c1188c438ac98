"""What a player reads: decisions in a few words for subjects, lines told in the second person,
and the board of an email with neighbours and the victory conditions."""

from __future__ import annotations

import pytest

from games import rules
from games.rules.victory import condition_values
from games.story.second_person import second_person
from notifications import email_board
from notifications.wording import (
    REACTION_PROMPT,
    decision_title,
    rules_gettext,
    triskel_trigger,
)
from tests.notifications.email_positions import END


@pytest.mark.parametrize(
    "line, colour, expected",
    [
        ("green attacked blue in the Moor.", "green", "You attacked blue in the Moor."),
        ("green attacked blue in the Moor.", "blue", "green attacked you in the Moor."),
        (
            "green is the Brenn (chieftain of the Capital).",
            "green",
            "You are the Brenn (chieftain of the Capital).",
        ),
        ("white's Bard cancelled green's Geis.", "green", "white's Bard cancelled your Geis."),
        ("blue showed their hand to orange.", "blue", "You showed your hand to orange."),
        ("blue showed their hand to orange.", "orange", "blue showed their hand to you."),
        ("green attacked blue in the Moor.", None, "green attacked blue in the Moor."),
        ("Round 4 began.", "green", "Round 4 began."),
        (
            "green played Tale of Cúchulain: removing 1 green clan and 1 blue clan.",
            "green",
            "You played Tale of Cúchulain: removing 1 of your clans and 1 blue clan.",
        ),
        (
            "blue played Tale of Cúchulain: removing 2 green clans.",
            "green",
            "blue played Tale of Cúchulain: removing 2 of your clans.",
        ),
    ],
)
def test_lines_speak_to_the_reader(line, colour, expected):
    assert second_person(line, colour) == expected


@pytest.mark.parametrize(
    "decision, colour, expected",
    [
        (
            rules.Decision("green", "season_turn", "Your turn in the Season.", {"passes": 0}),
            "green",
            "your Season turn",
        ),
        (
            rules.Decision(
                "blue", "citadel", "Clash in the Valley: shelter 1 clan.", {"territory": "valley"}
            ),
            "blue",
            "Citadel in the Valley",
        ),
        (
            rules.Decision(
                "blue", "maneuver", "Clash in the Moor: perform a maneuver.", {"territory": "moor"}
            ),
            "blue",
            "maneuver in the clash in the Moor",
        ),
        (
            rules.Decision("orange", "draft", "Draft: keep 1 of the 3 Action cards.", {"keep": 1, "of": 3}),
            "orange",
            "draft (keep 1 of 3)",
        ),
        (
            rules.Decision(
                "blue",
                "reaction",
                "Triskel: green has declared Geis. Play a Triskel card in response, or decline.",
                {"trigger": "card_declared", "actor": "green"},
            ),
            "blue",
            "Triskel reaction (green has declared Geis)",
        ),
        (
            rules.Decision(
                "blue",
                "reaction",
                "Triskel: blue's turn has ended. Play a Triskel card in response, or decline.",
                {"trigger": "turn_ended", "actor": "blue"},
            ),
            "blue",
            "Triskel reaction (your turn has ended)",
        ),
        (
            rules.Decision("white", "card_choice", "Druid: take 1 card from the Action discard pile.", {}),
            "white",
            "Druid",
        ),
    ],
)
def test_a_decision_in_a_few_words(decision, colour, expected):
    assert decision_title(decision, colour) == expected


def test_the_email_board_names_neighbours_and_each_players_victory_conditions(db):
    from games import store
    from tests.notifications.email_positions import game_from

    game = game_from(END, seed="board-words")
    state, _ = store.load(game)
    text = email_board.board_text(state, "green")
    # The Valley (0,0) touches the Cove (1,0), the Moor (0,-1), the Forest (-1,0), the Hills
    # (-1,1), the Meadows (0,1) and the Plains (1,-1): every neighbour on the hex grid.
    valley = next(line for line in text.splitlines() if line.startswith("- Valley:"))
    assert valley == (
        "- Valley: blue 1, green (you) 2; chieftain green (you); Capital. "
        "Neighbours: Cove, Forest, Hills, Meadows, Moor, Plains."
    )
    # Green is present in 6 territories (the position's victory condition), counted by the rules.
    assert condition_values(state, "green")["territories"] == 6
    assert "- green (you): present in 6/6 territories, chieftain over " in text
    blue = next(line for line in text.splitlines() if line.startswith("- blue:"))
    values = condition_values(state, "blue")
    assert blue.startswith(
        f"- blue: present in {values['territories']}/6 territories, chieftain over "
        f"{values['opposing_clans']}/6 opposing clans, {values['sanctuaries']}/6 "
        "Sanctuaries where present, 0 Deeds, Brenn;"
    )
    # Public counts only: another player's hand is never named.
    assert "Bard" not in text


def test_the_email_board_names_the_players_as_the_table_does(db):
    """Strangers at a table know each other by name: the board's head and its player lines say
    "Aoife (green)" as the email's story does, the reader stays "blue (you)"."""
    from games import store
    from tests.notifications.email_positions import game_from

    game = game_from(END, seed="board-names")
    state, _ = store.load(game)
    with rules.players_named({"green": "Aoife", "blue": "Brian", "white": "Hard bot"}):
        text = email_board.board_text(state, "orange")
        mine = email_board.board_text(state, "blue")
    assert "Brenn: Brian (blue)." in text and "Brenn: blue (you)." in mine
    assert "\n- Aoife (green): present in 6/6 territories" in text
    assert "\n- orange (you): present in " in text and "\n- Hard bot (white): present in " in text


def test_a_triskel_prompt_that_goes_on_after_the_rules_sentence_is_named_by_its_trigger_in_french():
    """In a clash step the rules' Triskel prompt goes on ("You will not be asked again in this step
    of the clash: ..."; docs/rulings.md, "One Triskel question per clash step"): the title still
    names the trigger, in English and in French."""
    from django.utils import translation

    with translation.override("fr"):
        sentence = rules_gettext(REACTION_PROMPT).format(trigger="vert attaque")
        more = rules_gettext(
            "You will not be asked again in this step of the clash: say now also which card, if any, "
            "you will play later in it."
        )
        assert triskel_trigger(sentence + " " + more) == "vert attaque"
        assert triskel_trigger(sentence) == "vert attaque"
    english = "Triskel: green attacks in the clash. Play a Triskel card in response, or decline. You will"
    assert triskel_trigger(english) == "green attacks in the clash"


def test_the_phase_is_named_as_the_rulebook_names_it(db, client):
    """The rulebook's phases are the Assembly and the Season: the email's board, the rules' text
    board and the game page say "Round 2, Season.", not "season" (a word of the engine's state)."""
    from django.urls import reverse
    from django.utils import translation

    from games import store
    from tests.notifications.email_positions import game_from

    game = game_from(END, seed="phase-words")
    state, _ = store.load(game)
    assert state.phase == "season"
    head = f"Round {state.round}, Season. Brenn: "
    assert email_board.board_text(state, "green").startswith(head)
    assert rules.render_board(state, "green").startswith(head)
    assert rules.phase_name("assembly") == "Assembly"
    with translation.override("fr"):
        assert f"Manche {state.round}, Saison." in email_board.board_text(state, "green")
        assert rules.phase_name("assembly") == "Assemblée"
    client.force_login(game.seats.get(colour="green").user)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert f"Round {state.round}, Season." in page
