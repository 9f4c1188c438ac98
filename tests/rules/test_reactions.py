"""Triskel halves of the Action cards and their reaction windows: Geis, Raid, Bard, Warlord,
Master Craftsman; standing policies.

Rulebook, Reminder on Triskel cards: "Triskel cards can be played only during the specific timing
indicated on the card. When the card is played, it is played in response to an action." "One or
more Triskel cards can be played in response to the same action." Who is asked (docs/rulings.md,
Triskel reaction windows): every seat that could hold a suitable card, on public facts only.
"""

from games.rules import InvalidCommand, redact

from .positions import Table, first, types

CLASH_ISLAND = """
    hills   0,0  blue 2
    valley  1,0  green 3
    plains  0,1  orange 1
    cove   -1,0
"""


def asked(table) -> list:
    """Seats asked in the open reaction window that have not answered yet."""
    return [d.seat for d in table.pending() if d.kind == "reaction"]


def reacts(table, seat) -> list:
    """The Triskel cards `seat` may play in the open window."""
    return [c["card"] for c in table.legal(seat) if c["type"] == "react"]


def attack_in_the_hills(hands, seats=("green", "blue", "orange", "white"), reserve_empty=False, **position):
    """Green moves 2 clans into the Hills (Migration) where blue has 2, and attacks blue; every
    window before the attack is declined. `reserve_empty`: green has all 12 clans on the island."""
    island = CLASH_ISLAND.replace("green 3", "green 12") if reserve_empty else CLASH_ISLAND
    table = Table(island, seats=seats, capital="valley", flock="clockwise", hands=hands, **position)
    table.play("green", "act_migration", **{"from": "valley", "moves": {"hills": 2}})
    table.auto_decline = False
    table.do("green", "attack", target="blue")
    return table


# -- Geis ------------------------------------------------------------------------------------

GEIS_HANDS = {
    "green": ["act_new_clans"],
    "blue": ["act_geis", "act_druid"],
    "orange": ["act_bard"],
    "white": [],
}
GEIS_ISLAND = """
    moor    0,0  green 2  blue 1
    plains  1,0  blue 2
    valley  0,1  orange 1
    cove   -1,1  white 1
"""


def geis_table(**position):
    return Table(
        GEIS_ISLAND, capital="plains", flock="clockwise", decline=False, hands=GEIS_HANDS, **position
    )


def test_geis_window_is_offered_to_each_opponent_holding_an_action_card():
    """Geis: "Triskel, when an opponent plays an Action card (after they have fully declared
    it)". Hands are secret but card types are public, so every opponent holding an Action card
    is asked (blue, who holds Geis, and orange, who does not); white holds none and the player
    of the card is no opponent."""
    table = geis_table()
    events = table.play("green", "act_new_clans", territories=["moor", "moor"])
    assert "ClansPlaced" not in types(events)  # nothing happens before the window closes
    assert asked(table) == ["blue", "orange"]
    decision = table.decision("blue")
    assert "New Clans" in decision.prompt
    assert reacts(table, "blue") == ["act_geis"]
    assert table.legal("orange") == [{"type": "decline"}]
    assert "only decline" in table.refuse("orange", "react", card="act_geis")
    table.refuse("white", "decline")
    table.refuse("green", "decline")


def test_geis_cancels_the_card_which_is_discarded():
    """Geis: "that card has no effect and is discarded." The window resolves once every asked
    seat has answered."""
    table = geis_table()
    table.play("green", "act_new_clans", territories=["moor", "moor"])
    table.do("orange", "decline")
    assert asked(table) == ["blue"]
    events = table.do("blue", "react", card="act_geis")
    revealed = first(events, "ReactionsRevealed").payload
    assert revealed["plays"] == [{"card": "act_geis", "seat": "blue"}]
    assert first(events, "CardCancelled").payload["card"] == "act_new_clans"
    assert "ClansPlaced" not in types(events)
    assert table.clans("moor") == {"green": 2, "blue": 1}
    assert sorted(table.state.action_discard) == ["act_geis", "act_new_clans"]
    assert table.decision("blue").kind == "season_turn"


def test_geis_itself_asks_nobody():
    """There is one Geis in the game: when it is played, nobody else can hold it, so its own
    declaration opens no window (no pointless question to every player holding an Action card)."""
    table = geis_table()
    table.play("green", "act_new_clans", territories=["moor", "moor"])
    table.do("orange", "decline")
    table.do("blue", "react", card="act_geis")
    assert asked(table) == []
    assert table.decision("blue").kind == "season_turn"


def test_declined_geis_lets_the_card_resolve():
    """Geis is played "in response to an action": when every asked seat declines, the card
    resolves normally."""
    table = geis_table()
    table.play("green", "act_new_clans", territories=["moor", "moor"])
    table.do("blue", "decline")
    events = table.do("orange", "decline")
    assert first(events, "ReactionsRevealed").payload["plays"] == []
    assert table.clans("moor") == {"green": 4, "blue": 1}
    assert "act_geis" in table.hand("blue")


def test_geis_never_answers_ones_own_card():
    """ "when an OPPONENT plays an Action card": the player of the card is not asked, even
    holding Geis."""
    table = Table(
        GEIS_ISLAND,
        capital="plains",
        flock="clockwise",
        decline=False,
        hands={"green": ["act_new_clans", "act_geis"]},
    )
    table.play("green", "act_new_clans", territories=["moor", "moor"])
    assert asked(table) == []
    assert table.clans("moor")["green"] == 4


def test_a_standing_policy_means_the_seat_is_not_asked():
    """Ruling, Standing policies: {"type": "set_policy", "card": "act_geis", "policy": "never"}
    — the seat is not asked about Geis; any seat may send it at any time, and only it sees it."""
    table = geis_table()
    events = table.do("blue", "set_policy", card="act_geis", policy="never")
    assert first(events, "PolicySet").visibility == ("blue",)
    table.play("green", "act_new_clans", territories=["moor", "moor"])
    assert asked(table) == ["orange"]
    table.do("orange", "decline")
    assert table.clans("moor")["green"] == 4


def test_a_policy_for_all_triskel_cards_and_back_to_ask():
    """ "never ask me" covers every Triskel card; "ask" restores the default."""
    table = geis_table()
    table.do("orange", "set_policy", card="all", policy="never")
    table.do("blue", "set_policy", card="act_geis", policy="never")
    table.do("blue", "set_policy", card="act_geis", policy="ask")
    table.play("green", "act_new_clans", territories=["moor", "moor"])
    assert asked(table) == ["blue"]


def test_malformed_policies_are_invalid():
    """A policy names a Triskel card (or "all") and is "ask" or "never" (ruling, Standing
    policies); anything else cannot be understood."""
    table = geis_table()
    table.refuse("blue", "set_policy", card="act_nonsense", policy="never", error=InvalidCommand)
    table.refuse("blue", "set_policy", card="act_geis", policy="sometimes", error=InvalidCommand)


def test_geis_also_answers_a_triskel_half():
    """Ruling (Geis): Geis answers any Action card an opponent plays, Triskel halves included —
    here Bard's Deed after a maneuver."""
    table = attack_in_the_hills({"green": ["act_migration", "act_bard"], "orange": ["act_geis"]})
    assert asked(table) == ["green"]  # blue held no Action card: its clan went at once
    table.do("green", "react", card="act_bard")
    assert asked(table) == ["orange"]
    events = table.do("orange", "react", card="act_geis")
    assert first(events, "CardCancelled").payload["card"] == "act_bard"
    assert "DeedGained" not in types(events) and table.state.deeds["green"] == 0


# -- Raid (4 players) ------------------------------------------------------------------------


def test_raid_takes_a_random_action_card_from_the_attacked_player():
    """Raid: "Triskel, right after you performed an Attack maneuver: take 1 Action card at random
    from the attacked player's hand". Only the two players see which card."""
    table = attack_in_the_hills({"green": ["act_migration", "act_raid"], "blue": ["act_bard", "act_druid"]})
    table.do("blue", "attack_response", choice="remove")
    assert "green" in asked(table)
    assert reacts(table, "green") == ["act_raid"]
    for seat in asked(table):
        if seat != "green":
            assert "act_raid" not in reacts(table, seat)
            table.do(seat, "decline")
    table.auto_decline = True
    events = table.do("green", "react", card="act_raid")
    given = first(events, "CardGiven")
    assert given.visibility == ("blue", "green")
    assert given.payload["card"] in ("act_bard", "act_druid")
    assert "card" not in redact(given, "orange").payload
    assert given.payload["card"] in table.hand("green")
    assert len(table.state.action_cards("blue")) == 1


def test_raid_on_a_player_without_action_cards_removes_an_exposed_clan():
    """Raid: "...if they have none, remove 1 of their exposed clans." """
    table = attack_in_the_hills({"green": ["act_migration", "act_raid"]})
    assert table.clans("hills")["blue"] == 1  # the attack itself
    assert asked(table) == ["green"]  # blue holds no Action card: not asked about anything
    table.auto_decline = True
    table.do("green", "react", card="act_raid")
    assert "blue" not in table.clans("hills")


def test_raid_is_offered_only_to_the_attacker_after_an_attack():
    """ "right after YOU performed an ATTACK maneuver": not after a Withdraw, not to the attacked
    player; and Raid has no Season half."""
    table = Table(
        """
        hills   0,0  blue 2
        valley  1,0  green 3
        plains  0,1  orange 1
        cove   -1,0  white 1
    """,
        capital="valley",
        flock="clockwise",
        hands={"green": ["act_migration", "act_raid"], "blue": ["act_bard"]},
    )
    assert "Triskel card" in table.refuse("green", "play", card="act_raid")
    table.play("green", "act_migration", **{"from": "valley", "moves": {"hills": 2}})
    table.auto_decline = False
    table.do("green", "withdraw", moves={"valley": 1})
    assert all("act_raid" not in reacts(table, seat) for seat in asked(table))


def test_raid_is_not_in_a_game_below_four_players():
    """Raid is a 4-player card ("used only in a 4-player game"): with 4 players an attacker
    holding any Action card is asked (it may be Raid); with 3 nobody can hold Raid, so after an
    attack that removed no clan the attacker is asked about nothing. (Green has no clan left in
    reserve, so in rules revision 3, which the 3-player table plays, Warlord's Triskel half is
    not offered either; since revision 4 it is, for its choice of the next maneuver alone:
    docs/rulings.md, "Warlord with the reserve empty".)"""
    hands = {"green": ["act_migration", "act_new_clans"], "blue": ["act_druid"]}
    four = attack_in_the_hills(hands, reserve_empty=True)
    four.do("blue", "attack_response", choice="discard", card="act_druid")
    assert asked(four) == ["green"]
    # No card to play: decline (or, before blue's maneuver, propose peace).
    assert four.legal("green") == [{"type": "decline"}, {"type": "propose_peace"}]
    three = attack_in_the_hills(
        hands, seats=("green", "blue", "orange"), reserve_empty=True, options={"rules_revision": 3}
    )
    three.do("blue", "attack_response", choice="discard", card="act_druid")
    assert asked(three) == []
    assert three.decision("blue").kind == "maneuver"


# -- Bard, Triskel half ----------------------------------------------------------------------


def test_bards_deed_after_a_maneuver_that_removed_an_opposing_clan():
    """Bard, Triskel: "right after one of your maneuvers removed 1 or more opposing clans: gain
    1 Deed." """
    table = attack_in_the_hills({"green": ["act_migration", "act_bard"]})
    assert reacts(table, "green") == ["act_bard"]
    table.auto_decline = True
    events = table.do("green", "react", card="act_bard")
    assert first(events, "DeedGained").payload["seat"] == "green"
    assert table.state.deeds["green"] == 1
    assert table.state.action_discard == ["act_bard"]


def test_no_bards_deed_when_no_clan_was_removed():
    """Bard, Triskel: "after 1 of your maneuvers removes 1 or more opposing clans" — when the
    attacked player discards an Action card instead, no clan was removed."""
    table = attack_in_the_hills(
        {"green": ["act_migration", "act_bard"], "blue": ["act_druid"]}, seats=("green", "blue", "orange")
    )
    table.do("blue", "attack_response", choice="discard", card="act_druid")
    assert all("act_bard" not in reacts(table, seat) for seat in asked(table))


# -- Warlord, Triskel half -------------------------------------------------------------------

WARLORD_ISLAND = """
    hills   0,0  blue 2  orange 1
    valley  1,0  green 3
    plains  0,1  white 1
"""


def test_warlord_places_a_clan_and_chooses_the_next_maneuver():
    """Warlord, Triskel: "during a clash you are involved in, right after any maneuver: place 1
    clan in the clashing territory (exposed), then choose who performs the next maneuver." Ruling
    U13: play then goes on in turn order from the chosen player."""
    table = Table(
        WARLORD_ISLAND,
        capital="valley",
        flock="clockwise",
        hands={"green": ["act_migration"], "orange": ["act_warlord"], "white": ["act_bard"]},
    )
    table.play("green", "act_migration", **{"from": "valley", "moves": {"hills": 2}})
    table.auto_decline = False
    table.do("green", "attack", target="blue")
    # White, with no clan in the Hills, is not involved.
    assert asked(table) == ["orange"]
    assert table.legal("orange") == [
        {"type": "decline"},
        {"type": "react", "card": "act_warlord", "next": "green"},
        {"type": "react", "card": "act_warlord", "next": "blue"},
        {"type": "react", "card": "act_warlord", "next": "orange"},
        # Before the next maneuver (blue's), a player with exposed clans may propose peace.
        {"type": "propose_peace"},
    ]
    table.auto_decline = True
    events = table.do("orange", "react", card="act_warlord", next="orange")
    assert first(events, "ClansPlaced").payload["placements"] == {"hills": 1}
    assert table.clans("hills") == {"blue": 1, "orange": 2, "green": 2}
    # Orange maneuvers before blue, then turn order goes on from orange.
    assert table.decision("orange").kind == "maneuver"
    table.do("orange", "attack", target="blue")
    assert table.decision("green").kind == "maneuver"


def attack_beside_a_sheltered_warlord(options=None):
    """Green conquers the Hills (blue 2, orange 1, 1 Citadel); blue declines the Citadel, orange
    shelters its only clan there; green attacks blue, who holds no Action card. Orange holds
    Warlord. Returns the table right after green's maneuver, its windows open."""
    table = Table(
        """
        hills   0,0  blue 2  orange 1  citadels 1
        valley  1,0  green 3
    """,
        seats=("green", "blue", "orange"),
        capital="valley",
        brenn="green",
        flock="clockwise",
        options=options,
        hands={"green": ["act_conquest"], "orange": ["act_warlord"]},
    )
    table.play("green", "act_conquest", territory="hills", moves={"valley": 2})
    table.do("blue", "no_citadel")
    table.do("orange", "citadel")
    assert table.clash()["sheltered"] == {"orange": 1}
    table.auto_decline = False
    table.do("green", "attack", target="blue")
    return table


def test_warlord_needs_exposed_clans_in_the_clash():
    """Warlord, Triskel: "During a clash in which you are involved, right after any maneuver".
    Citadels: "A clan in a Citadel is protected and is not involved in the clash in any way."
    Orange, whose only clan in the Hills is in the Citadel, is not asked; blue maneuvers next."""
    table = attack_beside_a_sheltered_warlord()
    assert "orange" not in asked(table)
    assert reacts(table, "orange") == []
    table.decline_reactions()
    assert table.awaiting() == {"blue": "maneuver"}
    assert table.clans("hills") == {"blue": 1, "orange": 1, "green": 2}


def test_rules_revision_1_offers_warlord_to_a_player_sheltered_in_a_citadel():
    """Games begun before rules revision 2 keep their rules (games/rules/revisions.py): there a
    clan in a Citadel made its player involved enough to play Warlord's Triskel half."""
    table = attack_beside_a_sheltered_warlord({"rules_revision": 1})
    assert asked(table) == ["orange"]
    assert {"type": "react", "card": "act_warlord", "next": "orange"} in table.legal("orange")


def warlord_held_with_the_reserve_empty(options=None) -> Table:
    """Blue has all 12 of its clans on the island (6 in the Plains, 6 in the Valley) and holds
    Warlord and Bard. Green migrates 2 clans into the Plains and attacks blue there; blue
    discards Bard. Returns the table with the window after green's maneuver open."""
    table = Table(
        """
        plains  0,0  green 1  blue 6
        valley  1,0  green 3  blue 6
        """,
        seats=("green", "blue", "orange"),
        capital="valley",
        brenn="green",
        opened=True,
        turn="green",
        options=options,
        hands={"green": ["act_migration"], "blue": ["act_warlord", "act_bard"]},
    )
    table.play("green", "act_migration", **{"from": "valley", "moves": {"plains": 2}})
    table.auto_decline = False
    table.do("green", "attack", target="blue")
    table.do("blue", "attack_response", choice="discard", card="act_bard")
    return table


def test_warlord_with_the_reserve_empty_still_chooses_the_next_maneuver():
    """Warlord, Triskel: "Place 1 clan from your reserve in the clashing territory; it is
    exposed. Then choose which player performs the next maneuver." With no clan in reserve the
    first part cannot be done, the second can: the card is played for that part (docs/rulings.md,
    "Warlord with the reserve empty", as "Cards that cannot do anything"). Blue has the next
    maneuver by turn order and hands it to green, placing no clan."""
    table = warlord_held_with_the_reserve_empty()
    assert table.state.reserve["blue"] == 0
    assert {"type": "react", "card": "act_warlord", "next": "green"} in table.legal("blue")
    on_the_island = table.clans("plains")
    table.do("blue", "react", card="act_warlord", next="green")
    table.decline_reactions()
    assert table.clans("plains") == on_the_island
    assert table.awaiting() == {"green": "maneuver"}


def test_rules_revision_3_offers_no_warlord_with_the_reserve_empty():
    """Games begun before rules revision 4 keep their rules (games/rules/revisions.py)."""
    table = warlord_held_with_the_reserve_empty({"rules_revision": 3})
    assert not [c for c in table.legal("blue") if c.get("card") == "act_warlord"]


# -- Master Craftsman, Triskel half (4 players) ----------------------------------------------


def ogma_played_by_green_holding_master_craftsman() -> Table:
    """Green played Ogma's Eloquence as a maneuver and holds Master Craftsman; the window that
    answers it is open and its answers are not declined for green (`auto_decline` off)."""
    table = Table(
        """
        hills   0,0  blue 1
        valley  1,0  green 3
        plains  0,1  orange 1
        cove   -1,0  white 1
    """,
        capital="valley",
        flock="clockwise",
        hands={"green": ["act_migration", "act_master_craftsman", "ep_ogmas_eloquence"]},
    )
    table.play("green", "act_migration", **{"from": "valley", "moves": {"hills": 1}})
    table.auto_decline = False
    table.do("green", "play", card="ep_ogmas_eloquence")
    return table


def test_master_craftsman_gives_the_epic_tale_away_and_gains_a_deed():
    """Master Craftsman, Triskel: "right after you play an Epic Tale card: give it to another
    player instead of discarding it, and gain 1 Deed." (Here Ogma's Eloquence, as a maneuver.)"""
    table = ogma_played_by_green_holding_master_craftsman()
    assert asked(table) == ["green"]
    assert {"type": "react", "card": "act_master_craftsman", "to": "white"} in table.legal("green")
    table.auto_decline = True
    events = table.do("green", "react", card="act_master_craftsman", to="white")
    assert first(events, "CardReturnedToHand").payload["seat"] == "white"
    assert table.hand("white") == ["ep_ogmas_eloquence"]
    assert "ep_ogmas_eloquence" not in table.state.epic_discard
    assert table.state.deeds["green"] == 1
    assert "ClashEnded" in types(events) or table.clash() is None
