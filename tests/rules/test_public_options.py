"""Forced moves are decided on public facts (docs/rulings.md, "Forced moves").

A decision answered for its seat at once shows the table that the seat had one option. So
`rules.options_are_public(view_for(state, None), seat)` may say yes only when no hidden card
could have given the seat another option: two positions the other players cannot tell apart
must get the same answer. The property test re-deals every hidden card of random games (hands,
decks, the set-aside card, the face-down Action discard pile) without changing the public view,
and checks that wherever the options are said to be public, the legal commands stay the same.
"""

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import rules as rules_package
from games.rules import legal_commands, options_are_public, pending, view_for, why_not_playable
from games.rules.catalog import ACTION, CARDS, EPIC
from games.rules.public_options import HIDDEN_CARDS_READ
from games.rules.simulate import play_game

from .positions import Table

ISLAND = """
    moor    0,0  green 3  blue 1  sanctuaries 1
    plains  1,0  blue 2  orange 2
    valley  0,1  orange 2  white 1
    cove    -1,1  white 2  green 1
"""


def white_turn(card: str | None) -> Table:
    """The Season goes on and it is white's turn; white holds `card` alone (None: nothing)."""
    hands = {
        "green": ["act_new_clans"],
        "blue": ["act_bard"],
        "orange": ["act_migration"],
        "white": [card] if card else [],
    }
    return Table(ISLAND, capital="plains", brenn="green", turn="white", opened=True, hands=hands)


@pytest.mark.parametrize("hidden, playable", [("act_geis", "act_festival"), ("ep_the_dagda", "ep_eriu")])
def test_one_hidden_card_does_not_decide_whether_the_seat_is_asked(hidden, playable):
    """White holds one card. With Geis (Triskel only: "when an opponent plays an Action card")
    white can only pass; with Festival white may also play it (for no effect at worst): the
    others see the same table either way, so white's options are not public in either, and
    white is asked in both. The same with The Dagda (Triskel only) against Ériu (a Season card)
    as white's one Epic Tale."""
    only_pass, can_play = white_turn(hidden), white_turn(playable)
    public = view_for(only_pass.state, None)
    assert public == view_for(can_play.state, None)
    assert only_pass.legal("white") == [{"type": "pass"}]
    assert len(can_play.legal("white")) > 1
    assert not options_are_public(public, "white")


def test_an_empty_hand_leaves_public_options():
    """White holds no card: everybody sees that it can only pass."""
    table = white_turn(None)
    assert options_are_public(view_for(table.state, None), "white")
    assert table.legal("white") == [{"type": "pass"}]


def test_advantage_cards_are_public():
    """ "During the Assembly phase, the chieftain of each territory takes its matching Advantage
    card" in front of everybody: every view lists them. White holding only the Hills (Triskel,
    "when an Attack targets you in the Hills") can only pass, as everybody can tell."""
    table = white_turn("adv_hills")
    public = view_for(table.state, None)
    assert public["hands"]["white"]["advantage_cards"] == ["adv_hills"]
    assert options_are_public(public, "white")
    assert table.legal("white") == [{"type": "pass"}]


def test_a_seats_own_view_is_refused():
    """The test must never be handed a hand: a seat's own view is refused."""
    table = white_turn("act_geis")
    with pytest.raises(ValueError):
        options_are_public(view_for(table.state, "white"), "white")


def lone_maneuver(hand: list) -> Table:
    """Green started a clash in the Moor with Warlord and proposed peace; blue refused. Green,
    chieftain of no territory next to the Moor, is left with one maneuver: attack blue, unless
    an Epic Tale played as a maneuver gives it another."""
    table = Table(
        """
        moor    0,0  green 2  blue 2
        plains  1,0  blue 3
        valley  0,1  orange 3
    """,
        seats=("green", "blue", "orange"),
        capital="plains",
        brenn="green",
        turn="green",
        opened=True,
        hands={"green": ["act_warlord", *hand], "blue": ["act_bard"]},
    )
    table.play("green", "act_warlord", territory="moor")
    table.do("green", "propose_peace")
    table.do("blue", "peace_vote", agree=False)
    return table


def test_action_cards_do_not_change_a_maneuver():
    """Rulebook, Resolution: a maneuver is an Attack, a Withdraw or an Epic Tale played as a
    maneuver; Action cards play no part. Green holding Action cards and no Epic Tale has public
    options (attack blue); holding an Epic Tale it has not, whichever Epic Tale it is."""
    with_actions = lone_maneuver(["act_new_clans", "act_geis"])
    assert with_actions.awaiting() == {"green": "maneuver"}
    assert with_actions.legal("green") == [{"type": "attack", "target": "blue"}]
    assert options_are_public(view_for(with_actions.state, None), "green")
    for epic in ("ep_ogmas_eloquence", "ep_eriu"):
        with_epic = lone_maneuver([epic])
        assert not options_are_public(view_for(with_epic.state, None), "green")


# -- what the seat itself reads ------------------------------------------------------------------


def test_the_seat_asked_reads_why_it_can_only_pass():
    """White, asked although it can only pass, reads why, in its own words; the public view
    says nothing of it."""
    geis = white_turn("act_geis")
    assert why_not_playable(geis.state, "white") == [
        "You have no card you can play now.",
        "Geis is a Triskel card: it is played only when its trigger happens, not on your turn.",
    ]
    assert why_not_playable(white_turn("act_festival").state, "white") == []
    two = white_turn("act_geis")
    two.state.hands["white"].append("ep_dagdas_club")
    assert why_not_playable(two.state, "white") == [
        "You have no card you can play now.",
        "Geis and The Dagda's Club are Triskel cards: they are played only when their trigger happens, "
        "not on your turn.",
    ]
    assert why_not_playable(geis.state, "green") == []  # not green's turn
    assert "Geis" not in json.dumps(view_for(geis.state, None))


# -- the property: re-dealing hidden cards -------------------------------------------------------

CARD_ID = re.compile(r"\b(?:act|ep|adv)_[a-z_]+\b")


def redeal(state, rng: random.Random):
    """A copy of `state` in which the hidden Action cards (hands, deck, set-aside card, face-down
    discard pile) and the hidden Epic Tales (hands, deck) are shuffled among the same places,
    each place keeping its size: the same public view, other hidden contents. Cards a procedure
    in progress or the draft refers to stay where they are."""
    new = state.clone()
    pinned = set(CARD_ID.findall(json.dumps([new.stack, new.draft, new.in_front], default=str)))
    for kind, piles in ((ACTION, [new.action_deck, new.action_discard]), (EPIC, [new.epic_deck])):
        places = [
            (pile, i)
            for pile in [*(new.hands[s] for s in new.seats), *piles]
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
    return new


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.text(alphabet="0123456789abcdef", min_size=6, max_size=6),
    players=st.integers(2, 4),
    reactions=st.sampled_from(["public", "holders"]),
)
def test_public_options_do_not_change_when_hidden_cards_are_dealt_again(seed, players, reactions):
    """Along random games, at every decision said to have public options, two other deals of
    the hidden cards (same public view) give the deciding seat the same legal commands; and the
    kinds that read the seat's hand are said to have public options only without such cards."""
    rng = random.Random(seed)
    checked = {"public": 0}

    def check(state, events):
        if state.draft:  # the draft's own cards are pinned anyway; nothing there is public
            return
        public = view_for(state, None)
        seats = [s for s in state.seats if options_are_public(public, s)]
        if not seats:
            return
        for _ in range(2):
            other = redeal(state, rng)
            assert view_for(other, None) == public
            for seat in seats:
                assert legal_commands(other, seat) == legal_commands(state, seat), [
                    d for d in pending(state) if d.seat == seat
                ]
        checked["public"] += len(seats)

    play_game(players, f"public-options-{seed}", max_rounds=3, check=check, options={"reactions": reactions})
    assert checked["public"] > 0


def test_every_listed_kind_is_a_decision_kind_of_the_rules():
    """A kind misspelt in the table would silently never be forced: each is the kind of some
    `Decision` the rules make."""
    source = "".join(path.read_text() for path in Path(rules_package.__file__).parent.glob("*.py"))
    made = set(re.findall(r'Decision\(\s*[^,]+,\s*"([a-z_]+)"', source))
    assert set(HIDDEN_CARDS_READ) <= made, set(HIDDEN_CARDS_READ) - made
