"""What a card does, and its play declared and put in words: the registry of card effects.

Each card's effect is a `CardEffect` registered under its card id (`card_effect`); the modules of
the card families (`actions`, `advantage_cards`, `epic_tales`...) fill the registry, and the
engine, the card in play (`play`), the Triskel windows (`reactions`) and the views read it.
Rulebook, Play a Season Card: the player declares the card and its effect fully, then resolves it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, TypeVar

from .catalog import TERRITORY_INFO, card_name
from .command_types import CommandFields
from .errors import IllegalCommand
from .frames import CardFrame, ClashFrame
from .language import (
    _,
    clans_from,
    clans_placed,
    clans_to,
    colour_clans,
    colour_name,
    ngettext,
    pgettext,
    player_name,
    territory_phrase,
)
from .state import GameState

if TYPE_CHECKING:  # types only: the engine imports this module
    from .engine import Context

_Effect = TypeVar("_Effect", bound="CardEffect")

CARD_EFFECTS: dict[str, CardEffect] = {}


def card_effect(cls: type[_Effect]) -> type[_Effect]:
    """Class decorator registering a card's effect under `cls.card`."""
    CARD_EFFECTS[cls.card] = cls()
    return cls


class CardEffect:
    """What a card does. Subclasses override what their card needs.

    season_options(state, seat) -> list[dict]: every legal set of arguments for the Season half
      (empty: it cannot be played now).
    validate(state, seat, args) -> dict: the arguments checked and normalised; raises
      IllegalCommand/InvalidCommand with what is allowed.
    resolve(ctx, frame) -> bool: carry out the effect; True when done, False while waiting for a
      choice or a clash (it is called again when the card is back on top).
    decisions/legal/choose: a choice in the middle of the effect (frame["choice"] is set).
    secret_args: argument names that are hidden information (kept out of public events).
    optional_args: argument names a play may leave out (the rules give them a value), never
      reported as missing.
    needs: why the Season half cannot be played when it has no option, a clause for the player
      ("it needs a clan in your reserve").
    restriction(state, seat) -> str | None: the card's own "cannot be played if ..." when it
      applies now, a clause for the player; the card may then not be played at all, not even
      for no effect (the card wins over the ruling "Cards that cannot do anything").
    """

    card = ""
    secret_args: tuple[Any, ...] = ()
    optional_args: tuple[Any, ...] = ()
    needs: str = ""

    def season_options(self, state: GameState, seat: str) -> list[Any]:
        return []

    def restriction(self, state: GameState, seat: str) -> str | None:
        return None

    def validate(self, state: GameState, seat: str, args: CommandFields) -> dict[str, Any]:
        options = self.season_options(state, seat)
        if args in options:
            return args
        if not options:
            if self.needs:
                raise IllegalCommand(
                    _("{card} cannot be played now: {needs}; you may still play it for no effect.").format(
                        card=card_name(self.card), needs=_(self.needs)
                    )
                )
            raise IllegalCommand(
                _("{card} cannot be played now; you may still play it for no effect.").format(
                    card=card_name(self.card)
                )
            )
        allowed = pgettext("between the parts of a list", "; ").join(
            describe_args(self.card, o) for o in options[:8]
        )
        more = _(" (and {count} more)").format(count=len(options) - 8) if len(options) > 8 else ""
        raise IllegalCommand(
            _("{card} cannot be played that way. Allowed: {allowed}{more}.").format(
                card=card_name(self.card), allowed=allowed, more=more
            )
        )

    def resolve(self, ctx: Context, frame: CardFrame) -> bool:
        return True

    def decisions(self, state: GameState, frame: CardFrame) -> list[Any]:
        return []

    def legal(self, state: GameState, frame: CardFrame, seat: str) -> list[Any]:
        return []

    def maneuver_options(self, state: GameState, clash: ClashFrame, seat: str) -> list[CommandFields]:
        """An Epic Tale played as a maneuver: its legal arguments in the clash `clash`."""
        return []

    def choose(self, ctx: Context, frame: CardFrame, seat: str, command: CommandFields) -> None:
        raise IllegalCommand(_("{card} waits for no choice from you.").format(card=card_name(self.card)))


# The arguments of a Season card played when nothing of its effect can be carried out
# (docs/rulings.md, "Cards that cannot do anything"): it is played, has no effect, is discarded.
NO_EFFECT = {"no_effect": True}


def split_args(command: dict[str, Any]) -> dict[str, Any]:
    """The card's arguments: the command without `type`, `card` and `half`."""
    return {k: v for k, v in command.items() if k not in ("type", "card", "half")}


def declare(ctx: Context, seat: str, card: str, half: str, args: dict[str, Any]) -> None:
    """Record the play of `card` with its fully declared arguments and start resolving it."""
    effect = CARD_EFFECTS[card]
    public = {k: v for k, v in args.items() if k not in effect.secret_args}
    # One event both takes the card from the hand and starts its resolution, so that at no
    # point of the log is the card nowhere.
    ctx.emit("CardPlayed", seat=seat, card=card, half=half, args=public)
    if len(public) != len(args):
        secret = {k: v for k, v in args.items() if k in effect.secret_args}
        ctx.emit("CardSecretDeclared", visibility=(seat,), seat=seat, card=card, args=secret)


def _clans_removed(owners: list[Any]) -> str:
    """ "removing 2 blue clans and 1 green clan" (`owners`: a colour per clan removed)."""
    counts: dict[str, Any] = {}
    for seat in owners:
        counts[seat] = counts.get(seat, 0) + 1
    return _("removing {clans}").format(clans=_(" and ").join(colour_clans(n, s) for s, n in counts.items()))


def describe_args(card: str, args: dict[str, Any], reader: str | None = None) -> str:
    """A card play in words: "Migration from the Valley: 2 clans to the Cove".

    A card whose effect words its own arguments (`describe(args)`) is worded by it. Every count
    of clans says "clan(s)"; a territory is named once (New Clans in one territory: "placing 2
    clans in the Cove"). `reader`: the seat the words are for (the one choosing among options),
    spoken to as "you" where the play names it ("then you maneuver"); None: every seat named.
    """
    name = card_name(card)
    if args.get("no_effect"):
        return _("{card} for no effect (nothing of it can be done now)").format(card=name)
    effect = CARD_EFFECTS.get(card)
    own = getattr(effect, "describe", None)
    if own is not None and args:
        return _("{card}: {effect}").format(card=name, effect=own(args))
    parts = []
    if "from" in args and "moves" in args:
        parts.append(
            _("from {the_territory}: {moves}").format(
                the_territory=territory_phrase(args["from"]), moves=clans_to(args["moves"])
            )
        )
    elif "moves" in args:
        if "territory" in args:
            parts.append(
                _("into {the_territory}: {moves}").format(
                    the_territory=territory_phrase(args["territory"]), moves=clans_from(args["moves"])
                )
            )
        else:  # into the clashing territory (The Battle of Moytura)
            parts.append(_("moving in {moves}").format(moves=clans_from(args["moves"])))
    elif "territory" in args:
        if args.get("mode") == "place":  # New Alliance, placing without replacing
            parts.append(clans_placed({args["territory"]: 1}))
        else:
            parts.append(_("in {the_territory}").format(the_territory=territory_phrase(args["territory"])))
    if "from" in args and "to" in args:
        parts.append(
            _("moving 1 clan from {the_territory} to {the_other_territory}").format(
                the_territory=territory_phrase(args["from"]), the_other_territory=territory_phrase(args["to"])
            )
        )
    if "territories" in args:  # New Clans: 2 clans, in one territory or in two
        counts: dict[str, Any] = {}
        for t in args["territories"]:
            counts[t] = counts.get(t, 0) + 1
        parts.append(clans_placed(counts))
    if "placements" in args:
        parts.append(clans_placed(args["placements"]))
    if "opponent" in args:
        parts.append(
            _("against {player}").format(player=player_name(args["opponent"]))
            if args.get("mode") == "replace"
            else _("looking at {player}'s hand").format(player=player_name(args["opponent"]))
        )
    if "discard" in args:
        # One card (Master Craftsman) or several (Misty Lands).
        discards = args["discard"] if isinstance(args["discard"], list) else [args["discard"]]
        parts.append(_("discarding {cards}").format(cards=", ".join(card_name(c) for c in discards)))
    if "to" in args and "from" not in args:
        if args["to"] in TERRITORY_INFO:
            if "count" in args:
                parts.append(
                    ngettext(
                        "moving {count} clan to {the_territory}",
                        "moving {count} clans to {the_territory}",
                        args["count"],
                    ).format(count=args["count"], the_territory=territory_phrase(args["to"]))
                )
            else:
                parts.append(
                    _("moving the clan to {the_territory}").format(the_territory=territory_phrase(args["to"]))
                )
        else:
            parts.append(_("giving it to {player}").format(player=player_name(args["to"])))
    if "remove" in args:
        parts.append(_clans_removed(args["remove"]))
    if "instigator" in args:
        parts.append(_("making {player} the instigator").format(player=player_name(args["instigator"])))
    if "owner" in args and "from" in args and "to" not in args:
        parts.append(
            _("moving 1 {colour} clan from {the_territory}").format(
                colour=colour_name(args["owner"]), the_territory=territory_phrase(args["from"])
            )
        )
    if "next" in args:  # Warlord as a Triskel card (its clan is placed in the clashing territory)
        if args["next"] == reader:
            parts.append(_("then you maneuver"))
        else:
            parts.append(_("then {player} maneuvers").format(player=player_name(args["next"])))
    return name + (" " + ", ".join(parts) if parts else "")
