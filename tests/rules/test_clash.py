"""Clashes: Festival, the Citadels step, maneuvers, peace, the end of a clash, several clashes.

Rulebook, Clashes (Citadels, Resolution, End of the Clash).
"""

from games.rules import anytime_commands

from .positions import Table, first, types

THREE = ("green", "blue", "orange")


def migrate(table, seat, origin, moves):
    """`seat` plays Migration from `origin` with `moves` {destination: count}."""
    return table.play(seat, "act_migration", **{"from": origin, "moves": moves})


def test_festival_costs_the_instigator_a_clan_before_the_citadels_step():
    """Festival reminder: "If the Festival marker is in the clashing territory, the player who
    initiated the clash immediately loses a clan before the Citadels step." """
    table = Table(
        """
        plains  0,0  blue 2  sanctuaries 1  citadels 1
        valley  1,0  green 3
    """,
        seats=THREE,
        capital="valley",
        brenn="green",
        festival="plains",
        hands={"green": ["act_migration"]},
    )
    events = migrate(table, "green", "valley", {"plains": 2})
    started = types(events).index("ClashStarted")
    removed = first(events, "ClansRemoved")
    assert events.index(removed) > started
    assert removed.payload == {"seat": "green", "territory": "plains", "count": 1, "cause": "Festival"}
    assert table.awaiting() == {"blue": "citadel"}
    assert table.clans("plains") == {"blue": 2, "green": 1}


def test_festival_taking_the_instigators_only_clan_skips_the_citadels_step():
    """End of the Clash: "A clash ends either when all involved players agree to end the clash
    or when there are no exposed clans remaining" and "even in the case where only one player
    still has exposed clans in the territory, he must decide to either end the clash [...] or to
    perform a maneuver". The Festival took the instigator's only clan: sheltering from nobody
    cannot matter, so the lone player is not asked for a Citadel; it ends the clash or
    maneuvers."""
    table = Table(
        """
        plains  0,0  blue 2  citadels 1
        valley  1,0  green 3
        cove    0,1  blue 1
    """,
        seats=THREE,
        capital="valley",
        brenn="green",
        festival="plains",
        hands={"green": ["act_migration"]},
    )
    events = migrate(table, "green", "valley", {"plains": 1})
    assert first(events, "ClansRemoved").payload["cause"] == "Festival"
    assert "ClanSheltered" not in types(events) and "CitadelDeclined" not in types(events)
    assert table.awaiting() == {"blue": "maneuver"}
    assert {"type": "end_clash"} in table.legal("blue")
    table.do("blue", "end_clash")
    assert table.clash() is None


def test_a_player_who_declines_the_citadels_step_is_not_asked_again():
    """Citadels: "each player (except the instigator) can take one of his clans [...] and place it
    in an unoccupied Citadel. This can take several turns; when all Citadels are occupied or no
    more players wish to occupy them, proceed to the Resolution step." Ruling: who declines is
    out of the Citadels step of this clash."""
    table = Table(
        """
        hills   0,0  blue 2  orange 3  citadels 2
        valley  1,0  green 3
    """,
        seats=THREE,
        capital="valley",
        brenn="green",
        flock="clockwise",
        hands={"green": ["act_migration"]},
    )
    migrate(table, "green", "valley", {"hills": 1})
    assert table.legal("blue") == [{"type": "citadel"}, {"type": "no_citadel"}]
    table.do("blue", "no_citadel")
    table.do("orange", "citadel")
    assert table.awaiting() == {"orange": "citadel"}  # blue is not asked again
    table.do("orange", "citadel")
    assert table.decision("green").kind == "maneuver"
    assert table.decision("green").context["sheltered"] == {"orange": 2}


def test_the_citadels_step_ends_when_nobody_wants_to_shelter():
    """ "...when all Citadels are occupied or no more players wish to occupy them"."""
    table = Table(
        """
        hills   0,0  blue 2  orange 3  citadels 3
        valley  1,0  green 3
    """,
        seats=THREE,
        capital="valley",
        brenn="green",
        flock="clockwise",
        hands={"green": ["act_migration"]},
    )
    migrate(table, "green", "valley", {"hills": 1})
    table.do("blue", "citadel")
    table.do("orange", "no_citadel")
    events = table.do("blue", "no_citadel")
    assert first(events, "CitadelsStepEnded").payload["sheltered"] == {"blue": 1}
    assert table.decision("green").context["free_citadels"] == 2


def test_a_territory_without_citadels_goes_straight_to_resolution():
    """The Capital counts as a Citadel ("The Capital's Citadel functions just like all other
    Citadels"); a territory with none has no Citadels step."""
    bare = Table(
        """
        hills   0,0  blue 2
        valley  1,0  green 3
    """,
        seats=THREE,
        capital="valley",
        brenn="green",
        hands={"green": ["act_migration"]},
    )
    migrate(bare, "green", "valley", {"hills": 1})
    assert bare.decision("green").kind == "maneuver"
    capital = Table(
        """
        hills   0,0  blue 2
        valley  1,0  green 3
    """,
        seats=THREE,
        capital="hills",
        brenn="green",
        hands={"green": ["act_migration"]},
    )
    migrate(capital, "green", "valley", {"hills": 1})
    assert capital.decision("blue").kind == "citadel"
    assert capital.decision("blue").context["free_citadels"] == 1


WITHDRAW_ISLAND = """
    hills    0,0  green 3  blue 2
    valley   1,0  green 2
    plains   1,-1 green 2  orange 1
    moor     0,-1 green 1  orange 1
    cove    -1,0  blue 2
    forest   2,0  green 4
"""


def withdraw_table():
    """Blue attacks into the Hills with Conquest from the Cove; green may withdraw to the Valley
    and the Plains (chieftain), not the Moor (tie) nor the Forest (not adjacent)."""
    table = Table(
        WITHDRAW_ISLAND,
        seats=THREE,
        capital="forest",
        brenn="blue",
        flock="clockwise",
        hands={"blue": ["act_conquest"]},
    )
    table.play("blue", "act_conquest", territory="hills", moves={"cove": 1})
    table.do("blue", "attack", target="green")
    return table


def test_withdraw_only_to_adjacent_territories_where_chieftain():
    """Withdraw: "The player moves one or more of his exposed clans to adjacent territories where
    he is the chieftain. [...] If a player is not the chieftain of any adjacent territories, he
    cannot choose to perform this maneuver." """
    table = withdraw_table()
    assert table.decision("green").kind == "maneuver"
    targets = {t for c in table.legal("green") if c["type"] == "withdraw" for t in c["moves"]}
    assert targets == {"valley", "plains"}
    message = table.refuse("green", "withdraw", moves={"moor": 1})
    assert "Valley" in message and "Plains" in message
    table.refuse("green", "withdraw", moves={"forest": 1})


def test_withdraw_may_be_split_and_starts_no_clash():
    """Withdraw: "If a player has several territories as possible options for withdrawal, he can
    choose to divide his clans among the available options as he wishes." "The Withdraw maneuver
    does not initiate another clash." (The Plains hold an orange clan.)"""
    table = withdraw_table()
    exposed = table.decision("green").context["exposed"]["green"]
    assert exposed == 2  # green removed a clan when attacked (no Action card)
    assert {"type": "withdraw", "moves": {"valley": 1, "plains": 1}} in table.legal("green")
    events = table.do("green", "withdraw", moves={"valley": 1, "plains": 1})
    assert types(events).count("ClashStarted") == 0
    assert table.clans("plains") == {"green": 3, "orange": 1}
    assert table.clans("valley") == {"green": 3}
    # Blue, alone with exposed clans, may now end the clash, or withdraw "to any adjacent
    # territory where he is the chieftain, including the territory where the instigator came
    # from".
    assert {"type": "end_clash"} in table.legal("blue")
    assert {"type": "withdraw", "moves": {"cove": 1}} in table.legal("blue")


def test_withdrawing_some_clans_gives_the_turn_back_to_the_last_player():
    """End of the Clash: "If he chooses to withdraw with some but not all of his exposed clans,
    it becomes his turn again as he is the only player with exposed clans in the clashing
    territory." """
    table = Table(
        """
        hills   0,0  blue 1
        valley  1,0  green 4
    """,
        seats=THREE,
        capital="valley",
        brenn="green",
        hands={"green": ["act_migration"]},
    )
    migrate(table, "green", "valley", {"hills": 3})
    table.do("green", "attack", target="blue")
    assert table.decision("green").kind == "maneuver"  # blue has no clan left there
    table.do("green", "withdraw", moves={"valley": 1})
    assert table.decision("green").kind == "maneuver"
    assert {"type": "end_clash"} in table.legal("green")
    assert "propose_peace" not in table.legal_types("green")


def test_the_attacked_player_chooses_unless_they_hold_no_action_card():
    """Attack: "The attacked player chooses one option: Discard an Action Card [...] Remove an
    Exposed Clan [...] If the attacked player does not have any Action cards, he has no choice
    but to remove an exposed clan." """
    table = Table(
        """
        hills   0,0  blue 2  orange 2
        valley  1,0  green 3
    """,
        seats=THREE,
        capital="valley",
        brenn="green",
        flock="clockwise",
        hands={"green": ["act_migration"], "blue": ["act_bard", "ep_eriu"]},
    )
    migrate(table, "green", "valley", {"hills": 2})
    table.do("green", "attack", target="blue")
    assert table.legal("blue") == [
        {"type": "attack_response", "choice": "remove"},
        {"type": "attack_response", "choice": "discard", "card": "act_bard"},
    ]
    assert "Discard one of your Action cards" in table.refuse(
        "blue", "attack_response", choice="discard", card="ep_eriu"
    )
    table.do("blue", "attack_response", choice="remove")
    assert table.clans("hills")["blue"] == 1
    # Orange holds no Action card: no question, the clan goes.
    table.do("blue", "attack", target="orange")
    assert "attack_response" not in table.awaiting().values()
    assert table.clans("hills")["orange"] == 1


def test_peace_needs_every_other_player_with_exposed_clans():
    """ "Before each maneuver, players with exposed clans may discuss and agree to immediately end
    the clash." "A clash ends either when all involved players agree to end the clash..." A
    player whose clans are all in Citadels is not involved and does not vote."""
    table = Table(
        """
        hills   0,0  blue 2  orange 1  white 1  citadels 1
        valley  1,0  green 3
    """,
        capital="valley",
        brenn="green",
        flock="clockwise",
        hands={"green": ["act_migration"]},
    )
    migrate(table, "green", "valley", {"hills": 2})
    table.do("blue", "no_citadel")
    table.do("orange", "citadel")  # orange's only clan is safe: out of the clash
    table.do("green", "propose_peace")
    assert table.awaiting() == {"blue": "peace_vote", "white": "peace_vote"}
    table.do("white", "peace_vote", agree=True)
    assert table.awaiting() == {"blue": "peace_vote"}
    assert table.clash() is not None
    events = table.do("blue", "peace_vote", agree=True)
    assert first(events, "ClashEnded").payload["reason"] == "ended by agreement"
    assert table.clash() is None
    assert table.clans("hills") == {"blue": 2, "orange": 1, "white": 1, "green": 2}


def test_any_player_with_exposed_clans_may_propose_peace():
    """Resolution: "Before each maneuver, players with exposed clans may discuss and agree to
    immediately end the clash" — not only the player about to maneuver. Blue proposes before
    green's maneuver; green and orange vote."""
    table = Table(
        """
        hills   0,0  blue 2  orange 1
        valley  1,0  green 3
    """,
        seats=THREE,
        capital="valley",
        brenn="green",
        hands={"green": ["act_migration"]},
    )
    migrate(table, "green", "valley", {"hills": 2})
    assert table.awaiting() == {"green": "maneuver"}
    # Offered to blue and orange, who have no decision of their own (the web page and the
    # email reader list anytime_commands); green finds it among its maneuvers.
    assert anytime_commands(table.state, "blue") == [{"type": "propose_peace"}]
    assert anytime_commands(table.state, "orange") == [{"type": "propose_peace"}]
    assert anytime_commands(table.state, "green") == []
    assert table.legal("green").count({"type": "propose_peace"}) == 1
    table.do("blue", "propose_peace")
    assert anytime_commands(table.state, "orange") == []
    assert table.awaiting() == {"green": "peace_vote", "orange": "peace_vote"}
    table.do("green", "peace_vote", agree=False)
    assert table.awaiting() == {"green": "maneuver"}
    assert "once" in table.refuse("orange", "propose_peace")
    table.do("green", "attack", target="orange")
    assert table.clans("hills").get("orange", 0) == 0  # no Action card: the clan goes
    assert table.awaiting() == {"blue": "maneuver"}
    message = table.refuse("orange", "propose_peace")
    assert "exposed clans" in message


def test_one_refusal_continues_the_clash_and_the_proposer_maneuvers():
    """Clash example: "The green player agrees, but the blue player refuses, so the clash
    continues, and the white player must perform a maneuver." Passing is not an option."""
    table = Table(
        """
        hills   0,0  blue 2  orange 1
        valley  1,0  green 3
    """,
        seats=THREE,
        capital="valley",
        brenn="green",
        hands={"green": ["act_migration"]},
    )
    migrate(table, "green", "valley", {"hills": 2})
    table.do("green", "propose_peace")
    table.do("blue", "peace_vote", agree=False)
    assert table.awaiting() == {"green": "maneuver"}  # orange's vote is not needed any more
    assert "propose_peace" not in table.legal_types("green")
    assert "once" in table.refuse("green", "propose_peace")
    table.refuse("green", "pass")


# -- Peace while a Triskel window answers the maneuver just made -----------------------------

FOLDED_ISLAND = """
    hills   0,0  blue 2  orange 2
    valley  1,0  green 3
"""


def blues_maneuver_after_greens_attack(reactions: str, hands: dict) -> Table:
    """Green conquers the Hills (blue 2, orange 2) and attacks orange, who removes a clan; the
    Triskel window right after green's maneuver is still open, folded into blue's maneuver,
    which comes next. Orange holds Bard, so it answers the attack; `hands` gives blue's."""
    table = Table(
        FOLDED_ISLAND,
        seats=THREE,
        capital="valley",
        brenn="green",
        flock="clockwise",
        decline=False,
        options={"reactions": reactions},
        hands={"green": ["act_conquest"], "orange": ["act_bard"], **hands},
    )
    table.play("green", "act_conquest", territory="hills", moves={"valley": 2})
    table.decline_reactions()
    table.do("green", "attack", target="orange")
    table.do("orange", "attack_response", choice="remove")
    blue = table.decision("blue")
    assert blue.kind == "maneuver" and "triskel" in blue.context
    return table


def test_peace_may_be_proposed_before_a_maneuver_folded_into_a_triskel_window():
    """Resolution: "Very important! Before each maneuver, players with exposed clans may discuss
    and agree to immediately end the clash." Blue, who holds Warlord, is asked for its maneuver
    together with the Triskel window after green's attack; orange may still propose peace before
    blue's maneuver. The window goes on as a plain Triskel question for blue (the vote comes
    first), then green and blue vote (docs/rulings.md, "Peace")."""
    table = blues_maneuver_after_greens_attack("holders", {"blue": ["act_warlord"]})
    assert anytime_commands(table.state, "orange") == [{"type": "propose_peace"}]
    assert anytime_commands(table.state, "green") == [{"type": "propose_peace"}]
    assert {"type": "propose_peace"} in table.legal("blue")  # among its maneuvers, once
    assert anytime_commands(table.state, "blue") == []
    events = table.do("orange", "propose_peace")
    assert types(events) == ["PeaceProposed", "ProcedureAdvanced"]
    blue = table.decision("blue")
    assert blue.kind == "reaction"
    assert blue.prompt.startswith("Triskel: green has performed a maneuver in the clash.")
    assert "attack" not in table.legal_types("blue")
    message = table.refuse("blue", "attack", target="orange")
    assert message.startswith(
        "orange has proposed to end the clash: the vote comes before the next maneuver."
    )
    assert "only before a maneuver" in table.refuse("green", "propose_peace")
    table.do("blue", "decline")
    assert table.awaiting() == {"green": "peace_vote", "blue": "peace_vote"}
    table.do("green", "peace_vote", agree=True)
    events = table.do("blue", "peace_vote", agree=True)
    assert first(events, "ClashEnded").payload["reason"] == "ended by agreement"
    assert table.clash() is None
    assert table.clans("hills") == {"blue": 2, "orange": 1, "green": 2}


def test_a_player_asked_in_the_window_may_propose_peace_and_a_given_maneuver_waits_for_the_vote():
    """Resolution: "Before each maneuver, players with exposed clans may discuss and agree to
    immediately end the clash." With the windows offered on public facts, orange is asked too:
    its Triskel question lists the proposal. Blue gave its maneuver first; the proposal comes
    before it, so it is not made: after the refusal blue is asked for its maneuver again, and
    nobody may propose once more before it (docs/rulings.md, "Peace")."""
    table = blues_maneuver_after_greens_attack("public", {"blue": ["act_sanctuary"]})
    assert table.decision("orange").kind == "reaction"
    assert table.legal("orange") == [{"type": "decline"}, {"type": "propose_peace"}]
    assert types(table.do("blue", "attack", target="orange")) == ["ReactionAnswered"]
    assert table.awaiting() == {"orange": "reaction"}
    table.do("orange", "propose_peace")
    events = table.do("orange", "decline")
    assert "AttackDeclared" not in types(events)
    assert table.awaiting() == {"green": "peace_vote", "blue": "peace_vote"}
    table.do("blue", "peace_vote", agree=False)
    blue = table.decision("blue")
    assert blue.kind == "maneuver" and "triskel" not in blue.context
    assert "once" in table.refuse("orange", "propose_peace")
    assert "propose_peace" not in table.legal_types("blue")
    events = table.do("blue", "attack", target="orange")
    assert first(events, "AttackDeclared").payload["target"] == "orange"


def test_warlord_played_after_a_peace_proposal_keeps_it_the_one_before_the_next_maneuver():
    """Warlord, Triskel: "Place 1 clan from your reserve in the clashing territory [...]. Then
    choose which player performs the next maneuver." Orange proposes peace while blue's Warlord
    may still answer green's maneuver: the clan is placed, the vote comes, and after the refusal
    the player Warlord chose maneuvers, with no second proposal before that maneuver."""
    table = blues_maneuver_after_greens_attack("holders", {"blue": ["act_warlord"]})
    table.do("orange", "propose_peace")
    events = table.do("blue", "react", card="act_warlord", next="orange")
    assert first(events, "ClansPlaced").payload["placements"] == {"hills": 1}
    assert table.awaiting() == {"green": "peace_vote", "blue": "peace_vote"}
    table.do("green", "peace_vote", agree=False)
    assert table.awaiting() == {"orange": "maneuver"}
    assert "propose_peace" not in table.legal_types("orange")
    assert anytime_commands(table.state, "blue") == []


def test_peace_proposed_before_a_triskel_card_left_the_proposer_alone_ends_the_clash():
    """End of the Clash: "A clash ends either when all involved players agree to end the clash
    or when there are no exposed clans remaining." Green proposes peace while its Raid window is
    open (Raid: 4 players); Raid then removes blue's last exposed clan: green, the proposer, is the only player
    involved, and the clash ends by agreement (docs/rulings.md, "Peace")."""
    table = Table(
        """
        hills   0,0  blue 2
        valley  1,0  green 3
        plains  0,1  orange 1  white 1
    """,
        capital="valley",
        brenn="green",
        flock="clockwise",
        decline=False,
        options={"reactions": "holders"},
        hands={"green": ["act_conquest", "act_raid"]},
    )
    table.play("green", "act_conquest", territory="hills", moves={"valley": 2})
    table.decline_reactions()
    table.do("green", "attack", target="blue")  # blue holds no Action card: its clan goes
    assert table.awaiting() == {"green": "reaction"}
    assert {"type": "propose_peace"} in table.legal("green")
    table.do("green", "propose_peace")
    events = table.do("green", "react", card="act_raid")
    assert first(events, "ClansRemoved").payload["cause"] == "Raid"
    assert first(events, "ClashEnded").payload["reason"] == "ended by agreement"
    assert table.clash() is None
    assert table.clans("hills") == {"green": 2}


def test_the_last_player_with_exposed_clans_may_end_the_clash_alone():
    """End of the Clash: "even in the case where only one player still has exposed clans in the
    territory, he must decide to either end the clash (he is the only one to decide) or to perform
    a maneuver". While others have exposed clans, ending alone is refused."""
    table = Table(
        """
        hills   0,0  blue 1  citadels 1
        valley  1,0  green 3
        moor    0,1  blue 3
    """,
        seats=THREE,
        capital="valley",
        brenn="green",
        hands={"green": ["act_migration"]},
    )
    migrate(table, "green", "valley", {"hills": 2})
    table.do("blue", "citadel")
    # Blue's only clan there is sheltered: green alone has exposed clans, the clash does not
    # end by itself.
    assert table.decision("green").kind == "maneuver"
    assert {"type": "end_clash"} in table.legal("green")
    events = table.do("green", "end_clash")
    assert "ClashEnded" in types(events)
    ended = Table(
        """
        hills   0,0  blue 1
        valley  1,0  green 3
    """,
        seats=THREE,
        capital="valley",
        brenn="green",
        hands={"green": ["act_migration"]},
    )
    migrate(ended, "green", "valley", {"hills": 2})
    assert "end_clash" not in ended.legal_types("green")
    assert "propose peace" in ended.refuse("green", "end_clash")


def test_sheltered_clans_come_back_when_the_clash_ends():
    """ "When the clash ends, all clans occupying Citadels are taken out and placed back in their
    territory." They count again (here, for the chieftain of the Hills)."""
    table = Table(
        """
        hills   0,0  blue 3  citadels 2
        valley  1,0  green 4
    """,
        seats=THREE,
        capital="valley",
        brenn="green",
        hands={"green": ["act_migration"]},
    )
    migrate(table, "green", "valley", {"hills": 3})
    table.do("blue", "citadel")
    table.do("blue", "citadel")
    table.do("green", "attack", target="blue")  # the exposed blue clan goes
    assert table.decision("green").context["exposed"] == {"green": 3}
    assert table.state.chieftain("hills") == "green"
    events = table.do("green", "end_clash")
    assert first(events, "ClashEnded").payload["released"] == {"blue": 2}
    assert table.clans("hills") == {"blue": 2, "green": 3}
    assert table.state.top()["kind"] == "season"


def three_clashes() -> Table:
    """Green migrates from the Valley into the Plains, the Moor and the Cove, each held by an
    opponent: three clashes, green to choose the first."""
    table = Table(
        """
        valley  0,0  green 6
        plains  1,0  blue 1
        moor    1,-1 orange 1
        cove    0,1  blue 1
    """,
        seats=THREE,
        capital="valley",
        brenn="green",
        hands={"green": ["act_migration"]},
    )
    migrate(table, "green", "valley", {"plains": 1, "moor": 1, "cove": 1})
    return table


def test_several_clashes_in_the_order_the_instigator_chooses():
    """ "If a single effect results in multiple clashes (such as the "Migration" Action card), the
    instigator chooses which clash to resolve first. After resolving the first clash, he chooses
    which clash to resolve next, and so on until all clashes have been resolved." """
    table = three_clashes()
    decision = table.decision("green")
    assert decision.kind == "clash_order"
    assert sorted(decision.context["territories"]) == ["cove", "moor", "plains"]
    table.refuse("green", "clash_order", territory="valley")
    table.refuse("blue", "clash_order", territory="plains")
    events = table.do("green", "clash_order", territory="moor")
    assert first(events, "ClashStarted").payload["territory"] == "moor"
    table.do("green", "attack", target="orange")
    table.do("green", "end_clash")
    assert table.decision("green").context["territories"] == ["plains", "cove"]
    events = table.do("green", "clash_order", territory="cove")
    assert first(events, "ClashStarted").payload["territory"] == "cove"
    table.do("green", "propose_peace")
    events = table.do("blue", "peace_vote", agree=True)
    # The last waiting clash starts by itself.
    assert first(events, "ClashStarted").payload["territory"] == "plains"


def test_the_choice_of_the_next_clash_names_the_territories_with_their_articles():
    """ "...the instigator chooses which clash to resolve first": the prompt names the clashing
    territories as a sentence does, "in the Plains, the Moor and the Cove" ("dans la Plaine, la
    Lande et l'Anse"), not a bare list of names."""
    from games.rules import speaking

    table = three_clashes()
    assert table.decision("green").prompt == (
        "Your move started clashes in the Plains, the Moor and the Cove: choose which to resolve first."
    )
    with speaking("fr"):
        assert table.decision("green").prompt == (
            "Votre déplacement a déclenché des conflits dans la Plaine, la Lande et l'Anse : "
            "choisissez lequel résoudre en premier."
        )


WAITING_ISLAND = """
    valley  0,0  green 4
    plains  1,0  blue 2  orange 1
    moor    1,-1 blue 1
"""


def test_the_instigator_is_chieftain_of_a_waiting_clash_territory():
    """Clarifications: "In territories where other clashes are waiting for the current clash to
    be resolved, it is possible for the instigator to have more clans in those territories than
    anyone else. While waiting for that territory's clash to be resolved, the instigator is
    considered that territory's chieftain, so he can use the Withdraw maneuver to move his clans
    there, but other players cannot." """
    table = Table(
        WAITING_ISLAND,
        seats=THREE,
        capital="valley",
        brenn="green",
        flock="clockwise",
        hands={"green": ["act_migration"]},
    )
    migrate(table, "green", "valley", {"plains": 2, "moor": 2})
    table.do("green", "clash_order", territory="plains")
    assert table.state.chieftain("moor") == "green"
    assert {"type": "withdraw", "moves": {"moor": 1}} in table.legal("green")
    table.do("green", "attack", target="blue")
    # Blue was the Moor's chieftain before green's clans arrived; now it cannot withdraw there.
    assert table.decision("blue").kind == "maneuver"
    assert "withdraw" not in table.legal_types("blue")
    assert "cannot Withdraw" in table.refuse("blue", "withdraw", moves={"moor": 1})
    table.do("blue", "attack", target="orange")
    table.do("green", "withdraw", moves={"moor": 1})
    assert table.clans("moor") == {"blue": 1, "green": 3}


def test_a_waiting_clash_does_not_take_chieftainship_from_the_player_with_most_clans():
    """Same clarification, other case. The French rulebook gives the reason: "l'envahisseur est
    bien considéré comme chef du Territoire puisque ce statut change de manière immédiate" (the
    status of chieftain changes at once, with the clans). So where the instigator does not have
    the most clans, the player who has stays chieftain, and may withdraw there (ruling, Waiting
    clashes)."""
    table = Table(
        """
        valley  0,0  green 4
        plains  1,0  blue 2  orange 1
        moor    1,-1 blue 3
    """,
        seats=THREE,
        capital="valley",
        brenn="green",
        flock="clockwise",
        hands={"green": ["act_migration"]},
    )
    migrate(table, "green", "valley", {"plains": 2, "moor": 1})
    table.do("green", "clash_order", territory="plains")
    assert table.state.chieftain("moor") == "blue"
    assert "moor" not in {t for c in table.legal("green") if c["type"] == "withdraw" for t in c["moves"]}
    table.do("green", "attack", target="orange")
    table.do("blue", "withdraw", moves={"moor": 2})
    assert table.clans("moor") == {"blue": 5, "green": 1}
