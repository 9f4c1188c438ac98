"""One Triskel question per clash step (docs/rulings.md): a seat asked in a Triskel window of a
clash step answers, in the same answer, the later moments of that step ("say now which card you
will play later in it"); those moments do not ask it again. The rulebook, Triskel: a Triskel
card is played in response to its trigger, so the card said ahead is played when its trigger
comes, and only if it can be played then."""

from __future__ import annotations

from games.rules import asks_triskel, deal_hidden, pending

from .positions import Table, types

# Green and orange clash in the Hills (green has just migrated there).
TWO_IN_THE_HILLS = """
    hills   0,0  green 5  orange 5
    valley  1,0  green 3
    plains  0,1  white 1
    cove    1,1  orange 2
"""


def hills_clash(reactions: str = "holders", **hands) -> Table:
    """Green has just migrated into the Hills, starting a clash with orange; every window
    declined until green's first maneuver."""
    table = Table(
        TWO_IN_THE_HILLS,
        seats=("green", "blue", "orange", "white"),
        capital="valley",
        flock="clockwise",
        decline=False,
        options={"reactions": reactions},
        hands={"green": ["act_migration"]} | hands,
    )
    table.play("green", "act_migration", **{"from": "valley", "moves": {"hills": 1}})
    while any(asks_triskel(d) for d in pending(table.state)):
        for d in pending(table.state):
            if asks_triskel(d):
                assert d.seat is not None
                table.do(d.seat, "decline")
    return table


def triskel_prompts(table: Table, seat: str) -> list:
    """The Triskel decisions `seat` has now."""
    return [d for d in pending(table.state) if d.seat == seat and asks_triskel(d)]


def played(events) -> list[str]:
    """The Triskel cards revealed as played in `events`."""
    return [p["card"] for e in events if e.type == "ReactionsRevealed" for p in e.payload["plays"]]


def test_the_attacker_holding_iron_mine_and_raid_is_asked_once_and_says_raid_ahead():
    """Green attacks orange holding the Iron Mine (an answer to its attack being declared) and
    Raid (an answer right after its attack). At the table green would answer each moment; by
    email it is asked once, when the attack is declared, and says then that it will play Raid."""
    table = hills_clash(green=["act_migration", "adv_iron_mine", "act_raid"], orange=["act_warlord"])
    table.do("green", "attack", target="orange")
    (decision,) = triskel_prompts(table, "green")
    assert decision.context["trigger"] == "attack_declared"
    assert "You will not be asked again in this step of the clash" in decision.prompt
    legal = table.legal("green")
    assert {"type": "decline", "then": "act_raid"} in legal
    assert {"type": "react", "card": "adv_iron_mine", "then": "act_raid"} in legal
    assert {"type": "decline"} in legal
    events = table.do("green", {"type": "decline", "then": "act_raid"})
    events += table.do("orange", "attack_response", choice="remove")
    # Right after the attack green's Raid is played without asking it again; orange, whose
    # maneuver is next, is asked about its Warlord with its maneuver.
    assert not triskel_prompts(table, "green")
    orange = triskel_prompts(table, "orange")
    assert [d.kind for d in orange] == ["maneuver"]
    events += table.do("orange", "decline")
    while any(asks_triskel(d) for d in pending(table.state)):  # The Dagda's window on Raid, if any
        d = next(d for d in pending(table.state) if asks_triskel(d))
        # Green is asked once more only because its Raid was played and took orange's Warlord,
        # another answer to the same maneuver (ruling "Several Triskel cards for one trigger").
        assert d.seat != "green" or "Your Triskel card has been played" in d.prompt
        assert d.seat is not None
        events += table.do(d.seat, "decline")
    assert played(events) == ["act_raid"]
    assert "act_raid" not in table.hand("green")


def test_a_decline_answers_the_rest_of_the_step_and_the_card_stays_in_hand():
    table = hills_clash(green=["act_migration", "adv_iron_mine", "act_raid"], orange=["act_warlord"])
    table.do("green", "attack", target="orange")
    table.do("green", "decline")
    table.do("orange", "attack_response", choice="remove")
    assert not triskel_prompts(table, "green")
    assert "act_raid" in table.hand("green")


def test_the_attacked_player_answers_its_clan_removed_and_says_its_warlord_ahead():
    """Orange is attacked and removes a clan: it is asked about Diarmuid and Gráinne (its clan is
    removed), and may say then that it will play Warlord right after the maneuver. The window
    after the maneuver then does not ask it again: its Warlord is played."""
    table = hills_clash(orange=["act_warlord", "ep_diarmuid_grainne"])
    table.do("green", "attack", target="orange")
    table.do("orange", "attack_response", choice="remove")
    (decision,) = triskel_prompts(table, "orange")
    assert decision.context["trigger"] == "clan_removed"
    legal = table.legal("orange")
    assert {"type": "decline", "then": "act_warlord", "then_next": "orange"} in legal
    assert {
        "type": "react",
        "card": "ep_diarmuid_grainne",
        "to": "cove",
        "then": "act_warlord",
        "then_next": "green",
    } in legal
    events = table.do("orange", {"type": "decline", "then": "act_warlord", "then_next": "orange"})
    while any(asks_triskel(d) for d in pending(table.state)):
        d = next(d for d in pending(table.state) if asks_triskel(d))
        assert d.seat != "orange", d
        events += table.do(d.seat, "decline")
    assert "ClansRemoved" in types(events)
    assert played(events) == ["act_warlord"]
    assert [(d.seat, d.kind) for d in pending(table.state)] == [("orange", "maneuver")]


def test_the_next_maneuver_is_a_new_step_that_asks_again():
    table = hills_clash(
        green=["act_migration", "adv_iron_mine", "act_raid", "act_bard"], orange=["act_warlord"]
    )
    table.do("green", "attack", target="orange")
    table.do("green", "decline")
    table.do("orange", "attack_response", choice="remove")
    table.do("orange", "attack", target="green")  # declines its window, performs its maneuver
    table.do("green", "attack_response", choice="discard", card="act_bard")
    while not [d for d in pending(table.state) if d.seat == "green"]:  # orange's Warlord window
        d = pending(table.state)[0]
        assert d.seat is not None
        table.do(d.seat, "decline")
    # Green's next maneuver is a new step: its attack's window asks green again.
    assert [d.kind for d in pending(table.state) if d.seat == "green"] == ["maneuver"]
    table.do("green", "attack", target="orange")
    (decision,) = triskel_prompts(table, "green")
    assert decision.context["trigger"] == "attack_declared"


def test_a_card_said_ahead_is_refused_when_it_cannot_answer_a_later_moment():
    table = hills_clash(green=["act_migration", "adv_iron_mine", "act_raid"], orange=["act_warlord"])
    table.do("green", "attack", target="orange")
    message = table.refuse("green", {"type": "decline", "then": "act_migration"})
    assert "No later moment of this clash step" in message
    message = table.refuse("green", {"type": "react", "card": "adv_iron_mine", "then": "adv_iron_mine"})
    assert message


def test_a_card_said_ahead_is_as_secret_as_an_answer():
    table = hills_clash(green=["act_migration", "adv_iron_mine", "act_raid"], orange=["act_warlord"])
    table.do("green", "attack", target="orange")
    table.do("green", {"type": "decline", "then": "act_raid"})
    clash = next(f for f in table.state.stack if f["kind"] == "clash")
    assert clash["ahead"]["green"]["play"]["card"] == "act_raid"
    seen_by_orange = next(f for f in deal_hidden(table.state, "orange").stack if f["kind"] == "clash")
    assert "green" not in seen_by_orange.get("ahead", {})


def test_in_a_game_asking_on_public_facts_a_seat_that_answered_the_step_is_not_asked_again():
    """In the strict mode every seat holding an Action card is asked about Raid and Warlord; a
    seat that answered the attack's window is not asked again right after the maneuver."""
    table = hills_clash(
        "public", green=["act_migration", "adv_iron_mine", "act_bard"], orange=["act_warlord"]
    )
    table.do("green", "attack", target="orange")
    assert triskel_prompts(table, "green")
    table.do("green", "decline")
    table.do("orange", "attack_response", choice="remove")
    assert not triskel_prompts(table, "green")
