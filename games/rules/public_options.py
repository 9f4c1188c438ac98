"""Whether a seat's options can be told from public facts: the test behind forced moves.

A decision played for its seat without asking (a forced move, docs/rulings.md "Forced moves")
is played at once, so the other players see from the timing alone that the seat had one option.
That is harmless only when they could have worked it out anyway. So the test reads the public
view (`view_for(state, None)`) and nothing else: the island, hand sizes by card type, the
Advantage cards in hands (taken openly at the Assembly, listed in every view), discard counts,
the pending decisions. It never sees a hand, an Epic Tale, the set-aside card or a deck.

Geis (Triskel only) and Festival (playable, for no effect at worst) as a seat's only card look
the same from outside: with Geis the seat can only pass, with Festival it can also play the card.
If the service passed for it at once in the first case and asked in the second, the timing would
name the card; so both are asked, and only a seat whose options no hidden card can change (an
empty hand, or a decision no card in hand bears on) is ever played for.
"""

from __future__ import annotations

from typing import Any

# For each decision kind whose legal commands may be told from public facts: the types of the
# deciding seat's hidden cards those commands can depend on (its Advantage cards are public).
# A decision of this kind has public options when the seat holds no hidden card of those types.
# Every other kind is left out, so never has public options: "draft" and "keep_epic" (hidden
# cards to choose from), "card_choice" (cards revealed to the seat alone, the Action discard
# pile, drawn tiles...), "reaction" (who holds an answering card), a maneuver into which a
# Triskel window is folded (the same), and any kind added later.
# Beyond the seat's own hand, the legal commands of these kinds read public facts only: the
# island, the clash, counts of cards and the Advantage cards (tests/rules/test_public_options.py
# re-deals every hidden card to check it).
HIDDEN_CARDS_READ: dict[str, tuple[str, ...]] = {
    "choose_capital": (),
    "place_clan": (),
    "place_clans": (),  # no clans on the island: place 2
    "territory_cell": (),  # Exploration: where the Brenn puts the tile
    "clash_order": (),
    "citadel": (),
    "peace_vote": (),
    "attack_choice": (),  # The Dagda's Club: the attacker's choice
    "maneuver": ("epic",),  # The Battle of Moytura, The Fianna, Ogma's Eloquence, Cúchulain
    "attack_response": ("action",),
    "mountains_toll": ("action",),
    "season_turn": ("action", "epic"),
}


def options_are_public(view: dict[str, Any], seat: str) -> bool:
    """True when every hidden content consistent with the public `view` would give `seat` the
    same legal commands for its pending decision: `seat` has exactly one pending decision in
    `view["pending"]`, its kind is listed in `HIDDEN_CARDS_READ`, and `view["hands"][seat]`
    counts no card of the types that kind reads (and no draft pack waiting for it).

    view: `view_for(state, None)`, the public view (a seat's own view holds its hand: refused
    with ValueError, so that this test can never read a hidden card). seat: a colour.
    Source: docs/rulings.md, "Forced moves".
    """
    if "hand" in view or "draft" in view:
        raise ValueError("options_are_public takes the public view, view_for(state, None)")
    decisions = [d for d in view["pending"] if d["seat"] == seat]
    if len(decisions) != 1:
        return False
    if "triskel" in (decisions[0].get("context") or {}):
        return False  # a Triskel window folded into a maneuver: who holds an answering card
    reads = HIDDEN_CARDS_READ.get(decisions[0]["kind"])
    hand = view["hands"].get(seat)
    if reads is None or hand is None or hand["waiting"]:
        return False
    return all(hand[card_type] == 0 for card_type in reads)
