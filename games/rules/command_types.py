"""The commands a seat sends, as types: one TypedDict per command `type` (docs/commands.md).

A command is a JSON object with a `"type"`; `legal_commands` lists every legal one as one of
these shapes, and `decide` accepts any JSON object and checks it (`InvalidCommand` names a field
of the wrong JSON type or a missing one, `IllegalCommand` a shape that breaks a rule now). The
keys `"from"` (a Python keyword) force the functional syntax of some of them. Territory, card
and seat fields are ids: `"valley"`, `"act_migration"`, `"green"`. A map of clans is
`{territory id: count}` (counts of clans, whole numbers).

Rulebook sources of each decision: Setup (capital, clans), Phase 1: Assembly (draft),
Phase 2: The Season (turn, play, pass, Pretender token), Clashes (Citadels, maneuvers: Attack,
Withdraw, peace), Reminder on Triskel cards (reactions); the cards' own texts for the others.
"""

# No `from __future__ import annotations` here: TypedDict reads Required/NotRequired at run time.
from typing import Any, Literal, NotRequired, Required, TypedDict

CommandFields = dict[str, Any]
"""A command as the procedures read it: its shape checked and in canonical form by `decide`."""

ClanMap = dict[str, int]
"""Clans per territory (or per seat for The Otherworld's `remove`): id -> count."""

# The arguments of a card's play (docs/commands.md, "Card arguments"): each card takes some of
# them, none takes them all; a `play` and a `react` carry them beside `card`.
CardArgs = TypedDict(
    "CardArgs",
    {
        "territory": str,
        "territories": list[str],
        "from": str,
        "to": str,
        "moves": ClanMap,
        "placements": ClanMap,
        # New Alliance: place or replace; The Dagda's Club (react): spare or choose.
        "mode": Literal["place", "replace", "spare", "choose"],
        "opponent": str,
        "owner": str,
        "next": str,
        "instigator": str,
        "count": int,
        "sheltered": int,
        "place": int,
        "remove": ClanMap | list[str],
        "discard": str | list[str],
        "flip": bool,
        "no_effect": bool,
    },
    total=False,
)


class ChooseCapital(TypedDict):
    """Setup: the Brenn names the Capital's territory."""

    type: Literal["choose_capital"]
    territory: str


class PlaceClan(TypedDict):
    """Setup: one clan placed in a territory."""

    type: Literal["place_clan"]
    territory: str


class Draft(TypedDict):
    """Assembly: the cards kept from the pack (1, 2 or 3 card ids)."""

    type: Literal["draft"]
    keep: list[str]


class Play(CardArgs):
    """Season turn (or a maneuver, for the maneuver Epic Tales): play `card` with its arguments,
    or with `no_effect: true` alone when nothing of it can be carried out now."""

    type: Required[Literal["play"]]
    card: Required[str]


class Pass(TypedDict):
    """Season turn: pass."""

    type: Literal["pass"]


class Pretender(TypedDict):
    """Season turn: take a Pretender token (while meeting a victory condition)."""

    type: Literal["pretender"]


class PlaceClans(TypedDict):
    """A player with no clan on the island places 2 (a territory may repeat)."""

    type: Literal["place_clans"]
    territories: list[str]


class Citadel(TypedDict):
    """Clash, Citadels step: shelter a clan."""

    type: Literal["citadel"]


class NoCitadel(TypedDict):
    """Clash, Citadels step: shelter none."""

    type: Literal["no_citadel"]


class Attack(TypedDict):
    """Maneuver: Attack the seat `target`."""

    type: Literal["attack"]
    target: str


class Withdraw(TypedDict):
    """Maneuver: Withdraw exposed clans to adjacent territories where you are chieftain."""

    type: Literal["withdraw"]
    moves: ClanMap


class ProposePeace(TypedDict):
    """Before a maneuver: propose to end the clash."""

    type: Literal["propose_peace"]


class EndClash(TypedDict):
    """Maneuver: end the clash, when only you have exposed clans."""

    type: Literal["end_clash"]


class PeaceVote(TypedDict):
    """A peace proposal: agree or not."""

    type: Literal["peace_vote"]
    agree: bool


class AttackResponse(TypedDict):
    """Attacked: remove a clan, or discard the Action card `card`."""

    type: Literal["attack_response"]
    choice: Literal["remove", "discard"]
    card: NotRequired[str]


class AttackChoice(TypedDict):
    """An Attack with The Dagda's Club: the attacker chooses whether the target removes a clan
    or discards an Action card."""

    type: Literal["attack_choice"]
    choice: Literal["remove", "discard"]


class ClashOrder(TypedDict):
    """Several clashes from one move: the instigator picks the next clash's territory."""

    type: Literal["clash_order"]
    territory: str


class TerritoryCell(TypedDict):
    """Exploration, the Brenn: where the new territory goes, a cell `"q,r"`."""

    type: Literal["territory_cell"]
    cell: str


ScoutsMove = TypedDict(
    "ScoutsMove",
    {
        "type": Required[Literal["scouts_move"]],
        "from": str,
        "to": str,
        "count": int,
        "skip": bool,
    },
    total=False,
)
"""After Scouts & Spies: move clans `from` -> `to` (`count`), or `skip: true`."""


class Choose(TypedDict):
    """A card's choice of one card (the Druid's, Deirdre's Beauty's)."""

    type: Literal["choose"]
    card: str


class SetAside(TypedDict):
    """The Action card you set aside (Cathbad's Word, the Cove)."""

    type: Literal["set_aside"]
    card: str


# A Triskel answer in a clash step may also say the card its seat will play later in that step
# (docs/rulings.md, "One Triskel question per clash step"): `then`, with that card's arguments
# as `then_<argument>` (Warlord's next, Diarmuid and Gráinne's to, the Highlands' instigator,
# The Dagda's Club's mode).
class LaterTriskel(TypedDict, total=False):
    then: str
    then_next: str
    then_to: str
    then_instigator: str
    then_mode: Literal["spare", "choose"]


class React(CardArgs, LaterTriskel):
    """A Triskel window: play the Triskel half of `card`, with its arguments (and perhaps a card
    for later in the clash step)."""

    type: Required[Literal["react"]]
    card: Required[str]


class Decline(LaterTriskel):
    """A Triskel window: play nothing (perhaps a card later in the clash step)."""

    type: Required[Literal["decline"]]


class SetPolicy(TypedDict):
    """At any time: whether Triskel windows for `card` (or `"all"`) ask you."""

    type: Literal["set_policy"]
    card: str
    policy: Literal["ask", "never"]


class TakeBack(TypedDict):
    """Your own last move taken back (docs/rulings.md, "Taking back a move"); decided by
    `take_back_events`, not `decide`."""

    type: Literal["take_back"]


class Moor(TypedDict):
    """At any time, the Moor Advantage card: look at `opponent`'s Epic Tales."""

    type: Literal["moor"]
    opponent: str


class RemoveClan(TypedDict):
    """Deirdre's Beauty: where you lose your own clan."""

    type: Literal["remove_clan"]
    territory: str


class Give(TypedDict):
    """Maeve's Wealth, the Salt Mine: the Action card you give."""

    type: Literal["give"]
    card: str


class Keep(TypedDict):
    """An Epic Tale draw with a choice (Tuan's Memory, Misty Lands...): the cards kept."""

    type: Literal["keep"]
    cards: list[str]


class PlaceTerritory(TypedDict):
    """Tailtu's Land: the tile drawn and the cell it goes to."""

    type: Literal["place_territory"]
    territory: str
    cell: str


TailtuMove = TypedDict(
    "TailtuMove",
    {"type": Required[Literal["tailtu_move"]], "from": str, "skip": bool},
    total=False,
)
"""Tailtu's Land: 1 clan `from` a territory into the new one, or `skip: true`."""


class MountainsToll(TypedDict):
    """The Mountains toll: discard the Action card `card`, or pay one of the moved clans."""

    type: Literal["mountains_toll"]
    pay: Literal["discard", "clan"]
    card: NotRequired[str]


Command = (
    ChooseCapital
    | PlaceClan
    | Draft
    | Play
    | Pass
    | Pretender
    | PlaceClans
    | Citadel
    | NoCitadel
    | Attack
    | Withdraw
    | ProposePeace
    | EndClash
    | PeaceVote
    | AttackResponse
    | AttackChoice
    | ClashOrder
    | TerritoryCell
    | ScoutsMove
    | Choose
    | SetAside
    | React
    | Decline
    | SetPolicy
    | TakeBack
    | Moor
    | RemoveClan
    | Give
    | Keep
    | PlaceTerritory
    | TailtuMove
    | MountainsToll
)
"""Any command a seat may send (`legal_commands` lists them; `decide` takes them)."""

COMMAND_TYPES: dict[str, type] = {
    "choose_capital": ChooseCapital,
    "place_clan": PlaceClan,
    "draft": Draft,
    "play": Play,
    "pass": Pass,
    "pretender": Pretender,
    "place_clans": PlaceClans,
    "citadel": Citadel,
    "no_citadel": NoCitadel,
    "attack": Attack,
    "withdraw": Withdraw,
    "propose_peace": ProposePeace,
    "end_clash": EndClash,
    "peace_vote": PeaceVote,
    "attack_response": AttackResponse,
    "attack_choice": AttackChoice,
    "clash_order": ClashOrder,
    "territory_cell": TerritoryCell,
    "scouts_move": ScoutsMove,
    "choose": Choose,
    "set_aside": SetAside,
    "react": React,
    "decline": Decline,
    "set_policy": SetPolicy,
    "take_back": TakeBack,
    "moor": Moor,
    "remove_clan": RemoveClan,
    "give": Give,
    "keep": Keep,
    "place_territory": PlaceTerritory,
    "tailtu_move": TailtuMove,
    "mountains_toll": MountainsToll,
}
"""Each command `type` -> its TypedDict (for readers that check a shape at run time)."""
