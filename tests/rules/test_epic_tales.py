"""The sixteen Season Epic Tales: each one's effect, when it is offered, and its limits.

Card texts: docs/cards.md; rulings: docs/rulings.md ("Cards that cannot do anything"
and "Epic Tales and Advantage cards (Season)"). Choices on hidden cards come after the play, and
their events are seen only by the seats concerned (`redact`).
"""

import json

from games.rules import redact

from .positions import Table, first, types
from .season_cards import declared, epics, hidden_from, offered, plays

THREE = ("green", "blue", "orange")

# moor (0,0) touches valley, plains and cove; valley (1,0) touches moor and plains; plains (0,1)
# touches all three; cove (-1,1) touches moor and plains. Valley and cove do not touch.
ISLAND = """
    moor    0,0   green 3  blue 2  sanctuaries 2
    valley  1,0   green 2  orange 1  sanctuaries 1
    plains  0,1   blue 2  orange 1
    cove    -1,1  orange 2
"""


def table_for(hands, island=ISLAND, **position):
    """Green's Season turn (green is Brenn unless told otherwise); Triskel windows declined."""
    position.setdefault("capital", "valley")
    position.setdefault("seats", THREE)
    return Table(island, decline=True, hands=hands, **position)


# -- Balor's Eye -----------------------------------------------------------------------------


def test_balors_eye_removes_any_clan_anywhere():
    """Balor's Eye: "Remove any 1 clan (any player's, yours included) from any territory." """
    table = table_for({"green": ["ep_balors_eye"]})
    options = plays(table, "green", "ep_balors_eye")
    assert {"territory": "cove", "owner": "orange"} in options  # green is not in the Cove
    assert {"territory": "moor", "owner": "green"} in options  # yours included
    assert len(options) == 7  # one per (territory, player present)
    events = table.play("green", "ep_balors_eye", territory="moor", owner="blue")
    assert first(events, "ClansRemoved").payload["seat"] == "blue"
    assert table.clans("moor") == {"green": 3, "blue": 1}
    assert table.state.reserve["blue"] == 12 - 3
    assert "ep_balors_eye" in table.state.epic_discard


def test_balors_eye_needs_a_clan_of_that_player_there():
    """ "Remove any 1 clan ... from any territory": a clan that is there."""
    table = table_for({"green": ["ep_balors_eye"]})
    message = table.refuse("green", "play", card="ep_balors_eye", territory="cove", owner="blue")
    assert "Allowed:" in message and "remove 1 orange clan from the Cove" in message


# -- Breas' Tyranny ---------------------------------------------------------------------------


def test_breas_tyranny_moves_an_opposing_clan_without_a_clash():
    """Breas' Tyranny: "Choose a territory where you are present. Move 1 opposing clan from it
    to an adjacent territory. This move does not start a clash." (into orange's Cove)."""
    table = table_for({"green": ["ep_breas_tyranny"]})
    options = plays(table, "green", "ep_breas_tyranny")
    assert {"from": "moor", "owner": "blue", "to": "cove"} in options
    assert {"from": "valley", "owner": "orange", "to": "plains"} in options
    assert all(o["from"] in ("moor", "valley") and o["owner"] != "green" for o in options)
    events = table.play("green", "ep_breas_tyranny", **{"from": "moor", "owner": "blue", "to": "cove"})
    assert "ClashStarted" not in types(events)
    assert table.clans("cove") == {"orange": 2, "blue": 1}
    assert table.clans("moor") == {"green": 3, "blue": 1}
    assert table.decision("blue").kind == "season_turn"


def test_breas_tyranny_into_the_mountains_makes_the_owner_pay():
    """Mountains: "When 1 or more clans are moved into this territory, their owner must either
    discard 1 Action card or lose 1 of those clans" — the owner of the moved clan, not the player
    of Breas' Tyranny."""
    table = table_for(
        {"green": ["ep_breas_tyranny", "act_bard"], "blue": ["act_druid"]},
        island=ISLAND + "    mountains 1,-1  orange 1\n",
    )
    table.play("green", "ep_breas_tyranny", **{"from": "moor", "owner": "blue", "to": "mountains"})
    assert table.awaiting() == {"blue": "mountains_toll"}
    table.do("blue", "mountains_toll", pay="clan")
    assert table.clans("mountains") == {"orange": 1}
    assert table.clans("moor") == {"green": 3, "blue": 1}


def test_breas_tyranny_needs_an_opponent_where_you_are():
    """ "Move 1 opposing clan from it": not offered where green is alone."""
    table = table_for(
        {"green": ["ep_breas_tyranny"]},
        island="""
        moor    0,0   green 3
        valley  1,0   blue 2
    """,
    )
    assert not offered(table, "green", "ep_breas_tyranny")
    assert "opposing clan" in table.refuse(
        "green", "play", card="ep_breas_tyranny", **{"from": "moor", "owner": "blue", "to": "valley"}
    )


# -- The Champion's Share ----------------------------------------------------------------------


def test_the_champions_share_takes_the_set_aside_card():
    """The Champion's Share: "Take the Action card that was set aside during this round's
    Assembly into your hand." The card stays hidden from the others."""
    table = table_for({"green": ["ep_champions_share"]}, set_aside="act_warlord")
    assert plays(table, "green", "ep_champions_share") == [{}]
    events = table.play("green", "ep_champions_share")
    assert "act_warlord" in table.hand("green")
    assert table.state.set_aside is None
    taken = first(events, "SetAsideCardTaken")
    assert taken.payload["seat"] == "green"
    hidden_from(events, "blue", ["act_warlord"])


def test_the_champions_share_needs_a_set_aside_card():
    """Nothing set aside (it was taken already): nothing to take, so it cannot be played."""
    table = table_for({"green": ["ep_champions_share"]}, set_aside=None)
    assert not offered(table, "green", "ep_champions_share")
    assert "set aside" in table.refuse("green", "play", card="ep_champions_share")


# -- Children of Dana ---------------------------------------------------------------------------


def test_children_of_dana_places_a_clan_anywhere():
    """Children of Dana: "Place 1 clan from your reserve in any territory; you need not be
    present there." """
    table = table_for({"green": ["ep_children_of_dana"]})
    assert len(plays(table, "green", "ep_children_of_dana")) == 4
    table.play("green", "ep_children_of_dana", territory="cove")
    assert table.clans("cove") == {"orange": 2, "green": 1}
    assert table.state.reserve["green"] == 12 - 6


def test_children_of_dana_needs_a_clan_in_reserve():
    """ "Place 1 clan from your reserve": with all 12 on the island, it cannot be played."""
    table = table_for(
        {"green": ["ep_children_of_dana"]},
        island="""
        moor    0,0   green 10  blue 2
        valley  1,0   green 2
    """,
    )
    assert table.state.reserve["green"] == 0
    assert not offered(table, "green", "ep_children_of_dana")
    assert "reserve" in table.refuse("green", "play", card="ep_children_of_dana", territory="moor")


# -- Dagda's Harp ------------------------------------------------------------------------------


def test_dagdas_harp_counts_the_other_epic_tales():
    """Dagda's Harp: "For each other Epic Tale card in your hand, place 1 clan in a territory
    where you are present; each clan may go to a different such territory." Action and Advantage
    cards do not count, nor the Harp itself."""
    table = table_for({"green": ["ep_dagdas_harp", "ep_eriu", "ep_the_dagda", "act_bard"]})
    options = plays(table, "green", "ep_dagdas_harp")
    assert all(sum(o["placements"].values()) == 2 for o in options)
    assert {"placements": {"moor": 1, "valley": 1}} in options
    assert {"placements": {"valley": 2}} in options
    assert len(options) == 3  # moor 2, moor+valley, valley 2
    table.play("green", "ep_dagdas_harp", placements={"valley": 1, "moor": 1})
    assert table.clans("moor")["green"] == 4 and table.clans("valley")["green"] == 3


def test_dagdas_harp_places_at_most_three():
    """Dagda's Harp: "Maximum 3 clans." (five other Epic Tales in hand)."""
    table = table_for(
        {
            "green": [
                "ep_dagdas_harp",
                "ep_eriu",
                "ep_the_dagda",
                "ep_lugs_spear",
                "ep_balors_eye",
                "ep_tuans_memory",
            ]
        }
    )
    assert {sum(o["placements"].values()) for o in plays(table, "green", "ep_dagdas_harp")} == {3}
    table.play("green", "ep_dagdas_harp", placements={"moor": 3})
    assert table.clans("moor")["green"] == 6


def test_dagdas_harp_without_other_epic_tales_or_reserve():
    """No other Epic Tale: nothing to count, the Harp cannot be played. With 1 clan in reserve,
    it places that one (rulings: the effect goes as far as it can)."""
    table = table_for({"green": ["ep_dagdas_harp", "act_bard"]})
    assert not offered(table, "green", "ep_dagdas_harp")
    table = table_for(
        {"green": ["ep_dagdas_harp", "ep_eriu", "ep_the_dagda"]},
        island="""
        moor    0,0   green 9  blue 2
        valley  1,0   green 2
    """,
    )
    assert table.state.reserve["green"] == 1
    assert plays(table, "green", "ep_dagdas_harp") == [
        {"placements": {"moor": 1}},
        {"placements": {"valley": 1}},
    ]


# -- Deirdre's Beauty ----------------------------------------------------------------------------


def test_deirdres_beauty_reveals_takes_one_and_removes_your_clan():
    """Deirdre's Beauty: "Each opponent reveals 1 Epic Tale card chosen at random from their
    hand. Take 1 of the revealed cards into your hand; the others are discarded. Then you must
    remove 1 of your own clans from any territory." Reveals go Brenn first, then in Flock of
    Crows order (the Seasons of Inis rulebook, Timing clarifications): orange is the Brenn here."""
    table = table_for(
        {"green": ["ep_deirdres_beauty"], "blue": ["ep_eriu", "act_bard"], "orange": ["ep_balors_eye"]},
        brenn="orange",
        turn="green",
    )
    assert plays(table, "green", "ep_deirdres_beauty") == [{}]
    events = table.play("green", "ep_deirdres_beauty")
    revealed = [(e.payload["seat"], e.payload["card"]) for e in events if e.type == "EpicTaleRevealed"]
    assert revealed == [("orange", "ep_balors_eye"), ("blue", "ep_eriu")]
    assert all(e.visibility is None for e in events if e.type == "EpicTaleRevealed")
    decision = table.decision("green")
    assert decision.kind == "card_choice" and "Eriu" in decision.prompt
    assert table.legal("green") == [
        {"type": "choose", "card": "ep_balors_eye"},
        {"type": "choose", "card": "ep_eriu"},
    ]
    table.do("green", "choose", card="ep_eriu")
    assert "ep_eriu" in table.hand("green") and "ep_eriu" not in table.hand("blue")
    assert "ep_balors_eye" in table.state.epic_discard and table.hand("orange") == []
    # Then green removes 1 of its own clans, where it chooses.
    assert table.legal("green") == [
        {"type": "remove_clan", "territory": "moor"},
        {"type": "remove_clan", "territory": "valley"},
    ]
    table.do("green", "remove_clan", territory="valley")
    assert table.clans("valley") == {"green": 1, "orange": 1}
    assert table.decision("blue").kind == "season_turn"


def test_deirdres_beauty_one_revealed_card_and_one_territory_need_no_question():
    """With a single revealed card there is nothing to choose; present in one territory only,
    green's clan comes from there."""
    table = table_for(
        {"green": ["ep_deirdres_beauty"], "blue": ["ep_eriu"]},
        island="""
        moor    0,0   green 3  blue 2
        valley  1,0   orange 2
    """,
    )
    events = table.play("green", "ep_deirdres_beauty")
    assert first(events, "CardGiven").payload == {
        "from": "blue",
        "to": "green",
        "card": "ep_eriu",
        "cause": "Deirdre's Beauty",
    }
    assert table.clans("moor") == {"green": 2, "blue": 2}
    assert table.decision("blue").kind == "season_turn"


def test_deirdres_beauty_a_revealed_card_played_before_the_choice_is_neither_taken_nor_discarded():
    """The revealed cards stay in their owners' hands until green chooses, and the Moor ("at any
    time: look at the Epic Tale cards in 1 opponent's hand") may be played meanwhile: blue
    answers it with The Dagda, which was blue's revealed card ("When any player plays an Epic
    Tale card or an Advantage card: that card's effect is ignored"). Ruling "A revealed card
    played before the choice": it was used from the hand, so it is neither taken nor discarded
    (it went into the Epic Tale deck with The Dagda's shuffle); green takes one of the cards
    still revealed. (Every choice used to fail, the game could not go on.)"""
    table = Table(
        ISLAND,
        seats=THREE,
        capital="valley",
        decline=False,
        hands={"green": ["ep_deirdres_beauty", "adv_moor"], "blue": ["ep_the_dagda"], "orange": ["ep_eriu"]},
    )
    table.play("green", "ep_deirdres_beauty")
    table.decline_reactions()  # nobody cancels Deirdre's Beauty
    assert [c for c in table.legal("green") if c["type"] == "choose"] == [
        {"type": "choose", "card": "ep_the_dagda"},
        {"type": "choose", "card": "ep_eriu"},
    ]
    table.do("green", "moor", opponent="orange")
    table.do("blue", "react", card="ep_the_dagda")
    table.decline_reactions()
    assert table.hand("blue") == [] and "ep_the_dagda" in table.state.epic_deck
    decision = table.decision("green")
    assert "Eriu (orange)" in decision.prompt and "Dagda" not in decision.prompt
    assert table.legal("green") == [{"type": "choose", "card": "ep_eriu"}]
    message = table.refuse("green", "choose", card="ep_the_dagda")
    assert message == "Deirdre's Beauty: take one of the revealed cards: Eriu."
    table.do("green", "choose", card="ep_eriu")
    assert table.hand("green") == ["ep_eriu"] and table.hand("orange") == []
    assert "ep_the_dagda" not in table.state.epic_discard
    assert table.decision("green").kind == "card_choice"  # then green's own clan


def test_deirdres_beauty_needs_an_opponent_with_an_epic_tale():
    """Ruling: with no Epic Tale to reveal only the cost remains (removing your own clan), so
    it cannot be played."""
    table = table_for({"green": ["ep_deirdres_beauty", "ep_eriu"], "blue": ["act_bard"]})
    assert not offered(table, "green", "ep_deirdres_beauty")
    assert "Epic Tale" in table.refuse("green", "play", card="ep_deirdres_beauty")


# -- Eriu ------------------------------------------------------------------------------------


def test_eriu_places_in_territories_with_a_sanctuary():
    """Eriu: "In each territory where you are present that has at least 1 Sanctuary, you may
    place 1 clan." (The Plains has no Sanctuary; green is not in the Cove.)"""
    island = ISLAND.replace("cove    -1,1  orange 2", "cove -1,1 orange 2 sanctuaries 1")
    table = table_for({"green": ["ep_eriu"]}, island=island)
    assert plays(table, "green", "ep_eriu") == [
        {"territories": ["moor"]},
        {"territories": ["valley"]},
        {"territories": ["moor", "valley"]},
    ]
    assert declared(
        table, "green", {"type": "play", "card": "ep_eriu", "territories": ["valley", "moor"]}
    ) == {"territories": ["moor", "valley"]}  # any order
    table.play("green", "ep_eriu", territories=["moor", "valley"])
    assert table.clans("moor")["green"] == 4 and table.clans("valley")["green"] == 3


def test_eriu_places_at_most_three_and_only_from_the_reserve():
    """Eriu: "Maximum 3 clans in total." With 1 clan in reserve, one territory."""
    island = """
        moor    0,0   green 1  sanctuaries 1
        valley  1,0   green 1  sanctuaries 1
        plains  0,1   green 1  sanctuaries 1
        cove    -1,1  green 1  blue 1  sanctuaries 1
    """
    table = table_for({"green": ["ep_eriu"]}, island=island)
    assert max(len(o["territories"]) for o in plays(table, "green", "ep_eriu")) == 3
    table.refuse("green", "play", card="ep_eriu", territories=["moor", "valley", "plains", "cove"])
    table = table_for(
        {"green": ["ep_eriu"]},
        island="""
        moor    0,0   green 10  sanctuaries 1
        valley  1,0   green 1  blue 1  sanctuaries 1
    """,
    )
    assert table.state.reserve["green"] == 1
    assert plays(table, "green", "ep_eriu") == [{"territories": ["moor"]}, {"territories": ["valley"]}]


def test_eriu_needs_a_sanctuary_where_you_are():
    """No Sanctuary in a territory where green is present: nothing to do."""
    table = table_for(
        {"green": ["ep_eriu"]},
        island="""
        moor    0,0   green 3
        valley  1,0   blue 2  sanctuaries 3
    """,
    )
    assert not offered(table, "green", "ep_eriu")


# -- Kernunos' Sanctuary -------------------------------------------------------------------------


def test_kernunos_sanctuary_places_a_clan_and_a_sanctuary_and_draws_nothing():
    """Kernunos' Sanctuary: "Choose a territory where you are present that has no Sanctuary.
    Place 1 clan and 1 Sanctuary there." Ruling U7: no Epic Tale is drawn."""
    table = table_for({"green": ["ep_kernunos_sanctuary"]}, island=ISLAND + "    hills 1,-1  green 1\n")
    assert plays(table, "green", "ep_kernunos_sanctuary") == [{"territory": "hills"}]
    events = table.play("green", "ep_kernunos_sanctuary", territory="hills")
    assert table.clans("hills") == {"green": 2}
    assert table.state.territories["hills"]["sanctuaries"] == 1
    assert "EpicTaleDrawn" not in types(events)
    assert table.hand("green") == []


def test_kernunos_sanctuary_with_the_supply_or_the_reserve_empty():
    """Either half alone when the other cannot be done (rulings: "at least in part"): with no
    Sanctuary left in the supply (9 on the island), only the clan."""
    table = table_for(
        {"green": ["ep_kernunos_sanctuary"]},
        island="""
        moor    0,0   green 3  sanctuaries 9
        valley  1,0   green 1  blue 2
    """,
    )
    assert table.state.supply["sanctuaries"] == 0
    table.play("green", "ep_kernunos_sanctuary", territory="valley")
    assert table.clans("valley") == {"green": 2, "blue": 2}
    assert table.state.territories["valley"]["sanctuaries"] == 0


def test_kernunos_sanctuary_not_where_a_sanctuary_stands():
    """ "That has no Sanctuary": green is present only where Sanctuaries stand."""
    table = table_for({"green": ["ep_kernunos_sanctuary"]})
    assert not offered(table, "green", "ep_kernunos_sanctuary")
    table = table_for(
        {"green": ["ep_kernunos_sanctuary"]},
        island="""
        moor    0,0   green 10  blue 1
        valley  1,0   green 2
    """,
    )
    # Reserve empty but the supply holds Sanctuaries: the Sanctuary alone.
    table.play("green", "ep_kernunos_sanctuary", territory="valley")
    assert table.clans("valley") == {"green": 2}
    assert table.state.territories["valley"]["sanctuaries"] == 1


# -- Maeve's Wealth ----------------------------------------------------------------------------


def test_maeves_wealth_gifts_and_returns_stay_between_the_two_players():
    """Maeve's Wealth: "Every other player who has at least 1 Action card must give you 1 Action
    card of their choice. Then you must give 1 Action card to each player who gave you one."
    Orange, with a single Action card, gives it without being asked; blue chooses. Green gives
    back Brenn first, then in Flock of Crows order (blue, then orange)."""
    table = table_for(
        {
            "green": ["ep_maeves_wealth"],
            "blue": ["act_bard", "act_druid"],
            "orange": ["act_sanctuary", "ep_eriu"],
        }
    )
    assert plays(table, "green", "ep_maeves_wealth") == [{}]
    events = table.play("green", "ep_maeves_wealth")
    assert table.hand("orange") == ["ep_eriu"] and "act_sanctuary" in table.hand("green")
    assert table.awaiting() == {"blue": "card_choice"}
    assert "give green 1 of your Action cards" in table.decision("blue").prompt
    assert table.legal("blue") == [
        {"type": "give", "card": "act_bard"},
        {"type": "give", "card": "act_druid"},
    ]
    events += table.do("blue", "give", card="act_druid")
    assert table.awaiting() == {"green": "card_choice"}
    assert "to blue" in table.decision("green").prompt
    events += table.do("green", "give", card="act_sanctuary")  # back to blue
    # Green's last Action card goes to orange without a question.
    assert sorted(table.hand("blue")) == ["act_bard", "act_sanctuary"]
    assert table.hand("orange") == ["ep_eriu", "act_druid"]
    assert table.hand("green") == []
    gifts = [e for e in events if e.type == "CardGiven"]
    assert len(gifts) == 4
    for gift in gifts:
        assert set(gift.visibility) == {gift.payload["from"], gift.payload["to"]}
    # Orange sees neither blue's gift nor green's gift to blue.
    hidden_from(
        [g for g in gifts if "orange" not in g.visibility],
        "orange",
        ["act_druid", "act_sanctuary", "act_bard"],
    )
    assert redact(gifts[1], "orange").payload == {
        "from": "blue",
        "to": "green",
        "cause": "Maeve's Wealth",
        "redacted": True,
    }


def test_maeves_wealth_givers_choose_at_the_same_time():
    """Ruling: each giver's choice depends on their own hand only, so they are asked together."""
    table = table_for(
        {
            "green": ["ep_maeves_wealth", "act_new_clans"],
            "blue": ["act_bard", "act_druid"],
            "orange": ["act_sanctuary", "act_festival"],
        }
    )
    table.play("green", "ep_maeves_wealth")
    assert table.awaiting() == {"blue": "card_choice", "orange": "card_choice"}
    table.do("orange", "give", card="act_festival")
    assert table.awaiting() == {"blue": "card_choice"}
    assert table.legal("orange") == []
    assert (
        table.refuse("orange", "give", card="act_sanctuary")
        == "You have nothing to decide now: the game waits for blue."
    )
    table.do("blue", "give", card="act_bard")
    assert table.awaiting() == {"green": "card_choice"}
    assert {c["card"] for c in table.legal("green")} == {"act_new_clans", "act_festival", "act_bard"}


def test_maeves_wealth_needs_another_player_with_an_action_card():
    """ "Every other player who has at least 1 Action card": none has, nothing happens, so it
    cannot be played."""
    table = table_for({"green": ["ep_maeves_wealth", "act_bard"], "blue": ["ep_eriu"]})
    assert not offered(table, "green", "ep_maeves_wealth")
    assert "Action card" in table.refuse("green", "play", card="ep_maeves_wealth")


# -- Manannan's Horses ---------------------------------------------------------------------------


def test_manannans_horses_moves_anywhere_and_starts_a_clash():
    """Manannan's Horses: "Move up to 3 of your clans from 1 territory to 1 other territory
    anywhere in play; adjacency is not required. A clash starts if opposing clans are there."
    (The Valley does not touch the Cove.)"""
    table = table_for({"green": ["ep_manannans_horses"]})
    options = plays(table, "green", "ep_manannans_horses")
    assert {"from": "valley", "to": "cove", "count": 2} in options
    assert {o["count"] for o in options if o["from"] == "moor"} == {1, 2, 3}
    events = table.play("green", "ep_manannans_horses", **{"from": "valley", "to": "cove", "count": 2})
    started = first(events, "ClashStarted").payload
    assert started == {"territory": "cove", "instigator": "green"}
    assert table.clans("cove") == {"orange": 2, "green": 2}
    assert table.clans("valley") == {"orange": 1}


def test_manannans_horses_moves_at_most_three():
    """ "Up to 3 of your clans": never 4, even with 5 there; to an empty territory, no clash."""
    table = table_for(
        {"green": ["ep_manannans_horses"]},
        island="""
        moor    0,0   green 5
        valley  1,0   blue 1
        plains  0,1
    """,
    )
    assert max(o["count"] for o in plays(table, "green", "ep_manannans_horses")) == 3
    table.refuse("green", "play", card="ep_manannans_horses", **{"from": "moor", "to": "plains", "count": 4})
    events = table.play("green", "ep_manannans_horses", **{"from": "moor", "to": "plains", "count": 3})
    assert "ClashStarted" not in types(events)
    assert table.clans("plains") == {"green": 3}


# -- The Morrigan --------------------------------------------------------------------------------

GATES = """
    moor    0,0   green 3  blue 2
    valley  1,0   green 2  orange 1
    gates   0,1   green 1  blue 2  sanctuaries 1
    cove    -1,1  orange 2
"""


def test_the_morrigan_flips_the_flock_and_opens_the_gates():
    """The Morrigan: "You may flip the Flock of Crows token to its other side." Gates of Tír na
    nÓg: "Whenever the turn direction changes, each player present here loses 1 of their clans
    from this territory and draws 1 Epic Tale card" — Brenn (green) first, then blue."""
    table = table_for({"green": ["ep_the_morrigan"]}, island=GATES, flock="clockwise")
    events = table.play("green", "ep_the_morrigan", flip=True)
    assert first(events, "FlockTossed").payload["side"] == "counterclockwise"
    assert table.state.flock == "counterclockwise"
    opened = [e.payload["seat"] for e in events if e.type == "GatesOpened"]
    assert opened == ["green", "blue"]
    assert table.clans("gates") == {"blue": 1}
    assert len(table.hand("green")) == 1 and len(table.hand("blue")) == 1
    # Turn order now runs the other way: after green comes orange.
    assert table.decision("orange").kind == "season_turn"


def test_the_morrigan_starts_a_clash_with_the_chosen_instigator():
    """The Morrigan: "You may then initiate a clash in any territory, choosing 1 player present
    there to be its instigator." Green chooses blue, in the Moor, without flipping."""
    table = table_for({"green": ["ep_the_morrigan"]})
    options = plays(table, "green", "ep_the_morrigan")
    assert {"flip": True} in options and {"flip": False} not in options
    assert {"flip": False, "territory": "moor", "instigator": "blue"} in options
    assert {"flip": True, "territory": "plains", "instigator": "orange"} in options
    # A clash needs an opposing clan: orange alone in the Cove cannot be its instigator.
    assert not any(o.get("territory") == "cove" for o in options)
    assert (
        declared(
            table,
            "green",
            {"type": "play", "card": "ep_the_morrigan", "territory": "moor", "instigator": "blue"},
        )["flip"]
        is False
    )  # flip may be left out
    events = table.play("green", "ep_the_morrigan", flip=False, territory="moor", instigator="blue")
    assert first(events, "ClashInitiated").payload["seat"] == "blue"
    assert "FlockTossed" not in types(events)
    assert table.clash()["instigator"] == "blue"
    assert table.awaiting() == {"blue": "maneuver"}  # the Moor has no Citadel


def test_the_morrigans_clash_in_the_festival_costs_its_instigator_a_clan():
    """Festival: "any player who initiates a clash in that territory immediately loses 1 of
    their clans there"; The Morrigan: its player initiates a clash and "choose[s] 1 player
    present there to be its instigator". docs/rulings.md, "Festival and The Morrigan": the named
    instigator loses the clan, not the card's player (green, who has clans there too)."""
    island = """
        moor    0,0  green 2  blue 2  orange 2  sanctuaries 1
        valley  1,0  green 1
        plains  0,1  blue 1
    """
    table = Table(
        island,
        seats=("green", "blue", "orange"),
        capital="valley",
        brenn="green",
        festival="moor",
        hands={"green": ["ep_the_morrigan"]},
    )
    events = table.play("green", "ep_the_morrigan", flip=False, territory="moor", instigator="blue")
    lost = first(events, "ClansRemoved").payload
    assert (lost["seat"], lost["territory"], lost["count"]) == ("blue", "moor", 1)
    assert table.clans("moor") == {"green": 2, "blue": 1, "orange": 2}


def test_the_morrigan_must_do_something():
    """Ruling: both halves are optional, but a play that does neither is a pass in disguise —
    the Swamp's privilege."""
    table = table_for({"green": ["ep_the_morrigan"]})
    assert "flip the Flock of Crows" in table.refuse("green", "play", card="ep_the_morrigan", flip=False)
    table.refuse("green", "play", card="ep_the_morrigan", territory="cove", instigator="orange")


def test_the_morrigans_clash_lapses_when_the_gates_leave_no_opponent():
    """Ruling: the clash comes after the flip's Gates effect; green, who chose to instigate a
    clash in the Gates, loses its only clan there first, so no clash starts."""
    table = table_for({"green": ["ep_the_morrigan"]}, island=GATES)
    events = table.play("green", "ep_the_morrigan", flip=True, territory="gates", instigator="green")
    assert "ClashStarted" not in types(events)
    assert first(events, "ClashLapsed").payload["territory"] == "gates"
    assert table.clash() is None


# -- Nuada Silverhand ---------------------------------------------------------------------------


def test_nuada_silverhand_counts_opposing_players_where_you_are_chieftain():
    """Nuada Silverhand: "In each territory where you are chieftain, you may place 1 clan for
    each opposing PLAYER present there. It counts players, not clans." Green is chieftain of the
    Moor (blue 2 and orange 1: two players) and of the Valley (orange: one); not of the Plains."""
    table = table_for(
        {"green": ["ep_nuada_silverhand"]},
        island="""
        moor    0,0   green 4  blue 2  orange 1
        valley  1,0   green 2  orange 1
        plains  0,1   green 1  blue 1
    """,
    )
    options = plays(table, "green", "ep_nuada_silverhand")
    assert {"placements": {"moor": 2, "valley": 1}} in options
    assert {"placements": {"valley": 1}} in options  # "may": fewer is allowed
    assert not any("plains" in o["placements"] for o in options)
    assert max(o["placements"].get("moor", 0) for o in options) == 2
    assert len(options) == 3 * 2 - 1
    assert declared(
        table,
        "green",
        {"type": "play", "card": "ep_nuada_silverhand", "placements": {"moor": 2, "valley": 1, "plains": 0}},
    ) == {"placements": {"moor": 2, "valley": 1}}
    table.play("green", "ep_nuada_silverhand", placements={"moor": 2, "valley": 1})
    assert table.clans("moor")["green"] == 6 and table.clans("valley")["green"] == 3


def test_nuada_silverhand_needs_an_opponent_where_you_are_chieftain():
    """Chieftain only where alone, or present only where tied: nothing to place."""
    table = table_for(
        {"green": ["ep_nuada_silverhand"]},
        island="""
        moor    0,0   green 4
        valley  1,0   green 2  orange 2
    """,
    )
    assert not offered(table, "green", "ep_nuada_silverhand")


# -- The Otherworld ------------------------------------------------------------------------------


def test_the_otherworld_places_or_removes_for_each_sanctuary():
    """The Otherworld: "Choose a territory where you are present. For each Sanctuary in it,
    either place 1 clan there or remove 1 opposing clan there; you may mix the two." """
    table = table_for({"green": ["ep_the_otherworld"]})
    options = plays(table, "green", "ep_the_otherworld")
    assert {"territory": "moor", "place": 2, "remove": {}} in options
    assert {"territory": "moor", "place": 1, "remove": {"blue": 1}} in options
    assert {"territory": "moor", "place": 0, "remove": {"blue": 2}} in options
    assert {"territory": "valley", "place": 0, "remove": {"orange": 1}} in options
    assert len(options) == 3 + 2
    table.play("green", "ep_the_otherworld", territory="moor", remove={"blue": 1}, place=1)
    assert table.clans("moor") == {"green": 4, "blue": 1}


def test_the_otherworld_at_most_three_actions():
    """The Otherworld: "At most 3 such actions in total" (4 Sanctuaries). Ruling: every Sanctuary
    gives its action while one is possible; only the mix is chosen."""
    table = table_for(
        {"green": ["ep_the_otherworld"]},
        island="""
        moor    0,0   green 2  blue 1  sanctuaries 4
        valley  1,0   orange 2
    """,
    )
    options = plays(table, "green", "ep_the_otherworld")
    assert options == [
        {"territory": "moor", "place": 2, "remove": {"blue": 1}},
        {"territory": "moor", "place": 3, "remove": {}},
    ]
    table.refuse("green", "play", card="ep_the_otherworld", territory="moor", place=4)
    table.refuse("green", "play", card="ep_the_otherworld", territory="moor", place=1)


def test_the_otherworld_needs_a_sanctuary_and_something_to_do():
    """No Sanctuary where green is present: not playable. With the reserve empty and no
    opponent there, nothing can be done in that territory either."""
    table = table_for(
        {"green": ["ep_the_otherworld"]},
        island="""
        moor    0,0   green 3
        valley  1,0   blue 2  sanctuaries 2
    """,
    )
    assert not offered(table, "green", "ep_the_otherworld")
    table = table_for(
        {"green": ["ep_the_otherworld"]},
        island="""
        moor    0,0   green 11  sanctuaries 1
        valley  1,0   green 1  blue 1
    """,
    )
    assert not offered(table, "green", "ep_the_otherworld")


# -- The Stone of Fál --------------------------------------------------------------------------


def test_the_stone_of_fal_places_two_clans_in_the_capital():
    """The Stone of Fál: "Place 2 clans in the Capital's territory; no presence needed." """
    table = table_for({"green": ["ep_stone_of_fal"]}, capital="cove")
    assert plays(table, "green", "ep_stone_of_fal") == [{}]
    table.play("green", "ep_stone_of_fal")
    assert table.clans("cove") == {"orange": 2, "green": 2}


def test_the_stone_of_fal_with_a_short_reserve():
    """One clan in reserve: that one is placed (as New Clans); none: not playable."""
    table = table_for(
        {"green": ["ep_stone_of_fal"]},
        capital="valley",
        island="""
        moor    0,0   green 11
        valley  1,0   blue 2
    """,
    )
    table.play("green", "ep_stone_of_fal")
    assert table.clans("valley") == {"blue": 2, "green": 1}
    table = table_for(
        {"green": ["ep_stone_of_fal"]},
        capital="valley",
        island="""
        moor    0,0   green 12
        valley  1,0   blue 2
    """,
    )
    assert not offered(table, "green", "ep_stone_of_fal")


# -- Tailtu's Land -------------------------------------------------------------------------------


def test_tailtus_land_draws_three_places_one_and_moves_a_clan():
    """Tailtu's Land: "Draw 3 territory tiles. Place 1 of them, your choice, on an empty location
    adjacent to at least 2 territories; its Advantage card goes face up in the display, and Gates
    or Stone Circle arrive with a Sanctuary. Put the other 2 face down at the bottom of the
    stack. Then you may move 1 of your clans from an adjacent territory onto the new
    territory." The tiles drawn are seen by green only."""
    table = table_for(
        {"green": ["ep_tailtus_land"]}, tile_stack=["forest", "gates", "hills", "swamp", "meadows"]
    )
    assert plays(table, "green", "ep_tailtus_land") == [{}]
    events = table.play("green", "ep_tailtus_land")
    drawn = first(events, "TerritoryTilesDrawn")
    assert drawn.payload["tiles"] == ["forest", "gates", "hills"] and drawn.visibility == ("green",)
    assert redact(drawn, "blue").payload == {
        "seat": "green",
        "card": "ep_tailtus_land",
        "count": 3,
        "redacted": True,
    }
    decision = table.decision("green")
    assert decision.kind == "card_choice" and "forest" not in json.dumps(decision.context)
    legal = table.legal("green")
    assert {c["territory"] for c in legal} == {"forest", "gates", "hills"}
    assert {"type": "place_territory", "territory": "gates", "cell": "1,-1"} in legal
    # 1,-1 touches the Moor and the Valley.
    events += table.do("green", "place_territory", territory="gates", cell="1,-1")
    assert table.state.territories["gates"]["sanctuaries"] == 1
    assert "adv_gates" in table.state.advantage_display
    assert table.state.tile_stack == ["swamp", "meadows", "forest", "hills"]
    returned = first(events, "TerritoryTilesReturned")
    hidden_from([drawn, returned], "orange", ["forest", "hills"])
    assert table.legal("green") == [
        {"type": "tailtu_move", "skip": True},
        {"type": "tailtu_move", "from": "moor"},
        {"type": "tailtu_move", "from": "valley"},
    ]
    table.do("green", "tailtu_move", **{"from": "valley"})
    assert table.clans("gates") == {"green": 1} and table.clans("valley")["green"] == 1
    assert table.decision("blue").kind == "season_turn"


def test_tailtus_land_with_fewer_tiles_and_no_clan_to_move():
    """Ruling U2: "Tailtu's Land draws as many tiles as remain". The move is optional, and not
    asked when no clan of yours is next to the new territory."""
    table = table_for({"green": ["ep_tailtus_land"]}, tile_stack=["forest"])
    table.play("green", "ep_tailtus_land")
    assert [c["territory"] for c in table.legal("green")] == ["forest"] * len(table.legal("green"))
    table.do("green", "place_territory", territory="forest", cell="-1,2")  # the Plains and Cove
    assert table.state.tile_stack == []
    assert table.decision("blue").kind == "season_turn"


def test_tailtus_land_needs_a_tile():
    """Ruling U2/U3: with an empty territory stack it cannot be played."""
    table = table_for({"green": ["ep_tailtus_land"]}, tile_stack=[])
    assert not offered(table, "green", "ep_tailtus_land")
    assert "stack" in table.refuse("green", "play", card="ep_tailtus_land")


# -- Tuan's Memory -------------------------------------------------------------------------------


def test_tuans_memory_draws_three_keeps_one():
    """Tuan's Memory: "Draw 3 Epic Tale cards, keep 1, discard the other 2." The drawn cards are
    seen by green only until the 2 discarded go face up."""
    table = table_for(
        {"green": ["ep_tuans_memory"]},
        epic_deck=["ep_eriu", "ep_the_dagda", "ep_lugs_spear", "ep_balors_eye"],
    )
    events = table.play("green", "ep_tuans_memory")
    assert table.decision("green").kind == "keep_epic"
    assert {tuple(c["cards"]) for c in table.legal("green")} == {
        ("ep_eriu",),
        ("ep_the_dagda",),
        ("ep_lugs_spear",),
    }
    hidden_from(events, "blue", ["ep_eriu", "ep_the_dagda", "ep_lugs_spear"])
    events += table.do("green", "keep", cards=["ep_the_dagda"])
    assert epics(table, "green") == ["ep_the_dagda"]
    assert sorted(table.state.epic_discard) == ["ep_eriu", "ep_lugs_spear", "ep_tuans_memory"]
    assert table.state.epic_deck == ["ep_balors_eye"]


def test_tuans_memory_with_a_short_deck():
    """Ruling U1: an empty deck is re-formed from the discard pile; when both run out the effect
    goes as far as it can (here 1 card: kept without asking)."""
    table = table_for({"green": ["ep_tuans_memory"]}, epic_deck=["ep_eriu"], epic_discard=[])
    table.play("green", "ep_tuans_memory")
    assert table.hand("green") == ["ep_eriu"]
    assert table.decision("blue").kind == "season_turn"


def test_tuans_memory_needs_a_card_to_draw():
    """Deck and discard pile both empty: nothing can be drawn, so it cannot be played."""
    table = table_for({"green": ["ep_tuans_memory"]}, epic_deck=[], epic_discard=[])
    assert not offered(table, "green", "ep_tuans_memory")
    assert "empty" in table.refuse("green", "play", card="ep_tuans_memory")
