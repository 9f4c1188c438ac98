"""The three Season Advantage cards: Misty Lands, Plains and Swamp.

Card texts: docs/cards.md; rulings: docs/rulings.md. A played Advantage card lies
face down near the play area; playing one is playing a Season card.
"""

from games.rules import redact

from .positions import Table, first, types
from .season_cards import declared, hidden_from, offered, plays

THREE = ("green", "blue", "orange")

# plains (0,0) touches moor (1,0), valley (0,1) and misty_lands (1,-1); swamp (-1,1) touches
# the Plains and the Valley.
ISLAND = """
    plains       0,0   green 3  blue 1
    moor         1,0   blue 2
    valley       0,1   green 1  orange 2
    misty_lands  1,-1  orange 1
    swamp        -1,1  green 1
"""


def table_for(hands, island=ISLAND, **position):
    position.setdefault("capital", "moor")
    position.setdefault("seats", THREE)
    return Table(island, decline=True, hands=hands, **position)


# -- Misty Lands -------------------------------------------------------------------------------


def test_misty_lands_discards_action_cards_and_keeps_one_epic_tale():
    """Misty Lands: "Discard 1 or more Action cards from your hand, draw that many Epic Tale
    cards, keep 1 and discard the rest." The Action cards go face down: only green sees which;
    the drawn Epic Tales are seen by green until the others go face up."""
    table = table_for(
        {"green": ["adv_misty_lands", "act_bard", "act_druid", "act_geis"]},
        epic_deck=["ep_eriu", "ep_the_dagda", "ep_lugs_spear"],
    )
    options = plays(table, "green", "adv_misty_lands")
    assert len(options) == 7  # every non-empty set of the 3 Action cards
    assert (
        declared(
            table, "green", {"type": "play", "card": "adv_misty_lands", "discard": ["act_geis", "act_bard"]}
        )
        == {}
    )
    events = table.play("green", "adv_misty_lands", discard=["act_bard", "act_geis"])
    assert first(events, "CardPlayed").payload["args"] == {}
    discards = [e for e in events if e.type == "CardDiscarded" and e.payload["from_hand"]]
    assert [e.payload["card"] for e in discards] == ["act_bard", "act_geis"]
    assert all(e.visibility == ("green",) for e in discards)
    assert table.decision("green").kind == "keep_epic"
    assert {tuple(c["cards"]) for c in table.legal("green")} == {("ep_eriu",), ("ep_the_dagda",)}
    hidden_from(events, "blue", ["act_bard", "act_geis", "ep_eriu", "ep_the_dagda"])
    assert [redact(e, "blue").payload["type"] for e in discards] == ["action", "action"]
    table.do("green", "keep", cards=["ep_eriu"])
    assert sorted(table.hand("green")) == ["act_druid", "ep_eriu"]
    assert "ep_the_dagda" in table.state.epic_discard
    assert "adv_misty_lands" in table.state.advantage_played
    assert table.decision("blue").kind == "season_turn"


def test_misty_lands_with_one_card_keeps_it():
    """One Action card discarded, one Epic Tale drawn: nothing to choose."""
    table = table_for({"green": ["adv_misty_lands", "act_bard"]}, epic_deck=["ep_eriu"])
    assert plays(table, "green", "adv_misty_lands") == [{"discard": ["act_bard"]}]
    table.play("green", "adv_misty_lands", discard=["act_bard"])
    assert table.hand("green") == ["ep_eriu"]
    assert table.decision("blue").kind == "season_turn"


def test_misty_lands_needs_an_action_card_and_an_epic_tale():
    """ "Discard 1 or more Action cards": not without one; and not when no Epic Tale can be drawn
    (deck and discard pile empty, ruling U1)."""
    table = table_for({"green": ["adv_misty_lands", "ep_eriu"]})
    assert not offered(table, "green", "adv_misty_lands")
    assert "Action card" in table.refuse("green", "play", card="adv_misty_lands", discard=["ep_eriu"])
    table = table_for({"green": ["adv_misty_lands", "act_bard"]}, epic_deck=[], epic_discard=[])
    assert not offered(table, "green", "adv_misty_lands")


def test_misty_lands_discards_only_action_cards_from_your_hand():
    """Only Action cards, and only your own."""
    table = table_for({"green": ["adv_misty_lands", "act_bard", "ep_eriu"], "blue": ["act_druid"]})
    table.refuse("green", "play", card="adv_misty_lands", discard=["ep_eriu"])
    table.refuse("green", "play", card="adv_misty_lands", discard=["act_druid"])
    table.refuse("green", "play", card="adv_misty_lands", discard=[])


# -- Plains --------------------------------------------------------------------------------------


def test_plains_moves_clans_out_and_starts_clashes_in_your_order():
    """Plains: "Move 1 or more of your clans from the Plains to 1 or more territories adjacent to
    it. This can start clashes." Two destinations with opponents: green picks the order."""
    table = table_for({"green": ["adv_plains"]})
    options = plays(table, "green", "adv_plains")
    assert all(o["from"] == "plains" for o in options)  # ruling U12: from the Plains
    assert {"from": "plains", "moves": {"moor": 1, "valley": 1, "swamp": 1}} in options
    assert max(sum(o["moves"].values()) for o in options) == 3
    assert (
        declared(table, "green", {"type": "play", "card": "adv_plains", "moves": {"moor": 2, "valley": 1}})[
            "from"
        ]
        == "plains"
    )
    events = table.play("green", "adv_plains", **{"from": "plains", "moves": {"moor": 2, "valley": 1}})
    assert first(events, "ClansMoved").payload["moves"] == [["plains", "moor", 2], ["plains", "valley", 1]]
    assert table.clans("plains") == {"blue": 1}
    assert table.awaiting() == {"green": "clash_order"}
    table.do("green", "clash_order", territory="valley")
    assert table.clash()["territory"] == "valley" and table.clash()["instigator"] == "green"


def test_plains_to_an_empty_territory_starts_no_clash():
    """Clashes start only where opposing clans are."""
    island = ISLAND.replace("misty_lands  1,-1  orange 1", "misty_lands  1,-1")
    table = table_for({"green": ["adv_plains"]}, island=island)
    events = table.play("green", "adv_plains", **{"from": "plains", "moves": {"misty_lands": 3}})
    assert "ClashStarted" not in types(events)
    assert table.clans("misty_lands") == {"green": 3}
    assert "adv_plains" in table.state.advantage_played


def test_plains_needs_your_clans_in_the_plains():
    """Green's clans elsewhere do not count; without clans in the Plains it cannot be played,
    nor can clans from another territory be moved with it."""
    table = table_for(
        {"green": ["adv_plains"]},
        island="""
        plains  0,0   blue 1
        moor    1,0   green 2
        valley  0,1   green 1
    """,
    )
    assert not offered(table, "green", "adv_plains")
    assert "Plains" in table.refuse(
        "green", "play", card="adv_plains", **{"from": "moor", "moves": {"plains": 1}}
    )


# -- Swamp ---------------------------------------------------------------------------------------


def test_swamp_has_no_effect_but_keeps_the_season_going():
    """Swamp: "No effect. It can be played instead of passing." It counts as playing a Season
    card: the run of passes starts again, so the Season does not end."""
    table = table_for({"green": ["adv_swamp"]}, passes=2, turn="green")
    assert plays(table, "green", "adv_swamp") == [{}]
    before = {t: table.clans(t) for t in table.state.territories}
    events = table.play("green", "adv_swamp")
    assert "SeasonEnded" not in types(events)
    assert {t: table.clans(t) for t in table.state.territories} == before
    assert "adv_swamp" in table.state.advantage_played and "adv_swamp" not in table.hand("green")
    table.do("blue", "pass")
    table.do("orange", "pass")
    assert table.state.phase == "season"  # two passes after the Swamp, not three


def test_swamp_opens_the_season_and_triggers_after_season_card_triskels():
    """ "The Brenn must start the Season by playing a Season card" — the Swamp is one. And it
    triggers the "after you play a Season card" Triskels, such as the Valley."""
    table = Table(
        ISLAND,
        seats=THREE,
        capital="moor",
        decline=False,
        opened=False,
        hands={"green": ["adv_swamp", "adv_valley"]},
    )
    assert table.legal("green") == [{"type": "play", "card": "adv_swamp"}]
    table.play("green", "adv_swamp")
    while table.decision("green").context.get("trigger") != "after_season_card":
        for seat in [d.seat for d in table.pending() if d.kind == "reaction"]:
            table.do(seat, "decline")
    assert {"type": "react", "card": "adv_valley", "territory": "plains"} in table.legal("green")
    table.do("green", "react", card="adv_valley", territory="plains")
    table.decline_reactions()
    assert table.clans("plains")["green"] == 4


def test_swamp_is_playable_whatever_the_position():
    """Always playable: no target, no reserve needed (green has all 12 clans on the island)."""
    table = table_for(
        {"green": ["adv_swamp"]},
        capital="plains",
        island="""
        plains  0,0   green 12
        swamp   1,0   blue 1
    """,
    )
    assert table.state.reserve["green"] == 0
    assert plays(table, "green", "adv_swamp") == [{}]
    assert {"type": "pass"} in table.legal("green")


def test_a_drawn_epic_tale_played_before_the_choice_counts_as_kept():
    """Misty Lands: "draw that many Epic Tale cards, keep 1 and discard the rest." Green draws
    Eriu and The Dagda, and before choosing plays The Moor ("Triskel, at any time"); The Dagda
    ("When any player plays ... an Advantage card", green included) answers it from the drawn
    cards. The Dagda was one of the drawn cards and it left green's hand by being played: it is
    the one kept (docs/rulings.md), so Eriu is discarded without a question. (Found by the
    random-game property test: the keep used to discard a card no longer in the hand.)"""
    table = table_for(
        {"green": ["adv_misty_lands", "adv_moor", "act_bard", "act_geis"], "blue": ["ep_lugs_spear"]},
        epic_deck=["ep_eriu", "ep_the_dagda", "ep_balors_eye"],
    )
    table.auto_decline = False
    table.play("green", "adv_misty_lands", discard=["act_bard", "act_geis"])
    table.decline_reactions()
    assert table.decision("green").kind == "keep_epic"
    table.do("green", "moor", opponent="blue")
    assert table.decision("green").kind == "reaction"
    table.do("green", "react", card="ep_the_dagda")
    table.decline_reactions()
    assert "ep_the_dagda" not in table.hand("green") and "ep_eriu" not in table.hand("green")
    assert "ep_eriu" in table.state.epic_discard
    assert all(d.kind != "keep_epic" for d in table.pending())
