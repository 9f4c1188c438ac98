"""Cards in hands, decks and discard piles, Deeds and Pretender tokens.

Rulebook, Cards: hands are secret but their size and card types are public; Action cards are
discarded face down, played Advantage cards lie face down near the play area, Epic Tales are
discarded face up. Ruling U1 (docs/rulings.md): an empty Epic Tale deck is re-formed from its
discard pile.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

from .catalog import ACTION, ADVANTAGE, CARDS, EPIC, card_name
from .command_types import CommandFields
from .engine import Context, Decision, Procedure, evolver, procedure
from .errors import IllegalCommand
from .event_payloads import (
    ActionCardSetAside,
    ActionDeckShuffled,
    AdvantageCardReturned,
    AdvantageCardTaken,
    CardDiscarded,
    CardGiven,
    CardPutInFront,
    CardReturnedToHand,
    CardTakenFromDiscard,
    DeedDiscarded,
    DeedGained,
    DrawnCardsNoted,
    EpicDeckShuffled,
    EpicTaleDrawn,
    HandRevealed,
    PretendersReturned,
    PretenderTaken,
    SetAsideCardTaken,
)
from .frames import EpicDrawFrame, WindowTrigger
from .language import _
from .reactions import open_window
from .revisions import revision
from .state import GameState

PILES = {ACTION: "action_discard", ADVANTAGE: "advantage_played", EPIC: "epic_discard"}


def _take_from_hand(state: GameState, seat: str, card: str) -> None:
    state.hands[seat].remove(card)


@evolver(EpicDeckShuffled)
def _epic_deck_shuffled(state: GameState, p: EpicDeckShuffled) -> None:
    state.epic_deck = list(p["cards"])
    if p.get("from_discard"):
        state.epic_discard = []
    if p.get("returned"):
        # The Dagda shuffles itself back into the deck from play.
        _leave_play(state, p["returned"])


@evolver(EpicTaleDrawn)
def _epic_tale_drawn(state: GameState, p: EpicTaleDrawn) -> None:
    state.epic_deck.remove(p["card"])
    state.hands[p["seat"]].append(p["card"])


@evolver(ActionDeckShuffled)
def _action_deck_shuffled(state: GameState, p: ActionDeckShuffled) -> None:
    state.action_deck = list(p["cards"])
    state.action_discard = []
    state.set_aside = None


@evolver(ActionCardSetAside)
def _action_card_set_aside(state: GameState, p: ActionCardSetAside) -> None:
    card = p["card"]
    if card in state.action_deck:
        state.action_deck.remove(card)
    elif p.get("seat"):
        state.hands[p["seat"]].remove(card)
    state.set_aside = card


@evolver(SetAsideCardTaken)
def _set_aside_taken(state: GameState, p: SetAsideCardTaken) -> None:
    assert state.set_aside is not None  # taken only when a card is set aside
    state.hands[p["seat"]].append(state.set_aside)
    state.set_aside = None


@evolver(CardDiscarded)
def _card_discarded(state: GameState, p: CardDiscarded) -> None:
    """`from_hand`: the card leaves a hand; otherwise it was in play (already out of the hand)."""
    card = p["card"]
    if p.get("from_hand"):
        _take_from_hand(state, p["seat"], card)
    elif p.get("from_front"):
        state.in_front.pop(card, None)
    else:
        _leave_play(state, card)
    getattr(state, PILES[CARDS[card].type]).append(card)


@evolver(CardReturnedToHand)
def _card_returned(state: GameState, p: CardReturnedToHand) -> None:
    """A card in play goes (back) into a hand instead of its discard pile."""
    _leave_play(state, p["card"])
    state.hands[p["seat"]].append(p["card"])


def _leave_play(state: GameState, card: str) -> None:
    """Mark the procedure of a played card as no longer holding the card."""
    for frame in reversed(state.stack):
        if frame["kind"] == "card" and frame["card"] == card and not frame.get("done"):
            frame["done"] = True
            return


def cards_in_play(state: GameState) -> list[Any]:
    """Cards played and not yet discarded (their effect is being resolved)."""
    return [f["card"] for f in state.stack if f["kind"] == "card" and not f.get("done")]


def named_for_discard(state: GameState, seat: str, card: str) -> str | None:
    """The card of `seat`'s in play that will discard `card` from their hand when it resolves
    (Master Craftsman's or Misty Lands' `discard`, named secretly with the play), or None.

    From rules revision 2 such a card may not be played before (docs/rulings.md, "Master
    Craftsman (Season half)"): it is as good as laid down with the play. None in revision 1,
    whose games let it be played (the discard then finds it gone). A card cancelled meanwhile
    (Geis) discards nothing, so its named card is free again."""
    if revision(state) < 2:
        return None
    for frame in state.stack:
        if frame["kind"] != "card" or frame["seat"] != seat or frame["cancelled"]:
            continue
        if frame["stage"] not in ("declared", "effect"):
            continue  # resolved: its discard is done
        named = frame.get("secret", {}).get("discard")
        if named == card or (isinstance(named, list) and card in named):
            return frame["card"]
    return None


def played_epic_unclaimed(state: GameState, window: WindowTrigger) -> bool:
    """Whether the Epic Tale an "after you play an Epic Tale card" window was opened for is on
    its way to the discard pile: neither cancelled (The Dagda has discarded it already) nor kept
    out of it (The Dagda and Dagda's Cauldron themselves, or a card Master Craftsman or Stone
    Circle took). Master Craftsman and Stone Circle take only such a card, "instead of
    discarding it"; Forest answers any Epic Tale you play."""
    epic = state.stack[window["context"]["card_index"]]
    return epic["kind"] == "card" and not epic["kept"] and not epic["cancelled"]


@evolver(CardPutInFront)
def _card_put_in_front(state: GameState, p: CardPutInFront) -> None:
    _leave_play(state, p["card"])
    state.in_front[p["card"]] = p["seat"]


@evolver(CardTakenFromDiscard)
def _card_taken_from_discard(state: GameState, p: CardTakenFromDiscard) -> None:
    pile = getattr(state, PILES[CARDS[p["card"]].type])
    pile.remove(p["card"])
    state.hands[p["seat"]].append(p["card"])


@evolver(CardGiven)
def _card_given(state: GameState, p: CardGiven) -> None:
    state.hands[p["from"]].remove(p["card"])
    state.hands[p["to"]].append(p["card"])


@evolver(HandRevealed)
def _hand_revealed(state: GameState, p: HandRevealed) -> None:
    pass  # information only: the viewer learns the cards


@evolver(AdvantageCardTaken)
def _advantage_taken(state: GameState, p: AdvantageCardTaken) -> None:
    card = p["card"]
    where = state.advantage_location(card)
    if where == "display":
        state.advantage_display.remove(card)
    elif where == "played":
        state.advantage_played.remove(card)
    elif where in state.hands:
        state.hands[where].remove(card)
    state.hands[p["seat"]].append(card)


@evolver(AdvantageCardReturned)
def _advantage_returned(state: GameState, p: AdvantageCardReturned) -> None:
    card = p["card"]
    where = state.advantage_location(card)
    if where in state.hands:
        state.hands[where].remove(card)
    elif where == "played":
        state.advantage_played.remove(card)
    if card not in state.advantage_display:
        state.advantage_display.append(card)


@evolver(DeedGained)
def _deed_gained(state: GameState, p: DeedGained) -> None:
    state.deeds[p["seat"]] = state.deeds.get(p["seat"], 0) + p.get("count", 1)


@evolver(DeedDiscarded)
def _deed_discarded(state: GameState, p: DeedDiscarded) -> None:
    state.deeds[p["seat"]] -= 1


@evolver(PretenderTaken)
def _pretender_taken(state: GameState, p: PretenderTaken) -> None:
    state.pretenders.append(p["seat"])


@evolver(PretendersReturned)
def _pretenders_returned(state: GameState, p: PretendersReturned) -> None:
    state.pretenders = []


# -- effects -----------------------------------------------------------------------------------


def draw_epic_tales(
    ctx: Context, seat: str, count: int = 1, keep: int | None = None, cause: str = ""
) -> None:
    """`seat` draws `count` Epic Tales and keeps `keep` of them (all when None).

    With a choice to make, or when `seat` holds the Meadows Advantage card (draw 1 more, keep 1),
    this starts the `epic_draw` procedure; otherwise the cards are drawn at once.
    """
    if keep is not None or "adv_meadows" in ctx.state.hands.get(seat, []):
        ctx.push(
            {
                "kind": "epic_draw",
                "seat": seat,
                "count": count,
                "keep": keep,
                "stage": "offer",
                "cause": cause,
            }
        )
    else:
        draw_now(ctx, seat, count)


def draw_now(ctx: Context, seat: str, count: int) -> list[Any]:
    """Draw up to `count` Epic Tales into `seat`'s hand; returns the cards drawn.

    Ruling U1 (docs/rulings.md): when the deck is empty, the discard pile is shuffled into a new
    deck; when both are empty, nothing more is drawn.
    """
    drawn = []
    for _card in range(count):
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


@evolver(DrawnCardsNoted)
def _drawn_noted(state: GameState, p: DrawnCardsNoted) -> None:
    for frame in reversed(state.stack):
        if frame["kind"] == "epic_draw":
            frame["secret"] = {"drawn": list(p["cards"])}
            return


@procedure
class EpicDraw(Procedure[EpicDrawFrame]):
    """Drawing Epic Tales with a choice: Meadows offered first, then keep K of the drawn cards.

    frame: seat, count, keep (None: all), stage (offer -> draw -> choose), secret.drawn.
    """

    kind = "epic_draw"

    def advance(self, ctx: Context, frame: EpicDrawFrame) -> bool:

        seat = frame["seat"]
        if frame["stage"] == "offer":
            ctx.update(frame, stage="draw")
            open_window(ctx, "epic_drawn", actor=seat, context={"draw_index": len(ctx.state.stack) - 1})
            return True
        if frame["stage"] == "draw":
            drawn = draw_now(ctx, seat, frame["count"])
            keep = frame["keep"]
            if keep is None or keep >= len(drawn):
                ctx.pop(frame)
                return True
            ctx.emit("DrawnCardsNoted", visibility=(seat,), seat=seat, cards=drawn)
            ctx.update(frame, stage="choose")
            return True
        if frame["stage"] == "choose":
            # A drawn card may leave the hand before the choice (played as a Triskel in a
            # window opened meanwhile, e.g. The Dagda answering the holder's own Moor): it
            # counts as kept (docs/rulings.md), so what is left to choose may be nothing.
            remaining, to_keep = _still_to_choose(ctx.state, frame)
            if to_keep == 0:
                for card in remaining:
                    discard_from_hand(ctx, seat, card, cause="not kept")
            if to_keep == 0 or to_keep >= len(remaining):
                ctx.pop(frame)
                return True
        return False

    def decisions(self, state: GameState, frame: EpicDrawFrame) -> list[Decision]:
        if frame["stage"] != "choose":
            return []
        remaining, to_keep = _still_to_choose(state, frame)
        return [
            Decision(
                frame["seat"],
                "keep_epic",
                _(
                    "Keep {count} of the {drawn} Epic Tale cards you drew; the others are discarded face up."
                ).format(count=to_keep, drawn=len(remaining)),
            )
        ]

    def legal(self, state: GameState, frame: EpicDrawFrame, seat: str) -> list[CommandFields]:

        remaining, to_keep = _still_to_choose(state, frame)
        return [{"type": "keep", "cards": list(c)} for c in combinations(sorted(remaining), to_keep)]

    def handle(self, ctx: Context, frame: EpicDrawFrame, seat: str, command: CommandFields) -> None:
        remaining, to_keep = _still_to_choose(ctx.state, frame)
        cards = command.get("cards") if command["type"] == "keep" else None
        if (
            not isinstance(cards, list)
            or len(cards) != to_keep
            or len(set(cards)) != len(cards)
            or any(c not in remaining for c in cards)
        ):
            names = ", ".join(card_name(c) for c in remaining)
            raise IllegalCommand(
                _("Keep {count} of the cards you drew: {cards}.").format(count=to_keep, cards=names)
            )
        for card in remaining:
            if card not in cards:
                discard_from_hand(ctx, seat, card, cause="not kept")
        ctx.pop(frame)


def _still_to_choose(state: GameState, frame: EpicDrawFrame) -> tuple[list[Any], int]:
    """(the drawn cards still in the seat's hand, how many of them to keep): a drawn card played
    before the choice counts as one of those kept."""
    drawn = frame["secret"]["drawn"]
    hand = state.hands.get(frame["seat"], [])
    remaining = [c for c in drawn if c in hand]
    keep = frame["keep"]
    assert keep is not None  # a draw that keeps them all asks nobody to choose
    return remaining, max(0, keep - (len(drawn) - len(remaining)))


def discard_from_hand(ctx: Context, seat: str, card: str, cause: str) -> None:
    """Discard an unplayed card from `seat`'s hand to its type's pile.

    Action and Advantage discards are face down, so only `seat` learns which card it was;
    an Epic Tale is discarded face up for all to see.
    """
    public = CARDS[card].type == EPIC
    ctx.emit(
        "CardDiscarded",
        visibility=None if public else (seat,),
        seat=seat,
        card=card,
        from_hand=True,
        cause=cause,
    )


def gain_deed(ctx: Context, seat: str, cause: str) -> None:
    """Give `seat` one Deed token (Deeds are not limited: the Seasons of Inis rulebook
    counts its Harbor tiles "like Deed tokens", "not supposed to be limited in number")."""
    ctx.emit("DeedGained", seat=seat, count=1, cause=cause)
