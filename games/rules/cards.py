"""Cards in hands, decks and discard piles, Deeds and Pretender tokens.

Rulebook, Cards: hands are secret but their size and card types are public; Action cards are
discarded face down, played Advantage cards lie face down near the play area, Epic Tales are
discarded face up. CARDS.md ruling U1: an empty Epic Tale deck is re-formed from its discard pile.
"""
from __future__ import annotations

from .catalog import ACTION, ADVANTAGE, CARDS, EPIC
from .engine import evolver

PILES = {ACTION: "action_discard", ADVANTAGE: "advantage_played", EPIC: "epic_discard"}


def _take_from_hand(state, seat, card):
    state.hands[seat].remove(card)


@evolver("EpicDeckShuffled")
def _epic_deck_shuffled(state, p):
    state.epic_deck = list(p["cards"])
    if p.get("from_discard"):
        state.epic_discard = []


@evolver("EpicTaleDrawn")
def _epic_tale_drawn(state, p):
    state.epic_deck.remove(p["card"])
    state.hands[p["seat"]].append(p["card"])


@evolver("ActionDeckShuffled")
def _action_deck_shuffled(state, p):
    state.action_deck = list(p["cards"])
    state.action_discard = []
    state.set_aside = None


@evolver("ActionCardSetAside")
def _action_card_set_aside(state, p):
    card = p["card"]
    if card in state.action_deck:
        state.action_deck.remove(card)
    elif p.get("seat"):
        state.hands[p["seat"]].remove(card)
    state.set_aside = card


@evolver("SetAsideCardTaken")
def _set_aside_taken(state, p):
    state.hands[p["seat"]].append(state.set_aside)
    state.set_aside = None


@evolver("CardDiscarded")
def _card_discarded(state, p):
    """`from_hand`: the card leaves a hand; otherwise it was in play (already out of the hand)."""
    card = p["card"]
    if p.get("from_hand"):
        _take_from_hand(state, p["seat"], card)
    else:
        _leave_play(state, card)
    getattr(state, PILES[CARDS[card].type]).append(card)


@evolver("CardReturnedToHand")
def _card_returned(state, p):
    """A card in play goes (back) into a hand instead of its discard pile."""
    _leave_play(state, p["card"])
    state.hands[p["seat"]].append(p["card"])


def _leave_play(state, card):
    """Mark the procedure of a played card as no longer holding the card."""
    for frame in reversed(state.stack):
        if frame["kind"] == "card" and frame["card"] == card and not frame.get("done"):
            frame["done"] = True
            return


def cards_in_play(state) -> list:
    """Cards played and not yet discarded (their effect is being resolved)."""
    return [f["card"] for f in state.stack if f["kind"] == "card" and not f.get("done")]


@evolver("CardTakenFromDiscard")
def _card_taken_from_discard(state, p):
    pile = getattr(state, PILES[CARDS[p["card"]].type])
    pile.remove(p["card"])
    state.hands[p["seat"]].append(p["card"])


@evolver("CardGiven")
def _card_given(state, p):
    state.hands[p["from"]].remove(p["card"])
    state.hands[p["to"]].append(p["card"])


@evolver("HandRevealed")
def _hand_revealed(state, p):
    pass  # information only: the viewer learns the cards


@evolver("AdvantageCardTaken")
def _advantage_taken(state, p):
    card = p["card"]
    where = state.advantage_location(card)
    if where == "display":
        state.advantage_display.remove(card)
    elif where == "played":
        state.advantage_played.remove(card)
    elif where in state.hands:
        state.hands[where].remove(card)
    state.hands[p["seat"]].append(card)


@evolver("AdvantageCardReturned")
def _advantage_returned(state, p):
    card = p["card"]
    where = state.advantage_location(card)
    if where in state.hands:
        state.hands[where].remove(card)
    elif where == "played":
        state.advantage_played.remove(card)
    if card not in state.advantage_display:
        state.advantage_display.append(card)


@evolver("DeedGained")
def _deed_gained(state, p):
    state.deeds[p["seat"]] = state.deeds.get(p["seat"], 0) + p.get("count", 1)


@evolver("DeedDiscarded")
def _deed_discarded(state, p):
    state.deeds[p["seat"]] -= 1


@evolver("PretenderTaken")
def _pretender_taken(state, p):
    state.pretenders.append(p["seat"])


@evolver("PretendersReturned")
def _pretenders_returned(state, p):
    state.pretenders = []


# -- effects -----------------------------------------------------------------------------------

def draw_epic_tales(ctx, seat: str, count: int = 1) -> list:
    """Draw up to `count` Epic Tales into `seat`'s hand; returns the cards drawn.

    Ruling U1 (docs/rulings.md): when the deck is empty, the discard pile is shuffled into a new
    deck; when both are empty, nothing more is drawn.
    """
    drawn = []
    for _ in range(count):
        state = ctx.state
        if not state.epic_deck:
            if not state.epic_discard:
                break
            cards = list(state.epic_discard)
            ctx.rng.shuffle(cards)
            ctx.emit("EpicDeckShuffled", visibility=(), cards=cards, from_discard=True)
        card = ctx.state.epic_deck[0]
        ctx.emit("EpicTaleDrawn", visibility=(seat,), seat=seat, card=card)
        drawn.append(card)
    return drawn


def discard_from_hand(ctx, seat: str, card: str, cause: str) -> None:
    """Discard an unplayed card from `seat`'s hand to its type's pile.

    Action and Advantage discards are face down, so only `seat` learns which card it was;
    an Epic Tale is discarded face up for all to see.
    """
    public = CARDS[card].type == EPIC
    ctx.emit("CardDiscarded", visibility=None if public else (seat,), seat=seat, card=card,
             from_hand=True, cause=cause)


def gain_deed(ctx, seat: str, cause: str) -> None:
    """Give `seat` one Deed token (Deeds are not limited: CARDS.md §5 item 13)."""
    ctx.emit("DeedGained", seat=seat, count=1, cause=cause)
