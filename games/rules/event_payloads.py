"""Event payloads as types: one TypedDict per event type, named as the event (`ClansMoved`).

An event's payload is JSON (`events.Event.payload`); these types say which keys each event type
carries and what they hold, so that mypy checks both ends of an event:

- where it is made: `Context.emit` is typed by `Emit`, one overload per event type, so
  `ctx.emit("ClansMoved", seat=..., moves=..., cause=...)` with a missing, unknown or mistyped
  key is a type error;
- where it is folded: an evolver is registered by its payload's TypedDict
  (`@evolver(ClansMoved)`, the event type is the TypedDict's name) and takes that type.

Types only: TypedDicts are plain dicts at run time, nothing is checked while folding. Keys that
some events of a type carry and others do not are `NotRequired`. Ids are strings: seat colours
(`"green"`), card ids (`"act_migration"`), territory ids (`"valley"`); counts are whole numbers
of clans or cards. Each type's meaning is in its docstring; the rulebook's terms are used.
A new event type needs its TypedDict here and its overload of `Emit` (tests/rules/
test_event_payloads.py fails otherwise).
"""

# No `from __future__ import annotations` here: TypedDict reads NotRequired at run time.
from collections.abc import Iterable
from typing import Any, Literal, NotRequired, Protocol, TypedDict, Unpack, overload

from .events import Event
from .frames import Frame
from .state import Territory

Seen = Iterable[str] | None
"""An event's visibility as `emit` takes it: the seats that read it all, None for everyone."""


class ActionCardSetAside(TypedDict):
    """Assembly: an Action card goes face down, set aside; `seat`, when given, set it aside from their
    hand."""

    card: str
    seat: NotRequired[str]


class ActionCardsDealt(TypedDict):
    """Assembly: `seat` is dealt the pack `cards` of draft block `block` (0-based)."""

    seat: str
    block: int
    cards: list[str]


class ActionDeckShuffled(TypedDict):
    """Assembly: the Action deck's order after the shuffle."""

    cards: list[str]


class AdvantageCardReturned(TypedDict):
    """An Advantage card goes back to the display; `cause` says why."""

    card: str
    cause: str


class AdvantageCardTaken(TypedDict):
    """`seat` takes an Advantage card (chieftain at the Assembly, an effect otherwise)."""

    seat: str
    card: str
    cause: str


class AttackAnswered(TypedDict):
    """Clash: the attacked `seat` answers an Attack (`choice`: "remove", "discard", or why it was
    ignored)."""

    seat: str
    choice: str


class AttackChoiceMade(TypedDict):
    """Clash: `seat` chose how an Attack is answered on the attacked player's behalf."""

    seat: str
    choice: str


class AttackDeclared(TypedDict):
    """Clash maneuver: `seat` attacks `target`'s clans in `territory`."""

    seat: str
    target: str
    territory: str


class BrennAssigned(TypedDict):
    """`seat` becomes the Brenn; `reason` says why (setup draw, Capital chieftain)."""

    seat: str
    reason: str


class BuildingPlaced(TypedDict):
    """A `building` ("sanctuary" or "citadel") is placed in `territory`."""

    territory: str
    building: str


class CapitalChosen(TypedDict):
    """Setup: the Brenn names `territory` the Capital."""

    territory: str


class CardCancelled(TypedDict):
    """`seat`'s `card` in play is cancelled by `by`'s card; `cause` names it."""

    card: str
    seat: str
    by: str
    cause: str


class CardDiscarded(TypedDict):
    """`seat` discards `card` (from the hand, or from in front with `from_front`)."""

    seat: str
    card: str
    from_hand: bool
    from_front: NotRequired[bool]
    cause: str


# A card goes from `from`'s hand to `to`'s. (`from` is a Python keyword: the functional syntax.)

CardGiven = TypedDict("CardGiven", {"from": str, "to": str, "card": str, "cause": str})


class CardPlayed(TypedDict):
    """`seat` plays `card` (`half`: "season" or "triskel") with its public arguments `args`; starts the
    card's procedure."""

    seat: str
    card: str
    half: str
    args: dict[str, Any]


class CardPutInFront(TypedDict):
    """`seat` puts `card` face up in front of them."""

    seat: str
    card: str


class CardReturnedToHand(TypedDict):
    """`card` goes back to `seat`'s hand."""

    seat: str
    card: str
    cause: str


class CardSecretDeclared(TypedDict):
    """The secret arguments `args` of the card just played (a target kept from the others)."""

    seat: str
    card: str
    args: dict[str, Any]


class CardTakenFromDiscard(TypedDict):
    """`seat` takes `card` from the Action discard."""

    seat: str
    card: str


class CauldronEmptied(TypedDict):
    """Dagda's Cauldron: at the clash's end `back` clans return to `territory` and `to_reserve` go to
    the reserve."""

    seat: str
    territory: str
    back: int
    to_reserve: int


class CauldronSet(TypedDict):
    """Dagda's Cauldron is set for `seat` in the current clash."""

    seat: str


class CitadelDeclined(TypedDict):
    """Clash, Citadels step: `seat` shelters no (more) clan in `territory`."""

    seat: str
    territory: str


class CitadelsStepEnded(TypedDict):
    """Clash: the Citadels step in `territory` ends; `sheltered` is clans sheltered per seat."""

    territory: str
    sheltered: dict[str, int]


class ClanSheltered(TypedDict):
    """Clash, Citadels step: `seat` shelters one clan in `territory`'s Citadel."""

    seat: str
    territory: str


class ClanSpared(TypedDict):
    """A removal spares one of `seat`'s clans in `territory`."""

    seat: str
    territory: str
    cause: str


class ClansMoved(TypedDict):
    """`seat` moves clans: each of `moves` is `[origin, destination, count]`."""

    seat: str
    moves: list[list[Any]]
    cause: str


class ClansPlaced(TypedDict):
    """`seat` places clans from the reserve: `placements` is territory -> count (version 2)."""

    seat: str
    placements: dict[str, int]
    cause: str


class ClansRemoved(TypedDict):
    """`count` of `seat`'s clans leave `territory` for the reserve (or a Cauldron)."""

    seat: str
    territory: str
    count: int
    cause: str


class ClashEnded(TypedDict):
    """The clash in `territory` ends (`reason`); `released` is the sheltered clans per seat let out."""

    territory: str
    reason: str
    released: dict[str, int]


class ClashInitiated(TypedDict):
    """`seat` initiates a clash in `territory` (`by`: the seat whose card made it so)."""

    seat: str
    territory: str
    cause: str
    by: NotRequired[str]


class ClashLapsed(TypedDict):
    """A clash in `territory` no longer takes place (nobody left to clash)."""

    territory: str
    instigator: str
    cause: str


class ClashStarted(TypedDict):
    """The clash in `territory` starts, `instigator` first."""

    territory: str
    instigator: str


class DeedDiscarded(TypedDict):
    """`seat` discards a Deed token."""

    seat: str
    cause: str


class DeedGained(TypedDict):
    """`seat` gains `count` Deed tokens."""

    seat: str
    count: int
    cause: str


class DraftBlockCompleted(TypedDict):
    """Assembly: `seat` keeps `cards` at the end of draft block `block`."""

    seat: str
    block: int
    cards: list[str]


class DraftCardsKept(TypedDict):
    """Assembly draft: `seat` keeps `kept` at `stage`."""

    seat: str
    stage: int
    kept: list[str]


# Assembly draft: `from` passes `cards` to `to` at `stage`. (`from` is a Python keyword: the
# functional syntax.)

DraftCardsPassed = TypedDict("DraftCardsPassed", {"from": str, "to": str, "stage": int, "cards": list[str]})


class DraftEnded(TypedDict):
    """Assembly: the draft is over."""


# Assembly draft: `seat` takes the pack `cards` passed by `from` at `stage`. (`from` is a Python
# keyword: the functional syntax.)

DraftPackTaken = TypedDict("DraftPackTaken", {"seat": str, "stage": int, "from": str, "cards": list[str]})


class DraftStarted(TypedDict):
    """Assembly: the draft's plan, `blocks` blocks keeping `keeps` cards per stage."""

    blocks: int
    keeps: list[int]


class DrawnCardsNoted(TypedDict):
    """The cards `seat` drew, as `seat` alone reads them."""

    seat: str
    cards: list[str]


class EpicDeckShuffled(TypedDict):
    """The Epic Tale deck's order after a shuffle (`from_discard`: the discard shuffled in; `returned`:
    a card shuffled back)."""

    cards: list[str]
    from_discard: NotRequired[bool]
    returned: NotRequired[str]


class EpicTaleDrawn(TypedDict):
    """`seat` draws Epic Tale `card`."""

    seat: str
    card: str


class EpicTaleRevealed(TypedDict):
    """`seat` shows Epic Tale `card` to everyone."""

    seat: str
    card: str
    cause: str


class FestivalPlaced(TypedDict):
    """The Festival token goes to `territory`."""

    territory: str


class FestivalRemoved(TypedDict):
    """The Festival token leaves `territory`."""

    territory: str


class FlockTossed(TypedDict):
    """The Flock of Crows shows `side` ("clockwise" or "anticlockwise")."""

    side: str
    cause: NotRequired[str]


class GameStarted(TypedDict):
    """The game's `seats` (turn order), its rules `options` and its `setup` ("random", "discovery",
    "position")."""

    seats: list[str]
    options: dict[str, Any]
    setup: str


class GameWon(TypedDict):
    """`seat` wins, fulfilling `conditions` victory conditions."""

    seat: str
    conditions: int


class GatesOpened(TypedDict):
    """The Gates of the Otherworld open for `seat`."""

    seat: str


class HandRevealed(TypedDict):
    """`seat`'s hand `cards` is shown to `to`."""

    seat: str
    to: str
    cards: list[str]
    cause: NotRequired[str]


class InstigatorChanged(TypedDict):
    """The clash in `territory` has a new instigator, `seat`."""

    territory: str
    seat: str
    cause: str


class ManeuverPerformed(TypedDict):
    """Clash: `seat` performs a maneuver (`maneuver` names its kind) in `territory`."""

    seat: str
    maneuver: str
    territory: str


class MountainsTollPaid(TypedDict):
    """The Mountains toll of `seat`: what was `paid`, in words."""

    seat: str
    paid: str


class MoveTakenBack(TypedDict):
    """`seat` takes back the events `first`..`last` (seqs); `state` is the state before them
    (`GameState.to_json`)."""

    seat: str
    first: int
    last: int
    state: dict[str, Any]


class Passed(TypedDict):
    """`seat` passes their turn of the Season."""

    seat: str


class PeaceProposed(TypedDict):
    """Clash: `seat` proposes peace in `territory`."""

    seat: str
    territory: str


class PeaceRefused(TypedDict):
    """Clash: `by` refuses the peace proposed in `territory`."""

    territory: str
    by: str


class PeaceVoted(TypedDict):
    """Clash: `seat` votes on the peace (`agree`)."""

    seat: str
    agree: bool


class PolicySet(TypedDict):
    """`seat`'s standing answer to Triskel `card`'s windows: `policy`."""

    seat: str
    card: str
    policy: str


class PositionDescribed(TypedDict):
    """A game started from a described position: the whole table at once."""

    territories: dict[str, Territory]
    capital: str | None
    brenn: str
    flock: str
    festival: str | None
    hands: dict[str, list[str]]
    deeds: dict[str, int]
    pretenders: list[str]
    tile_stack: list[str]
    epic_deck: list[str]
    epic_discard: list[str]
    action_discard: list[str]
    set_aside: str | None
    round: int
    phase: str
    advantage: dict[str, str]
    supply_used: dict[str, int]


class PretenderTaken(TypedDict):
    """`seat` takes a Pretender token."""

    seat: str


class PretendersReturned(TypedDict):
    """Assembly: every Pretender token goes back."""


class ProcedureAdvanced(TypedDict):
    """Fields `changes` of the procedure at stack `index` change."""

    index: int
    changes: dict[str, Any]


class ProcedureEnded(TypedDict):
    """The innermost procedure (of `kind`) ends."""

    kind: str


class ProcedureStarted(TypedDict):
    """A procedure starts: its `frame`, on top of the stack or at stack index `at`."""

    frame: Frame
    at: NotRequired[int]


class ReactionAnswered(TypedDict):
    """`seat`'s answer to the Triskel window: the `play` (a `react` command without its type), or None
    to decline."""

    seat: str
    play: dict[str, Any] | None
    # The seat's maneuver given with a decline, when the window was folded into it (seen only
    # by the seat: the event's visibility), performed when the window closes.
    maneuver: NotRequired[dict[str, Any]]
    # The seat's answer for the later Triskel windows of the clash step (seen only by the seat):
    # the triggers it covers and the card it will play at one of them, if any.
    ahead: NotRequired[dict[str, Any]]


class ReactionAnsweredPrivately(ReactionAnswered):
    """`ReactionAnswered` in a window asking only holders: the public part names nobody."""


class ReactionLapsed(TypedDict):
    """`seat`'s Triskel answer `card` lapses (`reason`)."""

    seat: str
    card: str
    reason: str


class ReactionsAsked(TypedDict):
    """The seats a Triskel window asks (a window asking only holders)."""

    seats: list[str]


class ReactionsRevealed(TypedDict):
    """The Triskel window for `trigger` closes: everyone's `plays` (each a `react` command with its
    `seat`)."""

    trigger: str
    plays: list[dict[str, Any]]


class RoundStarted(TypedDict):
    """Round `round` starts (its Assembly)."""

    round: int


class SeasonEnded(TypedDict):
    """The Season of round `round` ends."""

    round: int


class SeasonStarted(TypedDict):
    """The Season of round `round` starts."""

    round: int


class SetAsideCardTaken(TypedDict):
    """`seat` takes the set-aside Action card."""

    seat: str
    cause: str


class TerritoryPlaced(TypedDict):
    """`territory` is placed on the island at hex `cell` [q, r]."""

    territory: str
    cell: list[int]
    cause: str


class TerritoryTilesDrawn(TypedDict):
    """`seat` draws territory `tiles` for `card`."""

    seat: str
    card: str
    tiles: list[str]


class TerritoryTilesReturned(TypedDict):
    """`seat` returns the territory `tiles` drawn for `card`."""

    seat: str
    card: str
    tiles: list[str]


class TileStackFormed(TypedDict):
    """Setup: the territory tile stack's order."""

    tiles: list[str]


class TurnStarted(TypedDict):
    """`seat`'s turn of the Season starts."""

    seat: str


class VictoryChecked(TypedDict):
    """Assembly: victory conditions fulfilled per Pretender (`scores`) and the `winner`, if any."""

    scores: dict[str, int]
    winner: str | None


class Withdrew(TypedDict):
    """Clash maneuver: `seat` withdraws clans from `territory`."""

    seat: str
    territory: str


class Emit(Protocol):
    """`Context.emit(event_type, visibility=None, **payload) -> Event`, typed per event type:
    the payload's keys are the event type's TypedDict (the implementation takes any keys)."""

    @overload
    def __call__(
        self,
        event_type: Literal["ActionCardSetAside"],
        visibility: Seen = None,
        **payload: Unpack[ActionCardSetAside],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["ActionCardsDealt"],
        visibility: Seen = None,
        **payload: Unpack[ActionCardsDealt],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["ActionDeckShuffled"],
        visibility: Seen = None,
        **payload: Unpack[ActionDeckShuffled],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["AdvantageCardReturned"],
        visibility: Seen = None,
        **payload: Unpack[AdvantageCardReturned],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["AdvantageCardTaken"],
        visibility: Seen = None,
        **payload: Unpack[AdvantageCardTaken],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["AttackAnswered"],
        visibility: Seen = None,
        **payload: Unpack[AttackAnswered],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["AttackChoiceMade"],
        visibility: Seen = None,
        **payload: Unpack[AttackChoiceMade],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["AttackDeclared"],
        visibility: Seen = None,
        **payload: Unpack[AttackDeclared],
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["BrennAssigned"], visibility: Seen = None, **payload: Unpack[BrennAssigned]
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["BuildingPlaced"],
        visibility: Seen = None,
        **payload: Unpack[BuildingPlaced],
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["CapitalChosen"], visibility: Seen = None, **payload: Unpack[CapitalChosen]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["CardCancelled"], visibility: Seen = None, **payload: Unpack[CardCancelled]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["CardDiscarded"], visibility: Seen = None, **payload: Unpack[CardDiscarded]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["CardGiven"], visibility: Seen = None, **payload: Unpack[CardGiven]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["CardPlayed"], visibility: Seen = None, **payload: Unpack[CardPlayed]
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["CardPutInFront"],
        visibility: Seen = None,
        **payload: Unpack[CardPutInFront],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["CardReturnedToHand"],
        visibility: Seen = None,
        **payload: Unpack[CardReturnedToHand],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["CardSecretDeclared"],
        visibility: Seen = None,
        **payload: Unpack[CardSecretDeclared],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["CardTakenFromDiscard"],
        visibility: Seen = None,
        **payload: Unpack[CardTakenFromDiscard],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["CauldronEmptied"],
        visibility: Seen = None,
        **payload: Unpack[CauldronEmptied],
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["CauldronSet"], visibility: Seen = None, **payload: Unpack[CauldronSet]
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["CitadelDeclined"],
        visibility: Seen = None,
        **payload: Unpack[CitadelDeclined],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["CitadelsStepEnded"],
        visibility: Seen = None,
        **payload: Unpack[CitadelsStepEnded],
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["ClanSheltered"], visibility: Seen = None, **payload: Unpack[ClanSheltered]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["ClanSpared"], visibility: Seen = None, **payload: Unpack[ClanSpared]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["ClansMoved"], visibility: Seen = None, **payload: Unpack[ClansMoved]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["ClansPlaced"], visibility: Seen = None, **payload: Unpack[ClansPlaced]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["ClansRemoved"], visibility: Seen = None, **payload: Unpack[ClansRemoved]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["ClashEnded"], visibility: Seen = None, **payload: Unpack[ClashEnded]
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["ClashInitiated"],
        visibility: Seen = None,
        **payload: Unpack[ClashInitiated],
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["ClashLapsed"], visibility: Seen = None, **payload: Unpack[ClashLapsed]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["ClashStarted"], visibility: Seen = None, **payload: Unpack[ClashStarted]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["DeedDiscarded"], visibility: Seen = None, **payload: Unpack[DeedDiscarded]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["DeedGained"], visibility: Seen = None, **payload: Unpack[DeedGained]
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["DraftBlockCompleted"],
        visibility: Seen = None,
        **payload: Unpack[DraftBlockCompleted],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["DraftCardsKept"],
        visibility: Seen = None,
        **payload: Unpack[DraftCardsKept],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["DraftCardsPassed"],
        visibility: Seen = None,
        **payload: Unpack[DraftCardsPassed],
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["DraftEnded"], visibility: Seen = None, **payload: Unpack[DraftEnded]
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["DraftPackTaken"],
        visibility: Seen = None,
        **payload: Unpack[DraftPackTaken],
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["DraftStarted"], visibility: Seen = None, **payload: Unpack[DraftStarted]
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["DrawnCardsNoted"],
        visibility: Seen = None,
        **payload: Unpack[DrawnCardsNoted],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["EpicDeckShuffled"],
        visibility: Seen = None,
        **payload: Unpack[EpicDeckShuffled],
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["EpicTaleDrawn"], visibility: Seen = None, **payload: Unpack[EpicTaleDrawn]
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["EpicTaleRevealed"],
        visibility: Seen = None,
        **payload: Unpack[EpicTaleRevealed],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["FestivalPlaced"],
        visibility: Seen = None,
        **payload: Unpack[FestivalPlaced],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["FestivalRemoved"],
        visibility: Seen = None,
        **payload: Unpack[FestivalRemoved],
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["FlockTossed"], visibility: Seen = None, **payload: Unpack[FlockTossed]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["GameStarted"], visibility: Seen = None, **payload: Unpack[GameStarted]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["GameWon"], visibility: Seen = None, **payload: Unpack[GameWon]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["GatesOpened"], visibility: Seen = None, **payload: Unpack[GatesOpened]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["HandRevealed"], visibility: Seen = None, **payload: Unpack[HandRevealed]
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["InstigatorChanged"],
        visibility: Seen = None,
        **payload: Unpack[InstigatorChanged],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["ManeuverPerformed"],
        visibility: Seen = None,
        **payload: Unpack[ManeuverPerformed],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["MountainsTollPaid"],
        visibility: Seen = None,
        **payload: Unpack[MountainsTollPaid],
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["MoveTakenBack"], visibility: Seen = None, **payload: Unpack[MoveTakenBack]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["Passed"], visibility: Seen = None, **payload: Unpack[Passed]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["PeaceProposed"], visibility: Seen = None, **payload: Unpack[PeaceProposed]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["PeaceRefused"], visibility: Seen = None, **payload: Unpack[PeaceRefused]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["PeaceVoted"], visibility: Seen = None, **payload: Unpack[PeaceVoted]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["PolicySet"], visibility: Seen = None, **payload: Unpack[PolicySet]
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["PositionDescribed"],
        visibility: Seen = None,
        **payload: Unpack[PositionDescribed],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["PretenderTaken"],
        visibility: Seen = None,
        **payload: Unpack[PretenderTaken],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["PretendersReturned"],
        visibility: Seen = None,
        **payload: Unpack[PretendersReturned],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["ProcedureAdvanced"],
        visibility: Seen = None,
        **payload: Unpack[ProcedureAdvanced],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["ProcedureEnded"],
        visibility: Seen = None,
        **payload: Unpack[ProcedureEnded],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["ProcedureStarted"],
        visibility: Seen = None,
        **payload: Unpack[ProcedureStarted],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["ReactionAnswered"],
        visibility: Seen = None,
        **payload: Unpack[ReactionAnswered],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["ReactionAnsweredPrivately"],
        visibility: Seen = None,
        **payload: Unpack[ReactionAnsweredPrivately],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["ReactionLapsed"],
        visibility: Seen = None,
        **payload: Unpack[ReactionLapsed],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["ReactionsAsked"],
        visibility: Seen = None,
        **payload: Unpack[ReactionsAsked],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["ReactionsRevealed"],
        visibility: Seen = None,
        **payload: Unpack[ReactionsRevealed],
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["RoundStarted"], visibility: Seen = None, **payload: Unpack[RoundStarted]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["SeasonEnded"], visibility: Seen = None, **payload: Unpack[SeasonEnded]
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["SeasonStarted"], visibility: Seen = None, **payload: Unpack[SeasonStarted]
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["SetAsideCardTaken"],
        visibility: Seen = None,
        **payload: Unpack[SetAsideCardTaken],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["TerritoryPlaced"],
        visibility: Seen = None,
        **payload: Unpack[TerritoryPlaced],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["TerritoryTilesDrawn"],
        visibility: Seen = None,
        **payload: Unpack[TerritoryTilesDrawn],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["TerritoryTilesReturned"],
        visibility: Seen = None,
        **payload: Unpack[TerritoryTilesReturned],
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["TileStackFormed"],
        visibility: Seen = None,
        **payload: Unpack[TileStackFormed],
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["TurnStarted"], visibility: Seen = None, **payload: Unpack[TurnStarted]
    ) -> Event: ...

    @overload
    def __call__(
        self,
        event_type: Literal["VictoryChecked"],
        visibility: Seen = None,
        **payload: Unpack[VictoryChecked],
    ) -> Event: ...

    @overload
    def __call__(
        self, event_type: Literal["Withdrew"], visibility: Seen = None, **payload: Unpack[Withdrew]
    ) -> Event: ...
    def __call__(self, event_type: str, visibility: Seen = None, **payload: Any) -> Event:
        """Record the event `event_type` with `payload` (seen by `visibility`) and fold it."""
        ...
