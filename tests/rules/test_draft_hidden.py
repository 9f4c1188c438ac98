"""The draft's hidden packs: a seat sees the cards passed to it only when it picks them up.

Rulebook, Phase 1, step 6: "each player adds the one card he held to the three cards passed to
him. He looks at all four Action cards" — a player looks at the passed cards only once they
are the pack he picks from; until then he knows only that a pack waits for him (its size).
"""

import json
import random

from hypothesis import given
from hypothesis import strategies as st

from games.rules import (
    Event,
    bot_command,
    decide,
    evolve,
    fold,
    is_over,
    pending,
    redact,
    render_board,
    rng_for,
    start_game,
    view_for,
)
from games.rules.assembly import draft_cards_in_hand
from games.rules.catalog import card_name
from games.rules.views import hand_summary

from .positions import first
from .test_assembly import assembly, pick

SEATS = ["green", "blue", "orange", "white"]


def waiting_and_known(state, seat):
    """(cards of the packs passed to `seat` and not picked up, cards it has legitimately seen in
    this draft: dealt to it or in a pack it picked up). A pack of stage k is picked up once the
    seat has kept at stage k, i.e. its stage is past k."""
    d = state.draft[seat]
    waiting, known = set(), set()
    for cards in d["dealt"].values():
        known.update(cards)
    for stage, cards in d["received"].items():
        (known if d["stage"] > int(stage) else waiting).update(cards)
    return waiting, known


def names_any(data, cards) -> set:
    """The cards of `cards` that the JSON of `data` names."""
    text = json.dumps(data)
    return {c for c in cards if f'"{c}"' in text}


def check_hidden_packs(state, events):
    """No view_for or redact output for a seat names a card of a pack it has not picked up."""
    if not state.draft:
        return
    start = max(i for i, e in enumerate(events) if e.type == "DraftStarted")
    for seat in state.seats:
        waiting, known = waiting_and_known(state, seat)
        secret = waiting - known
        if not secret:
            continue
        assert not names_any(view_for(state, seat), secret), (seat, secret)
        seen = [redact(e, seat).to_json() for e in events[start:]]
        assert not names_any(seen, secret), (seat, secret)


def check_own_draft_cards(state):
    """Each seat's draft view tells every draft card in its hand, each once: `kept`, `held` and
    `choices` together are the cards it holds (`hand_summary` counts them)."""
    for seat in state.seats if state.draft else []:
        draft = view_for(state, seat)["draft"]
        told = draft["kept"] + draft["held"] + (draft["choices"] or [])
        assert sorted(told) == sorted(draft_cards_in_hand(state, seat)), seat


def test_a_passed_pack_is_hidden_until_the_receiver_has_kept():
    """Step 6: the receiver "adds the one card he held to the three cards passed to him" — it
    looks at them only when it has kept from its own four."""
    table = assembly(4)
    passer = table.state.brenn
    receiver = table.state.next_seat(passer)
    size_before = hand_summary(table.state, receiver)["size"]
    pick(table, passer)
    passed = first(table.events[::-1], "DraftCardsPassed")
    cards = passed.payload["cards"]
    # The receiver knows a pack of 3 waits, not which cards.
    seen = redact(passed, receiver).payload
    assert "cards" not in seen and seen["count"] == 3
    assert not names_any(
        view_for(table.state, receiver), set(cards) - set(table.state.draft[receiver]["dealt"]["0"])
    )
    summary = view_for(table.state, receiver)["hands"][receiver]
    assert summary["size"] == size_before and summary["waiting"] == 3
    assert view_for(table.state, None)["hands"][receiver]["waiting"] == 3
    # The passer still sees what it passed.
    assert redact(passed, passer).payload["cards"] == cards
    # Once it keeps a card, it picks the pack up: now it sees the cards, and so may its page.
    events = table.do(receiver, table.legal(receiver)[0])
    taken = first(events, "DraftPackTaken")
    assert taken.visibility == (receiver,)
    assert taken.payload["cards"] == cards and taken.payload["from"] == passer
    assert "cards" not in redact(taken, passer).payload
    assert set(cards) <= set(view_for(table.state, receiver)["draft"]["choices"])
    summary = view_for(table.state, receiver)["hands"][receiver]
    # 1 card held + the 3 picked up (its other 3 went on to the next seat).
    assert summary["waiting"] == 0 and summary["size"] == size_before


def test_the_cards_you_held_are_yours_to_see_while_you_wait_and_no_one_elses():
    """Step 6: each player "chooses one to hold" and then "adds the one card he held to the
    three cards passed to him": while the passed cards have not come, the held card is in the
    player's hand — its own view and board say so; no other seat's, nor a spectator's."""
    table = assembly(4)
    passer = table.state.brenn
    waiter = table.state.next_seat(passer)
    pick(table, waiter)  # keeps 1 of its 4, then waits for the passer's 3
    state = table.state
    held = state.draft[waiter]["held"]
    assert len(held) == 1
    draft = view_for(state, waiter)["draft"]
    assert draft["choices"] is None and draft["held"] == held and draft["kept"] == []
    assert f"Action cards you hold in the draft: {card_name(held[0])}" in render_board(state, waiter)
    for other in [None, *(s for s in SEATS if s != waiter)]:
        assert not names_any(view_for(state, other), held), other
        lines = [line for line in render_board(state, other).splitlines() if "in the draft" in line]
        assert (lines != []) == (other is not None)  # every seat holds draft cards of its own
        assert not any(card_name(held[0]) in line for line in lines), (other, lines)
    # Once it picks again, the held card is among the cards it picks from, not told twice.
    pick(table, passer)
    draft = view_for(table.state, waiter)["draft"]
    assert draft["held"] == [] and set(held) <= set(draft["choices"])


def test_a_waiting_pack_picked_up_at_once_when_the_receiver_already_kept():
    """The receiver that kept first picks the pack up as soon as it is passed."""
    table = assembly(3, seed="held")
    passer = table.state.brenn
    receiver = table.state.next_seat(passer)
    pick(table, receiver)
    events = table.do(passer, table.legal(passer)[0])
    passed, taken = first(events, "DraftCardsPassed"), first(events, "DraftPackTaken")
    assert taken.payload["cards"] == passed.payload["cards"] and taken.payload["seat"] == receiver


def test_a_pass_stored_before_packs_were_hidden_is_hidden_from_its_receiver():
    """Logs written before this rule made the pass visible to both seats; it still folds, and
    the receiver is shown only the number of cards."""
    old = Event(
        "DraftCardsPassed",
        {"from": "green", "to": "blue", "stage": 0, "cards": ["act_bard", "act_geis", "act_druid"]},
        ("green", "blue"),
    )
    assert "cards" not in redact(old, "blue").payload
    assert redact(old, "blue").payload["count"] == 3
    assert redact(old, "green").payload["cards"] == ["act_bard", "act_geis", "act_druid"]


@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), setup=st.sampled_from(["random", "discovery"]))
def test_no_output_names_a_card_of_a_pack_not_picked_up(players, seed, setup):
    """Random drafts of the first two rounds: at every point, for every seat, neither its view
    nor any event as redacted for it names a card passed to it and not yet picked up (unless
    it has seen that card in this draft already, e.g. one it passed itself with 2 players); and its
    own view tells each draft card it holds."""
    seed = f"hidden-{seed}"
    events = start_game(SEATS[:players], seed=seed, setup=setup)
    state = fold(events)
    rng = random.Random(seed)
    drafts = 0
    # A game may end before round 3: a chieftain may win at the Assembly of round 2.
    while state.round <= 2 and not is_over(state):
        decisions = pending(state)
        seat = rng.choice(sorted({d.seat for d in decisions}))
        new = decide(state, seat, bot_command(state, seat, rng), rng=rng_for(seed, state.seq))
        for event in new:
            evolve(state, event)
            events.append(event)
            # Between two events of one command too: a pack picked up in the same command
            # as it was passed must be hidden at no point.
            check_hidden_packs(state, events)
            check_own_draft_cards(state)
        drafts += any(e.type == "DraftPackTaken" for e in new)
    assert drafts
