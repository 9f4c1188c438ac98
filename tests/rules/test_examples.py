"""The worked examples of the rulebook, replayed step by step.

The draft examples (card counts, 2-player draft) are in test_assembly.py.
"""

from games.rules import legal_commands, pending
from games.rules.victory import conditions_met

from .positions import Table, first, types


def test_moor_chieftain():
    """Territory chieftain: "The Moor contains 4 green clans, 3 blue clans, and 2 white clans.
    The green player has the most clans here, so she is the Moor's chieftain." — and so, at the
    Assembly, "the chieftain of each territory takes that territory's matching Advantage card"."""
    table = Table(
        """
        moor    0,0  green 4  blue 3  white 2
        valley  1,0  orange 1
    """,
        capital="valley",
        brenn="orange",
        phase="assembly",
    )
    assert table.state.chieftain("moor") == "green"
    taken = [e.payload for e in table.events if e.type == "AdvantageCardTaken"]
    assert {"seat": "green", "card": "adv_moor", "cause": "assembly"} in taken
    assert "adv_moor" in table.hand("green")
    assert "adv_moor" not in table.state.advantage_display


def test_capital_tie_keeps_the_brenn():
    """Assembly step 1: "The Capital territory contains 1 orange clan and 1 white clan. Because
    there is a tie for the most clans in this territory, there is no chieftain here. Even though
    none of his clans are present in the Capital territory, the blue player stays the Brenn." """
    table = Table(
        """
        plains  0,0  orange 1  white 1
        valley  1,0  blue 2  green 1
    """,
        capital="plains",
        brenn="blue",
        phase="assembly",
    )
    assert table.state.chieftain("plains") is None
    assert "BrennAssigned" not in types(table.events)
    assert table.state.brenn == "blue"
    assert "RoundStarted" in types(table.events) and table.awaiting()  # the Assembly went on


def test_capital_chieftain_becomes_brenn():
    """Assembly step 1: "The chieftain of the Capital territory becomes the Brenn and takes the
    Brenn marker." (the counterpart of the Capital tie example)"""
    table = Table(
        """
        plains  0,0  orange 2  white 1
        valley  1,0  blue 2
    """,
        capital="plains",
        brenn="blue",
        phase="assembly",
    )
    assigned = first(table.events, "BrennAssigned")
    assert assigned.payload == {"seat": "orange", "reason": "chieftain of the Capital"}
    assert table.state.brenn == "orange"


def test_citadels_step_with_three_citadels():
    """Citadels example: "The turn order is: green, blue, orange and white. There are three
    Citadels in this territory. The green player is the instigator. The blue player chooses to
    protect one of his clans in a Citadel. The orange player does the same. The white player
    chooses not to send any of his clans to the Citadel. Next it is back to the blue player, who
    can choose to protect another of his clans in the last unoccupied Citadel. He does so, and
    now they proceed to resolve the clash." """
    table = Table(
        """
        hills   0,0  blue 3  orange 2  white 2  citadels 3
        valley  1,0  green 3
    """,
        capital="valley",
        brenn="green",
        flock="clockwise",
        hands={"green": ["act_migration"]},
        opened=False,
    )
    table.play("green", "act_migration", **{"from": "valley", "moves": {"hills": 2}})
    assert table.awaiting() == {"blue": "citadel"}
    assert table.decision("blue").context["free_citadels"] == 3
    table.do("blue", "citadel")
    assert table.awaiting() == {"orange": "citadel"}
    table.do("orange", "citadel")
    assert table.awaiting() == {"white": "citadel"}
    table.do("white", "no_citadel")
    assert table.awaiting() == {"blue": "citadel"}  # back to blue; green, the instigator, never
    events = table.do("blue", "citadel")
    assert first(events, "CitadelsStepEnded").payload["sheltered"] == {"blue": 2, "orange": 1}
    # Resolution: the instigator maneuvers first.
    decision = table.decision("green")
    assert decision.kind == "maneuver"
    assert decision.context["exposed"] == {"green": 2, "blue": 1, "orange": 1, "white": 2}
    assert decision.context["free_citadels"] == 0


def test_clash_example():
    """Clash example (rulebook p. 9, clash summary 004): "The turn order is: green, blue, orange
    and white. The blue player chooses the Attack maneuver and targets the orange player. The
    orange player has no more Action cards in his hand, so he removes one of his exposed clans.
    After that, the orange player chooses the Withdraw maneuver. He takes his three exposed clans
    from this territory and moves them to the Plains, an adjacent territory where he is chieftain.
    The white player, just before his maneuver, asks the remaining involved players if they agree
    to end the clash now. The green player agrees, but the blue player refuses, so the clash
    continues, and the white player must perform a maneuver. The white player chooses the Attack
    maneuver and targets the blue player, who chooses to discard one Action card from his hand.
    It's back to the green player's turn. He plays the Epic Tale card "Ogma's Eloquence" as his
    maneuver, which immediately ends the clash. All clans in Citadels are taken out and placed back
    in their territory."

    Blue is the instigator (he maneuvers first); the clash is in the Hills, with two Citadels where
    white and green shelter a clan each.
    """
    table = Table(
        """
        hills   0,0  green 2  orange 4  white 2  citadels 2
        valley  1,0  blue 3
        plains -1,0  orange 2
    """,
        capital="valley",
        brenn="blue",
        flock="clockwise",
        opened=False,
        hands={"blue": ["act_migration", "act_new_clans"], "green": ["ep_ogmas_eloquence"]},
    )
    table.play("blue", "act_migration", **{"from": "valley", "moves": {"hills": 2}})
    # Citadels step, from the player after the instigator: orange, white, green.
    assert table.awaiting() == {"orange": "citadel"}
    table.do("orange", "no_citadel")
    table.do("white", "citadel")
    table.do("green", "citadel")
    assert table.decision("blue").kind == "maneuver"
    assert table.decision("blue").context["exposed"] == {"green": 1, "blue": 2, "orange": 4, "white": 1}

    # Blue attacks orange, who holds no Action card: a clan is removed, nobody is asked.
    events = table.do("blue", "attack", target="orange")
    assert first(events, "ClansRemoved").payload == {
        "seat": "orange",
        "territory": "hills",
        "count": 1,
        "cause": "attack",
    }
    assert "attack_response" not in table.awaiting().values()

    # Orange withdraws its three exposed clans to the Plains, where it is chieftain.
    assert table.decision("orange").kind == "maneuver"
    table.do("orange", "withdraw", moves={"plains": 3})
    assert table.clans("plains") == {"orange": 5}
    assert "orange" not in table.clans("hills")

    # White proposes to end the clash: green agrees, blue refuses.
    assert table.decision("white").kind == "maneuver"
    table.do("white", "propose_peace")
    assert table.awaiting() == {"green": "peace_vote", "blue": "peace_vote"}
    table.do("green", "peace_vote", agree=True)
    assert table.awaiting() == {"blue": "peace_vote"}
    events = table.do("blue", "peace_vote", agree=False)
    assert "PeaceRefused" in types(events) and "ClashEnded" not in types(events)
    # The clash continues and white must maneuver (no second proposal this turn).
    assert table.decision("white").kind == "maneuver"
    assert "propose_peace" not in table.legal_types("white")

    # White attacks blue, who chooses to discard an Action card.
    table.do("white", "attack", target="blue")
    assert table.awaiting() == {"blue": "attack_response"}
    table.do("blue", "attack_response", choice="discard", card="act_new_clans")
    assert table.state.action_cards("blue") == []
    assert "act_new_clans" in table.state.action_discard
    assert table.clans("hills") == {"green": 2, "blue": 2, "white": 2}

    # Back to green, who plays Ogma's Eloquence as his maneuver: the clash ends at once.
    assert table.decision("green").kind == "maneuver"
    events = table.do("green", "play", card="ep_ogmas_eloquence")
    assert first(events, "ClashEnded").payload["released"] == {"white": 1, "green": 1}
    assert table.clash() is None
    assert "ep_ogmas_eloquence" in table.state.epic_discard
    # The clans in the Citadels are back in the territory, and the Season goes on.
    assert table.clans("hills") == {"green": 2, "blue": 2, "white": 2}
    assert table.decision("orange").kind == "season_turn"


def test_deeds_example():
    """Deeds: "The blue player is present in four territories with a total of five Sanctuaries.
    He also has two Deed tokens. He can meet only one victory condition [...]. However, if he had
    three Deed tokens, he would meet both victory conditions." — checked at the Assembly against
    a Pretender meeting one condition while green, not tied, is the Brenn."""
    layout = """
        moor    0,0  blue 1  sanctuaries 2
        plains  1,0  blue 1  sanctuaries 2
        valley  0,1  blue 1  sanctuaries 1
        hills   1,-1 blue 1
        cove   -1,0  green 1
        forest -1,1  orange 1
    """
    two = Table(
        layout,
        capital="cove",
        brenn="green",
        deeds={"blue": 2, "orange": 5},
        pretenders=["blue", "orange"],
        phase="assembly",
    )
    assert conditions_met(two.state, "orange") == 1
    assert conditions_met(two.state, "blue") == 1
    checked = first(two.events, "VictoryChecked").payload
    assert checked == {"scores": {"blue": 1, "orange": 1}, "winner": None}
    assert two.state.winner is None

    three = Table(
        layout,
        capital="cove",
        brenn="green",
        deeds={"blue": 3, "orange": 5},
        pretenders=["blue", "orange"],
        phase="assembly",
    )
    assert conditions_met(three.state, "blue") == 2
    assert first(three.events, "GameWon").payload == {"seat": "blue", "conditions": 2}
    assert three.state.winner == "blue" and three.state.phase == "over"
    assert pending(three.state) == []


# Round 1: orange meets two conditions (6 territories; chieftain over 2 + 5 opposing clans),
# blue two (6 territories; 6 Sanctuaries), green, the Brenn, one (6 territories). White has no
# clan: on its first turn it must place 2, in the Plains, where orange then stops being chieftain.
TIE_ISLAND = """
    plains     0,0  orange 2  blue 1  green 1
    hills      1,0  orange 6  blue 5
    moor       1,-1 orange 1  green 1  blue 1
    valley     0,-1 orange 1  green 1  blue 1
    forest    -1,0  orange 1  green 1  blue 1
    cove      -1,1  orange 1  green 1
    meadows    0,1  green 1
    salt_mine  2,-1 blue 1  sanctuaries 6
"""


def harmless_opening(table, seat, home):
    """A Season card play for `seat` that changes no victory condition: it only draws, or only
    adds to `home` (where nobody else is), or looks at a hand."""
    for command in table.legal(seat):
        if command["type"] != "play":
            continue
        places = set()
        for key in ("territory", "territories", "placements"):
            value = command.get(key)
            places |= {value} if isinstance(value, str) else set(value or ())
        if command["card"] in ("act_bard", "act_scouts_spies") or (
            places == {home} and command.get("mode") != "replace"
        ):
            return command
    raise AssertionError(f"no harmless opening among {table.legal(seat)}")


def test_two_round_victory_tie():
    """End of the Game example: "Orange, blue and green players each have a pretender marker.
    Orange and blue players each fulfill two victory conditions. Green player is Brenn and
    fulfills one victory condition. Orange and blue players tie for the most victory conditions,
    but as none of them is Brenn, the tie is not broken, there is no winner and the game goes on
    for another round. In the assembly of the new round, Orange and green player both have a
    pretender marker. They both fulfill one victory condition, but green player is still Brenn
    so he breaks the tie in his favor and wins the game." """
    table = Table(
        TIE_ISLAND, capital="meadows", brenn="green", phase="assembly", pretenders=["orange", "blue", "green"]
    )
    checked = first(table.events, "VictoryChecked").payload
    assert checked == {"scores": {"orange": 2, "blue": 2, "green": 1}, "winner": None}
    assert "PretendersReturned" in types(table.events)
    assert table.state.pretenders == [] and table.state.winner is None

    # The round goes on: the draft, then a Season in which orange and green take a token.
    while not table.state.winner:
        assert table.state.round <= 2, "the second Assembly should have ended the game"
        decision = table.pending()[0]
        seat = decision.seat
        if decision.kind == "draft":
            table.do(seat, table.legal(seat)[0])
        elif decision.kind == "place_clans":
            assert seat == "white"
            table.do(seat, "place_clans", territories=["plains", "plains"])
            assert table.state.chieftain("plains") is None
        elif decision.kind == "card_choice":  # Scouts & Spies: no move
            table.do(seat, "scouts_move", skip=True)
        elif decision.kind == "season_turn":
            frame = table.state.top()
            if not frame["opened"]:
                table.do(seat, harmless_opening(table, seat, "meadows"))
            elif seat in ("orange", "green") and seat not in table.state.pretenders:
                table.do(seat, "pretender")
            else:
                table.do(seat, "pass")
        else:
            raise AssertionError(f"unexpected decision {decision}")
    assert table.state.round == 2
    assert conditions_met(table.state, "orange") == 1
    checked = [e.payload for e in table.events if e.type == "VictoryChecked"][-1]
    assert checked == {"scores": {"orange": 1, "green": 1}, "winner": "green"}
    assert table.state.brenn == "green" and table.state.winner == "green"


def test_pretender_example():
    """Take a Pretender Token example: "During his turn, the orange player chooses to take a
    Pretender token because he meets one victory condition (he is present in three territories
    which have a total of six sanctuaries)." """
    table = Table(
        """
        moor    0,0  orange 1  blue 2  sanctuaries 3
        plains  1,0  orange 1  sanctuaries 2
        valley  0,1  orange 1  green 1  sanctuaries 1
    """,
        seats=("green", "blue", "orange"),
        capital="moor",
        brenn="blue",
        turn="orange",
    )
    assert conditions_met(table.state, "orange") == 1
    assert {"type": "pretender"} in legal_commands(table.state, "orange")
    events = table.do("orange", "pretender")
    assert first(events, "PretenderTaken").payload == {"seat": "orange"}
    assert table.state.pretenders == ["orange"]
    # The turn passes on; the token stays until the Assembly.
    assert table.decision("green").kind == "season_turn"
