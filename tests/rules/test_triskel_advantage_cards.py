"""The thirteen Triskel Advantage cards: each one's effect, when it is offered, and its limits.

Card texts: docs/cards.md. Advantage cards are public, so a window for one asks its
holder only (docs/rulings.md, "Who is asked"), and only when the trigger concerns the holder
("after YOU play a Season card", "an attack targets YOU in the Hills"). Once played, the card lies
face down near the play area until the next Assembly: it is offered no more this round.
"""

import pytest

from games.rules import IllegalCommand, InvalidCommand, redact
from games.rules.catalog import ADVANTAGE, CARDS, TRISKEL

from .positions import Table, first, types
from .triskel_positions import (
    asked,
    by_seed,
    decline,
    decline_watching,
    offered,
    react,
    reactions,
    settle,
    skip_to,
    trigger,
    warlord_clash,
)

THREE = ("green", "blue", "orange")

# Around the Moor: the Valley, Forest, Salt Mine, Lost Vale, Cove and Plains all touch it.
# The Lost Vale touches the Moor, the Salt Mine and the Cove only.
ISLAND = """
    moor        0,0    green 3  blue 2
    valley      1,0    green 2
    plains      0,1    blue 2  orange 1
    cove        -1,1   orange 1
    lost_vale   -1,0   green 1
    salt_mine   0,-1   orange 1  blue 1
    forest      1,-1   blue 1
    stone_circle 2,-1  green 2  sanctuaries 1
    meadows     1,1    orange 1
"""


def season(hands, **position):
    """A Season table on ISLAND, green to play, windows left open."""
    position.setdefault("capital", "plains")
    return Table(ISLAND, seats=THREE, decline=False, hands=hands, **position)


def new_clans(table, seat="green", territory="valley"):
    """`seat` plays New Clans (2 clans in `territory`) and the windows up to the one after the
    Season card are declined; returns the seats asked in that window ([] if none opened)."""
    table.play(seat, "act_new_clans", territories=[territory, territory])
    while trigger(table) not in (None, "after_season_card"):
        decline(table)
    return asked(table)


def oengus(table, seat="green"):
    """`seat` plays New Clans, then Oengus's Ploy at the end of that turn; the windows are
    declined up to the one after the Epic Tale."""
    table.play(seat, "act_new_clans", territories=["valley", "valley"])
    skip_to(table, "turn_ended")
    react(table, seat, "ep_oengus_ploy")
    while trigger(table) not in (None, "after_epic_played"):
        decline(table)


# -- after you play a Season card: Cove, Lost Vale, Salt Mine, Valley --------------------------


def test_cove_takes_the_set_aside_card_and_sets_another_aside():
    """Cove: "after you play a Season card: Take the Action card set aside during the Assembly
    into your hand, then set aside 1 Action card from your hand, face down, in its place." """
    table = season(
        {"green": ["act_new_clans", "act_sanctuary", "adv_cove"], "blue": ["ep_eriu"]}, set_aside="act_bard"
    )
    assert new_clans(table) == ["green"]
    assert offered(table, "green", "adv_cove")
    react(table, "green", "adv_cove")
    settle(table)  # blue, holding an Epic Tale, may have The Dagda
    assert table.awaiting() == {"green": "card_choice"}
    assert "act_bard" in table.hand("green")
    assert table.legal("green") == [
        {"type": "set_aside", "card": "act_bard"},
        {"type": "set_aside", "card": "act_sanctuary"},
    ]
    events = table.do("green", "set_aside", card="act_sanctuary")
    assert first(events, "ActionCardSetAside").visibility == ("green",)  # face down
    assert table.state.set_aside == "act_sanctuary"
    assert sorted(table.state.action_cards("green")) == ["act_bard"]
    assert "adv_cove" in table.state.advantage_played


def test_cove_only_after_your_own_season_card_and_with_a_card_set_aside():
    """Cove answers "after YOU play a Season card", and takes "the Action card set aside": not
    offered after another player's card, nor when no card is set aside."""
    table = season({"green": ["act_new_clans", "adv_cove"], "blue": ["act_sanctuary"]})
    assert table.state.set_aside is None
    assert new_clans(table) == ["green"]  # its holder is asked, but may only decline
    assert table.legal("green") == [{"type": "decline"}]
    settle(table)
    table.play("blue", "act_sanctuary", territory="plains")
    decline_watching(table, "green", "adv_cove")


def test_lost_vale_pulls_any_clan_in_without_a_clash():
    """Lost Vale: "after you play a Season card: Move any 1 clan, of any player, from a territory
    adjacent to the Lost Vale into the Lost Vale. This move does not start a clash." """
    table = season({"green": ["act_new_clans", "adv_lost_vale"]})
    assert new_clans(table) == ["green"]
    options = reactions(table, "green")
    assert {c["from"] for c in options} == {"moor", "salt_mine", "cove"}  # adjacent only
    assert {"type": "react", "card": "adv_lost_vale", "owner": "blue", "from": "moor"} in options
    assert {"type": "react", "card": "adv_lost_vale", "owner": "orange", "from": "cove"} in options
    events = react(table, "green", "adv_lost_vale", owner="blue", **{"from": "moor"})
    events += settle(table)
    assert first(events, "ClansMoved").payload["moves"] == [["moor", "lost_vale", 1]]
    assert table.clans("lost_vale") == {"green": 1, "blue": 1}
    assert "ClashStarted" not in types(table.events)
    assert table.awaiting() == {"blue": "season_turn"}


def test_salt_mine_takes_a_random_card_and_gives_one_back():
    """Salt Mine: "after you play a Season card: Take 1 Action card at random from 1 opponent's
    hand, then give that player 1 of your Action cards (your choice)." Only an opponent holding
    an Action card can be chosen."""
    table = season(
        {"green": ["act_new_clans", "act_sanctuary", "adv_salt_mine"], "blue": ["act_bard", "act_druid"]}
    )
    assert new_clans(table) == ["green"]
    assert reactions(table, "green") == [
        {"type": "react", "card": "adv_salt_mine", "opponent": "blue"}
    ]  # orange has no Action card
    events = react(table, "green", "adv_salt_mine", opponent="blue")
    taken = first(events, "CardGiven")
    assert taken.payload["from"] == "blue" and taken.payload["to"] == "green"
    assert taken.visibility == ("blue", "green")
    assert taken.payload["card"] in ("act_bard", "act_druid")
    assert table.awaiting() == {"green": "card_choice"}
    table.do("green", "give", card="act_sanctuary")
    assert sorted(table.state.action_cards("blue")) == sorted(
        {"act_bard", "act_druid", "act_sanctuary"} - {taken.payload["card"]}
    )
    assert sorted(table.state.action_cards("green")) == [taken.payload["card"]]


def test_salt_mine_is_not_offered_when_no_opponent_holds_an_action_card():
    """Salt Mine needs an opponent's Action card to take."""
    table = season({"green": ["act_new_clans", "adv_salt_mine"]})
    assert new_clans(table) == ["green"]
    assert not offered(table, "green", "adv_salt_mine")


def test_valley_places_a_clan_where_you_are_present_once_a_round():
    """Valley: "after you play a Season card: Place 1 clan in a territory where you are present."
    Played, it lies face down: it is not offered again this round. Another player's Season card
    does not trigger it."""
    table = season(
        {"green": ["act_new_clans", "act_sanctuary", "adv_valley"], "blue": ["act_bard", "ep_eriu"]}
    )
    assert new_clans(table) == ["green"]
    assert {c["territory"] for c in reactions(table, "green")} == set(table.state.present("green"))
    react(table, "green", "adv_valley", territory="lost_vale")
    settle(table)
    assert table.clans("lost_vale") == {"green": 2}
    assert "adv_valley" in table.state.advantage_played
    table.play("blue", "act_bard")
    decline_watching(table, "green", "adv_valley")
    table.do("orange", "pass")
    settle(table)
    table.play("green", "act_sanctuary", territory="valley")
    decline_watching(table, "green", "adv_valley")


def geis_on_new_clans(hands, options=None):
    """Green (holding `hands["green"]`) plays New Clans and blue answers it with Geis: "Ignore the
    effect on the Action card just played and discard it." Returns the table, the windows after
    Geis still open."""
    table = season(hands, options=options)
    table.play("green", "act_new_clans", territories=["valley", "valley"])
    assert trigger(table) == "card_declared"
    react(table, "blue", "act_geis")
    return table


def test_valley_answers_a_season_card_cancelled_by_geis():
    """Valley: "after you play a Season card". Geis ignores the effect of "the Action card just
    played": the card was played all the same, so the Valley is offered once it is discarded
    (docs/rulings.md, "A cancelled card was played"), as after a card played for no effect."""
    table = geis_on_new_clans(
        {"green": ["act_new_clans", "act_sanctuary", "adv_valley"], "blue": ["act_geis", "act_bard"]}
    )
    while trigger(table) not in (None, "after_season_card"):
        decline(table)
    assert trigger(table) == "after_season_card" and asked(table) == ["green"]
    assert table.decision("green").prompt == (
        "Triskel: you have played the Season card New Clans. Play a Triskel card in response, or decline."
    )
    react(table, "green", "adv_valley", territory="moor")
    settle(table)
    assert table.clans("valley") == {"green": 2}  # New Clans placed nothing
    assert table.clans("moor") == {"green": 4, "blue": 2}
    assert "act_new_clans" in table.state.action_discard


def test_rules_revision_1_offers_no_valley_after_a_card_cancelled_by_geis():
    """Games of rules revision 1 (begun before the ruling, `games.rules.revisions`) opened no
    "after you play a Season card" window for a cancelled card."""
    table = geis_on_new_clans(
        {"green": ["act_new_clans", "act_sanctuary", "adv_valley"], "blue": ["act_geis", "act_bard"]},
        options={"rules_revision": 1},
    )
    decline_watching(table, "green", "adv_valley")
    assert table.awaiting() == {"blue": "season_turn"}


# -- after you play an Epic Tale: Forest, Stone Circle ----------------------------------------


def dagda_on_children_of_dana(options=None):
    """Blue plays Children of Dana; green, holding Forest and Stone Circle (with 2 clans there),
    answers it with The Dagda. Returns the table with the windows after The Dagda open."""
    table = season(
        {
            "green": ["act_new_clans", "adv_forest", "adv_stone_circle", "ep_the_dagda", "ep_eriu"],
            "blue": ["ep_children_of_dana", "act_bard"],
        },
        turn="blue",
        opened=True,
        epic_deck=["ep_tuans_memory", "ep_balors_eye"],
        options=options,
    )
    table.play("blue", "ep_children_of_dana", territory="moor")
    assert trigger(table) == "card_declared"
    react(table, "green", "ep_the_dagda")
    return table


def test_forest_answers_the_dagda_but_stone_circle_cannot_take_it_back():
    """Forest: "after you play an Epic Tale card: Draw 1 Epic Tale card." The Dagda is an Epic
    Tale its holder plays, though it goes back into the deck rather than to the discard; Stone
    Circle ("take that Epic Tale card back into your hand instead of discarding it") has nothing
    to take: offered to its holder (public), it may only be declined."""
    table = dagda_on_children_of_dana()
    while trigger(table) not in (None, "after_epic_played"):
        decline(table)
    assert trigger(table) == "after_epic_played" and asked(table) == ["green"]
    assert table.state.top()["context"]["card"] == "ep_the_dagda"
    assert reactions(table, "green") == [{"type": "react", "card": "adv_forest"}]
    react(table, "green", "adv_forest")
    settle(table)
    assert "adv_forest" in table.state.advantage_played
    assert "adv_stone_circle" in table.hand("green")
    assert len([c for c in table.hand("green") if c.startswith("ep_")]) == 2  # Eriu and the draw


def test_forest_answers_your_epic_tale_cancelled_by_the_dagda():
    """The Epic Tale The Dagda cancels was played too: its player's Forest is offered after it
    (ruling "A cancelled card was played"); The Dagda has discarded it, so there is nothing left
    for Stone Circle to take back."""
    table = season(
        {
            "green": ["act_new_clans", "ep_oengus_ploy", "adv_forest", "adv_stone_circle"],
            "blue": ["ep_the_dagda"],
        },
        epic_deck=["ep_eriu", "ep_tuans_memory"],
    )
    table.play("green", "act_new_clans", territories=["valley", "valley"])
    skip_to(table, "turn_ended")
    react(table, "green", "ep_oengus_ploy")
    assert trigger(table) == "card_declared"
    react(table, "blue", "ep_the_dagda")
    skip_to(table, "after_epic_played")
    assert table.state.top()["actor"] == "green"
    assert table.state.top()["context"]["card"] == "ep_oengus_ploy"
    assert reactions(table, "green") == [{"type": "react", "card": "adv_forest"}]
    react(table, "green", "adv_forest")
    settle(table)
    assert "adv_forest" in table.state.advantage_played
    assert "ep_oengus_ploy" not in table.hand("green")
    assert table.awaiting() == {"blue": "season_turn"}  # the Ploy was cancelled


def test_rules_revision_1_offers_no_forest_after_the_dagda():
    """Games of rules revision 1 opened the "after you play an Epic Tale card" window only for
    an Epic Tale going to the discard: not after The Dagda."""
    table = dagda_on_children_of_dana(options={"rules_revision": 1})
    decline_watching(table, "green", "adv_forest")


def test_forest_draws_an_epic_tale_after_yours():
    """Forest: "after you play an Epic Tale card: Draw 1 Epic Tale card." """
    table = season(
        {"green": ["act_new_clans", "ep_oengus_ploy", "adv_forest"]}, epic_deck=["ep_eriu", "ep_tuans_memory"]
    )
    oengus(table)
    assert asked(table) == ["green"] and offered(table, "green", "adv_forest")
    react(table, "green", "adv_forest")
    settle(table)
    assert "ep_eriu" in table.hand("green")
    assert "adv_forest" in table.state.advantage_played
    assert table.awaiting() == {"green": "season_turn"}  # Oengus's Ploy: green plays again


def test_forest_is_not_offered_for_another_players_epic_tale_nor_an_action_card():
    """Forest answers "after YOU play an Epic Tale card": not an Action card, not another
    player's Epic Tale."""
    table = season({"green": ["act_new_clans", "adv_forest"], "blue": ["ep_oengus_ploy"]})
    table.play("green", "act_new_clans", territories=["valley", "valley"])
    skip_to(table, "turn_ended")
    react(table, "blue", "ep_oengus_ploy")
    decline_watching(table, "green", "adv_forest")
    assert table.awaiting() == {"blue": "season_turn"}


def test_stone_circle_takes_the_epic_tale_back_for_a_clan():
    """Stone Circle: "after you play an Epic Tale card: Remove 1 of your clans from the Stone
    Circle; in exchange take that Epic Tale card back into your hand instead of discarding it." """
    table = season({"green": ["act_new_clans", "ep_oengus_ploy", "adv_stone_circle"]})
    oengus(table)
    assert asked(table) == ["green"] and offered(table, "green", "adv_stone_circle")
    react(table, "green", "adv_stone_circle")
    settle(table)
    assert "ep_oengus_ploy" in table.hand("green")
    assert "ep_oengus_ploy" not in table.state.epic_discard
    assert table.clans("stone_circle") == {"green": 1}
    assert table.awaiting() == {"green": "season_turn"}  # the Ploy's effect happened


def test_stone_circle_needs_your_clan_there():
    """Stone Circle removes "1 of your clans from the Stone Circle": with none there, it is not
    offered (its holder is asked, and may only decline)."""
    island = ISLAND.replace("stone_circle 2,-1  green 2", "stone_circle 2,-1  blue 2")
    table = Table(
        island,
        seats=THREE,
        capital="plains",
        decline=False,
        hands={"green": ["act_new_clans", "ep_oengus_ploy", "adv_stone_circle"]},
    )
    oengus(table)
    assert asked(table) == ["green"] and not offered(table, "green", "adv_stone_circle")


# -- drawing Epic Tales: Meadows, Gates of Tír na nÓg ------------------------------------------


def test_meadows_draws_one_more_and_keeps_one():
    """Meadows: "whenever you draw an Epic Tale card: Draw 1 additional Epic Tale card, keep 1 of
    the drawn cards and discard the other(s)." """
    table = season(
        {"green": ["act_sanctuary", "adv_meadows"]}, epic_deck=["ep_eriu", "ep_tuans_memory", "ep_balors_eye"]
    )
    table.play("green", "act_sanctuary", territory="valley")
    skip_to(table, "epic_drawn")
    assert asked(table) == ["green"] and offered(table, "green", "adv_meadows")
    react(table, "green", "adv_meadows")
    settle(table)
    assert table.awaiting() == {"green": "keep_epic"}
    assert table.legal("green") == [
        {"type": "keep", "cards": ["ep_eriu"]},
        {"type": "keep", "cards": ["ep_tuans_memory"]},
    ]
    table.do("green", "keep", cards=["ep_tuans_memory"])
    assert "ep_tuans_memory" in table.hand("green") and "ep_eriu" not in table.hand("green")
    assert table.state.epic_discard == ["ep_eriu"]  # face up


def test_meadows_declined_draws_one_card_and_is_only_for_its_holder():
    """Declining Meadows, the draw is the card's own (1 card, no choice). Another player's draw
    does not ask the Meadows holder."""
    table = season(
        {"green": ["act_sanctuary", "adv_meadows"], "blue": ["act_bard"]},
        epic_deck=["ep_eriu", "ep_tuans_memory", "ep_balors_eye"],
    )
    table.play("green", "act_sanctuary", territory="valley")
    skip_to(table, "epic_drawn")
    decline(table)
    settle(table)
    assert "ep_eriu" in table.hand("green") and table.state.epic_discard == []
    table.play("blue", "act_bard")
    decline_watching(table, "green", "adv_meadows")
    assert "ep_tuans_memory" in table.hand("blue")


GATES = """
    gates   0,0  green 2  blue 1  sanctuaries 1
    valley  1,0  green 1  orange 2
    plains  0,1  blue 2
"""


def gates_assembly(seed):
    """The Assembly of round 2 with the Gates in play; the Flock of Crows shows clockwise."""
    return Table(
        GATES,
        seats=THREE,
        capital="valley",
        brenn="orange",
        phase="assembly",
        flock="clockwise",
        decline=False,
        seed=seed,
        epic_deck=["ep_eriu", "ep_tuans_memory", "ep_balors_eye"],
    )


def test_gates_card_draws_two_and_keeps_one():
    """Gates of Tír na nÓg (card): "when the Gates territory effect is resolved for you: Draw 1
    extra Epic Tale card (2 instead of 1), keep 1, discard the rest." Only its holder is asked:
    blue, also present, draws its 1 card without a window."""
    table = by_seed(gates_assembly, lambda t: trigger(t) == "gates_effect", prefix="gates")
    assert table.state.flock == "counterclockwise"
    # Blue was first (Brenn orange is absent; counterclockwise from orange: blue, then green).
    assert "ep_eriu" in table.hand("blue")
    assert asked(table) == ["green"] and offered(table, "green", "adv_gates")
    react(table, "green", "adv_gates")
    settle(table)
    assert table.awaiting() == {"green": "keep_epic"}
    table.do("green", "keep", cards=["ep_balors_eye"])
    assert [c for c in table.hand("green") if c.startswith("ep_")] == ["ep_balors_eye"]
    assert table.state.epic_discard == ["ep_tuans_memory"]
    assert table.clans("gates") == {"green": 1}


# -- clashes: Highlands, Hills, Iron Mine ------------------------------------------------------


def clash_in(tid, island, hands, **position):
    """Green has just played Warlord in `tid` (windows still open)."""
    return warlord_clash(island, hands, territory=tid, **position)


HIGHLANDS = """
    highlands  0,0  green 3  blue 2  orange 1
    moor       1,0  green 2  blue 2
    valley     0,1  orange 2
"""


def test_highlands_makes_another_player_the_instigator():
    """Highlands: "at the start of a clash in the Highlands (ruling U11: at the start of the
    Resolution step): Choose 1 player who has 1 or more exposed clans there; that player becomes
    the instigator of this clash." """
    table = clash_in("highlands", HIGHLANDS, {"orange": ["adv_highlands"]}, capital="valley")
    assert skip_to(table, "resolution_started") == ["orange"]
    assert reactions(table, "orange") == [
        {"type": "react", "card": "adv_highlands", "instigator": s} for s in ("green", "blue", "orange")
    ]
    events = react(table, "orange", "adv_highlands", instigator="blue") + settle(table)
    assert first(events, "InstigatorChanged").payload["seat"] == "blue"
    assert table.clash()["instigator"] == "blue"
    assert table.awaiting() == {"blue": "maneuver"}


SHELTERED_IN_THE_HIGHLANDS = """
    highlands  0,0  green 3  blue 2  orange 1  citadels 2
    moor       1,0  green 2  blue 2
    valley     0,1  orange 2
"""


def orange_shelters_holding_highlands_and_battle_frenzy(**options):
    """Blue and orange shelter a clan each in the Highlands' Citadels; orange holds the Highlands
    and Battle Frenzy, and is asked at the end of the Citadels step (its one question for the
    start of the Resolution step too)."""
    hands = {"orange": ["adv_highlands", "ep_battle_frenzy"]}
    table = clash_in("highlands", SHELTERED_IN_THE_HIGHLANDS, hands, capital="valley", **options)
    settle(table)
    table.do("blue", "citadel")
    table.do("orange", "citadel")
    assert trigger(table) == "citadels_ended" and asked(table) == ["orange"]
    return table


def test_battle_frenzy_lets_the_highlands_choose_a_clan_it_exposed():
    """Battle Frenzy, "at the end of the Citadels step: take every clan out of the Citadels ...;
    all of them are now exposed", then the Highlands, "at the start of the Resolution step:
    choose 1 player who has 1 or more exposed clans there". Orange, sheltered, may not name
    itself when it answers the end of the Citadels step; once its Battle Frenzy has brought its
    clan out, it is asked again at the start of the Resolution step and may (docs/rulings.md,
    "One Triskel question per clash step")."""
    table = orange_shelters_holding_highlands_and_battle_frenzy()
    ahead = {c.get("then_instigator") for c in table.legal("orange") if c.get("then") == "adv_highlands"}
    assert ahead == {"green", "blue"}  # orange's own clan is still in a Citadel
    table.do(
        "orange",
        {"type": "react", "card": "ep_battle_frenzy", "then": "adv_highlands", "then_instigator": "blue"},
    )
    while trigger(table) == "card_declared":  # the window on Battle Frenzy itself
        decline(table)
    assert trigger(table) == "resolution_started" and asked(table) == ["orange"]
    assert {"type": "react", "card": "adv_highlands", "instigator": "orange"} in reactions(table, "orange")
    events = react(table, "orange", "adv_highlands", instigator="orange") + settle(table)
    assert first(events, "InstigatorChanged").payload["seat"] == "orange"
    assert table.awaiting() == {"orange": "maneuver"}


def test_rules_revision_2_keeps_the_highlands_answer_given_before_battle_frenzy():
    """A game begun with rules revision 2 plays on as it was decided: the Highlands said ahead
    at the end of the Citadels step is played as said, without asking again."""
    table = orange_shelters_holding_highlands_and_battle_frenzy(options={"rules_revision": 2})
    events = table.do(
        "orange",
        {"type": "react", "card": "ep_battle_frenzy", "then": "adv_highlands", "then_instigator": "blue"},
    )
    events += settle(table)
    assert first(events, "InstigatorChanged").payload["seat"] == "blue"


def test_highlands_is_not_offered_for_a_clash_elsewhere():
    """Highlands answers "a clash in the Highlands" only."""
    table = clash_in("moor", HIGHLANDS, {"orange": ["adv_highlands"]}, capital="valley")
    decline_watching(table, "orange", "adv_highlands")
    assert table.awaiting() == {"green": "maneuver"}


HILLS = """
    hills   0,0  green 3  blue 2  orange 1
    moor    1,0  green 2  blue 2
    valley  0,1  orange 2
"""


def test_hills_ignores_an_attack_on_you_there():
    """Hills: "when an Attack maneuver targets you in the Hills: Ignore that attack: you neither
    remove a clan nor discard an Action card." Only the attacked holder is asked."""
    table = clash_in("hills", HILLS, {"blue": ["adv_hills", "act_bard"]}, capital="valley")
    settle(table)
    table.do("green", "attack", target="blue")
    assert trigger(table) == "attack_declared" and asked(table) == ["blue"]
    assert offered(table, "blue", "adv_hills")
    events = react(table, "blue", "adv_hills") + settle(table)
    assert first(events, "AttackAnswered").payload["choice"] == "ignored (Hills)"
    assert table.clans("hills")["blue"] == 2 and "act_bard" in table.hand("blue")
    assert table.awaiting() == {"blue": "maneuver"}  # green's attack was its maneuver


def test_hills_is_not_offered_elsewhere_nor_when_another_player_is_attacked():
    """Hills answers an attack that "targets you in the Hills": not an attack on orange there,
    not an attack on you in the Moor."""
    table = clash_in("hills", HILLS, {"blue": ["adv_hills"]}, capital="valley")
    settle(table)
    table.do("green", "attack", target="orange")
    decline_watching(table, "blue", "adv_hills")
    table = clash_in("moor", HILLS, {"blue": ["adv_hills"]}, capital="valley")
    settle(table)
    table.do("green", "attack", target="blue")
    decline_watching(table, "blue", "adv_hills")
    assert table.clans("moor")["blue"] == 1


MINE = """
    iron_mine  0,0  green 3  blue 3
    moor       1,0  green 2  blue 1
    valley     0,1  orange 2
"""


def test_iron_mine_attack_removes_a_clan_and_takes_a_card():
    """Iron Mine: "when you perform an Attack maneuver (in any clash): The attacked player must do
    both: remove 1 of their exposed clans and discard 1 Action card." Only the attacker, its
    holder, is asked — here in a clash outside the Iron Mine."""
    table = clash_in(
        "moor", MINE, {"green": ["adv_iron_mine"], "blue": ["act_bard", "act_druid"]}, capital="valley"
    )
    settle(table)
    table.do("green", "attack", target="blue")
    assert trigger(table) == "attack_declared" and asked(table) == ["green"]
    assert offered(table, "green", "adv_iron_mine")
    react(table, "green", "adv_iron_mine")
    settle(table)
    assert table.legal("blue") == [
        {"type": "attack_response", "choice": "discard", "card": "act_bard"},
        {"type": "attack_response", "choice": "discard", "card": "act_druid"},
    ]
    table.do("blue", "attack_response", choice="discard", card="act_druid")
    settle(table)
    assert table.state.action_cards("blue") == ["act_bard"]
    assert "blue" not in table.clans("moor")


def test_iron_mine_without_action_cards_removes_only_the_clan():
    """Iron Mine: "With no Action card, only the clan is removed." The holder attacked by another
    player is not asked."""
    table = clash_in("iron_mine", MINE, {"green": ["adv_iron_mine"], "blue": ["adv_moor"]}, capital="valley")
    settle(table)
    table.do("green", "attack", target="blue")
    react(table, "green", "adv_iron_mine")
    settle(table)
    assert table.clans("iron_mine") == {"green": 3, "blue": 2}
    table = clash_in("iron_mine", MINE, {"blue": ["adv_iron_mine", "act_bard"]}, capital="valley")
    settle(table)
    table.do("green", "attack", target="blue")
    assert trigger(table) is None  # blue is attacked: its Iron Mine does not answer


# -- at any time: Moor -------------------------------------------------------------------------


def test_moor_shows_an_opponents_epic_tales_to_its_holder_only():
    """Moor: "at any time: Look at the Epic Tale cards in 1 opponent's hand." The command is
    global ({"type": "moor", "opponent": seat}); what is seen reaches the holder and the
    opponent only."""
    table = season(
        {"green": ["act_new_clans", "adv_moor"], "blue": ["ep_eriu", "ep_dagdas_club", "act_bard"]}
    )
    table.do("green", "moor", opponent="blue")
    settle(table)  # blue, holding Epic Tales, may answer with The Dagda: declined
    shown = first(table.events, "HandRevealed")
    assert shown.payload["cards"] == ["ep_dagdas_club", "ep_eriu"]  # no Action card
    assert shown.visibility == ("green", "blue")
    assert "cards" not in redact(shown, "orange").payload
    assert "adv_moor" in table.state.advantage_played
    assert table.awaiting() == {"green": "season_turn"}  # not a turn: green still plays
    assert "do not hold" in table.refuse("green", "moor", opponent="orange")


def test_moor_limits():
    """Moor: "Look at the Epic Tale cards in 1 opponent's hand": only its holder; an opponent
    must be named (without one the command is malformed). Naming oneself, or a colour nobody
    plays, is understood and against the card (docs/rules-api.md, "Errors": "a colour not
    seated" is an IllegalCommand), as for an Attack's target."""
    table = season({"green": ["act_new_clans", "adv_moor"], "blue": ["ep_eriu"]})
    assert "do not hold" in table.refuse("blue", "moor", opponent="green")
    assert "blue, orange" in table.refuse("green", "moor", opponent="green", error=IllegalCommand)
    assert "blue, orange" in table.refuse("green", "moor", opponent="white", error=IllegalCommand)
    table.refuse("green", "moor", error=InvalidCommand)


def test_moor_is_played_at_any_time_even_in_a_half_resolved_decision():
    """Moor: "Triskel, at any time: look at the Epic Tale cards in 1 opponent's hand." Its
    holder may play it whenever it has a decision pending, also while a card or a clash is
    half-resolved (here: a reaction window, then a clash's Citadels step), and `legal_commands`
    lists it there; the decision awaited before is awaited again after."""
    table = season({"green": ["act_new_clans", "adv_moor"], "blue": ["ep_eriu"]})
    table.auto_decline = False
    table.play("green", "act_new_clans", territories=["valley", "valley"])
    assert trigger(table) is not None and "green" not in asked(table)
    table.do("green", "moor", opponent="blue")  # not asked there: "at any time" all the same
    settle(table)
    shown = first(table.events, "HandRevealed")
    assert shown.payload["cards"] == ["ep_eriu"] and shown.visibility == ("green", "blue")


def test_moor_during_a_clash_is_listed_and_keeps_the_clash_waiting():
    """Moor ("at any time") during a clash: offered to its holder with its maneuver, and the
    maneuver is awaited again after it."""
    island = """
        moor       0,0   green 3  blue 2
        valley     1,0   green 1
        plains     0,1   orange 1
    """
    table = Table(
        island,
        seats=("green", "blue", "orange"),
        capital="valley",
        hands={"green": ["act_warlord", "adv_moor"], "blue": ["ep_eriu", "act_bard"]},
    )
    table.play("green", "act_warlord", territory="moor")
    assert table.awaiting() == {"green": "maneuver"}
    assert {"type": "moor", "opponent": "blue"} in table.legal("green")
    assert {"type": "moor", "opponent": "orange"} in table.legal("green")
    table.do("green", "moor", opponent="blue")
    assert first(table.events, "HandRevealed").payload["cards"] == ["ep_eriu"]
    assert table.awaiting() == {"green": "maneuver"}
    assert table.clash() is not None
    assert all(c["type"] != "moor" for c in table.legal("green"))  # played: it is gone


# -- Mountains ---------------------------------------------------------------------------------

MOUNTAINS = """
    valley     0,0  green 3
    mountains  1,0  orange 1
    plains     0,1  blue 2
"""


def test_mountains_card_ignores_the_mountains_toll():
    """Mountains (card): "when you move 1 or more clans into the Mountains: Ignore the Mountains
    territory effect for that move." It is offered in the toll decision, to the mover holding
    it."""
    table = Table(
        MOUNTAINS,
        seats=THREE,
        capital="plains",
        decline=False,
        hands={"green": ["act_migration", "act_bard", "adv_mountains"]},
    )
    table.play("green", "act_migration", **{"from": "valley", "moves": {"mountains": 2}})
    settle(table)
    assert table.awaiting() == {"green": "mountains_toll"}
    assert {"type": "react", "card": "adv_mountains"} in table.legal("green")
    events = table.do("green", "react", card="adv_mountains") + settle(table)
    assert first(events, "MountainsTollPaid").payload["paid"] == "ignored with the Mountains card"
    assert "act_bard" in table.hand("green")
    assert table.clans("mountains") == {"green": 2, "orange": 1}


def test_mountains_card_spares_the_owner_of_clans_another_player_moved_in():
    """Ruling "The Mountains card for clans another player moved": Breas' Tyranny moves blue's
    clans into the Mountains, and blue, who pays the toll ("their owner must either discard 1
    Action card or lose 1 of those clans"), may ignore it with the Mountains card."""
    table = Table(
        """
            moor       0,0   green 3  blue 2
            mountains  1,0   orange 1
            valley     0,1   green 1
        """,
        seats=THREE,
        capital="valley",
        hands={"green": ["ep_breas_tyranny"], "blue": ["adv_mountains", "act_bard"]},
    )
    table.play("green", "ep_breas_tyranny", **{"from": "moor", "owner": "blue", "to": "mountains"})
    assert table.awaiting() == {"blue": "mountains_toll"}
    assert {"type": "react", "card": "adv_mountains"} in table.legal("blue")


def test_mountains_card_cancelled_by_the_dagda_leaves_the_toll_to_pay():
    """The Dagda cancels an Advantage card: the Mountains toll is then asked again."""
    table = Table(
        MOUNTAINS,
        seats=THREE,
        capital="plains",
        decline=False,
        hands={"green": ["act_migration", "act_bard", "adv_mountains"], "blue": ["ep_the_dagda"]},
    )
    table.play("green", "act_migration", **{"from": "valley", "moves": {"mountains": 2}})
    settle(table)
    table.do("green", "react", card="adv_mountains")
    assert trigger(table) == "card_declared" and offered(table, "blue", "ep_the_dagda")
    react(table, "blue", "ep_the_dagda")
    settle(table)
    assert table.awaiting() == {"green": "mountains_toll"}
    assert {"type": "react", "card": "adv_mountains"} not in table.legal("green")
    table.do("green", "mountains_toll", pay="discard", card="act_bard")
    assert table.clans("mountains") == {"green": 2, "orange": 1}


# -- the set ------------------------------------------------------------------------------------


def test_every_triskel_advantage_card_is_covered():
    """The thirteen Triskel Advantage cards of docs/cards.md (Misty Lands, Plains and Swamp are
    Season cards) are the ones tested here."""
    triskels = {c for c, info in CARDS.items() if info.type == ADVANTAGE and TRISKEL in info.timings}
    assert triskels == {
        f"adv_{t}"
        for t in (
            "cove",
            "forest",
            "gates",
            "highlands",
            "hills",
            "iron_mine",
            "lost_vale",
            "meadows",
            "moor",
            "mountains",
            "salt_mine",
            "stone_circle",
            "valley",
        )
    }


@pytest.mark.parametrize("card", ["adv_cove", "adv_valley", "adv_salt_mine", "adv_lost_vale"])
def test_after_season_card_advantages_are_asked_of_their_holder_only(card):
    """An Advantage card is public: the window after a Season card asks its holder, and nobody
    else however many cards they hold."""
    table = season({"green": ["act_new_clans"], "blue": ["act_bard", "ep_eriu", card]}, set_aside="act_druid")
    table.play("green", "act_new_clans", territories=["valley", "valley"])
    decline_watching(table, "blue", card)
    table.play("blue", "act_bard")
    skip_to(table, "after_season_card")
    assert asked(table) == ["blue"]
    table.refuse("green", "react", card=card)
