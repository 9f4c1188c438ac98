"""The strong bot sees threats (issue 39; docs/rulings.md, "How the strong bot searches"): a
rival meeting a victory condition wins the next Assembly unless stopped."""

from __future__ import annotations

import random

from games import bots, rules
from tests.rules.positions import Table

# Bounded by iterations alone: the same search on every machine.
BUDGET = bots.Budget(seconds=float("inf"), iterations=150)


def clash_against_a_rival_present_in_6_territories() -> Table:
    """Blue is present in 6 territories (a victory condition met) with no card in hand; green
    migrates 3 clans into the Hills, where blue and orange have 1 clan each: a clash where green
    maneuvers first."""
    table = Table(
        """
        hills   0,0  blue 1  orange 1
        valley  1,0  green 4
        moor    1,-1 blue 1
        plains  2,-1 blue 1
        forest  2,0  blue 1
        swamp   -1,0 blue 1
        cove    -1,1 blue 1  orange 2
    """,
        seats=("green", "blue", "orange"),
        capital="valley",
        brenn="green",
        flock="clockwise",
        hands={"green": ["act_migration", "act_festival"], "blue": [], "orange": ["act_bard"]},
    )
    table.play("green", "act_migration", **{"from": "valley", "moves": {"hills": 3}})
    return table


def test_the_strong_bot_attacks_the_rival_one_assembly_from_victory():
    """Rulebook, Victory Conditions: present in 6 territories. Blue, holding no card, can answer
    an Attack only by removing its clan from the Hills, and then is present in 5: the strong bot
    attacks blue, not orange, whatever its generator."""
    table = clash_against_a_rival_present_in_6_territories()
    assert rules.conditions_met(table.state, "blue") == 1
    options = rules.legal_commands(table.state, "green")
    assert {"type": "attack", "target": "orange"} in options
    for seed in range(2):
        command = bots.choose(table.state, "green", "strong", random.Random(seed), BUDGET)
        assert command == {"type": "attack", "target": "blue"}, command


def tied_for_one_condition(capital_clans: str) -> Table:
    """Green and blue are each present in 6 territories (one victory condition each), orange in
    1; orange is the Brenn now, and the Valley (the Capital) holds `capital_clans`."""
    return Table(
        f"""
        hills   0,0  blue 1  green 1
        valley  1,0  {capital_clans}
        moor    1,-1 blue 1  green 1
        plains  2,-1 blue 1  green 1
        forest  2,0  blue 1  green 1
        swamp   -1,0 blue 1  green 1
        cove    -1,1 orange 1
    """,
        seats=("green", "blue", "orange"),
        capital="valley",
        brenn="orange",
        flock="clockwise",
    )


def test_a_rival_tied_with_the_next_brenn_is_a_threat():
    """Rulebook, End of the Game: "In case of tie for meeting the most victory conditions: if the
    Brenn is among the tied players, he wins the game"; Assembly, step 1 (Assign Brenn) comes
    before step 2 (Check for Victory), and the title goes to the Capital's chieftain. Tied with
    green, blue threatens green when blue is chieftain of the Capital, not when green is, nor when
    nobody is and the Brenn (orange) is not among the tied."""
    from games.bots.strong import threat

    blue_chief = tied_for_one_condition("blue 2  green 1").state
    assert rules.conditions_met(blue_chief, "green") == rules.conditions_met(blue_chief, "blue") == 1
    assert threat(blue_chief, "green") > 0
    assert threat(blue_chief, "blue") == 0
    assert threat(tied_for_one_condition("green 2  blue 1").state, "green") == 0
    assert threat(tied_for_one_condition("blue 1  green 1").state, "green") == 0


def searched_positions(seed: str, every: int) -> list:
    """(state, seat) at every `every`-th decision of a random 4-player game where a seat has a
    Season turn or a clash's decision to make (the decisions the strong bot searches), while no
    seat meets a victory condition."""
    from games.bots.hard import SEARCHED
    from games.rules.simulate import play_game

    found = []

    def check(state, events):
        if state.seq % every or rules.is_over(state):
            return
        for decision in rules.pending(state):
            seat = decision.seat
            threatened = any(rules.conditions_met(state, s) for s in state.seats)
            if decision.kind in SEARCHED and len(rules.legal_commands(state, seat)) > 2 and not threatened:
                found.append((state.clone(), seat))

    play_game(4, seed, max_rounds=3, check=check)
    return found


def test_on_the_hard_bots_deals_alone_the_strong_bot_sends_the_hard_bots_move():
    """The strong bot changes the hard bot's choice only on more evidence than the hard bot had
    (docs/rulings.md, "How the strong bot searches"): searching no more deals than the hard bot,
    while no rival threatens to win, it sends the hard bot's command, at Season turns and clashes
    alike, for the same generator."""
    from games.bots.hard import DEALS

    same_deals = bots.Budget(seconds=float("inf"), iterations=DEALS)
    states = searched_positions("strong-anchor", every=9)[:8]
    assert len(states) >= 6
    for n, (state, seat) in enumerate(states):
        hard = bots.choose(state, seat, "hard", random.Random(n))
        assert bots.choose(state, seat, "strong", random.Random(n), same_deals) == hard
