"""Playing a card: declaring it, the Geis window, resolving its effect, discarding it.

Rulebook, Play a Season Card; Reminder on Triskel cards ("played in response to an action");
Geis is declared only after the acting player has fully declared the action.
"""

from __future__ import annotations

from .catalog import ACTION, CARDS, EPIC, SEASON, TRISKEL, card_name
from .engine import Procedure, detach, evolver, procedure
from .errors import IllegalCommand, InvalidCommand
from .language import _

CARD_EFFECTS: dict = {}


def card_effect(cls):
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
    secret_args: tuple = ()
    optional_args: tuple = ()
    needs: str = ""

    def season_options(self, state, seat) -> list:
        return []

    def restriction(self, state, seat) -> str | None:
        return None

    def validate(self, state, seat, args) -> dict:
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
        from .views import describe_args

        allowed = "; ".join(describe_args(self.card, o) for o in options[:8])
        more = _(" (and {count} more)").format(count=len(options) - 8) if len(options) > 8 else ""
        raise IllegalCommand(
            _("{card} cannot be played that way. Allowed: {allowed}{more}.").format(
                card=card_name(self.card), allowed=allowed, more=more
            )
        )

    def resolve(self, ctx, frame) -> bool:
        return True

    def decisions(self, state, frame) -> list:
        return []

    def legal(self, state, frame, seat) -> list:
        return []

    def choose(self, ctx, frame, seat, command) -> None:
        raise IllegalCommand(_("{card} waits for no choice from you.").format(card=card_name(self.card)))


# The arguments of a Season card played when nothing of its effect can be carried out
# (docs/rulings.md, "Cards that cannot do anything"): it is played, has no effect, is discarded.
NO_EFFECT = {"no_effect": True}


def split_args(command: dict) -> dict:
    """The card's arguments: the command without `type`, `card` and `half`."""
    return {k: v for k, v in command.items() if k not in ("type", "card", "half")}


def play_season_card(ctx, seat: str, command: dict) -> None:
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


def declare(ctx, seat: str, card: str, half: str, args: dict) -> None:
    """Record the play of `card` with its fully declared arguments and start resolving it."""
    effect = CARD_EFFECTS[card]
    public = {k: v for k, v in args.items() if k not in effect.secret_args}
    # One event both takes the card from the hand and starts its resolution, so that at no
    # point of the log is the card nowhere.
    ctx.emit("CardPlayed", seat=seat, card=card, half=half, args=public)
    if len(public) != len(args):
        secret = {k: v for k, v in args.items() if k in effect.secret_args}
        ctx.emit("CardSecretDeclared", visibility=(seat,), seat=seat, card=card, args=secret)


@evolver("CardPlayed")
def _card_played(state, p):
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


@evolver("CardSecretDeclared")
def _card_secret_declared(state, p):
    state.stack[-1]["secret"] = detach(p["args"])


@evolver("CardCancelled")
def _card_cancelled(state, p):
    pass


@procedure
class CardInPlay(Procedure):
    """A declared card, from declaration to discard.

    Stages: declared (the card_declared window: Geis for Action cards, The Dagda for Epic Tales
    and Advantage cards) -> effect -> resolved (Lug Samildanach after an Action card; Master
    Craftsman, Forest, Stone Circle after your Epic Tale) -> discard -> after (Cove, Lost Vale,
    Salt Mine, Valley after your Season card). A cancelled card skips its effect and the
    "after" triggers (rulings: a cancelled card is never resolved).

    frame: seat, card, half, args, stage, cancelled, kept (the card went to a hand instead of the
    discard), choice (a pending choice of the effect), secret (hidden arguments).
    """

    kind = "card"

    def advance(self, ctx, frame):
        from .reactions import open_window

        stage = frame["stage"]
        here = {"card": frame["card"], "card_index": len(ctx.state.stack) - 1, "half": frame["half"]}
        if stage == "declared":
            ctx.update(frame, stage="effect")
            open_window(ctx, "card_declared", actor=frame["seat"], context=here)
            return True
        if stage == "effect":
            if frame["cancelled"]:
                ctx.update(frame, stage="discard")
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
            elif kind == EPIC and not frame["kept"]:
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
            if frame["half"] == SEASON and not frame["cancelled"]:
                open_window(ctx, "after_season_card", actor=frame["seat"], context={"card": frame["card"]})
            return True
        return False

    def decisions(self, state, frame):
        if frame["choice"] is None:
            return []
        return CARD_EFFECTS[frame["card"]].decisions(state, frame)

    def legal(self, state, frame, seat):
        return CARD_EFFECTS[frame["card"]].legal(state, frame, seat)

    def handle(self, ctx, frame, seat, command):
        CARD_EFFECTS[frame["card"]].choose(ctx, frame, seat, command)


def triskel_half(card: str) -> bool:
    """True when the card has a Triskel half."""
    return TRISKEL in CARDS[card].timings
