"""The Season: opening, passing, Pretender tokens, a player with no clans, the end of the Season.

Rulebook, Phase 2: The Season; Specific Situation; End of the Season.
"""

from .positions import Table, first, types

THREE = ("green", "blue", "orange")

ISLAND = """
    moor    0,0  green 3  blue 1  sanctuaries 2
    plains  1,0  blue 2  orange 2
    valley  0,1  orange 2  green 1
"""


def test_the_brenn_must_open_with_a_season_card():
    """ "The Brenn begins the Season by playing the first card, which must be a Season card.
    Then the next player has the choice to: Play a Season card, Pass, Take a Pretender token." """
    table = Table(
        ISLAND,
        seats=THREE,
        capital="moor",
        brenn="green",
        opened=False,
        deeds={"green": 6, "blue": 6},
        hands={"green": ["act_new_clans", "act_geis"], "blue": ["act_bard"]},
    )
    assert table.legal_types("green") == {"play"}
    assert {c["card"] for c in table.legal("green")} == {"act_new_clans"}  # Geis is Triskel
    assert "open the Season" in table.refuse("green", "pass")
    assert "open the Season" in table.refuse("green", "pretender")
    table.play("green", "act_new_clans", territories=["moor", "moor"])
    assert table.legal_types("blue") == {"play", "pass", "pretender"}
    table.do("blue", "pass")
    assert table.decision("orange").kind == "season_turn"


def test_a_brenn_with_no_playable_season_card_may_pass():
    """Ruling (docs/rulings.md, The Brenn with no Season card): the rulebook assumes the Brenn
    always has one; if none can be played (here only Geis, a Triskel card), the Brenn passes."""
    table = Table(
        ISLAND, seats=THREE, capital="moor", brenn="green", opened=False, hands={"green": ["act_geis"]}
    )
    assert table.legal("green") == [{"type": "pass"}]
    table.do("green", "pass")
    assert table.decision("blue").kind == "season_turn"


def test_a_card_that_can_do_nothing_is_played_for_no_effect():
    """Play a Season Card: the player "plays the card, resolves the indicated effect, and then
    discards the card". Nothing forbids a card whose effect cannot be carried out (here
    Exploration with no territory tile left): it is played, does nothing, and is discarded; so
    a Brenn holding it opens the Season with it and may not pass. (A card whose own text
    forbids it is another matter: the Druid, test_actions.py.)"""
    table = Table(
        ISLAND,
        seats=THREE,
        capital="moor",
        brenn="green",
        opened=False,
        hands={"green": ["act_exploration"], "blue": ["act_bard"]},
        tile_stack=[],
    )
    assert table.legal("green") == [{"type": "play", "card": "act_exploration", "no_effect": True}]
    assert "open the Season" in table.refuse("green", "pass")
    message = table.refuse("green", "play", card="act_exploration")
    assert "no effect" in message
    events = table.do("green", "play", card="act_exploration", no_effect=True)
    played = first(events, "CardPlayed").payload
    assert played["args"] == {"no_effect": True}
    assert "act_exploration" in table.state.action_discard and table.hand("green") == []
    assert table.decision("blue").kind == "season_turn"


def test_a_card_that_can_act_is_not_played_for_no_effect():
    """The play for no effect is only for a card of which nothing can be carried out: Bard can
    draw an Epic Tale, so it is played for that."""
    table = Table(
        ISLAND, seats=THREE, capital="moor", brenn="green", opened=False, hands={"green": ["act_bard"]}
    )
    assert "for its effect" in table.refuse("green", "play", card="act_bard", no_effect=True)


def test_after_a_brenn_who_could_not_open_the_next_player_has_a_normal_turn():
    """ "Then the next player has the choice to: Play a Season card, Pass, Take a Pretender
    token." Only the Brenn opens: when the Brenn could not (ruling above), the next player is not
    made to open in the Brenn's place."""
    table = Table(
        ISLAND,
        seats=THREE,
        capital="moor",
        brenn="green",
        opened=False,
        flock="clockwise",
        deeds={"blue": 6},
        hands={"green": ["act_geis"], "blue": ["act_bard"]},
    )
    table.do("green", "pass")
    decision = table.decision("blue")
    assert "Brenn" not in decision.prompt
    assert table.legal_types("blue") == {"play", "pass", "pretender"}
    table.do("blue", "pretender")
    table.do("orange", "pass")
    table.do("green", "pass")
    events = table.do("blue", "pass")
    assert "SeasonEnded" in types(events)


def test_the_season_ends_when_all_players_pass_consecutively():
    """ "This continues with each player in turn order doing one of the three options until all
    players have consecutively passed, which ends the Season phase." A card played in between
    starts the count again."""
    table = Table(
        ISLAND,
        seats=THREE,
        capital="moor",
        brenn="green",
        flock="clockwise",
        hands={"green": ["act_new_clans", "act_bard"]},
        opened=False,
    )
    table.play("green", "act_new_clans", territories=["moor", "moor"])
    table.do("blue", "pass")
    table.do("orange", "pass")
    table.play("green", "act_bard")  # the count starts again
    table.do("blue", "pass")
    events = table.do("orange", "pass")
    assert "SeasonEnded" not in types(events)
    events = table.do("green", "pass")
    assert "SeasonEnded" in types(events)
    assert first(events, "RoundStarted").payload == {"round": 2}


def test_a_pretender_token_also_breaks_a_run_of_passes():
    """ "...until all players have consecutively passed": taking a Pretender token is one of the
    three options of a turn, not a pass, so the Season goes on until everyone has passed in a
    row."""
    table = Table(
        ISLAND,
        seats=THREE,
        capital="moor",
        brenn="green",
        flock="clockwise",
        turn="blue",
        passes=1,
        deeds={"orange": 6},
    )
    table.do("blue", "pass")
    table.do("orange", "pretender")
    for seat in THREE:
        assert table.state.phase == "season"
        events = table.do(seat, "pass")
    assert "SeasonEnded" in types(events)


def test_pretender_only_while_meeting_a_condition_and_only_one():
    """Take a Pretender Token: "The player must meet at least one victory condition and cannot
    already have a Pretender token." """
    table = Table(
        """
        moor    0,0  green 3  blue 1  sanctuaries 6
        plains  1,0  orange 2
    """,
        seats=THREE,
        capital="plains",
        brenn="orange",
        turn="green",
        pretenders=["blue"],
    )
    assert "pretender" not in table.legal_types("blue")
    # Green meets a condition (present where 6 Sanctuaries are) and takes a token.
    table.do("green", "pretender")
    # Blue, present in the Moor too, already holds one.
    assert "pretender" not in table.legal_types("blue")
    assert "at most one" in table.refuse("blue", "pretender")
    table.do("blue", "pass")
    # Orange meets no condition.
    assert "pretender" not in table.legal_types("orange")
    assert "victory condition" in table.refuse("orange", "pretender")
    table.do("orange", "pass")
    assert "at most one" in table.refuse("green", "pretender")
    assert table.state.pretenders == ["blue", "green"]


def test_a_pretender_keeps_the_token_until_the_assembly():
    """ "This token is kept until the Assembly phase, even if at a later point the player no
    longer meets any victory conditions." — and then it wins nothing: "He must meet at least
    one victory condition in order to win." """
    table = Table(
        """
        moor    0,0  green 1  sanctuaries 6
        plains  1,0  blue 3
        valley  0,1  orange 3
    """,
        seats=THREE,
        capital="plains",
        brenn="orange",
        turn="blue",
        flock="clockwise",
        pretenders=["green"],
        hands={"blue": ["act_migration"]},
    )
    table.play("blue", "act_migration", **{"from": "plains", "moves": {"moor": 2}})
    table.do("blue", "attack", target="green")
    table.do("blue", "end_clash")
    assert table.state.clans_on_board("green") == 0
    table.do("orange", "pass")
    table.do("green", "place_clans", territories=["valley", "valley"])
    assert table.state.pretenders == ["green"]
    table.do("green", "pass")
    table.do("blue", "pass")
    assert table.state.round == 2
    assert first(table.events, "VictoryChecked").payload == {"scores": {"green": 0}, "winner": None}
    assert table.state.pretenders == [] and table.state.winner is None


def test_end_of_the_season():
    """End of the Season: "Players keep all Epic Tale cards in their hands, but they must discard
    all Action cards. If a player has an Advantage card in his hand and he is no longer the
    chieftain of that territory, he places that Advantage card faceup near the play area."
    Reminder: "If the Festival marker is in a territory at the end of a Season, remove it." """
    table = Table(
        ISLAND,
        seats=THREE,
        capital="moor",
        brenn="green",
        turn="orange",
        passes=2,
        festival="plains",
        hands={
            "green": ["act_bard", "ep_eriu", "adv_moor", "adv_plains"],
            "orange": ["act_migration", "act_druid", "adv_valley"],
        },
    )
    events = table.do("orange", "pass")
    end = types(events).index("SeasonEnded")
    assert types(events).index("RoundStarted") > end
    season_end = events[end : types(events).index("RoundStarted")]
    discarded = sorted(
        (e.payload["seat"], e.payload["card"]) for e in season_end if e.type == "CardDiscarded"
    )
    assert discarded == [("green", "act_bard"), ("orange", "act_druid"), ("orange", "act_migration")]
    returned = [e.payload["card"] for e in season_end if e.type == "AdvantageCardReturned"]
    assert returned == ["adv_plains"]  # green is not chieftain of the Plains (a tie)
    assert first(season_end, "FestivalRemoved").payload == {"territory": "plains"}
    assert table.state.festival is None
    # Kept: the Epic Tale and the Advantage cards of territories still led.
    assert {"ep_eriu", "adv_moor"} <= set(table.hand("green"))
    assert "adv_plains" not in table.hand("green") and "adv_plains" in table.state.advantage_display
    assert "adv_valley" in table.hand("orange")
    # Discarded Action cards are shuffled back at the next Assembly.
    assert table.state.action_discard == []


def test_a_player_with_no_clans_discards_a_deed_and_places_two_clans():
    """Specific Situation: "If a player has no clans in any territories when his turn begins, he
    must discard a Deed token if he has one. Then [...] he places a total of two clans in any
    territories. After that he can take his turn as normal." """
    table = Table(
        ISLAND,
        seats=("green", "blue", "orange", "white"),
        capital="moor",
        brenn="green",
        turn="orange",
        flock="clockwise",
        deeds={"white": 2},
        hands={"white": ["act_bard"]},
    )
    events = table.do("orange", "pass")
    assert first(events, "DeedDiscarded").payload["seat"] == "white"
    assert table.state.deeds["white"] == 1
    assert table.decision("white").kind == "place_clans"
    assert {"type": "place_clans", "territories": ["moor", "plains"]} in table.legal("white")
    assert "exactly 2" in table.refuse("white", "place_clans", territories=["moor"])
    assert "The Cove is not on the island" in table.refuse(
        "white", "place_clans", territories=["cove", "moor"]
    )
    table.refuse("white", "pass")
    table.do("white", "place_clans", territories=["moor", "plains"])
    assert table.state.clans("moor", "white") == 1 and table.state.clans("plains", "white") == 1
    assert table.state.reserve["white"] == 10
    # Placing starts no clash; white now takes a normal turn.
    assert table.decision("white").kind == "season_turn"
    assert table.legal_types("white") == {"play", "pass"}


def test_a_player_with_no_clans_and_no_deed_places_both_in_one_territory():
    """ "...whether he discarded a deed token or not, he places a total of two clans in any
    territories" — both may go to one territory."""
    table = Table(
        ISLAND, seats=("green", "blue", "orange", "white"), capital="moor", brenn="green", turn="white"
    )
    assert "DeedDiscarded" not in types(table.events)
    table.do("white", "place_clans", territories=["valley", "valley"])
    assert table.clans("valley") == {"orange": 2, "green": 1, "white": 2}
    assert table.state.chieftain("valley") is None


def test_no_clans_check_happens_at_the_start_of_each_turn():
    """The check is "when his turn begins": a player who lost every clan during the Season
    (here in a clash) places 2 clans at the start of their next turn."""
    table = Table(
        """
        moor    0,0  green 3
        plains  1,0  blue 1
        valley  0,1  orange 3
    """,
        seats=THREE,
        capital="moor",
        brenn="orange",
        turn="orange",
        flock="clockwise",
        hands={"orange": ["act_migration"]},
        deeds={"blue": 1},
    )
    table.play("orange", "act_migration", **{"from": "valley", "moves": {"plains": 2}})
    table.do("orange", "attack", target="blue")  # blue holds no Action card: the clan goes
    assert table.state.clans_on_board("blue") == 0
    assert "DeedDiscarded" not in types(table.events)  # not before blue's turn begins
    table.do("orange", "end_clash")
    events = table.do("green", "pass")
    assert first(events, "DeedDiscarded").payload["seat"] == "blue"
    assert table.decision("blue").kind == "place_clans"
