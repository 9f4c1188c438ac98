"""A bot decides on what its seat may know only (docs/rulings.md, "Bots").

Two states that differ only in what a seat cannot see — the other hands, the order of the
decks, the set-aside card, the game's seed behind them — must give that seat's bot the same
command for the same generator: `rules.deal_hidden(state, seat)` reduces both to the same
information set before the bot reads anything. The strong bot is bounded here by iterations,
not seconds (`FIXED`), so that its search is the same length on both.
"""

from __future__ import annotations

import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import bots, rules
from games.rules.catalog import ACTION, CARDS, EPIC
from games.rules.information_sets import hidden_from
from games.rules.simulate import play_game


def redeal_hidden_from(state, seat: str, rng: random.Random):
    """A copy of `state` in which the Action cards and Epic Tales `seat` cannot see (other hands,
    the Action deck and discard pile, the set-aside card, the Epic Tale deck) are shuffled among
    the same places, each keeping its size, and the tile stack is shuffled: `seat`'s view is
    unchanged. Cards a procedure in progress or the draft names stay where they are, and so do
    the cards `seat`'s options show it (the Druid shows it the discard pile)."""
    new = state.clone()
    pinned = set()
    for value in (new.stack, new.draft, rules.legal_commands(state, seat)):
        pinned |= {s for s in _strings(value)}
    others = [s for s in new.seats if s != seat]
    for kind, piles in ((ACTION, [new.action_deck, new.action_discard]), (EPIC, [new.epic_deck])):
        places = [
            (pile, i)
            for pile in [*(new.hands[s] for s in others), *piles]
            for i, card in enumerate(pile)
            if CARDS[card].type == kind and card not in pinned
        ]
        set_aside = kind == ACTION and new.set_aside is not None and new.set_aside not in pinned
        cards = [pile[i] for pile, i in places] + ([new.set_aside] if set_aside else [])
        rng.shuffle(cards)
        for (pile, i), card in zip(places, cards):
            pile[i] = card
        if set_aside:
            new.set_aside = cards[-1]
    if not (set(new.tile_stack) & pinned):
        rng.shuffle(new.tile_stack)
    return new


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings(v)
    elif isinstance(value, list | tuple):
        for v in value:
            yield from _strings(v)


def positions(seed: str, players: int, every: int):
    """(state, seat) at every `every`-th decision of a random game, for each seat deciding."""
    found = []

    def check(state, events):
        if state.seq % every == 0 and not rules.is_over(state):
            found.extend((state.clone(), d.seat) for d in rules.pending(state))

    play_game(players, seed, max_rounds=4, check=check)
    return found


# Each example plays part of a game: a few in the fast lanes, many with HYPOTHESIS_PROFILE=deep.
EXAMPLES = 300 if os.environ.get("HYPOTHESIS_PROFILE") == "deep" else 6


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.text(alphabet="0123456789abcdef", min_size=6, max_size=6),
    players=st.integers(2, 4),
    level=st.sampled_from(["random", "easy"]),
)
def test_what_the_seat_cannot_see_does_not_change_its_decision(seed, players, level):
    """Along a random game, another deal of every card hidden from the deciding seat (same view
    for it) gives its bot the same command for the same generator."""
    shuffle = random.Random(seed)
    compared = 0
    for state, seat in positions(f"hidden-{seed}", players, every=7):
        other = redeal_hidden_from(state, seat, shuffle)
        assert rules.view_for(other, seat) == rules.view_for(state, seat)
        assert rules.legal_commands(other, seat) == rules.legal_commands(state, seat)
        assert rules.deal_hidden(other, seat) == rules.deal_hidden(state, seat)
        mine = bots.choose(state, seat, level, random.Random(state.seq))
        assert bots.choose(other, seat, level, random.Random(state.seq)) == mine
        compared += 1
    assert compared > 10


def test_the_hard_bot_reads_no_hidden_card_either():
    """The hard bot (rollouts over random deals) too: same view, same generator, same command."""
    shuffle = random.Random(5)
    states = positions("hidden-hard", 3, every=41)[:8]
    assert states
    for state, seat in states:
        other = redeal_hidden_from(state, seat, shuffle)
        assert bots.choose(other, seat, "hard", random.Random(1)) == bots.choose(
            state, seat, "hard", random.Random(1)
        )


# The strong bot bounded by iterations alone: deterministic for a generator, like the others.
FIXED = bots.Budget(seconds=float("inf"), iterations=8)


def test_the_strong_bot_reads_no_hidden_card_either():
    """The strong bot (the hard bot's shortlist raced over random deals of what its seat cannot
    see): same view, same generator, same command, on Season turns and clashes where it searches."""
    from games.bots.hard import SEARCHED

    shuffle = random.Random(9)
    states = [
        (state, seat)
        for state, seat in positions("hidden-strong", 4, every=13)
        if any(d.kind in SEARCHED for d in rules.pending_for(state, seat) if d.seat == seat)
        and len(rules.legal_commands(state, seat)) > 1
    ][:4]  # each search raced on deals: four positions, Season turns and clashes, in seconds each
    assert len(states) == 4
    for state, seat in states:
        other = redeal_hidden_from(state, seat, shuffle)
        assert other.hands != state.hands or other.action_deck != state.action_deck
        assert bots.choose(other, seat, "strong", random.Random(1), FIXED) == bots.choose(
            state, seat, "strong", random.Random(1), FIXED
        )


def test_a_different_hidden_deal_is_seen_by_the_rules_but_not_by_the_bot():
    """The check above is not empty: the redealt state really differs from the original in the
    other hands, yet the information set of the seat is one and the same."""
    for state, seat in positions("hidden-differs", 4, every=5):
        other = redeal_hidden_from(state, seat, random.Random(3))
        if other.hands != state.hands:
            assert rules.deal_hidden(other, seat) == rules.deal_hidden(state, seat)
            assert other.hands[seat] == state.hands[seat]
            return
    raise AssertionError("no position where another deal changed a hand")


def test_a_random_deal_keeps_the_seats_view_and_the_sizes_of_every_place():
    """`deal_hidden(state, seat, rng)`: one possible truth, consistent with what `seat` sees."""
    for state, seat in positions("deal-view", 4, every=11):
        deal = rules.deal_hidden(state, seat, random.Random(2))
        assert rules.view_for(deal, seat) == rules.view_for(state, seat)
        assert rules.legal_commands(deal, seat) == rules.legal_commands(state, seat)
        assert sorted(map(len, deal.hands.values())) == sorted(map(len, state.hands.values()))
        assert sorted(deal.action_deck + deal.action_discard) != [] or not state.action_deck


def test_a_seat_not_seated_is_refused():
    state = rules.fold(rules.start_game(["green", "blue"], seed="x"))
    try:
        rules.deal_hidden(state, "white")
    except ValueError as error:
        assert "white" in str(error)
    else:
        raise AssertionError("no error for a seat not seated")


def swap_everywhere(state, a: str, b: str):
    """A copy of `state` in which cards `a` and `b` trade places in every hand, deck, discard
    pile, draft record and secret part of a procedure in progress (the public part of the
    procedures, which names cards shown to the table, is left alone)."""
    new = state.clone()

    def swap(value):
        if value == a:
            return b
        if value == b:
            return a
        if isinstance(value, dict):
            return {k: swap(v) for k, v in value.items()}
        if isinstance(value, list):
            return [swap(v) for v in value]
        return value

    new.hands = swap(new.hands)
    new.action_deck, new.action_discard = swap(new.action_deck), swap(new.action_discard)
    new.epic_deck, new.set_aside = swap(new.epic_deck), swap(new.set_aside)
    if new.draft:
        new.draft = swap(new.draft)
    for frame in new.stack:
        if "secret" in frame:
            frame["secret"] = swap(frame["secret"])
    return new


def unseen_twins(state, seat: str):
    """(state, another state `seat` cannot tell from it) for each hidden thing the issue names:
    a card of the pack passed to `seat` that it has not picked up yet (and has not seen before),
    traded with the set-aside card; a card another seat discards face down to Master Craftsman (or another secret part
    of its card in progress), traded with a card of the same type in the face-down piles."""
    from games.rules.assembly import draft_cards_in_front, draft_cards_in_hand

    if state.draft and seat in state.draft and state.set_aside is not None:
        waiting = set(draft_cards_in_front(state, seat)) - set(draft_cards_in_hand(state, seat))
        # Not a card the seat met earlier in its draft (with 2 players, a pack comes back).
        record = list(_strings(state.draft[seat]))
        for card in sorted(c for c in waiting if record.count(c) == 1)[:1]:
            yield "a pack not picked up", swap_everywhere(state, card, state.set_aside)
    for frame in state.stack:
        if frame.get("seat") == seat or not frame.get("secret"):
            continue
        # Once the card is resolved, an Epic Tale discarded to Master Craftsman lies face up on
        # the Epic Tale discard pile: no longer hidden, so not traded.
        hidden = hidden_from(state, seat)
        secret = [c for c in _strings(frame["secret"]) if CARDS.get(c) and CARDS[c].type in (ACTION, EPIC)]
        for card in [c for c in secret if c in hidden][:1]:
            pile = state.action_discard if CARDS[card].type == ACTION else state.epic_deck
            told = set(_strings(rules.legal_commands(state, seat)))
            for other in pile:
                if other not in told:
                    yield "another seat's secret", swap_everywhere(state, card, other)
                    break


def twin_positions(limit: int):
    """Up to `limit` (kind, state, twin, seat) of each kind of `unseen_twins`, from random games."""
    found: dict = {}

    def check(state, events):
        if rules.is_over(state):
            return
        for decision in rules.pending(state):
            if decision.seat is None:
                continue
            for kind, twin in unseen_twins(state, decision.seat):
                if len(found.setdefault(kind, [])) < limit:
                    found[kind].append((state.clone(), twin, decision.seat))

    for n in range(12):
        play_game(2 + n % 3, f"twins-{n}", max_rounds=6, check=check)
        if len(found) == 2 and all(len(v) >= limit for v in found.values()):
            break
    return found


def test_a_pack_not_picked_up_and_another_seats_secret_change_no_level_of_bot():
    """A pack passed to the seat that it has not picked up (its view shows only how many cards
    wait) and the card another player discards face down to Master Craftsman, seen by a seat
    deciding in that window: traded with other hidden cards, every level of bot gives the same
    command for the same generator."""
    found = twin_positions(limit=6)
    assert set(found) == {"a pack not picked up", "another seat's secret"}
    for kind, twins in found.items():
        for n, (state, twin, seat) in enumerate(twins):
            assert twin != state, kind
            assert rules.view_for(twin, seat) == rules.view_for(state, seat), kind
            assert rules.legal_commands(twin, seat) == rules.legal_commands(state, seat), kind
            assert rules.deal_hidden(twin, seat) == rules.deal_hidden(state, seat), kind
            # The slow levels on a few of them only.
            levels = bots.LEVELS if n < 2 else ("random", "easy")
            for level in levels:
                mine = bots.choose(state, seat, level, random.Random(state.seq), FIXED)
                assert bots.choose(twin, seat, level, random.Random(state.seq), FIXED) == mine, (kind, level)


def answered_window_twins(limit: int):
    """Up to `limit` (state, twin, seat) from random 4-player games whose Triskel windows ask
    only holders: `seat` is asked in a window where another seat has answered with a card, not
    yet revealed; in the twin that seat declined instead, and only `seat` was asked."""
    found: list = []

    def check(state, events):
        if rules.is_over(state) or len(found) >= limit or not state.stack:
            return
        window = state.stack[-1]
        if window["kind"] != "window" or window["queue"] is not None:
            return
        played = [s for s, answer in window["answers"].items() if answer]
        waiting = [s for s in window["asked"] if s not in window["answers"]]
        if played and waiting:
            twin = state.clone()
            twin.stack[-1]["answers"] = {s: None for s in window["answers"]}
            found.append((state.clone(), twin, waiting[0]))
            alone = state.clone()
            alone.stack[-1]["asked"], alone.stack[-1]["answers"] = [waiting[0]], {}
            found.append((state.clone(), alone, waiting[0]))

    for n in range(40):
        play_game(4, f"answered-{n}", max_rounds=4, check=check, options={"reactions": "holders"})
        if len(found) >= limit:
            break
    return found


def test_another_seats_unrevealed_triskel_answer_changes_no_level_of_bot():
    """In a Triskel window that asks only the holders of an answer, a seat still to answer cannot
    know whether another asked seat plays a card (its answer is revealed when the window closes),
    nor who else was asked. Its bot decides the same whether another seat played Warlord or
    declined, and whether it was asked alone (every level, same generator)."""
    found = answered_window_twins(limit=6)
    assert len(found) >= 4
    for n, (state, twin, seat) in enumerate(found):
        assert rules.view_for(twin, seat) == rules.view_for(state, seat)
        assert rules.deal_hidden(twin, seat) == rules.deal_hidden(state, seat)
        assert rules.view_for(rules.deal_hidden(state, seat, random.Random(n)), seat) == rules.view_for(
            state, seat
        )
        levels = bots.LEVELS if n < 2 else ("random", "easy", "hard")
        for level in levels:
            mine = bots.choose(state, seat, level, random.Random(state.seq), FIXED)
            assert bots.choose(twin, seat, level, random.Random(state.seq), FIXED) == mine, level
