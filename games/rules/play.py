"""Playing a card: declaring it, the Geis window, resolving its effect, discarding it.

Rulebook, Play a Season Card; Reminder on Triskel cards ("played in response to an action");
Geis is declared only after the acting player has fully declared the action.
"""

from __future__ import annotations

from typing import Any

from .card_effects import CARD_EFFECTS, NO_EFFECT, declare, split_args
from .catalog import ACTION, CARDS, EPIC, SEASON, TRISKEL, card_name
from .command_types import CommandFields
from .engine import Context, Decision, Procedure, detach, evolver, procedure
from .errors import IllegalCommand, InvalidCommand
from .event_payloads import CardCancelled, CardPlayed, CardSecretDeclared
from .frames import CardFrame
from .language import _
from .reactions import open_window
from .revisions import revision
from .state import GameState


def play_season_card(ctx: Context, seat: str, command: dict[str, Any]) -> None:
    """Validate and declare the Season half of a card from `seat`'s hand, then resolve it.

    Raises InvalidCommand for an unknown card, IllegalCommand when the card is not in hand, has
    no Season half, or its arguments break a rule.
    """
    state = ctx.state
    card = command.get("card")
    if card not in CARDS:
        raise InvalidCommand(_("Unknown card {name}.").format(name=repr(card)))
    if card not in state.hands[seat]:
        raise IllegalCommand(_("{card} is not in your hand.").format(card=card_name(card)))
    if SEASON not in CARDS[card].timings:
        raise IllegalCommand(
            _(
                "{card} is a Triskel card: it is played only when its trigger happens, not on your turn."
            ).format(card=card_name(card))
        )
    effect = CARD_EFFECTS.get(card)
    if effect is None:
        raise IllegalCommand(
            _("{card} cannot be played in this version of the service.").format(card=card_name(card))
        )
    restricted = effect.restriction(state, seat)
    if restricted:
        # The card's own text forbids it: no play for no effect either (docs/rulings.md).
        raise IllegalCommand(
            _("{card} cannot be played now: {why}.").format(card=card_name(card), why=restricted)
        )
    args = split_args(command)
    if args == NO_EFFECT:
        # The rulebook: the player "plays the card, resolves the indicated effect, and then
        # discards the card" — when nothing of the effect can be carried out, that is nothing.
        if effect.season_options(state, seat):
            raise IllegalCommand(
                _("{card} can be played for its effect now: choose how.").format(card=card_name(card))
            )
        declare(ctx, seat, card, SEASON, dict(NO_EFFECT))
        return
    args = effect.validate(state, seat, args)
    declare(ctx, seat, card, SEASON, args)


@evolver(CardPlayed)
def _card_played(state: GameState, p: CardPlayed) -> None:
    state.hands[p["seat"]].remove(p["card"])
    state.stack.append(
        {
            "kind": "card",
            "seat": p["seat"],
            "card": p["card"],
            "half": p["half"],
            "args": detach(p["args"]),
            "stage": "declared",
            "cancelled": False,
            "kept": False,
            "choice": None,
        }
    )


@evolver(CardSecretDeclared)
def _card_secret_declared(state: GameState, p: CardSecretDeclared) -> None:
    # The innermost frame is the card just played (`CardPlayed`).
    state.stack[-1]["secret"] = detach(p["args"])  # type: ignore[typeddict-unknown-key]


@evolver(CardCancelled)
def _card_cancelled(state: GameState, p: CardCancelled) -> None:
    pass


@procedure
class CardInPlay(Procedure[CardFrame]):
    """A declared card, from declaration to discard.

    Stages: declared (the card_declared window: Geis for Action cards, The Dagda for Epic Tales
    and Advantage cards) -> effect -> resolved (Lug Samildanach after an Action card; Master
    Craftsman, Forest, Stone Circle after your Epic Tale) -> discard -> after (Cove, Lost Vale,
    Salt Mine, Valley after your Season card). A cancelled card (Geis, The Dagda) skips its
    effect and the triggers on its resolution (ruling U8: Lug Samildanach cannot take it), but
    it was played: from rules revision 2 the "after you play" triggers hold for it (Forest; Cove,
    Lost Vale, Salt Mine, Valley), as they hold after The Dagda and Dagda's Cauldron, which do
    not go to the discard (docs/rulings.md, "A cancelled card was played"). In revision 1 the
    "after you play" windows opened only for a card neither cancelled nor `kept`.

    frame: seat, card, half, args, stage, cancelled, kept (the card went to a hand instead of the
    discard), choice (a pending choice of the effect), secret (hidden arguments).
    """

    kind = "card"

    def advance(self, ctx: Context, frame: CardFrame) -> bool:
        stage = frame["stage"]
        here = {"card": frame["card"], "card_index": len(ctx.state.stack) - 1, "half": frame["half"]}
        if stage == "declared":
            ctx.update(frame, stage="effect")
            open_window(ctx, "card_declared", actor=frame["seat"], context=here)
            return True
        if stage == "effect":
            if frame["cancelled"]:
                ctx.update(frame, stage="discard")
                if CARDS[frame["card"]].type == EPIC and revision(ctx.state) >= 2:
                    # Forest: "after you play an Epic Tale card"; the card was played.
                    open_window(ctx, "after_epic_played", actor=frame["seat"], context=here)
                return True
            if frame["args"].get("no_effect"):
                ctx.update(frame, stage="resolved")  # played and resolved, for nothing
                return True
            if frame["choice"] is not None:
                return False
            if CARD_EFFECTS[frame["card"]].resolve(ctx, frame):
                ctx.update(frame, stage="resolved")
            # Not done: it set a choice or started a procedure (a clash); either way go on.
            return True
        if stage == "resolved":
            ctx.update(frame, stage="discard")
            kind = CARDS[frame["card"]].type
            if kind == ACTION:
                open_window(ctx, "action_resolved", actor=frame["seat"], context=here)
            elif kind == EPIC and (revision(ctx.state) >= 2 or not frame["kept"]):
                # Played, whether or not it goes to the discard (The Dagda, Dagda's Cauldron):
                # Forest answers the play; Master Craftsman and Stone Circle, which take the
                # card instead of discarding it, check `kept` themselves.
                open_window(ctx, "after_epic_played", actor=frame["seat"], context=here)
            return True
        if stage == "discard":
            ctx.update(frame, stage="after")
            if not frame["kept"]:
                ctx.emit(
                    "CardDiscarded", seat=frame["seat"], card=frame["card"], from_hand=False, cause="played"
                )
            return True
        if stage == "after":
            ctx.pop(frame)
            if frame["half"] == SEASON and (not frame["cancelled"] or revision(ctx.state) >= 2):
                open_window(ctx, "after_season_card", actor=frame["seat"], context={"card": frame["card"]})
            return True
        return False

    def decisions(self, state: GameState, frame: CardFrame) -> list[Decision]:
        if frame["choice"] is None:
            return []
        return CARD_EFFECTS[frame["card"]].decisions(state, frame)

    def legal(self, state: GameState, frame: CardFrame, seat: str) -> list[CommandFields]:
        return CARD_EFFECTS[frame["card"]].legal(state, frame, seat)

    def handle(self, ctx: Context, frame: CardFrame, seat: str, command: CommandFields) -> None:
        CARD_EFFECTS[frame["card"]].choose(ctx, frame, seat, command)


def triskel_half(card: str) -> bool:
    """True when the card has a Triskel half."""
    return TRISKEL in CARDS[card].timings
