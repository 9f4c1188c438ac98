"""The Assembly: steps 1–6, the Action card draft (3–4 players) and the 2-player draft.

Rulebook, Phase 1: The Assembly; 2-Player Rules.
"""

import pytest

from games.rules import InvalidCommand
from games.rules.catalog import ACTION_CARDS, action_cards_for

from .positions import SEATS, Table, first, types

FOUR_PLAYER_ONLY = {"act_emissaries", "act_master_craftsman", "act_raid", "act_scouts_spies"}


def assembly(players: int, seed: str = "draft") -> Table:
    """A table at the start of an Assembly, waiting for the draft."""
    seats = SEATS[:players]
    lines = [
        f"{tid} {q},0 {seat} 1"
        for (tid, q), seat in zip([("moor", 0), ("plains", 1), ("valley", 2), ("cove", 3)], seats)
    ]
    return Table("\n".join(lines), seats=seats, seed=seed, phase="assembly")


def pick(table: Table, seat: str) -> None:
    """`seat` keeps the first cards it may keep."""
    table.do(seat, table.legal(seat)[0])


def draft_everyone(table: Table) -> list:
    """Play the whole draft, recording each pick as (seat, keep, of)."""
    picks = []
    while table.state.draft:
        for decision in table.pending():
            assert decision.kind == "draft"
            picks.append((decision.seat, decision.context["keep"], decision.context["of"]))
            pick(table, decision.seat)
    return picks


def passed_counts(table: Table, seat: str) -> list:
    """How many cards `seat` passed at each pick, and each time to the next seat in turn order."""
    passed = [e.payload for e in table.events if e.type == "DraftCardsPassed" and e.payload["from"] == seat]
    assert all(p["to"] == table.state.next_seat(seat) for p in passed)
    return [len(p["cards"]) for p in passed]


def test_the_assembly_runs_its_steps_in_order():
    """ "Complete the following six steps in order: 1. Assign Brenn 2. Check for Victory 3. Take
    Advantage Cards 4. Flip Flock of Crows Token 5. Deal Action Cards 6. Action Card Draft" """
    table = assembly(4)
    wanted = [
        "RoundStarted",
        "AdvantageCardTaken",
        "FlockTossed",
        "ActionDeckShuffled",
        "ActionCardSetAside",
        "DraftStarted",
        "ActionCardsDealt",
    ]
    seen = [t for t in types(table.events) if t in wanted]
    assert [t for t in dict.fromkeys(seen)] == wanted
    assert table.state.phase == "assembly"
    assert {d.kind for d in table.pending()} == {"draft"}


@pytest.mark.parametrize("players, in_use", [(3, 13), (4, 17)])
def test_draft_of_three_and_four_players(players, in_use):
    """Step 5: "For a 4-player game The Brenn takes all 17 Action cards, shuffles them, randomly
    sets aside one card facedown, and deals four cards to each player. For a 3-player game, same
    thing but there is only 13 cards". Step 6: keep one and pass three, keep two and pass two,
    keep three and pass one: "each player has four Action cards in hand"."""
    table = assembly(players)
    assert len(action_cards_for(players)) == in_use
    dealt = [e.payload for e in table.events if e.type == "ActionCardsDealt"]
    assert [len(d["cards"]) for d in dealt] == [4] * players
    assert table.state.set_aside is not None
    picks = draft_everyone(table)
    for seat in table.seats:
        assert [(k, n) for s, k, n in picks if s == seat] == [(1, 4), (2, 4), (3, 4)]
        assert passed_counts(table, seat) == [3, 2, 1]
    hands = {seat: table.state.action_cards(seat) for seat in table.seats}
    assert all(len(hand) == 4 for hand in hands.values())
    in_hands = [c for hand in hands.values() for c in hand]
    assert sorted(in_hands + [table.state.set_aside]) == sorted(action_cards_for(players))
    # The Season begins with the Brenn.
    assert table.state.phase == "season"
    assert table.decision(table.state.brenn).kind == "season_turn"


def test_two_player_draft():
    """2-Player Rules: "Shuffle all Action cards and randomly set aside one card facedown. The
    Brenn deals three cards [...] chooses one to hold, and passes the other two [...] chooses two
    to hold, and passes the other one [...] Once again, the Brenn deals three cards [...] At the
    end of the draft, each player has a total of six Action cards". 13 cards are in use."""
    table = assembly(2)
    picks = draft_everyone(table)
    for seat in table.seats:
        assert [(k, n) for s, k, n in picks if s == seat] == [(1, 3), (2, 3), (1, 3), (2, 3)]
        assert passed_counts(table, seat) == [2, 1, 2, 1]
    dealt = [e.payload for e in table.events if e.type == "ActionCardsDealt"]
    assert sorted((d["seat"], d["block"], len(d["cards"])) for d in dealt) == [
        ("blue", 0, 3),
        ("blue", 1, 3),
        ("green", 0, 3),
        ("green", 1, 3),
    ]
    hands = [table.state.action_cards(seat) for seat in table.seats]
    assert [len(h) for h in hands] == [6, 6]
    assert sorted(hands[0] + hands[1] + [table.state.set_aside]) == sorted(action_cards_for(2))


def test_the_draft_prompt_says_pass_the_other_one():
    """2-Player Rules: "chooses two to hold, and passes the other one": the prompt says so ("passez
    l'autre"), not "pass the other 1"; two or more cards are counted ("passez les 2 autres")."""
    from games.rules import speaking

    table = assembly(2)
    assert table.decision("green").prompt == (
        "Draft: keep 1 of the 3 Action cards in front of you and pass the other 2."
    )
    with speaking("fr"):
        assert table.decision("green").prompt == (
            "Draft : gardez 1 des 3 cartes Action devant vous et passez les 2 autres."
        )
    pick(table, "green")
    pick(table, "blue")
    assert table.decision("green").prompt == (
        "Draft: keep 2 of the 3 Action cards in front of you and pass the other one."
    )
    with speaking("fr"):
        assert table.decision("green").prompt == (
            "Draft : gardez 2 des 3 cartes Action devant vous et passez l'autre."
        )


@pytest.mark.parametrize("players", [2, 3])
def test_four_player_cards_are_not_used_below_four_players(players):
    """Setup: "In a 2- or 3-player game, return the Action cards that have a 4 in the
    bottom-right corner to the box; they are used only in a 4-player game." """
    assert {c.id for c in ACTION_CARDS if c.four_player_only} >= FOUR_PLAYER_ONLY
    table = assembly(players)
    draft_everyone(table)
    everywhere = {c for s in table.seats for c in table.state.action_cards(s)}
    everywhere.add(table.state.set_aside)
    assert not everywhere & FOUR_PLAYER_ONLY
    assert len(everywhere) == 13


def test_second_pick_as_soon_as_the_passing_player_has_picked():
    """Step 6: "each player adds the one card he held to the three cards passed to him" — a
    player waits only for the player passing to him, not for the whole table (ruling,
    Simultaneous draft)."""
    table = assembly(4)
    passer = table.state.brenn
    receiver = table.state.next_seat(passer)  # cards pass in the Flock of Crows direction
    others = [s for s in table.seats if s not in (passer, receiver)]
    # The receiver picks first: it must then wait for the passer.
    pick(table, receiver)
    assert receiver not in table.awaiting()
    pick(table, passer)
    decision = table.decision(receiver)
    assert decision.context == {"keep": 2, "of": 4}
    # Nobody else has picked yet.
    assert all(table.state.draft[s]["stage"] == 0 for s in others)
    passed = first(table.events[::-1], "DraftCardsPassed").payload
    assert passed["from"] == passer and passed["to"] == receiver and len(passed["cards"]) == 3
    # The receiver chooses among its held card and the three passed to it.
    choices = {c for command in table.legal(receiver) for c in command["keep"]}
    assert choices == set(table.state.draft[receiver]["held"]) | set(passed["cards"])
    pick(table, receiver)
    assert receiver not in table.awaiting()  # its third pick waits for the passer's second


def test_a_held_card_may_be_passed_on():
    """Step 6 note: "it is possible for a player to take his held card from Step 1 and pass it to
    his neighbor during Step 2." """
    table = assembly(3, seed="held")
    passer = table.state.brenn
    receiver = table.state.next_seat(passer)
    pick(table, passer)
    pick(table, receiver)
    held = table.state.draft[receiver]["held"][0]
    assert table.decision(receiver).context == {"keep": 2, "of": 4}
    keep = [c for c in table.legal(receiver) if held not in c["keep"]]
    table.do(receiver, keep[0])
    passed = first(table.events[::-1], "DraftCardsPassed").payload
    assert held in passed["cards"]


def test_draft_refuses_a_wrong_keep():
    """Step 6: "Each player looks at his four Action cards, chooses one to hold, and passes the
    other three" — keeping another number, or a card not in front of you, is refused."""
    table = assembly(4)
    seat = table.state.brenn
    cards = table.state.draft[seat]["dealt"]["0"]
    message = table.refuse(seat, "draft", keep=cards[:2])
    assert "Keep exactly 1" in message
    elsewhere = next(c for c in action_cards_for(4) if c not in cards)
    assert "Keep exactly 1" in table.refuse(seat, "draft", keep=[elsewhere])
    # A name that is no card at all is malformed (docs/rules-api.md, "Errors").
    unknown = table.refuse(seat, "draft", keep=["act_not_a_card"], error=InvalidCommand)
    assert unknown == "Unknown card 'act_not_a_card'."
    table.refuse(seat, "draft", keep=cards[0], error=InvalidCommand)
    table.refuse(seat, "draft", keep=[1], error=InvalidCommand)
    table.refuse(seat, "pass")


def test_end_of_draft_hands_keep_advantage_cards():
    """ "At the end of the Assembly phase, each player has four Action cards in hand and maybe
    some Advantage and Epic Tale cards." """
    table = Table(
        """
        moor    0,0  green 2
        plains  1,0  blue 1
        valley  2,0  orange 1
        cove    3,0  white 1
    """,
        phase="assembly",
        hands={"green": ["ep_eriu"]},
        seed="hands",
    )
    draft_everyone(table)
    green = table.hand("green")
    assert "ep_eriu" in green and "adv_moor" in green
    assert len(table.state.action_cards("green")) == 4
