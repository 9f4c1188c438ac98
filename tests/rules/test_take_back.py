"""Taking back a move (docs/rulings.md, "Taking back a move"; the rulebook is silent): the rules
restore the state before the move when it revealed nothing, and refuse otherwise."""

import pytest

from games.rules import IllegalCommand, evolve, fold, redact, rng_for, take_back_events
from tests.rules.positions import Table

ISLAND = """
    hills   0,0  blue 2
    valley  1,0  green 3
    plains  0,1  orange 1
    cove   -1,0
"""
NEW_CLANS = {"type": "play", "card": "act_new_clans", "territories": ["valley", "valley"]}


def table_after(command, hands):
    """A table where nobody holds a Triskel card and Triskel windows ask only holders, so each
    command runs to the next player's decision."""
    table = Table(ISLAND, capital="valley", hands=hands, options={"reactions": "holders"})
    before, first = table.state.clone(), len(table.events) + 1
    made = table.do("green", command)
    return table, before, first, first + len(made) - 1


def take_back(table, before, first, last, seat="green", move=NEW_CLANS, mover="green"):
    return take_back_events(
        before,
        seat,
        move,
        mover=mover,
        first_seq=first,
        last_seq=last,
        seed_rng=rng_for(table.seed, first - 1),
    )


def test_new_clans_taken_back_puts_the_island_and_the_hand_back():
    """Green's Season turn: New Clans puts 2 clans in the Valley (public, nothing drawn); taken
    back, the clans are back in green's reserve, New Clans in green's hand, and green decides
    again. The log only grows, and folds to that state."""
    table, before, first, last = table_after(
        NEW_CLANS, {"green": ["act_new_clans", "act_bard"], "blue": ["act_druid"]}
    )
    assert table.clans("valley")["green"] == 5

    (event,) = take_back(table, before, first, last)
    evolve(table.state, event)
    table.events.append(event)

    assert table.clans("valley")["green"] == 3
    assert sorted(table.state.hands["green"]) == ["act_bard", "act_new_clans"]
    assert [d.seat for d in table.pending()] == ["green"]
    folded = fold([e.to_json() for e in table.events])
    assert folded.to_json() == table.state.to_json() and folded.seq == last + 1
    # Others read who took back which events, never the state it carries.
    assert redact(event, "blue").payload == {"seat": "green", "first": first, "last": last, "redacted": True}


def test_a_move_that_drew_an_epic_tale_stands():
    """Sanctuary: "Place 1 Sanctuary in a territory where you are present, then draw 1 Epic Tale
    card." Green has seen a hidden card: no take-back."""
    sanctuary = {"type": "play", "card": "act_sanctuary", "territory": "valley"}
    table, before, first, last = table_after(
        sanctuary, {"green": ["act_sanctuary", "act_bard"], "blue": ["act_druid"]}
    )
    with pytest.raises(IllegalCommand, match="cannot be taken back"):
        take_back(table, before, first, last, move=sanctuary)


def test_only_the_mover_takes_back_and_only_once():
    table, before, first, last = table_after(
        NEW_CLANS, {"green": ["act_new_clans", "act_bard"], "blue": ["act_druid"]}
    )
    with pytest.raises(IllegalCommand, match="another player has acted"):
        take_back(table, before, first, last, seat="blue")
    with pytest.raises(IllegalCommand, match="already taken back"):
        take_back(table, before, first, last, move={"type": "take_back"})


def test_a_players_only_choice_is_not_taken_back():
    """Blue holds no card: on its turn it can only pass (a forced move): nothing to take back."""
    table = Table(
        ISLAND,
        capital="valley",
        hands={"green": ["act_new_clans", "act_bard"], "blue": []},
        options={"reactions": "holders"},
    )
    table.do("green", NEW_CLANS)
    before, first = table.state.clone(), len(table.events) + 1
    assert [d.seat for d in table.pending()] == ["blue"]  # blue's turn, with only the pass
    made = table.do("blue", {"type": "pass"})
    with pytest.raises(IllegalCommand, match="only choice"):
        take_back(
            table, before, first, first + len(made) - 1, seat="blue", move={"type": "pass"}, mover="blue"
        )
