"""A bot decides on what its seat may know only (docs/rulings.md, "Bots").

Two states that differ only in what a seat cannot see — the other hands, the order of the
decks, the set-aside card, the game's seed behind them — must give that seat's bot the same
command for the same generator: `rules.deal_hidden(state, seat)` reduces both to the same
information set before the bot reads anything.
"""

from __future__ import annotations

import os
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import bots, rules
from games.rules.catalog import ACTION, CARDS, EPIC
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
