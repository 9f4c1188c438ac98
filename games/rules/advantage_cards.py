"""The three Season Advantage cards (texts: docs/cards.md): Misty Lands, Plains and Swamp.

A played Advantage card goes face down near the play area (the `advantage_played` pile). Playing
one is playing a Season card: it resets the run of passes and opens the "after you play a Season
card" window (Cove, Lost Vale, Salt Mine, Valley).
"""

from __future__ import annotations

from itertools import combinations

from .actions import Migration
from .card_effects import card_effect
from .cards import discard_from_hand, draw_epic_tales
from .catalog import card_name
from .command_types import CommandFields
from .engine import Context
from .epic_tales import SeasonCard, can_draw_epic
from .frames import CardFrame
from .language import _, clans_to, gettext_noop
from .moves import splits
from .state import GameState


@card_effect
class MistyLands(SeasonCard):
    """Discard 1 or more Action cards from your hand, draw that many Epic Tale cards, keep 1 and
    discard the rest.

    Argument `discard`: the Action cards discarded (hidden: Action cards are discarded face
    down, so only their number is public). Not playable without an Action card or without an
    Epic Tale to draw (deck and discard pile empty).
    """

    card = "adv_misty_lands"
    secret_args = ("discard",)
    needs = gettext_noop("it needs an Action card in your hand and an Epic Tale to draw")

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        if not can_draw_epic(state):
            return []
        cards = sorted(set(state.action_cards(seat)))
        return [{"discard": list(c)} for k in range(1, len(cards) + 1) for c in combinations(cards, k)]

    def normalise(self, state: GameState, seat: str, args: CommandFields) -> CommandFields:
        return {"discard": sorted(args["discard"])}

    def describe(self, args: CommandFields) -> str:
        return _("discard {cards}").format(cards=", ".join(card_name(c) for c in args["discard"]))

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        seat = frame["seat"]
        cards = [c for c in frame.get("secret", {}).get("discard", []) if c in ctx.state.hands[seat]]
        for card in cards:
            discard_from_hand(ctx, seat, card, cause=card_name(self.card, "en"))
        if cards:
            draw_epic_tales(ctx, seat, len(cards), keep=1, cause=card_name(self.card, "en"))
        return True


@card_effect
class Plains(SeasonCard):
    """Move 1 or more of your clans from the Plains to 1 or more adjacent territories. Each
    destination with opposing clans starts a clash, in the order you choose (ruling U12: from
    the Plains). Arguments as Migration's: `from` ("plains", may be left out) and `moves`."""

    card = "adv_plains"
    optional_args = ("from",)
    needs = gettext_noop("you have no clans in the Plains")

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        if "plains" not in state.territories:
            return []
        targets = state.adjacent("plains")
        return [
            {"from": "plains", "moves": m}
            for n in range(1, state.clans("plains", seat) + 1)
            for m in splits(n, targets)
        ]

    def normalise(self, state: GameState, seat: str, args: CommandFields) -> CommandFields:
        args.setdefault("from", "plains")
        args["moves"] = {t: n for t, n in args["moves"].items() if n}
        return args

    def describe(self, args: CommandFields) -> str:
        # The Plains card moves clans only from the Plains: the card's name says where from.
        return _("moving {moves}").format(moves=clans_to(args["moves"]))

    # The same move as Migration's from the Plains (args `from` and `moves`), with this card
    # as the cause.
    resolve = Migration.resolve


@card_effect
class Swamp(SeasonCard):
    """No effect: played instead of passing, it counts as playing a Season card."""

    card = "adv_swamp"

    def season_options(self, state: GameState, seat: str) -> list[CommandFields]:
        return [{}]
