"""Taking back a move (docs/rulings.md, "Taking back a move"; the rulebook is silent): the rules
restore the state before the move when it revealed nothing, and refuse otherwise."""

import pytest

from games.rules import IllegalCommand, InvalidCommand, evolve, fold, redact, rng_for, take_back_events
from tests.rules.positions import Table
from tests.rules.triskel_positions import warlord_clash

ISLAND = """
    hills   0,0  blue 2
    valley  1,0  green 3
    plains  0,1  orange 1
    cove   -1,0
"""
# The rules of a game created now (games.record.options.NEW_GAME_RULES, with the default reaction
# mode): take-backs judged on what the mover may see.
NEW_RULES = {"reactions": "holders", "take_backs": "mover_view"}
NEW_CLANS = {"type": "play", "card": "act_new_clans", "territories": ["valley", "valley"]}


def table_after(command, hands):
    """A table where nobody holds a Triskel card and Triskel windows ask only holders, so each
    command runs to the next player's decision."""
    table = Table(ISLAND, capital="valley", hands=hands, options=NEW_RULES)
    before, first = table.state.clone(), len(table.events) + 1
    made = table.do("green", command)
    return table, before, first, first + len(made) - 1


def take_back(table, before, first, last, seat="green", move=NEW_CLANS, mover="green"):
    return take_back_events(
        before,
        seat,
        move,
        mover=mover,
        first_seq=first,
        last_seq=last,
        seed_rng=rng_for(table.seed, first - 1),
    )


def test_new_clans_taken_back_puts_the_island_and_the_hand_back():
    """Green's Season turn: New Clans puts 2 clans in the Valley (public, nothing drawn); taken
    back, the clans are back in green's reserve, New Clans in green's hand, and green decides
    again. The log only grows, and folds to that state. Green holds the one Geis, so nobody
    else can answer the declaration (rulebook: "The "Geis" Triskel card, which ignores an Action
    card effect, can be played only after the current player has fully declared his action")."""
    table, before, first, last = table_after(
        NEW_CLANS, {"green": ["act_new_clans", "act_geis"], "blue": ["act_druid"]}
    )
    assert table.clans("valley")["green"] == 5

    (event,) = take_back(table, before, first, last)
    evolve(table.state, event)
    table.events.append(event)

    assert table.clans("valley")["green"] == 3
    assert sorted(table.state.hands["green"]) == ["act_geis", "act_new_clans"]
    assert [d.seat for d in table.pending()] == ["green"]
    folded = fold([e.to_json() for e in table.events])
    assert folded.to_json() == table.state.to_json() and folded.seq == last + 1
    # Others read who took back which events, never the state it carries.
    assert redact(event, "blue").payload == {"seat": "green", "first": first, "last": last, "redacted": True}


@pytest.mark.parametrize("setter", ["blue", "green"])
def test_a_policy_set_since_the_move_stands_through_the_take_back(setter):
    """docs/rulings.md, "Taking back a move": a standing Triskel policy is no move, yours or
    another's, and it stays through the take-back. Green plays New Clans; then `setter` (blue,
    whose turn it now is, or green itself) sets "never ask" for Geis; green takes New Clans back:
    the island, the hands and the turn are as before the move, the policy is still "never"."""
    table, before, first, last = table_after(
        NEW_CLANS, {"green": ["act_new_clans", "act_geis"], "blue": ["act_druid"]}
    )
    table.do(setter, {"type": "set_policy", "card": "act_geis", "policy": "never"})
    assert table.state.policies[setter] == {"act_geis": "never"}

    (event,) = take_back(table, before, first, last)
    evolve(table.state, event)
    table.events.append(event)

    assert event.payload["first"] == first and event.payload["last"] == last  # the move's events
    assert table.clans("valley")["green"] == 3
    assert sorted(table.state.hands["green"]) == ["act_geis", "act_new_clans"]
    assert [d.seat for d in table.pending()] == ["green"]
    assert table.state.policies[setter] == {"act_geis": "never"}
    expected = before.to_json()
    expected["policies"][setter] = {"act_geis": "never"}
    assert {**table.state.to_json(), "seq": None} == {**expected, "seq": None}
    folded = fold([e.to_json() for e in table.events])
    assert folded.to_json() == table.state.to_json()


def test_a_move_that_drew_an_epic_tale_stands():
    """Sanctuary: "Place 1 Sanctuary in a territory where you are present, then draw 1 Epic Tale
    card." Green has seen a hidden card: no take-back. (Blue holds no Action card, so no Triskel
    answer could come from it.)"""
    sanctuary = {"type": "play", "card": "act_sanctuary", "territory": "valley"}
    table, before, first, last = table_after(
        sanctuary, {"green": ["act_sanctuary", "act_bard"], "blue": ["adv_valley"]}
    )
    with pytest.raises(IllegalCommand) as refused:
        take_back(table, before, first, last, move=sanctuary)
    assert (
        str(refused.value) == "That move drew cards or tiles from a face-down pile: it cannot be taken back."
    )


def test_only_the_mover_takes_back_and_only_once():
    table, before, first, last = table_after(
        NEW_CLANS, {"green": ["act_new_clans", "act_geis"], "blue": ["act_druid"]}
    )
    with pytest.raises(IllegalCommand, match="another player has acted"):
        take_back(table, before, first, last, seat="blue")
    with pytest.raises(IllegalCommand, match="already taken back"):
        take_back(table, before, first, last, move={"type": "take_back"})


def test_a_players_only_choice_is_not_taken_back():
    """Blue holds no card: on its turn it can only pass (a forced move): nothing to take back."""
    table = Table(
        ISLAND,
        capital="valley",
        hands={"green": ["act_new_clans", "act_bard"], "blue": []},
        options=NEW_RULES,
    )
    table.do("green", NEW_CLANS)
    before, first = table.state.clone(), len(table.events) + 1
    assert [d.seat for d in table.pending()] == ["blue"]  # blue's turn, with only the pass
    made = table.do("blue", {"type": "pass"})
    with pytest.raises(IllegalCommand, match="only choice"):
        take_back(
            table, before, first, first + len(made) - 1, seat="blue", move={"type": "pass"}, mover="blue"
        )


# -- what the mover may see decides, never whether a window opened ------------------------------


def test_a_play_another_hand_could_answer_stands_whether_or_not_it_does():
    """Rulebook: "Players keep cards in their hand secret from their opponents, but the number of
    cards in their hand and which card types ... is not secret", and Geis answers "after the
    current player has fully declared his action". Green plays New Clans while blue holds one
    Action card that green cannot see: with Geis in blue's hand a window opens (server-only,
    asking blue), with Geis in the deck none does. Green is refused the same way both times,
    so the refusal tells green nothing about blue's hand."""
    refusals = []
    for blue in (["act_geis"], ["act_druid"]):
        table, before, first, last = table_after(
            NEW_CLANS, {"green": ["act_new_clans", "act_bard"], "blue": blue}
        )
        with pytest.raises(IllegalCommand) as refused:
            take_back(table, before, first, last)
        refusals.append(str(refused.value))
    assert refusals[0] == refusals[1]
    assert "Triskel card that answers that move" in refusals[0]


def test_a_play_nobody_else_could_answer_may_be_taken_back():
    """The same play when blue holds no Action card (the card types in a hand are public):
    nobody can hold Geis but the deck, so no window could open and the take-back is accepted."""
    table, before, first, last = table_after(
        NEW_CLANS, {"green": ["act_new_clans", "act_bard"], "blue": ["adv_valley"]}
    )
    (event,) = take_back(table, before, first, last)
    assert event.type == "MoveTakenBack"


# -- a choice that shows hidden cards closes the take-back --------------------------------------


def test_the_druids_look_at_the_discard_pile_stands():
    """Rulebook: Action cards "are discarded in a facedown discard pile. Players can look at the
    cards in this discard pile only when a card effect allows it, such as the "Druid" Action
    card." Green plays the Druid; its next choice names the discarded cards: green has seen
    them, so the play stands, like a draw."""
    table = Table(
        ISLAND,
        capital="valley",
        hands={"green": ["act_druid", "act_geis"], "blue": ["adv_valley"]},
        action_discard=["act_bard", "act_conquest"],
        options=NEW_RULES,
    )
    before, first = table.state.clone(), len(table.events) + 1
    druid = {"type": "play", "card": "act_druid"}
    made = table.do("green", druid)
    assert {c.get("card") for c in table.legal("green")} >= {"act_bard", "act_conquest"}
    with pytest.raises(IllegalCommand) as refused:
        take_back(table, before, first, first + len(made) - 1, move=druid)
    assert str(refused.value) == SHOWN_TO_YOU


SHOWN_TO_YOU = "That move showed you cards that were hidden from you: it cannot be taken back."


def test_a_look_at_another_hand_stands():
    """Scouts & Spies: "Look at 1 opponent's Action cards; then you may move ..." Green has seen
    blue's hand: the play stands, with that reason."""
    table = Table(
        ISLAND,
        capital="valley",
        hands={"green": ["act_scouts_spies", "act_geis"], "blue": ["act_druid"]},
        options=NEW_RULES,
    )
    before, first = table.state.clone(), len(table.events) + 1
    scouts = {"type": "play", "card": "act_scouts_spies", "opponent": "blue"}
    made = table.do("green", scouts)
    with pytest.raises(IllegalCommand) as refused:
        take_back(table, before, first, first + len(made) - 1, move=scouts)
    assert str(refused.value) == SHOWN_TO_YOU


def test_cards_passed_in_the_draft_stand():
    """Rulebook, Action Card Draft: each player keeps cards "and passes the remaining cards" to
    the next player, who sees them: the pick stands, and the refusal says it passed cards."""
    table = Table(
        "moor 0,0 green 1\nplains 1,0 blue 1",
        seats=("green", "blue"),
        phase="assembly",
        options={"take_backs": "mover_view"},
    )
    while not any(d.kind == "draft" and d.seat == "green" for d in table.pending()):
        table.decline_reactions()
    before, first = table.state.clone(), len(table.events) + 1
    pick = table.legal("green")[0]
    made = table.do("green", pick)
    with pytest.raises(IllegalCommand) as refused:
        take_back(table, before, first, first + len(made) - 1, move=pick)
    assert (
        str(refused.value) == "That move passed or showed cards to another player: it cannot be taken back."
    )


def test_a_card_given_from_another_hand_stands():
    """Maeve's Wealth: "Every other player with at least 1 Action card gives you 1 Action card of
    their choice" — blue's only Action card comes to green's hand: the play stands, and the
    refusal says cards moved between hands."""
    table = Table(
        ISLAND,
        capital="valley",
        hands={"green": ["ep_maeves_wealth", "act_bard"], "blue": ["act_druid"]},
        options=NEW_RULES,
    )
    before, first = table.state.clone(), len(table.events) + 1
    maeve = {"type": "play", "card": "ep_maeves_wealth"}
    made = table.do("green", maeve)
    assert "act_druid" in table.hand("green")
    with pytest.raises(IllegalCommand) as refused:
        take_back(table, before, first, first + len(made) - 1, move=maeve)
    assert str(refused.value) == (
        "That move moved cards between your hand and another player's: it cannot be taken back."
    )


# -- each refusal names its reason --------------------------------------------------------------

HILLS = """
    hills   0,0  green 3  blue 2  orange 1
    moor    1,0  green 2  blue 2
    valley  0,1  orange 2
"""


def attack_window(reactions):
    """Green attacks blue in a clash in the Hills. Rulebook, Hills: "when an Attack maneuver
    targets you in the Hills: Ignore that attack"; Iron Mine: "when you perform an Attack
    maneuver": the attack_declared window asks both blue and green (each holds its card)."""
    table = warlord_clash(
        HILLS,
        {"green": ["adv_iron_mine"], "blue": ["adv_hills"]},
        territory="hills",
        capital="valley",
        options={**NEW_RULES, "reactions": reactions},
    )
    table.decline_reactions()
    table.do("green", "attack", target="blue")
    assert sorted(d.seat for d in table.pending() if d.seat) == ["blue", "green"]
    return table


def answer(table, seat):
    before, first = table.state.clone(), len(table.events) + 1
    made = table.do(seat, "decline")
    return before, first, first + len(made) - 1


def test_a_secret_decline_stands_because_taking_it_back_would_name_the_seat():
    """When windows ask only holders, the others never learn who was asked (docs/rulings.md);
    a take-back names its player. Blue's decline, with green still to answer, revealed nothing
    else: the refusal says exactly that, not that cards were drawn or passed."""
    table = attack_window("holders")
    before, first, last = answer(table, "blue")
    with pytest.raises(IllegalCommand) as refused:
        take_back(table, before, first, last, seat="blue", move={"type": "decline"}, mover="blue")
    assert str(refused.value) == (
        "Your answer to a Triskel window is secret, even that you were asked: taking it back "
        "would tell the others. It stands."
    )


def test_a_decline_seen_by_all_and_revealing_nothing_may_be_taken_back():
    """When every seat that could answer is asked (public facts), everybody sees who answered:
    blue's decline, with green still to answer, showed nothing and may be taken back."""
    table = attack_window("public")
    before, first, last = answer(table, "blue")
    (event,) = take_back(table, before, first, last, seat="blue", move={"type": "decline"}, mover="blue")
    assert event.type == "MoveTakenBack"


@pytest.mark.parametrize("reactions", ["holders", "public"])
def test_the_last_answer_showed_all_answers_and_stands(reactions):
    """Blue has declined; green's decline is the last answer: the window resolves and shows
    every answer. The refusal names that."""
    table = attack_window(reactions)
    answer(table, "blue")
    before, first, last = answer(table, "green")
    with pytest.raises(IllegalCommand) as refused:
        take_back(table, before, first, last, move={"type": "decline"})
    assert str(refused.value) == (
        "That answer closed the Triskel window and showed everyone's answers: it cannot be taken back."
    )


# -- a game started before the rule keeps the rule it started with ------------------------------

# A game created before take-backs were judged on the mover's view: no `take_backs` key.
OLD_RULES = {"reactions": "holders"}


def test_an_old_game_keeps_its_take_back_of_a_play_no_window_answered():
    """docs/rulings.md: games started before take-backs were judged on what the mover sees keep
    the rule they started with. There, green's New Clans (Geis answers "after the current
    player has fully declared his action") is refused only when a window did open: with Geis in
    blue's hand the window's server-only event refuses it, with the Druid there it is accepted,
    as it was when the game was played."""
    accepted = []
    for blue in (["act_geis"], ["act_druid"]):
        table = Table(
            ISLAND,
            capital="valley",
            hands={"green": ["act_new_clans", "act_bard"], "blue": blue},
            options=OLD_RULES,
        )
        before, first = table.state.clone(), len(table.events) + 1
        made = table.do("green", NEW_CLANS)
        try:
            take_back(table, before, first, first + len(made) - 1)
            accepted.append(True)
        except IllegalCommand as refused:
            assert "others may not see" in str(refused)
            accepted.append(False)
    assert accepted == [False, True]


def test_an_old_game_keeps_its_take_back_of_the_druids_look():
    """The Druid (rulebook: players look at the face-down discard pile "only when a card effect
    allows it, such as the "Druid" Action card") in a game started without the rule: its play
    made only public events, so the take-back is accepted, as when it was made; the same play
    in a new game stands (`test_the_druids_look_at_the_discard_pile_stands`)."""
    table = Table(
        ISLAND,
        capital="valley",
        hands={"green": ["act_druid", "act_geis"], "blue": ["adv_valley"]},
        action_discard=["act_bard", "act_conquest"],
        options=OLD_RULES,
    )
    before, first = table.state.clone(), len(table.events) + 1
    druid = {"type": "play", "card": "act_druid"}
    made = table.do("green", druid)
    (event,) = take_back(table, before, first, first + len(made) - 1, move=druid)
    assert event.type == "MoveTakenBack"


def test_an_unknown_take_back_rule_is_refused_at_the_start():
    with pytest.raises(InvalidCommand, match="take_backs must be private_events or mover_view"):
        Table(ISLAND, capital="valley", options={"take_backs": "lenient"})
