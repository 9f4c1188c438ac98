"""A Triskel window folded into the asked seat's own maneuver (docs/rulings.md, "A Triskel window
folded into your maneuver"): the seat whose maneuver comes next in the clash gets one decision,
its maneuver or a Triskel card, instead of a Triskel question and then its maneuver."""

from __future__ import annotations

from games.rules import asks_triskel, pending

from .positions import Table, types

# Green and orange clash in the Hills; orange holds Warlord, whose Triskel half answers every
# maneuver of a clash it is in ("right after any maneuver").
TWO_IN_THE_HILLS = """
    hills   0,0  green 5  orange 5
    valley  1,0  green 3
    plains  0,1  white 1
"""


def hills_clash(**hands) -> Table:
    """Green has just migrated into the Hills, starting a clash with orange; no window declined
    for anybody."""
    table = Table(
        TWO_IN_THE_HILLS,
        seats=("green", "blue", "orange", "white"),
        capital="valley",
        flock="clockwise",
        decline=False,
        hands={"green": ["act_migration"], "orange": ["act_warlord"]} | hands,
    )
    table.play("green", "act_migration", **{"from": "valley", "moves": {"hills": 1}})
    while any(d.kind == "reaction" for d in pending(table.state)):
        for d in pending(table.state):
            assert d.seat is not None
            table.do(d.seat, "decline")
    return table


def prompts_of(table: Table, seat: str, answer) -> list:
    """Play the clash to its end, every seat answering with `answer(decision, legal)`; returns
    the prompts `seat` got, as the service counts them (each time its pending decision
    changes), each as (kind, asks about a Triskel card, maneuvers performed before it)."""
    got, before, maneuvers = [], None, 0
    while table.state.top() is not None and any(f["kind"] == "clash" for f in table.state.stack):
        decisions = pending(table.state)
        mine = [(d.kind, d.prompt) for d in decisions if d.seat == seat]
        if mine and mine != before:
            d = next(d for d in decisions if d.seat == seat)
            got.append((d.kind, asks_triskel(d), maneuvers))
        before = mine
        seat_now = decisions[0].seat
        assert seat_now is not None
        events = table.do(seat_now, answer(decisions[0], table.legal(seat_now)))
        maneuvers += types(events).count("ManeuverPerformed")
    return got


def attack_the_other(decision, legal):
    """Decline every Triskel window; maneuver by attacking; answer an attack by removing a clan."""
    for wanted in ({"type": "decline"}, {"type": "attack_response", "choice": "remove"}):
        if decision.kind != "maneuver" and wanted in legal:
            return wanted
    attacks = [c for c in legal if c["type"] == "attack"]
    return attacks[0] if attacks else next(c for c in legal if c["type"] in ("end_clash", "withdraw"))


def test_the_seat_whose_maneuver_is_next_gets_one_prompt_for_its_maneuver_and_its_triskel_card():
    table = hills_clash()
    table.do("green", "attack", target="orange")
    table.do("orange", "attack_response", choice="remove")
    (decision,) = [d for d in pending(table.state) if d.seat == "orange"]
    assert decision.kind == "maneuver" and asks_triskel(decision)
    assert decision.prompt.startswith(
        "Clash in the Hills: green has performed a maneuver in the clash. Perform a maneuver (attack"
    )
    assert decision.prompt.endswith("or first play a Triskel card in response.")
    legal = table.legal("orange")
    assert {"type": "attack", "target": "green"} in legal
    assert {"type": "react", "card": "act_warlord", "next": "orange"} in legal
    assert {"type": "decline"} in legal


def test_giving_the_maneuver_declines_the_window_and_performs_it_at_once():
    table = hills_clash()
    table.do("green", "attack", target="orange")
    table.do("orange", "attack_response", choice="remove")
    events = table.do("orange", "attack", target="green")
    assert types(events)[:1] == ["ReactionAnswered"]
    assert "AttackDeclared" in types(events)
    assert "act_warlord" in table.state.hands["orange"]  # declined: still in hand
    assert table.state.top()["kind"] != "window" or "orange" in table.state.top()["asked"]


def test_a_warlord_holder_gets_one_prompt_per_clash_step_and_no_separate_triskel_question_before_its_maneuver():
    """Before the fold, orange was asked about Warlord after each of green's maneuvers and then,
    in a second prompt, for its own maneuver. Now, in each clash step (between two maneuvers),
    orange gets at most one prompt that asks about a Triskel card, and after green's maneuvers
    that prompt is its maneuver."""
    got = prompts_of(hills_clash(), "orange", attack_the_other)
    triskel = [(kind, step) for kind, asks, step in got if asks]
    steps = [step for _kind, step in triskel]
    assert len(steps) == len(set(steps)), got
    assert ("maneuver", 1) in triskel and ("reaction", 2) in triskel
    assert not [p for p in got if p[0] == "maneuver" and not p[1]], (
        "a maneuver prompt without the Triskel card"
    )
    maneuvers = got[-1][2]
    # One prompt a maneuver about Warlord, plus the attack answers: no second prompt for a maneuver.
    assert len(triskel) == maneuvers
    assert len(got) == maneuvers + sum(1 for kind, *_ in got if kind == "attack_response")


def test_the_maneuver_waits_for_the_other_asked_seats_and_lapses_when_their_card_changes_who_is_next():
    """Green holds Warlord and attacks; the window after that maneuver asks green (Warlord) and
    orange, whose maneuver is next (it holds an Action card, so may hold Warlord, in a game
    whose windows ask on public facts). Orange gives its maneuver at once; it waits for green.
    Green's Warlord names green for the next maneuver: orange's maneuver is not performed, and
    orange is asked again when its turn comes."""
    table = hills_clash(green=["act_migration", "act_warlord"], orange=["act_bard"])
    table.do("green", "attack", target="orange")
    table.do("orange", "attack_response", choice="remove")
    decisions = {d.seat: d for d in pending(table.state)}
    assert decisions["green"].kind == "reaction"
    assert decisions["orange"].kind == "maneuver" and asks_triskel(decisions["orange"])
    events = table.do("orange", "attack", target="green")
    assert "AttackDeclared" not in types(events)  # waits for green's answer
    assert [d.seat for d in pending(table.state)] == ["green"]
    events = table.do("green", "react", card="act_warlord", next="green")
    while [d.kind for d in pending(table.state)] == ["reaction"]:  # The Dagda's window on Warlord
        events += table.do(pending(table.state)[0].seat, "decline")
    assert "AttackDeclared" not in types(events)
    assert [(d.seat, d.kind) for d in pending(table.state)] == [("green", "maneuver")]


def test_when_the_window_closes_unchanged_the_given_maneuver_is_performed():
    table = hills_clash(green=["act_migration", "act_warlord"], orange=["act_bard"])
    table.do("green", "attack", target="orange")
    table.do("orange", "attack_response", choice="remove")
    table.do("orange", "attack", target="green")
    events = table.do("green", "decline")
    assert "AttackDeclared" in types(events)
    assert [(d.seat, d.kind) for d in pending(table.state)][:1] == [("green", "attack_response")]
