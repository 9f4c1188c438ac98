"""Moves a strong player does not make, which the hard bot leaves out (issue 39; read from the
games it lost; docs/rulings.md, "What the hard bot does not do"), and when the hard and easy bots
propose or accept peace (docs/rulings.md, "When a bot proposes or accepts peace")."""

from __future__ import annotations

import random

from games import bots, rules
from games.bots.card_worth import card_value
from games.bots.prudence import (
    idle_withdraw,
    pass_only_delays,
    pass_risk,
    peace_serves,
    prudent_options,
    season_end_likelihood,
)
from games.bots.race import race_score
from tests.rules.positions import Table

SEATS = ("green", "blue", "orange")


def conquered_hills() -> Table:
    """Green migrates 3 clans into the Hills, where blue has 1: a clash green instigates and
    would win."""
    table = Table(
        """
        hills   0,0  blue 1
        valley  1,0  green 4
        moor    1,-1 orange 2
    """,
        seats=SEATS,
        capital="valley",
        brenn="green",
        flock="clockwise",
        hands={"green": ["act_migration", "act_festival"], "blue": ["act_bard"], "orange": []},
    )
    table.play("green", "act_migration", **{"from": "valley", "moves": {"hills": 3}})
    return table


def test_the_stronger_side_of_a_clash_does_not_propose_peace():
    """Clash: the players with exposed clans may agree to end it. Green, 3 clans against blue's
    1 in the Hills it has just entered, does not offer its rival the choice of the outcome;
    blue, the weaker side, still may."""
    table = conquered_hills()
    peace = {"type": "propose_peace"}
    assert peace in rules.legal_commands(table.state, "green")
    assert peace not in prudent_options(table.state, "green", rules.legal_commands(table.state, "green"))
    blue = rules.legal_commands(table.state, "blue")
    if peace in blue:
        assert peace in prudent_options(table.state, "blue", blue)
    for seed in range(3):
        assert bots.choose(table.state, "green", "hard", random.Random(seed)) != peace


def master_craftsman_table() -> Table:
    """Green, on its Season turn, holds Master Craftsman (a 4-player card), the Festival and the
    Advantage card of the Highlands."""
    return Table(
        """
        hills   0,0  green 2  blue 1
        valley  1,0  green 2  orange 1
        moor    1,-1 orange 2 blue 2
        highlands 0,1 white 2
    """,
        seats=("green", "blue", "orange", "white"),
        capital="valley",
        brenn="green",
        flock="clockwise",
        hands={
            "green": ["act_master_craftsman", "act_festival", "adv_highlands"],
            "blue": ["act_bard"],
            "orange": [],
            "white": [],
        },
    )


def test_master_craftsman_discards_an_action_card_rather_than_an_advantage_card():
    """Master Craftsman: "discard 1 card of any type". Green holds the Festival, an Action card
    lost at the end of the Season anyway, and an Advantage card it keeps from Season to Season:
    the hard bot never throws the Advantage card."""
    table = master_craftsman_table()
    options = rules.legal_commands(table.state, "green")
    crafts = [o for o in options if o.get("card") == "act_master_craftsman"]
    assert {o.get("discard") for o in crafts} >= {"act_festival", "adv_highlands"}
    kept = prudent_options(table.state, "green", options)
    assert {o.get("discard") for o in kept if o.get("card") == "act_master_craftsman"} == {"act_festival"}
    for seed in range(3):
        command = bots.choose(table.state, "green", "hard", random.Random(seed))
        assert command.get("discard") != "adv_highlands", command


def test_a_card_kept_from_season_to_season_is_not_played_for_no_effect():
    """A card that cannot do anything may be played for no effect; an Epic Tale or Advantage
    card so played is thrown away. Of the Epic Tales green could play for no effect, the hard
    bot's options keep none."""
    wasted = 0
    for card in sorted(c for c, info in rules.CARDS.items() if info.type == "epic"):
        table = Table(
            """
            hills   0,0  green 1
            valley  1,0  blue 1
        """,
            seats=("green", "blue"),
            capital="valley",
            brenn="green",
            hands={"green": [card, "act_festival"], "blue": []},
        )
        options = rules.legal_commands(table.state, "green")
        idle = [o for o in options if o.get("card") == card and o.get("no_effect")]
        if idle:
            wasted += 1
            assert not any(o in prudent_options(table.state, "green", options) for o in idle)
    assert wasted, "no Epic Tale was playable for no effect on this island"


def season_turn_after_one_pass(rival_hands: dict) -> Table:
    """White, the Brenn, has passed; green's turn: Warlord can only be played for no effect
    (no territory to clash in), Raid only as a Triskel card; the rivals hold `rival_hands`."""
    table = Table(
        """
        hills   0,0  green 2
        valley  1,0  blue 2
        moor    2,0  orange 2
        cove    3,0  white 2
    """,
        seats=("green", "blue", "orange", "white"),
        capital="valley",
        brenn="white",
        flock="clockwise",
        hands={"green": ["act_warlord", "act_raid"], "white": ["act_citadel"], **rival_hands},
    )
    table.do("white", "pass")
    assert table.awaiting() == {"green": "season_turn"}
    return table


def test_an_early_pass_keeps_the_action_cards_a_play_for_no_effect_would_throw_away():
    """Rulebook, Season: "the Season ends when all players have passed consecutively"; a
    player who passes may play on a later turn. One rival has passed, the two others still hold
    Action cards: green's pass will most likely not end the Season, so the hard bot passes and
    keeps Warlord (its Triskel half answers a clash to come) rather than play it for no effect."""
    table = season_turn_after_one_pass({"blue": ["act_sanctuary"], "orange": ["act_new_clans"]})
    options = rules.legal_commands(table.state, "green")
    assert {"type": "play", "card": "act_warlord", "no_effect": True} in options
    assert pass_risk(table.state, "green") < 0.1 * pass_risk(every_rival_passed(table.state), "green")
    # Its rollouts still see the Season end after a pass now and then: most seeds pass (before
    # the pass was charged by how likely it ends the Season, none of these 12 did).
    passes = [
        bots.choose(table.state, "green", "hard", random.Random(seed)) == {"type": "pass"}
        for seed in range(12)
    ]
    assert sum(passes) >= 9, passes


def every_rival_passed(state):
    """`state` with every other player having passed in a row: green's pass ends the Season."""
    state = state.clone()
    season = next(f for f in state.stack if f["kind"] == "season")
    season["passes"] = len(state.seats) - 1
    return state


def test_a_pass_that_ends_the_season_risks_every_action_card_in_hand():
    """When every other player has passed in a row, green's pass ends the Season (End of the
    Season: the Action cards in hand are discarded): the pass risks their whole worth."""
    table = season_turn_after_one_pass({"blue": ["act_sanctuary"], "orange": ["act_new_clans"]})
    assert season_end_likelihood(every_rival_passed(table.state), "green") == 1.0
    assert pass_risk(every_rival_passed(table.state), "green") == card_value("act_warlord") + card_value(
        "act_raid"
    )


def lone_master_craftsman(**position) -> Table:
    """Round 2, green's Season turn: green holds Master Craftsman alone, blue leads the race, and
    every rival still to play holds Action cards."""
    return Table(
        """
        hills   0,0  green 2  blue 1
        valley  1,0  blue 2  orange 1
        moor    1,-1 orange 2 blue 2
        highlands 0,1 white 2
        plains  -1,1 white 1 blue 1
    """,
        seats=("green", "blue", "orange", "white"),
        capital="valley",
        brenn="white",
        flock="clockwise",
        round=2,
        turn="green",
        hands={
            "green": ["act_master_craftsman"],
            "blue": ["act_bard", "act_sanctuary"],
            "orange": ["act_new_clans"],
            "white": ["act_festival"],
        },
        **position,
    )


def test_a_free_card_that_gains_something_is_played_rather_than_a_pass_that_only_delays():
    """Master Craftsman: "Discard 1 card of any type from your hand if you have one, then draw 1
    Epic Tale card" (an Epic Tale is kept from Season to Season). Rulebook, Season: a player who
    passes "will be able to play cards again if the turn comes back to him", but "if you pass
    and all other players also choose to pass after you, the Season ends, and all players must
    discard their Action cards". Green, behind in the race, holds Master Craftsman alone: played
    now it discards nothing and draws an Epic Tale; a pass gains nothing a later play would
    not, and risks the card. The hard and strong bots play it (before, their rollouts, which
    play the card on green's next turn, decided: 5 and 7 passes of 12 seeds)."""
    table = lone_master_craftsman()
    state = table.state
    assert table.awaiting() == {"green": "season_turn"}
    assert rules.legal_commands(state, "green") == [
        {"type": "play", "card": "act_master_craftsman"},
        {"type": "pass"},
    ]
    assert race_score(state, "green") < 0 and pass_only_delays(state, "green")
    budget = bots.Budget(seconds=float("inf"), iterations=8)
    for level in ("hard", "strong"):
        for seed in range(8):
            command = bots.choose(state, "green", level, random.Random(seed), budget)
            assert command == {"type": "play", "card": "act_master_craftsman"}, (level, seed)


def test_a_player_who_leads_still_passes_to_end_the_season():
    """Rulebook, Season: "When all players have consecutively passed, the Season ends"; then the
    Assembly checks for victory ("Only players with a Pretender token can attempt to claim
    victory"). Green, a Pretender present in six territories, leads; every other player has
    passed in a row: its pass ends the Season and wins the game at the Assembly, where playing
    Master Craftsman would give the rivals another turn each. The pass is kept, and played."""
    table = Table(
        """
        hills   0,0  green 2  blue 1
        valley  1,0  green 1 blue 2  orange 1
        moor    1,-1 orange 2 blue 2 green 1
        highlands 0,1 white 2 green 1
        plains  -1,1 white 1 blue 1 green 1
        cove    -1,0 green 1
    """,
        seats=("green", "blue", "orange", "white"),
        capital="valley",
        brenn="white",
        flock="clockwise",
        round=2,
        turn="green",
        passes=3,
        pretenders=["green"],
        hands={"green": ["act_master_craftsman"], "blue": ["ep_eriu"], "orange": [], "white": []},
    )
    assert rules.conditions_met(table.state, "green") == 1
    assert not pass_only_delays(table.state, "green")
    budget = bots.Budget(seconds=float("inf"), iterations=8)
    for level in ("hard", "strong"):
        for seed in range(3):
            assert bots.choose(table.state, "green", level, random.Random(seed), budget) == {"type": "pass"}


def attacked_hills(**hands) -> Table:
    """Four players: green migrates 3 clans into the Hills, where blue has 2 (a clash green
    instigates), and attacks blue, who removes a clan: 3 against 1. Green holds an Action card,
    so the Triskel window right after its Attack asks it (Raid answers one's own Attack)."""
    table = Table(
        """
        hills   0,0  blue 2
        valley  1,0  green 4
        moor    1,-1 orange 2
        cove    2,-1 white 2
    """,
        brenn="green",
        capital="valley",
        flock="clockwise",
        decline=False,
        hands={"green": ["act_migration", "act_festival"], "blue": ["act_sanctuary"], **hands},
    )
    table.play("green", "act_migration", **{"from": "valley", "moves": {"hills": 3}})
    table.decline_reactions()
    table.do("green", "attack", target="blue")
    table.decline_reactions()
    table.do("blue", "attack_response", choice="remove")
    return table


def test_the_easy_bot_proposes_no_peace_right_after_its_own_attack_nor_as_the_stronger_side():
    """Rulebook, Clashes: "Very important! Before each maneuver, players with exposed clans may
    discuss and agree to immediately end the clash"; its example: "The white player, just before
    his maneuver, asks the remaining involved players if they agree to end the clash now."
    Green, the instigator, 3 exposed clans against blue's 1, has just preferred an Attack to
    peace: in the Triskel window right after it, green declines (before, 24 of 40 seeds
    proposed peace there); at its next maneuver, still the stronger side, it fights on. The easy
    bot is also the stand-in that a player's standing order hands its maneuvers and Triskel
    answers to (docs/standing-orders.md)."""
    table = attacked_hills()
    assert table.clans("hills") == {"green": 3, "blue": 1}
    assert table.awaiting()["green"] == "reaction"
    assert sorted(c["type"] for c in table.legal("green")) == ["decline", "propose_peace"]
    assert not peace_serves(table.state, "green")
    for seed in range(12):
        assert bots.choose(table.state, "green", "easy", random.Random(seed)) == {"type": "decline"}
    table.do("green", "decline")
    table.do("blue", "attack", target="green")
    table.decline_reactions()
    table.do("green", "attack_response", choice="remove")
    table.decline_reactions()
    assert table.awaiting() == {"green": "maneuver"}
    assert table.clans("hills") == {"green": 2, "blue": 1}
    assert {"type": "propose_peace"} in table.legal("green")
    for seed in range(12):
        command = bots.choose(table.state, "green", "easy", random.Random(seed))
        assert command["type"] != "propose_peace", seed


def test_the_easy_bot_proposes_peace_as_the_weaker_side_and_the_stronger_refuses():
    """Rulebook, Clashes: before each maneuver the players with exposed clans may agree to end
    the clash; Attack: "The attacked player chooses one option: Discard an Action Card [...]
    Remove an Exposed Clan". Blue, 1 exposed clan against green's 3, would lose it fighting on:
    just before its maneuver it proposes to end the clash, and green, the stronger side, refuses
    (before, each was a coin toss with an Attack or a vote either way)."""
    table = attacked_hills()
    table.do("green", "decline")
    assert table.awaiting() == {"blue": "maneuver"}
    assert peace_serves(table.state, "blue") and not peace_serves(table.state, "green")
    for seed in range(12):
        assert bots.choose(table.state, "blue", "easy", random.Random(seed)) == {"type": "propose_peace"}
    table.do("blue", "propose_peace")
    assert table.awaiting() == {"green": "peace_vote"}
    for seed in range(12):
        vote = bots.choose(table.state, "green", "easy", random.Random(seed))
        assert vote == {"type": "peace_vote", "agree": False}, seed


def test_peace_serves_a_side_the_fight_cannot_make_chieftain():
    """Rulebook, Clashes, Citadels: "A clan in a Citadel is protected and is not involved in the
    clash in any way"; Territory chieftain: "The player who has the most clans in a territory is
    chieftain of that territory. In case of a tie, that territory has no chieftain." Orange and
    blue have 2 exposed clans each in the Moor, and blue 2 more in its Citadels: even if orange
    drove every exposed blue clan out, the 2 sheltered ones would tie its 2, and the Moor would
    have no chieftain. Orange has nothing to win, and proposes to end the clash; blue, who could
    be the Moor's only occupant, does not."""
    table = Table(
        """
        moor    0,0  blue 4  citadels 2
        valley  1,0  orange 3
        hills   1,-1 green 2
        cove    2,-1 white 2
    """,
        capital="valley",
        brenn="orange",
        flock="clockwise",
        hands={"orange": ["act_conquest", "act_festival"], "blue": ["act_sanctuary"]},
    )
    table.play("orange", "act_conquest", territory="moor", moves={"valley": 2})
    table.do("blue", "citadel")
    table.do("blue", "citadel")
    assert table.awaiting() == {"orange": "maneuver"}
    assert table.clash()["sheltered"] == {"blue": 2}
    assert peace_serves(table.state, "orange") and not peace_serves(table.state, "blue")
    for seed in range(6):
        assert bots.choose(table.state, "orange", "easy", random.Random(seed)) == {"type": "propose_peace"}


def migrated_into_the_hills() -> Table:
    """Four players: green migrates 3 clans from the Valley into the Hills, where blue has 1 (a
    clash green instigates); green, chieftain of the Valley it came from, may withdraw there."""
    table = Table(
        """
        hills   0,0  blue 1
        valley  1,0  green 4
        moor    1,-1 orange 2
        cove    2,-1 white 2
    """,
        brenn="green",
        capital="valley",
        flock="clockwise",
        hands={"green": ["act_migration", "act_festival"], "blue": ["act_sanctuary"]},
    )
    table.play("green", "act_migration", **{"from": "valley", "moves": {"hills": 3}})
    return table


def test_the_instigator_winning_its_clash_does_not_withdraw():
    """Rulebook, Clashes: "When a clash is initiated, the owner of the incoming clan is the
    instigator"; Resolution: "Starting with the instigator [...] each player who has one or more
    exposed clans performs one maneuver"; Withdraw: "The player moves one or more of his exposed
    clans to adjacent territories where he is the chieftain." Green, the instigator, has 3 clans
    in the Hills against blue's 1: it attacks, and does not give ground. Before, a withdrawal of
    1 clan, which keeps green chieftain of the Hills, looked as good as an Attack one move
    ahead: the easy bot (the stand-in for players' standing orders) withdrew at 24 of 40 seeds,
    the hard bot at 18."""
    table = migrated_into_the_hills()
    assert table.awaiting() == {"green": "maneuver"}
    assert table.clans("hills") == {"green": 3, "blue": 1}
    withdrawals = [c for c in table.legal("green") if c["type"] == "withdraw"]
    assert {"type": "withdraw", "moves": {"valley": 1}} in withdrawals
    assert all(idle_withdraw(table.state, "green", c) for c in withdrawals)
    for level in ("easy", "hard"):
        for seed in range(40):
            command = bots.choose(table.state, "green", level, random.Random(seed))
            assert command["type"] != "withdraw", (level, seed, command)


def test_a_withdrawal_stays_open_to_a_side_not_winning_the_clash():
    """Withdraw stays a maneuver for whoever is not winning: blue, who did not start the clash,
    and green, the instigator, once blue has as many clans in the Hills (in Citadels or not)."""
    table = migrated_into_the_hills()
    withdrawal = {"type": "withdraw", "moves": {"valley": 1}}
    assert not idle_withdraw(table.state, "blue", withdrawal)
    level = table.state.clone()
    level.territories["hills"]["clans"]["blue"] = 3
    assert not idle_withdraw(level, "green", withdrawal)
    assert not idle_withdraw(table.state, "green", {"type": "attack", "target": "blue"})
