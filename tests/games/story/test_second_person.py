"""games.story.second_person: a history line told to its own seat reads as English written to
"you" (docs/web.md, "Players by name": your own moves read "You played ...")."""

from __future__ import annotations

from games.story.event_text import describe_event
from games.story.second_person import second_person
from tests.rules.test_reactions import ogma_played_by_green_holding_master_craftsman
from tests.rules.test_triskel_epic_tales import fianna_maneuver


def told_to(colour: str, events) -> list[str]:
    """The English lines of `events`, as the seat `colour` reads them on its page and emails."""
    return [second_person(describe_event(e.type, e.payload), colour) for e in events]


def test_the_fianna_told_to_its_player_counts_its_clans_from_the_citadels():
    """Blue plays The Fianna, 2 clans, 1 of them from its Citadel: "them" counts the clans, it is
    not blue ("1 of you from the Citadels")."""
    table = fianna_maneuver()

    lines = told_to("blue", table.do("blue", "play", card="ep_the_fianna", to="valley", count=2, sheltered=1))

    fianna = "You played The Fianna: moving 2 clans to the Valley (1 of them from the Citadels) (Triskel)."
    assert fianna in lines


def test_a_triskel_answer_revealed_is_told_to_its_player_as_you_play():
    """Master Craftsman answers green's own Ogma's Eloquence (tests/rules/test_reactions.py): the
    reveal reads "you play Master Craftsman", not "you plays"."""
    table = ogma_played_by_green_holding_master_craftsman()
    table.auto_decline = True

    events = table.do("green", "react", card="act_master_craftsman", to="white")

    assert "Triskel answers revealed: you play Master Craftsman." in told_to("green", events)
    assert "Triskel answers revealed: green plays Master Craftsman." in told_to("white", events)


def test_the_seat_itself_is_still_you_in_a_line_it_begins():
    assert second_person("green put Geis face up in front of them.", "green") == (
        "You put Geis face up in front of you."
    )
    assert second_person("Victory checked: green wins.", "green") == "Victory checked: you win."
