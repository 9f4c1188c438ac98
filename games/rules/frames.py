"""The procedures on the stack as types: one TypedDict per procedure `kind` (see `engine`).

A frame is a JSON object on `GameState.stack`, made by `ctx.push({"kind": ..., ...})` (the
`ProcedureStarted` event) or, for a card in play, by the `CardPlayed` evolver, and changed by
`ctx.update(frame, **changes)` (`ProcedureAdvanced`) or by an evolver. Keys set only later, or
only by some cards, are `NotRequired`. Each procedure class names its frame's type
(`Procedure[ClashFrame]`). Types only: frames are plain dicts at run time.
tests/rules/test_event_payloads.py checks the frames of recorded games against these types.
"""

# No `from __future__ import annotations` here: TypedDict reads NotRequired at run time.
from typing import Any, Literal, NotRequired, TypedDict


class GameFrame(TypedDict):
    """The whole game, at the bottom of the stack: the next phase to start (`next`)."""

    kind: Literal["game"]
    next: str


class ChooseCapitalFrame(TypedDict):
    """Setup: the Brenn chooses the Capital."""

    kind: Literal["choose_capital"]


class SetupPlacementFrame(TypedDict):
    """Setup: the clans placed in turn; `order` of the seats (None until known), `index` next."""

    kind: Literal["setup_placement"]
    order: list[str] | None
    index: int


class AssemblyFrame(TypedDict):
    """Phase 1, the Assembly: its `step` (1-8); the seat playing Cathbad's Word, if any."""

    kind: Literal["assembly"]
    step: int
    cathbad: str | None
    choice: NotRequired[str | None]


class DraftFrame(TypedDict):
    """Phase 1, the Action card draft (its state is `GameState.draft`)."""

    kind: Literal["draft"]


class SeasonFrame(TypedDict):
    """Phase 2, the Season: whose `turn`, consecutive `passes`, whether a card `opened` it,
    its `status`; `next_turn`: the seat after an extra turn."""

    kind: Literal["season"]
    turn: str
    passes: int
    opened: bool
    status: str
    next_turn: NotRequired[str | None]


class NoClansFrame(TypedDict):
    """A seat with no clan on the island places one (rulebook, Clans)."""

    kind: Literal["no_clans"]
    seat: str


class EpicDrawFrame(TypedDict):
    """`seat` draws `count` Epic Tales and keeps `keep` of them (None: all), at `stage`."""

    kind: Literal["epic_draw"]
    seat: str
    count: int
    keep: int | None
    stage: str
    cause: str
    secret: NotRequired[dict[str, Any]]


class CardFrame(TypedDict):
    """A card in play (`CardPlayed`), from its declaration to its discard.

    args: its public arguments; secret: the others (`CardSecretDeclared`); stage: "declared"
    then the resolution's; sub, choice, placed, revealed, givers, waiting, queue: the steps
    and choices of the cards that have some; done: its effect already worked (Geis)."""

    kind: Literal["card"]
    seat: str
    card: str
    half: str
    args: dict[str, Any]
    stage: str
    cancelled: bool
    kept: bool
    choice: dict[str, Any] | None
    secret: NotRequired[dict[str, Any]]
    sub: NotRequired[str | None]
    placed: NotRequired[str]
    revealed: NotRequired[list[list[str]]]
    givers: NotRequired[list[str]]
    waiting: NotRequired[list[str]]
    queue: NotRequired[list[str]]
    done: NotRequired[bool]


class ClashesFrame(TypedDict):
    """Several clashes from one effect: the `instigator` picks the next of `waiting`."""

    kind: Literal["clashes"]
    instigator: str
    waiting: list[str]


class StepAnswer(TypedDict):
    """A seat's answer for the rest of a clash step (docs/rulings.md, "One Triskel question per
    clash step"): the step (`beat`), the later triggers of the step it answers (`covers`), and
    the Triskel card it said it would play at one of them (`play`: trigger, card and arguments),
    or None."""

    beat: int
    covers: list[str]
    play: dict[str, Any] | None


class ClashFrame(TypedDict):
    """One clash in `territory` (rulebook, Clashes).

    step: "start", "citadels", "resolution_start", "resolution"...; current: the seat to act;
    declined: seats out of the Citadels step; sheltered: clans per seat in the Citadels;
    attack, peace: the maneuver in progress; proposed: peace proposed this round;
    removed_now: clans removed per seat by the last maneuver; finishing: the last maneuver's
    follow-up; spear: the Spear of Lug used; end_reason: why it ends; cauldron: clans per seat
    on Dagda's Cauldron; beat: the clash step under way (0: the Citadels step, 1: the start of
    the Resolution step, then one per maneuver); ahead: per seat, its one answer for the Triskel
    windows of a step (`StepAnswer`, written only by the seat's own private answer)."""

    kind: Literal["clash"]
    territory: str
    instigator: str
    step: str
    current: str | None
    declined: list[str]
    sheltered: dict[str, int]
    attack: dict[str, Any] | None
    peace: dict[str, Any] | None
    proposed: bool
    removed_now: NotRequired[dict[str, int]]
    finishing: NotRequired[dict[str, str] | None]
    spear: NotRequired[bool]
    end_reason: NotRequired[str]
    cauldron: NotRequired[dict[str, int]]
    beat: NotRequired[int]
    ahead: NotRequired[dict[str, StepAnswer]]


class WindowTrigger(TypedDict):
    """What opens a Triskel reaction window: `actor`'s `trigger` with its public `context`
    (the window's own keys, which the Triskel cards' tests read before it opens)."""

    trigger: str
    actor: str
    context: dict[str, Any]


class FoldedManeuver(TypedDict):
    """The maneuver `seat` gave with its answer to a window folded into it (its `command`),
    performed when the window closes (docs/rulings.md)."""

    seat: str
    command: dict[str, Any]


class WindowFrame(WindowTrigger):
    """A Triskel reaction window opened by `actor`'s `trigger` (with its public `context`):
    the `asked` seats' `answers` (a `react` command without its type, or None), then the
    `queue` of plays to resolve (None until revealed); `private`: it asks only holders."""

    kind: Literal["window"]
    asked: list[str]
    answers: dict[str, dict[str, Any] | None]
    queue: list[dict[str, Any]] | None
    private: NotRequired[bool]
    maneuver: NotRequired[FoldedManeuver]


class GatesFrame(TypedDict):
    """The Gates of the Otherworld: the `queue` of seats, the `stage`, the `bonus` taken."""

    kind: Literal["gates"]
    queue: list[str]
    stage: str
    bonus: bool


class MountainsTollFrame(TypedDict):
    """`seat` moved into the Mountains and pays its toll (`paid`: done)."""

    kind: Literal["mountains_toll"]
    seat: str
    paid: bool


class RemovalFrame(TypedDict):
    """`left` clans of `seat` leave `territory` (`cause`), one answerable removal at a time:
    `stage`, whether one was `spared`, where one goes instead (`relocate`)."""

    kind: Literal["removal"]
    seat: str
    territory: str
    left: int
    cause: str
    stage: str
    spared: bool
    relocate: str | None


Frame = (
    GameFrame
    | ChooseCapitalFrame
    | SetupPlacementFrame
    | AssemblyFrame
    | DraftFrame
    | SeasonFrame
    | NoClansFrame
    | EpicDrawFrame
    | CardFrame
    | ClashesFrame
    | ClashFrame
    | WindowFrame
    | GatesFrame
    | MountainsTollFrame
    | RemovalFrame
)
"""One procedure in progress on `GameState.stack`, told apart by its `kind`."""

FRAME_TYPES: dict[str, type] = {
    "game": GameFrame,
    "choose_capital": ChooseCapitalFrame,
    "setup_placement": SetupPlacementFrame,
    "assembly": AssemblyFrame,
    "draft": DraftFrame,
    "season": SeasonFrame,
    "no_clans": NoClansFrame,
    "epic_draw": EpicDrawFrame,
    "card": CardFrame,
    "clashes": ClashesFrame,
    "clash": ClashFrame,
    "window": WindowFrame,
    "gates": GatesFrame,
    "mountains_toll": MountainsTollFrame,
    "removal": RemovalFrame,
}
"""kind -> the TypedDict of its frames (the members of `Frame`)."""
