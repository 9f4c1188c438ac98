"""The 17 Action cards, Season halves: each card's effect and its limits.

Card texts: docs/cards.md. Limits: "If a player has
all 12 of his figures on the board, he cannot recruit more clans"; "If a player attempts to place
a new building [...] but there are no more buildings of this type in the reserve, he cannot place
this type of building" (rulebook, Components); and the ruling that a card is played for the part
of its effect that can be carried out, and only for no effect when none can (docs/rulings.md,
Cards that cannot do anything).
The Triskel halves (Bard, Warlord, Master Craftsman) and Geis and Raid are in test_reactions.py.
"""

import pytest

from games.rules import InvalidCommand, redact, start_game

from .positions import Table, first, types

FOUR_PLAYER_ONLY = ["act_emissaries", "act_master_craftsman", "act_raid", "act_scouts_spies"]


def playable(table, seat, card) -> list:
    """The legal `play` commands of `card` for `seat`, without type and card."""
    return [
        {k: v for k, v in c.items() if k not in ("type", "card")}
        for c in table.legal(seat)
        if c["type"] == "play" and c["card"] == card
    ]


def assert_unplayable(table, seat, card, needs, args=None):
    """Nothing of `card`'s effect can be carried out: it is listed only as a play for no effect
    (docs/rulings.md, "Cards that cannot do anything"), and playing it for an effect is refused,
    writing nothing, with a message saying what the card needs."""
    assert playable(table, seat, card) == [{"no_effect": True}]
    message = table.refuse(seat, {"type": "play", "card": card, **(args or {})})
    assert "cannot be played now: it needs" in message and needs in message, message
    return message


# -- Bard ------------------------------------------------------------------------------------


def test_bard_draws_an_epic_tale():
    """Bard, Season: "Draw 1 Epic Tale card." """
    table = Table(
        """
        moor    0,0  green 1
        plains  1,0  blue 1
    """,
        hands={"green": ["act_bard"]},
        epic_deck=["ep_eriu", "ep_tuans_memory"],
    )
    events = table.play("green", "act_bard")
    drawn = first(events, "EpicTaleDrawn")
    assert drawn.payload == {"seat": "green", "card": "ep_eriu"} and drawn.visibility == ("green",)
    assert table.hand("green") == ["ep_eriu"]
    assert table.state.epic_deck == ["ep_tuans_memory"]
    assert table.state.action_discard == ["act_bard"]


def test_bard_reshuffles_the_epic_discard_pile_when_the_deck_is_empty():
    """Bard: "Draw 1 Epic Tale card" — with an empty deck, ruling U1: the deck is re-formed from
    the face-up discard pile."""
    table = Table(
        """
        moor    0,0  green 1
        plains  1,0  blue 1
    """,
        hands={"green": ["act_bard"]},
        epic_deck=[],
        epic_discard=["ep_eriu"],
    )
    events = table.play("green", "act_bard")
    assert types(events).index("EpicDeckShuffled") < types(events).index("EpicTaleDrawn")
    assert "ep_eriu" in table.hand("green") and table.state.epic_discard == []


def test_bard_needs_an_epic_tale_to_draw():
    """Bard: "Draw 1 Epic Tale card" — with no Epic Tale in the deck or the discard pile, Bard
    can do nothing (ruling U1), so it cannot be played."""
    table = Table(
        """
        moor    0,0  green 1
        plains  1,0  blue 1
    """,
        hands={"green": ["act_bard", "act_new_clans"]},
        epic_deck=[],
    )
    assert_unplayable(table, "green", "act_bard", "an Epic Tale card to draw")


# -- Citadel ---------------------------------------------------------------------------------

CITADEL_ISLAND = """
    moor    0,0  green 1  blue 3
    plains  1,0  green 2
    swamp   0,1  green 1
    valley  1,-1 blue 1
"""


def test_citadel_places_a_citadel_and_takes_the_advantage_card():
    """Citadel: "Place 1 Citadel in a territory where you are present (not the Swamp). If that
    territory's Advantage card has not been played this round, take it into your hand." Ruling
    U6: even from another player's hand."""
    table = Table(CITADEL_ISLAND, capital="plains", hands={"green": ["act_citadel"], "blue": ["adv_moor"]})
    assert playable(table, "green", "act_citadel") == [{"territory": "moor"}, {"territory": "plains"}]
    events = table.play("green", "act_citadel", territory="moor")
    assert first(events, "BuildingPlaced").payload == {"territory": "moor", "building": "citadel"}
    assert table.state.territories["moor"]["citadels"] == 1
    assert table.state.supply["citadels"] == 7
    assert first(events, "AdvantageCardTaken").payload["seat"] == "green"
    assert "adv_moor" in table.hand("green") and "adv_moor" not in table.hand("blue")


def test_citadel_does_not_take_a_played_advantage_card():
    """ "...if that territory's Advantage card has not been played this round": once played it
    lies face down and stays there."""
    table = Table(
        CITADEL_ISLAND, capital="plains", hands={"green": ["act_citadel"]}, advantage={"adv_plains": "played"}
    )
    events = table.play("green", "act_citadel", territory="plains")
    assert "AdvantageCardTaken" not in types(events)
    assert table.state.advantage_played == ["adv_plains"]


def test_citadel_limits():
    """Not in the Swamp ("No Citadel can be placed here"), only where present, and only while a
    Citadel is left in the supply (8 with the first print)."""
    table = Table(CITADEL_ISLAND, capital="plains", hands={"green": ["act_citadel", "act_bard"]})
    assert "Allowed" in table.refuse("green", "play", card="act_citadel", territory="swamp")
    assert "Allowed" in table.refuse("green", "play", card="act_citadel", territory="valley")
    full = Table(
        CITADEL_ISLAND.replace("valley  1,-1 blue 1", "valley  1,-1 blue 1 citadels 8"),
        capital="plains",
        hands={"green": ["act_citadel", "act_bard"], "blue": ["adv_moor"]},
        advantage={"adv_plains": "played"},
    )
    assert full.state.supply["citadels"] == 0
    # With no Citadel left, only where an Advantage card can be taken: the Moor's, from blue's
    # hand (ruling U6), not the Plains' (played this round); none once green holds the Moor's.
    assert playable(full, "green", "act_citadel") == [{"territory": "moor"}]
    gone = Table(
        CITADEL_ISLAND.replace("valley  1,-1 blue 1", "valley  1,-1 blue 1 citadels 8"),
        capital="plains",
        hands={"green": ["act_citadel", "act_bard", "adv_moor"]},
        advantage={"adv_plains": "played"},
    )
    assert_unplayable(gone, "green", "act_citadel", "a Citadel left in the supply", {"territory": "moor"})


def test_citadel_with_the_supply_empty_still_takes_the_advantage_card():
    """Citadel: "Place 1 Citadel in a territory where you are present [...] and take that
    territory's Advantage card if it has not been played this round." With no Citadel left the
    Advantage clause can still happen (ruling "Cards that cannot do anything": carried out at
    least in part), so the card is played for it."""
    table = Table(
        CITADEL_ISLAND.replace("valley  1,-1 blue 1", "valley  1,-1 blue 1 citadels 8"),
        capital="plains",
        hands={"green": ["act_citadel", "act_bard"]},
    )
    events = table.play("green", "act_citadel", territory="moor")
    assert "BuildingPlaced" not in types(events)
    assert first(events, "AdvantageCardTaken").payload["card"] == "adv_moor"
    assert table.state.territories["moor"]["citadels"] == 0


# -- Conquest --------------------------------------------------------------------------------

CONQUEST_ISLAND = """
    hills   0,0  blue 2
    valley  1,0  green 2
    plains -1,0  green 1
    moor    1,-1 green 1  orange 1
    forest  2,0  green 3
"""


def test_conquest_moves_clans_from_adjacent_territories_and_starts_a_clash():
    """Conquest: "Choose a territory. Move any number of your clans into it from territories
    adjacent to it. Opposing clans there start a clash; you are the instigator." """
    table = Table(
        CONQUEST_ISLAND,
        seats=("green", "blue", "orange"),
        capital="forest",
        hands={"green": ["act_conquest"]},
    )
    events = table.play("green", "act_conquest", territory="hills", moves={"valley": 2, "plains": 1})
    assert first(events, "ClansMoved").payload["moves"] == [["valley", "hills", 2], ["plains", "hills", 1]]
    assert first(events, "ClashStarted").payload == {"territory": "hills", "instigator": "green"}
    assert table.clans("hills") == {"blue": 2, "green": 3}


def test_conquest_of_an_empty_territory_starts_no_clash():
    """Conquest: "Opposing clans there start a clash" — and none, none."""
    table = Table(
        CONQUEST_ISLAND,
        seats=("green", "blue", "orange"),
        capital="forest",
        hands={"green": ["act_conquest"]},
    )
    events = table.play("green", "act_conquest", territory="valley", moves={"forest": 3})
    assert "ClashStarted" not in types(events)
    assert table.clans("valley") == {"green": 5}


def test_conquest_limits():
    """Conquest: "Move any number of your clans into it from territories adjacent to it" — only
    from adjacent territories, and only clans one has there."""
    table = Table(
        CONQUEST_ISLAND,
        seats=("green", "blue", "orange"),
        capital="forest",
        hands={"green": ["act_conquest"]},
    )
    message = table.refuse("green", "play", card="act_conquest", territory="hills", moves={"forest": 1})
    assert "adjacent to the Hills" in message and "Valley" in message
    assert "You have 2 clans in the Valley." in table.refuse(
        "green", "play", card="act_conquest", territory="hills", moves={"valley": 3}
    )
    table.refuse("green", "play", card="act_conquest", territory="cove", moves={"valley": 1})


# -- Craftsmen & Peasants --------------------------------------------------------------------

CRAFTSMEN_ISLAND = """
    moor    0,0  green 1  citadels 2
    plains  1,0  green 1  blue 1
    valley  0,1  green 1
    hills   1,-1 blue 1  citadels 1
"""


def test_craftsmen_and_peasants_place_one_clan_per_citadel():
    """Craftsmen & Peasants: "In each territory where you are present, you may place 1 clan for
    each Citadel there (the Capital counts as a Citadel)." """
    table = Table(CRAFTSMEN_ISLAND, capital="plains", hands={"green": ["act_craftsmen_peasants"]})
    options = playable(table, "green", "act_craftsmen_peasants")
    assert {"placements": {"moor": 2, "plains": 1}} in options
    assert {"placements": {"moor": 1}} in options
    assert all(set(o["placements"]) <= {"moor", "plains"} for o in options)
    events = table.play("green", "act_craftsmen_peasants", placements={"moor": 2, "plains": 1})
    assert first(events, "ClansPlaced").payload["placements"] == {"moor": 2, "plains": 1}
    assert table.clans("moor") == {"green": 3} and table.clans("plains") == {"green": 2, "blue": 1}


def test_craftsmen_and_peasants_limits():
    """ "...you may place 1 clan for each Citadel there": no more than 1 clan per Citadel; not
    where absent (the Hills); no Citadel, no clan (the Valley); and never more clans than the
    reserve holds ("he cannot recruit more clans")."""
    table = Table(CRAFTSMEN_ISLAND, capital="plains", hands={"green": ["act_craftsmen_peasants", "act_bard"]})
    for placements in ({"moor": 3}, {"hills": 1}, {"valley": 1}):
        assert "Allowed" in table.refuse(
            "green", "play", card="act_craftsmen_peasants", placements=placements
        )
    short = Table(
        CRAFTSMEN_ISLAND + "    cove -1,1 green 7",
        capital="plains",
        hands={"green": ["act_craftsmen_peasants"]},
    )
    assert short.state.reserve["green"] == 2
    assert max(sum(o["placements"].values()) for o in playable(short, "green", "act_craftsmen_peasants")) == 2
    short.refuse("green", "play", card="act_craftsmen_peasants", placements={"moor": 2, "plains": 1})
    bare = Table(CRAFTSMEN_ISLAND, capital="hills", hands={"green": ["act_craftsmen_peasants", "act_bard"]})
    bare_moor = Table(
        CRAFTSMEN_ISLAND.replace("green 1  citadels 2", "green 1"),
        capital="hills",
        hands={"green": ["act_craftsmen_peasants", "act_bard"]},
    )
    assert playable(bare, "green", "act_craftsmen_peasants")  # the Moor still has Citadels
    assert_unplayable(
        bare_moor, "green", "act_craftsmen_peasants", "with a Citadel", {"placements": {"moor": 1}}
    )


# -- Druid -----------------------------------------------------------------------------------


def test_druid_takes_a_card_from_the_action_discard_pile():
    """Druid: "Look through the Action discard pile and take 1 card into your hand." """
    table = Table(
        """
        moor    0,0  green 1
        plains  1,0  blue 1
    """,
        hands={"green": ["act_druid", "act_bard"]},
        action_discard=["act_migration", "act_festival"],
    )
    table.play("green", "act_druid")
    assert table.decision("green").kind == "card_choice"
    assert table.legal("green") == [
        {"type": "choose", "card": "act_festival"},
        {"type": "choose", "card": "act_migration"},
    ]
    assert "Festival, Migration" in table.refuse("green", "choose", card="act_geis")
    events = table.do("green", "choose", card="act_migration")
    taken = first(events, "CardTakenFromDiscard")
    assert taken.visibility == ("green",)
    assert sorted(table.hand("green")) == ["act_bard", "act_migration"]
    assert table.state.action_discard == ["act_festival", "act_druid"]


def test_druid_cannot_be_played_as_the_only_action_card_not_even_for_no_effect():
    """Druid: "Cannot be played if it is your only Action card" (docs/cards.md); an Epic Tale
    does not count. The card wins over the ruling that a card is played for no effect when
    nothing of it can be done (docs/rulings.md, "Cards that cannot do anything"): with the Druid
    as the only Action card in hand it is not offered at all, and a play of it, for its effect
    or for no effect, is refused saying why, writing nothing."""
    alone = Table(
        """
        moor    0,0  green 1
        plains  1,0  blue 1
    """,
        hands={"green": ["act_druid", "ep_eriu"]},
        action_discard=["act_migration"],
    )
    assert playable(alone, "green", "act_druid") == []
    for command in (
        {"type": "play", "card": "act_druid"},
        {"type": "play", "card": "act_druid", "no_effect": True},
    ):
        message = alone.refuse("green", command)
        assert "cannot be played now" in message and "only Action card in your hand" in message, message
        assert "no effect" not in message


def test_druid_with_an_empty_discard_pile_is_played_for_no_effect():
    """With another Action card in hand the Druid may be played; with nothing in the Action
    discard pile nothing of it can be done, so it is played for no effect (ruling)."""
    empty = Table(
        """
        moor    0,0  green 1
        plains  1,0  blue 1
    """,
        hands={"green": ["act_druid", "act_bard"]},
    )
    assert_unplayable(empty, "green", "act_druid", "a card in the Action discard pile")


def test_a_brenn_holding_only_the_druid_passes():
    """The Brenn opens the Season with a Season card; one holding none it may play passes
    (docs/rulings.md, "The Brenn with no Season card"). The Druid as the Brenn's only card
    cannot be played ("Cannot be played if it is your only Action card"): the Brenn's only
    command is to pass."""
    table = Table(
        """
        moor    0,0  green 1
        plains  1,0  blue 1
    """,
        brenn="green",
        turn="green",
        opened=False,
        hands={"green": ["act_druid"]},
        action_discard=["act_migration"],
    )
    assert table.legal("green") == [{"type": "pass"}]
    table.do("green", "pass")
    assert table.hand("green") == ["act_druid"]


# -- Emissaries (4 players) ------------------------------------------------------------------


def test_emissaries_move_one_clan_without_a_clash():
    """Emissaries: "Move 1 of your clans to an adjacent territory. This move does not start a
    clash." (even into opposing clans)"""
    table = Table(
        """
        moor    0,0  green 2
        plains  1,0  blue 3
        forest  3,0  white 1
        valley  2,0  orange 1
    """,
        hands={"green": ["act_emissaries"]},
    )
    assert playable(table, "green", "act_emissaries") == [{"from": "moor", "to": "plains"}]
    events = table.play("green", "act_emissaries", **{"from": "moor", "to": "plains"})
    assert "ClashStarted" not in types(events)
    assert table.clans("plains") == {"blue": 3, "green": 1}
    assert table.decision("blue").kind == "season_turn"
    assert "Allowed" in Table(
        """
        moor    0,0  green 2
        plains  1,0  blue 3
        forest  3,0  white 1
        valley  2,0  orange 1
    """,
        hands={"green": ["act_emissaries"]},
    ).refuse("green", "play", card="act_emissaries", **{"from": "moor", "to": "valley"})


@pytest.mark.parametrize("card", FOUR_PLAYER_ONLY)
def test_four_player_cards_do_not_exist_below_four_players(card):
    """Setup: the Action cards with a 4 in the corner "are used only in a 4-player game"."""
    position = {
        "territories": {"moor": {"cell": [0, 0], "clans": {"green": 1}}, "plains": {"cell": [1, 0]}},
        "capital": "moor",
        "hands": {"green": [card]},
    }
    with pytest.raises(InvalidCommand) as info:
        start_game(["green", "blue", "orange"], seed="x", setup=position)
    assert "only with 4 players" in str(info.value)


# -- Exploration -----------------------------------------------------------------------------

EXPLORATION_ISLAND = """
    moor    0,0  green 1
    plains  1,0  blue 1
"""


def test_exploration_the_brenn_places_the_new_territory():
    """Exploration: "The Brenn places the top territory tile on an empty place touching at least
    2 territories; its Advantage card goes face up. Then place 1 clan on the new territory."
    Gates of Tír na nÓg "Enters play with 1 Sanctuary." """
    table = Table(
        EXPLORATION_ISLAND,
        brenn="blue",
        turn="green",
        hands={"green": ["act_exploration"]},
        tile_stack=["gates", "cove"],
    )
    table.play("green", "act_exploration")
    decision = table.decision("blue")
    assert decision.kind == "territory_cell"
    assert decision.context["cells"] == ["0,1", "1,-1"]
    assert "green" not in table.awaiting()
    assert (
        "south-east of the Moor, also touching the Plains (place 0,1); "
        "north-east of the Moor, also touching the Plains (place 1,-1)"
    ) in table.refuse("blue", "territory_cell", cell="2,0")
    events = table.do("blue", "territory_cell", cell="1,-1")
    assert first(events, "TerritoryPlaced").payload == {
        "territory": "gates",
        "cell": [1, -1],
        "cause": "Exploration",
    }
    assert table.state.territories["gates"]["sanctuaries"] == 1
    assert "adv_gates" in table.state.advantage_display
    assert table.clans("gates") == {"green": 1}
    assert table.state.tile_stack == ["cove"]


def test_exploration_with_an_empty_reserve_still_places_the_territory():
    """ "Then place 1 clan" — with all 12 on the island there is none to place; the new
    territory is still explored (ruling, Cards that cannot do anything: it does something)."""
    table = Table(
        EXPLORATION_ISLAND.replace("green 1", "green 12"),
        brenn="green",
        hands={"green": ["act_exploration"]},
        tile_stack=["cove"],
    )
    table.play("green", "act_exploration")
    table.do("green", "territory_cell", cell="0,1")
    assert table.clans("cove") == {}


def test_exploration_limits():
    """Exploration: "places the top territory tile on an empty place touching at least 2
    territories" — rulings U2/U3: not playable with an empty tile stack, nor with no such
    place."""
    empty = Table(EXPLORATION_ISLAND, hands={"green": ["act_exploration", "act_bard"]}, tile_stack=[])
    assert_unplayable(empty, "green", "act_exploration", "a territory tile left in the stack")
    alone = Table("moor 0,0 green 1", hands={"green": ["act_exploration", "act_bard"]})
    assert_unplayable(alone, "green", "act_exploration", "an empty place touching 2")


# -- Festival --------------------------------------------------------------------------------


def test_festival_places_a_clan_and_the_marker():
    """Festival: "In a territory where you are present with at least 1 Sanctuary, place 1 clan
    and the Festival marker." """
    table = Table(
        """
        moor    0,0  green 1  blue 1  sanctuaries 1
        plains  1,0  green 2
        valley  0,1  blue 1  sanctuaries 1
    """,
        hands={"green": ["act_festival"]},
    )
    assert playable(table, "green", "act_festival") == [{"territory": "moor"}]
    events = table.play("green", "act_festival", territory="moor")
    assert first(events, "FestivalPlaced").payload == {"territory": "moor"}
    assert table.state.festival == "moor" and table.clans("moor") == {"green": 2, "blue": 1}
    assert "Allowed" in Table(
        """
        moor    0,0  green 1  blue 1  sanctuaries 1
        plains  1,0  green 2
        valley  0,1  blue 1  sanctuaries 1
    """,
        hands={"green": ["act_festival"]},
    ).refuse("green", "play", card="act_festival", territory="valley")


def test_festival_limits():
    """Festival: "In a territory where you are present with at least 1 Sanctuary" — none, no
    Festival. With an empty reserve the marker is still placed (ruling, Festival with an empty
    reserve)."""
    none = Table(
        """
        moor    0,0  green 1
        plains  1,0  blue 1  sanctuaries 1
    """,
        hands={"green": ["act_festival", "act_bard"]},
    )
    assert_unplayable(none, "green", "act_festival", "present with a Sanctuary", {"territory": "moor"})
    full = Table(
        """
        moor    0,0  green 12  sanctuaries 1
        plains  1,0  blue 1
    """,
        hands={"green": ["act_festival"]},
    )
    events = full.play("green", "act_festival", territory="moor")
    assert "ClansPlaced" not in types(events) and full.state.festival == "moor"


# -- Master Craftsman (4 players) ------------------------------------------------------------

MC_ISLAND = """
    moor    0,0  green 1
    plains  1,0  blue 1
"""


def test_master_craftsman_discards_a_card_then_draws_an_epic_tale():
    """Master Craftsman, Season: "discard 1 card of any type if you can, then draw 1 Epic Tale
    card." The discarded card is chosen secretly; an Action card is discarded face down, so only
    its owner knows it."""
    table = Table(MC_ISLAND, hands={"green": ["act_master_craftsman", "act_bard"]}, epic_deck=["ep_eriu"])
    assert playable(table, "green", "act_master_craftsman") == [{"discard": "act_bard"}]
    events = table.play("green", "act_master_craftsman", discard="act_bard")
    played = first(events, "CardPlayed")
    assert played.payload["args"] == {} and played.visibility is None
    assert first(events, "CardSecretDeclared").visibility == ("green",)
    discarded = first(events, "CardDiscarded")
    assert discarded.payload["card"] == "act_bard" and discarded.visibility == ("green",)
    assert "card" not in redact(discarded, "blue").payload
    assert table.hand("green") == ["ep_eriu"]


def test_master_craftsman_discards_an_epic_tale_face_up_or_nothing_at_all():
    """ "...if you can": with no other card the player still draws; an Epic Tale is discarded
    face up (rulebook, Cards: "Epic Tale cards are discarded in a faceup discard pile")."""
    table = Table(MC_ISLAND, hands={"green": ["act_master_craftsman", "ep_the_dagda"]}, epic_deck=["ep_eriu"])
    events = table.play("green", "act_master_craftsman", discard="ep_the_dagda")
    discarded = [e for e in events if e.type == "CardDiscarded" and e.payload["from_hand"]]
    assert discarded[0].visibility is None and table.state.epic_discard == ["ep_the_dagda"]
    alone = Table(MC_ISLAND, hands={"green": ["act_master_craftsman"]}, epic_deck=["ep_eriu"])
    assert playable(alone, "green", "act_master_craftsman") == [{}]
    alone.play("green", "act_master_craftsman")
    assert alone.hand("green") == ["ep_eriu"]


def test_master_craftsman_limits():
    """A player with another card must discard one ("if you can"); with no Epic Tale left to
    draw anywhere the card cannot be played (ruling U1)."""
    table = Table(MC_ISLAND, hands={"green": ["act_master_craftsman", "act_bard"]})
    # Without its "discard" field the play is malformed (docs/rules-api.md: missing fields).
    assert "Allowed" in table.refuse("green", "play", card="act_master_craftsman", error=InvalidCommand)
    assert "Allowed" in table.refuse("green", "play", card="act_master_craftsman", discard="act_geis")
    empty = Table(MC_ISLAND, hands={"green": ["act_master_craftsman", "act_bard"]}, epic_deck=[])
    assert_unplayable(
        empty, "green", "act_master_craftsman", "an Epic Tale card to draw", {"discard": "act_bard"}
    )


# -- Migration -------------------------------------------------------------------------------


def test_migration_moves_from_one_territory_to_several():
    """Migration: "Move 1 or more of your clans from 1 territory to 1 or more adjacent
    territories. Each destination with opposing clans starts a clash." An empty destination
    starts none."""
    table = Table(
        """
        valley  0,0  green 4
        plains  1,0  blue 1
        moor    1,-1
        hills   3,0  orange 1
        cove    2,0  white 1
    """,
        hands={"green": ["act_migration"]},
    )
    events = table.play("green", "act_migration", **{"from": "valley", "moves": {"plains": 2, "moor": 1}})
    assert first(events, "ClansMoved").payload["moves"] == [["valley", "plains", 2], ["valley", "moor", 1]]
    assert [e.payload["territory"] for e in events if e.type == "ClashStarted"] == ["plains"]


def test_migration_limits():
    """Migration: "Move 1 or more of your clans from 1 territory to 1 or more adjacent
    territories" — only to adjacent territories, only from a territory where one is present, and
    no more clans than are there."""
    table = Table(
        """
        valley  0,0  green 4
        plains  1,0  blue 1
        hills   2,0  orange 1
    """,
        seats=("green", "blue", "orange"),
        hands={"green": ["act_migration"]},
    )
    assert "can go to: Plains" in table.refuse(
        "green", "play", card="act_migration", **{"from": "valley", "moves": {"hills": 1}}
    )
    assert "You have 4 clans in the Valley." in table.refuse(
        "green", "play", card="act_migration", **{"from": "valley", "moves": {"plains": 5}}
    )
    assert "present: Valley" in table.refuse(
        "green", "play", card="act_migration", **{"from": "plains", "moves": {"valley": 1}}
    )


# -- New Alliance ----------------------------------------------------------------------------

ALLIANCE_ISLAND = """
    moor    0,0  green 1  blue 2  orange 1
    plains  1,0  green 1
    valley  0,1  blue 3
"""


def test_new_alliance_places_a_clan_or_replaces_an_opposing_one():
    """New Alliance: "In a territory where you are present, place 1 clan; OR there, choose an
    opponent with 2 or more clans, return 1 of them to their reserve and place 1 of yours
    instead." """
    table = Table(ALLIANCE_ISLAND, seats=("green", "blue", "orange"), hands={"green": ["act_new_alliance"]})
    assert playable(table, "green", "act_new_alliance") == [
        {"mode": "place", "territory": "moor"},
        {"mode": "replace", "territory": "moor", "opponent": "blue"},
        {"mode": "place", "territory": "plains"},
    ]
    events = table.play("green", "act_new_alliance", mode="replace", territory="moor", opponent="blue")
    removed = first(events, "ClansRemoved").payload
    assert (removed["seat"], removed["territory"], removed["count"]) == ("blue", "moor", 1)
    assert table.clans("moor") == {"green": 2, "blue": 1, "orange": 1}
    assert table.state.reserve["blue"] == 12 - 4


def test_new_alliance_limits():
    """New Alliance: "choose an opponent with 2 or more clans" — not one with a single clan; not
    where absent; and "place 1 clan" needs one in the reserve ("If a player has all 12 of his
    figures on the board, he cannot recruit more clans"). With the reserve empty and no opponent
    to return a clan from, nothing of the card can be done: it is played only for no effect."""
    table = Table(
        ALLIANCE_ISLAND, seats=("green", "blue", "orange"), hands={"green": ["act_new_alliance", "act_bard"]}
    )
    for args in (
        {"mode": "replace", "territory": "moor", "opponent": "orange"},
        {"mode": "place", "territory": "valley"},
        {"mode": "replace", "territory": "valley", "opponent": "blue"},
    ):
        assert "Allowed" in table.refuse("green", "play", card="act_new_alliance", **args)
    full = Table(
        ALLIANCE_ISLAND.replace("green 1  blue 2", "green 11  blue 1"),
        seats=("green", "blue", "orange"),
        hands={"green": ["act_new_alliance", "act_bard"]},
    )
    assert full.state.reserve["green"] == 0
    assert_unplayable(
        full,
        "green",
        "act_new_alliance",
        "a clan in your reserve, or an opponent with 2 or more clans where you are present",
        {"mode": "place", "territory": "moor"},
    )


def test_new_alliance_with_the_reserve_empty_still_returns_the_opponents_clan():
    """New Alliance, "replace": "Return 1 of their clans to their reserve and place 1 of your own
    clans there in its place." With all 12 of your clans on the island the return can still be
    carried out, and the card is played for it (docs/rulings.md, "Cards that cannot do
    anything": a card of which some part can be carried out is played for that part; "New
    Alliance with the reserve empty"). Placing is not offered."""
    table = Table(
        ALLIANCE_ISLAND.replace("green 1  blue 2", "green 11  blue 2"),
        seats=("green", "blue", "orange"),
        hands={"green": ["act_new_alliance", "act_bard"]},
    )
    assert table.state.reserve["green"] == 0
    assert playable(table, "green", "act_new_alliance") == [
        {"mode": "replace", "territory": "moor", "opponent": "blue"}
    ]
    events = table.play("green", "act_new_alliance", mode="replace", territory="moor", opponent="blue")
    assert "ClansPlaced" not in types(events)
    assert table.clans("moor") == {"green": 11, "blue": 1, "orange": 1}
    assert table.state.reserve["blue"] == 12 - 4


def test_rules_revision_1_needs_a_clan_in_reserve_for_new_alliance():
    """Games of rules revision 1 (begun before the fix, `games.rules.revisions`) keep the old
    limit: with the reserve empty New Alliance is played only for no effect."""
    table = Table(
        ALLIANCE_ISLAND.replace("green 1  blue 2", "green 11  blue 2"),
        seats=("green", "blue", "orange"),
        hands={"green": ["act_new_alliance", "act_bard"]},
        options={"rules_revision": 1},
    )
    assert_unplayable(
        table,
        "green",
        "act_new_alliance",
        "it needs a clan in your reserve;",
        {"mode": "replace", "territory": "moor", "opponent": "blue"},
    )


# -- New Clans -------------------------------------------------------------------------------

NEW_CLANS_ISLAND = """
    moor    0,0  green 1  blue 1
    plains  1,0  green 1
    valley  0,1  blue 3
"""


def test_new_clans_places_two_clans_where_present():
    """New Clans: "Place 2 clans in territories where you are present (both in one, or 1 in each
    of two)." Placing never starts a clash ("A clan that is "placed" in a territory (such as the
    "New Clans" Action card) does not initiate a clash.")."""
    table = Table(NEW_CLANS_ISLAND, seats=("green", "blue"), hands={"green": ["act_new_clans"]})
    assert playable(table, "green", "act_new_clans") == [
        {"territories": ["moor", "moor"]},
        {"territories": ["moor", "plains"]},
        {"territories": ["plains", "plains"]},
    ]
    events = table.play("green", "act_new_clans", territories=["moor", "plains"])
    assert first(events, "ClansPlaced").payload["placements"] == {"moor": 1, "plains": 1}
    assert "ClashStarted" not in types(events)
    assert table.state.reserve["green"] == 8


def test_new_clans_limits():
    """Only where present; with 1 clan in reserve, that one (ruling); with none, not at all
    ("If a player has all 12 of his figures on the board, he cannot recruit more clans")."""
    table = Table(NEW_CLANS_ISLAND, seats=("green", "blue"), hands={"green": ["act_new_clans", "act_bard"]})
    assert "Allowed" in table.refuse("green", "play", card="act_new_clans", territories=["valley", "moor"])
    one = Table(
        NEW_CLANS_ISLAND.replace("plains  1,0  green 1", "plains  1,0  green 10"),
        seats=("green", "blue"),
        hands={"green": ["act_new_clans"]},
    )
    assert one.state.reserve["green"] == 1
    assert playable(one, "green", "act_new_clans") == [{"territories": ["moor"]}, {"territories": ["plains"]}]
    one.refuse("green", "play", card="act_new_clans", territories=["moor", "moor"])
    one.play("green", "act_new_clans", territories=["moor"])
    assert one.state.reserve["green"] == 0
    none = Table(
        NEW_CLANS_ISLAND.replace("plains  1,0  green 1", "plains  1,0  green 11"),
        seats=("green", "blue"),
        hands={"green": ["act_new_clans", "act_bard"]},
    )
    assert_unplayable(none, "green", "act_new_clans", "a clan in your reserve", {"territories": ["moor"]})


# -- Sanctuary -------------------------------------------------------------------------------


def test_sanctuary_places_a_sanctuary_and_draws_an_epic_tale():
    """Sanctuary: "Place 1 Sanctuary in a territory where you are present, then draw 1 Epic Tale
    card." """
    table = Table(
        """
        moor    0,0  green 1
        plains  1,0  blue 1
    """,
        hands={"green": ["act_sanctuary"]},
        epic_deck=["ep_eriu"],
    )
    assert playable(table, "green", "act_sanctuary") == [{"territory": "moor"}]
    events = table.play("green", "act_sanctuary", territory="moor")
    assert types(events).index("BuildingPlaced") < types(events).index("EpicTaleDrawn")
    assert table.state.territories["moor"]["sanctuaries"] == 1
    assert table.state.supply["sanctuaries"] == 8
    assert table.hand("green") == ["ep_eriu"]


def test_sanctuary_limits():
    """Sanctuary: "in a territory where you are present" — and "If a player attempts to place
    a new building [...] but there are no more buildings of this type in the reserve, he cannot
    place this type of building" (9 Sanctuaries, first print)."""
    table = Table(
        """
        moor    0,0  green 1
        plains  1,0  blue 1
    """,
        hands={"green": ["act_sanctuary", "act_bard"]},
    )
    assert "Allowed" in table.refuse("green", "play", card="act_sanctuary", territory="plains")
    full = Table(
        """
        moor    0,0  green 1
        plains  1,0  blue 1  sanctuaries 9
    """,
        hands={"green": ["act_sanctuary", "act_bard"]},
        epic_deck=[],
        epic_discard=[],
    )
    assert_unplayable(full, "green", "act_sanctuary", "a Sanctuary left in the supply", {"territory": "moor"})


def test_sanctuary_with_the_supply_empty_still_draws_the_epic_tale():
    """Sanctuary: "Place 1 Sanctuary in a territory where you are present, then draw 1 Epic Tale
    card." With no Sanctuary left the draw still happens (ruling "Cards that cannot do
    anything": carried out at least in part)."""
    table = Table(
        """
        moor    0,0  green 1
        plains  1,0  blue 1  sanctuaries 9
    """,
        hands={"green": ["act_sanctuary", "act_bard"]},
        epic_deck=["ep_eriu"],
    )
    events = table.play("green", "act_sanctuary", territory="moor")
    assert "BuildingPlaced" not in types(events)
    assert "ep_eriu" in table.hand("green")


# -- Scouts & Spies (4 players) --------------------------------------------------------------

SCOUTS_ISLAND = """
    moor    0,0  green 3
    plains  1,0  blue 1
    valley  0,1  orange 1
    cove   -1,1  white 1
"""


def test_scouts_and_spies_look_at_a_hand_then_may_move():
    """Scouts & Spies: "Look at the Action cards of 1 opponent. Then you may move 1 or more of
    your clans from 1 territory to 1 adjacent territory, which can start a clash." Only the two
    players see the cards."""
    table = Table(
        SCOUTS_ISLAND, hands={"green": ["act_scouts_spies"], "blue": ["act_bard", "act_druid", "ep_eriu"]}
    )
    assert {"opponent": "blue"} in playable(table, "green", "act_scouts_spies")
    events = table.play("green", "act_scouts_spies", opponent="blue")
    revealed = first(events, "HandRevealed")
    assert revealed.payload["cards"] == ["act_bard", "act_druid"]
    assert revealed.visibility == ("green", "blue")
    assert "cards" not in redact(revealed, "orange").payload
    assert table.decision("green").kind == "card_choice"
    assert {"type": "scouts_move", "skip": True} in table.legal("green")
    assert "adjacent" in table.refuse("green", "scouts_move", **{"from": "moor", "to": "cove", "count": 4})
    events = table.do("green", "scouts_move", **{"from": "moor", "to": "plains", "count": 2})
    assert first(events, "ClashStarted").payload == {"territory": "plains", "instigator": "green"}


def test_scouts_and_spies_move_is_optional():
    """ "Then you MAY move" — skipping ends the card."""
    table = Table(SCOUTS_ISLAND, hands={"green": ["act_scouts_spies"]})
    table.play("green", "act_scouts_spies", opponent="orange")
    events = table.do("green", "scouts_move", skip=True)
    assert "ClansMoved" not in types(events)
    assert table.state.action_discard == ["act_scouts_spies"]
    assert table.decision("blue").kind == "season_turn"


# -- Warlord ---------------------------------------------------------------------------------


def test_warlord_starts_a_clash_where_present():
    """Warlord, Season: "Initiate a clash in a territory where you are present; you are the
    instigator. No clans need to move." """
    table = Table(
        """
        moor    0,0  green 2  blue 1  citadels 1
        plains  1,0  green 1
    """,
        seats=("green", "blue"),
        hands={"green": ["act_warlord"]},
    )
    assert playable(table, "green", "act_warlord") == [{"territory": "moor"}]
    events = table.play("green", "act_warlord", territory="moor")
    assert "ClansMoved" not in types(events)
    assert first(events, "ClashStarted").payload == {"territory": "moor", "instigator": "green"}
    assert table.decision("blue").kind == "citadel"


def test_warlord_needs_opposing_clans():
    """Warlord: "Initiate a clash in a territory where you are present" — ruling (Warlord,
    Season half): a clash needs opposing clans there."""
    table = Table(
        """
        moor    0,0  green 2
        plains  1,0  blue 1
    """,
        seats=("green", "blue"),
        hands={"green": ["act_warlord", "act_bard"]},
    )
    assert_unplayable(table, "green", "act_warlord", "you and an opponent are present", {"territory": "moor"})
