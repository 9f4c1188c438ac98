"""The decider: commands in, events out; events folded into state.

A game in progress is a stack of *procedures* (`state.stack`, innermost last): the Season, a card
being resolved, a series of clashes, one clash, a Triskel reaction window... Each procedure kind
is registered here with four hooks:

- `advance(ctx, frame) -> bool`: do the automatic work that needs nobody's decision, emitting
  events; return False when it waits for a decision (or True when it changed something);
- `decisions(state, frame) -> list[Decision]`: who must decide what now;
- `legal(state, frame, seat) -> list[dict]`: the legal commands for `seat`;
- `handle(ctx, frame, seat, command)`: validate a command (raising `CommandError`) and emit.

Every change of the state, the stack included, is an event applied by `evolve`, so the fold of
the log rebuilds the stack exactly and an interrupted procedure resumes after a restart.
"""

from __future__ import annotations

import hashlib
import random
import re
import threading
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, cast, get_args

from .card_effects import CARD_EFFECTS
from .catalog import CARDS, COLOURS, TERRITORY_INFO, territory_name
from .command_types import (
    COMMAND_TYPES,
    AttackResponse,
    CardArgs,
    Command,
    CommandFields,
    LaterTriskel,
    MountainsToll,
    SetPolicy,
)
from .errors import IllegalCommand, InvalidCommand
from .event_payloads import Emit, ProcedureAdvanced, ProcedureEnded, ProcedureStarted
from .events import CURRENT_VERSIONS, Event
from .frames import Frame
from .language import _, language_key, pinned_language, player_name, players_key
from .state import GameState

Evolver = Callable[[GameState, Any], None]
"""The in-place fold of one event type: `fn(state, payload)`, the payload typed by its TypedDict."""
GlobalCommand = Callable[["Context", str, CommandFields], None]
"""A command a seat may send at any time: `fn(ctx, seat, command)`; raises CommandError."""
CommandOptions = Callable[[GameState, str], list[CommandFields]]
"""Such commands worth offering to a seat now: `fn(state, seat)`."""

EVOLVERS: dict[str, Evolver] = {}
PROCEDURES: dict[str, Procedure[Any]] = {}
GLOBAL_COMMANDS: dict[str, GlobalCommand] = {}
GLOBAL_OPTIONS: list[CommandOptions] = []

_Procedure = TypeVar("_Procedure", bound="Procedure[Any]")
_Frame = TypeVar("_Frame", bound=Frame)
_Payload = TypeVar("_Payload", bound=Mapping[str, object])


@dataclass(frozen=True)
class Decision:
    """A decision a seat must make now.

    kind: see docs/rules-api.md; prompt: one line for the player; context: public facts only.
    """

    seat: str | None  # None: the public line of a private Triskel window (`pending_for`)
    kind: str
    prompt: str
    context: dict[str, Any] = field(default_factory=dict)


def evolver(
    payload_type: type[_Payload],
) -> Callable[[Callable[[GameState, _Payload], None]], Callable[[GameState, _Payload], None]]:
    """Register `fn(state, payload)` as the in-place fold of the event type named like
    `payload_type`, the TypedDict of its payload (`games.rules.event_payloads`): mypy checks
    that `fn` reads the payload as that type."""

    def register(fn: Callable[[GameState, _Payload], None]) -> Callable[[GameState, _Payload], None]:
        EVOLVERS[payload_type.__name__] = fn
        return fn

    return register


def procedure(cls: type[_Procedure]) -> type[_Procedure]:
    """Class decorator: register a procedure kind (`cls.kind`) with the engine."""
    PROCEDURES[cls.kind] = cls()
    return cls


def global_command(
    command_type: str, options: CommandOptions | None = None
) -> Callable[[GlobalCommand], GlobalCommand]:
    """Register `fn(ctx, seat, command)` for a command a seat may send at any time.

    `options(state, seat) -> list[dict]`, when given, lists such commands that are worth offering
    next to the seat's pending decision (the Moor), so prompts and the bot see them.
    """

    def register(fn: GlobalCommand) -> GlobalCommand:
        GLOBAL_COMMANDS[command_type] = fn
        if options is not None:
            GLOBAL_OPTIONS.append(options)
        return fn

    return register


class Procedure(Generic[_Frame]):
    """Base of procedure kinds: waits for nothing and accepts no command. `_Frame` is the
    TypedDict of the kind's frames (`games.rules.frames`), the type its hooks read."""

    kind = ""

    def advance(self, ctx: Context, frame: _Frame) -> bool:
        return False

    def decisions(self, state: GameState, frame: _Frame) -> list[Decision]:
        return []

    def legal(self, state: GameState, frame: _Frame, seat: str) -> list[CommandFields]:
        return []

    def only_pass(self, state: GameState, frame: _Frame, seat: str) -> bool:
        """Whether `legal` here is exactly the pass; a kind that can tell it without listing
        every command (the Season: a Migration alone lists hundreds) says so faster."""
        return self.legal(state, frame, seat) == [{"type": "pass"}]

    def decisions_known_to(self, state: GameState, frame: _Frame, seat: str | None) -> list[Decision]:
        """The decisions as `seat` (None: the public) may know them; the same by default."""
        return self.decisions(state, frame)

    def handle(self, ctx: Context, frame: _Frame, seat: str, command: CommandFields) -> None:
        raise IllegalCommand(_("Nothing can be decided here now."))


def evolve(state: GameState, event: Event) -> GameState:
    """Apply one event to `state` in place and return it.

    The state never shares data with the event: an evolver that stores a list or a dict from the
    payload stores a `detach`ed copy, since the state is changed in place later (a clash's
    sheltered clans, a window's answers) and the same event may be folded again. Copying only
    there, rather than the whole payload of every event, keeps the fold fast.
    Raises KeyError for an event type no rule knows (a log from a newer release).
    """
    EVOLVERS[event.type](state, event.payload)
    state.seq += 1
    return state


def detach(value: Any) -> Any:
    """A copy of JSON-like `value` sharing no list or dict with it (faster than deepcopy)."""
    if type(value) is dict:
        return {k: detach(v) for k, v in value.items()}
    if type(value) is list:
        return [detach(v) for v in value]
    return value


def fold(events: Iterable[Event | dict[str, Any]]) -> GameState:
    """The state after `events` (Event objects or their `to_json` dicts), from an empty table."""
    return apply_events(GameState(), events)


def apply_events(state: GameState, events: Iterable[Event | dict[str, Any]]) -> GameState:
    """`evolve` for each of `events` (Event objects or `to_json` dicts, upcast as read), in place.

    The same as calling `evolve` in a loop, with the per-event overhead taken out of the loop:
    this is the fold behind every page, email and audit (bench: rules fold).
    """
    evolvers = EVOLVERS
    count = 0
    try:
        for stored in events:
            event = stored if isinstance(stored, Event) else Event.from_json(stored)
            evolvers[event.type](state, event.payload)
            count += 1
    finally:
        state.seq += count
    return state


def rng_for(seed: str, seq: int) -> random.Random:
    """The generator for the command decided when the log holds `seq` events.

    Derived from the game's secret seed, so anyone given the seed at the end can redo every draw.
    """
    digest = hashlib.sha256(f"{seed}:{seq}".encode()).digest()
    return random.Random(int.from_bytes(digest, "big"))


class Context:
    """A working copy of the state and the events emitted so far by one `decide`."""

    def __init__(self, state: GameState, rng: random.Random) -> None:
        self.state = state
        self.rng = rng
        self.events: list[Event] = []
        # `emit` as mypy sees it: one signature per event type (`Emit`), the payload's keys
        # checked against the type's TypedDict.
        self.emit: Emit = self._emit

    def _emit(self, event_type: str, visibility: Iterable[str] | None = None, **payload: Any) -> Event:
        """Record an event and apply it to the working state at once (called as `emit`)."""
        seen_by = None if visibility is None else tuple(visibility)
        event = Event(event_type, payload, seen_by, CURRENT_VERSIONS.get(event_type, 1))
        evolve(self.state, event)
        self.events.append(event)
        return event

    # -- the procedure stack -------------------------------------------------------------------
    def push(self, frame: Frame) -> None:
        """Start the procedure `frame` (its `kind` and fields, `games.rules.frames`) on top of
        the stack; the stack holds a copy (`ctx.state.top()`)."""
        self.emit("ProcedureStarted", frame=frame)

    def update(self, frame: Frame, **changes: Any) -> None:
        """Change fields of a procedure in progress (any depth of the stack)."""
        self.emit("ProcedureAdvanced", index=self._index(frame), changes=changes)

    def pop(self, frame: Frame) -> None:
        """End the procedure `frame`, which must be the innermost."""
        index = self._index(frame)
        if index != len(self.state.stack) - 1:
            raise RuntimeError(f"ending {frame['kind']} under {self.state.stack[-1]['kind']}")
        self.emit("ProcedureEnded", kind=frame["kind"])

    def _index(self, frame: Frame) -> int:
        for i, f in enumerate(self.state.stack):
            if f is frame:
                return i
        raise RuntimeError(f"procedure {frame.get('kind')} is not in progress")

    def run(self) -> None:
        """Advance the innermost procedure until somebody must decide or the game is over."""
        for _step in range(100_000):
            frame = self.state.top()
            if frame is None or self.state.phase == "over":
                return
            if not PROCEDURES[frame["kind"]].advance(self, frame):
                return
        raise RuntimeError("the procedures did not settle")


# Frames are changed in place only one level down (a clash's sheltered clans, a window's
# answers), never deeper, so a copy of each top-level list or dict is enough to keep the state
# from sharing anything the fold will change with the event.
# A set, so that the fold's hottest line tests a value's type with one probe, not two compares.
_SHALLOW = frozenset({dict, list})


@evolver(ProcedureStarted)
def _procedure_started(state: GameState, p: ProcedureStarted) -> None:
    # A copy of the whole dict, then of its few lists and dicts: faster than a comprehension
    # that tests and rebuilds every field.
    # Typed as the JSON object it is here: the loop below sets keys by name.
    frame: dict[str, Any] = p["frame"].copy()  # type: ignore[assignment]
    for key, value in frame.items():
        if type(value) in _SHALLOW:
            frame[key] = value.copy()
    at = p.get("at")
    if at is None:
        state.stack.append(frame)  # type: ignore[arg-type]  # a frame of its kind's TypedDict
    else:
        state.stack.insert(at, frame)  # type: ignore[arg-type]


@evolver(ProcedureAdvanced)
def _procedure_advanced(state: GameState, p: ProcedureAdvanced) -> None:
    # Typed as the JSON object it is here: `changes` names its keys at run time.
    frame: dict[str, Any] = state.stack[p["index"]]  # type: ignore[assignment]
    for key, value in p["changes"].items():
        frame[key] = value.copy() if type(value) in _SHALLOW else value


@evolver(ProcedureEnded)
def _procedure_ended(state: GameState, p: ProcedureEnded) -> None:
    state.stack.pop()


class _Remembered(threading.local):
    """The decisions last worked out for one state, in this thread: `pending` and `pending_for`
    of the state `state` refers to, at the seq, in the language (`language_key`) and with the
    players' names (`players_key`) they were
    worded in.

    A command asks for the same state's decisions several times (the command path, the clocks,
    the forced moves, the standing orders, `legal_commands`, `decide`), and each time they were
    worked out and worded anew (bench: the command path). A state changes only through `evolve`
    and `apply_events`, which count every event in `state.seq`, so a state at the same seq has
    the same decisions; a copy (`clone`, `deal_hidden`) is another object and starts afresh.
    One state at a time: whoever asks about another one replaces it.
    """

    def __init__(self) -> None:
        self.state: weakref.ReferenceType[GameState] | None = None
        self.seq = -1
        self.language = ""
        self.players: tuple[tuple[str, str], ...] = ()
        self.pending: list[Decision] | None = None
        self.known_to: dict[str | None, list[Decision]] = {}

    def of(self, state: GameState) -> _Remembered:
        """This memo, emptied first unless it holds `state` at its seq in the active language."""
        language = language_key()
        players = players_key()
        if (
            self.state is None
            or self.state() is not state
            or self.seq != state.seq
            or self.language != language
            or self.players != players
        ):
            self.state, self.seq, self.language, self.players = (
                weakref.ref(state),
                state.seq,
                language,
                players,
            )
            self.pending, self.known_to = None, {}
        return self


_REMEMBERED = _Remembered()


def pending(state: GameState) -> list[Decision]:
    """Who must decide what now (empty only when the game is over).

    Worked out once per state and seq (and language) and given as a new list each time: the
    `Decision`s themselves are shared, and are not to be changed."""
    frame = state.top()
    if frame is None or state.phase == "over":
        return []
    memo = _REMEMBERED.of(state)
    found = memo.pending
    if found is None:
        with pinned_language(memo.language):
            found = PROCEDURES[frame["kind"]].decisions(state, frame)
        # Asked again: working them out may have asked about another state meanwhile.
        _REMEMBERED.of(state).pending = found
    return list(found)


def pending_for(state: GameState, seat: str | None) -> list[Decision]:
    """`pending(state)` as `seat` (None: a spectator) may know it: what the pages, emails and
    errors may say about who must decide.

    The same as `pending` except inside a Triskel window that asks only the seats able to answer
    (rules option `reactions: "holders"`, docs/rulings.md): there the other asked seats are
    hidden information, shown as one `Decision(None, "reaction", ...)` "waiting for possible
    Triskel reactions" entry (after the seat's own decision, if it was asked). Remembered as
    `pending` is.
    """
    frame = state.top()
    if frame is None or state.phase == "over":
        return []
    procedure = PROCEDURES[frame["kind"]]
    if type(procedure).decisions_known_to is Procedure.decisions_known_to:
        return pending(state)  # the same decisions for everybody
    memo = _REMEMBERED.of(state)
    known = memo.known_to.get(seat)
    if known is None:
        with pinned_language(memo.language):
            known = procedure.decisions_known_to(state, frame, seat)
        _REMEMBERED.of(state).known_to[seat] = known
    return list(known)


def legal_commands(state: GameState, seat: str) -> list[Command]:
    """Every fully specified command `seat` may send now for its pending decision, plus the
    "at any time" cards it may play now (the Moor); standing policies are not listed."""
    # The procedures build plain dicts; their shapes are the Command types (a test checks it).
    return cast(list[Command], _legal(state, seat))


def _legal(state: GameState, seat: str) -> list[CommandFields]:
    """`legal_commands` as the procedures build them (plain dicts)."""
    frame = _frame_asking(state, seat)
    if frame is None:
        return []
    out = PROCEDURES[frame["kind"]].legal(state, frame, seat)
    for options in GLOBAL_OPTIONS:
        out = out + options(state, seat)
    return out


def _frame_asking(state: GameState, seat: str) -> Frame | None:
    """The procedure frame on top of the stack when it waits for a decision of `seat`, else None
    (the game over, or nothing asked of the seat)."""
    frame = state.top()
    if frame is None or state.phase == "over" or not any(d.seat == seat for d in pending(state)):
        return None
    return frame


def only_pass(state: GameState, seat: str) -> bool:
    """Whether `legal_commands(state, seat)` is exactly `[{"type": "pass"}]`, told without listing
    them: a Season turn with no card the seat can play (rulebook, Phase 2: The Season, "a player
    may pass"; the forced moves ask it of every seat after every command)."""
    frame = _frame_asking(state, seat)
    if frame is None or not PROCEDURES[frame["kind"]].only_pass(state, frame, seat):
        return False
    return not any(options(state, seat) for options in GLOBAL_OPTIONS)


def anytime_commands(state: GameState, seat: str) -> list[Command]:
    """The commands `seat` may send now without a decision of its own: the "at any time" plays
    (the Moor) and a peace proposal before a maneuver by a player with exposed clans who is not
    the one to maneuver (docs/rulings.md). [] when the game is over or `seat` has a pending
    decision (its `legal_commands` list them then). Stable order, like `legal_commands`."""
    if state.top() is None or state.phase == "over" or seat not in state.seats:
        return []
    if any(d.seat == seat for d in pending(state)):
        return []
    return cast(list[Command], [command for options in GLOBAL_OPTIONS for command in options(state, seat)])


NAME_FIELDS = (
    "type",
    "card",
    "territory",
    "target",
    "opponent",
    "to",
    "from",
    "owner",
    "next",
    "instigator",
    "choice",
    "policy",
    "mode",
    "pay",
)
LIST_FIELDS = ("territories", "keep", "cards")
COUNT_MAP_FIELDS = ("moves", "placements")
COUNT_FIELDS = ("count", "sheltered", "place")
TRUE_OR_FALSE_FIELDS = ("agree", "flip", "no_effect", "skip")
# Fields whose type is a choice of words (`Literal` in `command_types`): any other word is no
# value of the field, a malformed command like a number there (docs/rules-api.md, "Errors").
CHOICE_FIELDS: dict[str, tuple[str, ...]] = {
    "choice": get_args(AttackResponse.__annotations__["choice"]),
    "pay": get_args(MountainsToll.__annotations__["pay"]),
    "policy": get_args(SetPolicy.__annotations__["policy"]),
    "mode": get_args(CardArgs.__annotations__["mode"]),
    "then_mode": get_args(LaterTriskel.__annotations__["then_mode"]),
}
# A cell: "q,r" (docs/commands.md), or [q, r], of two whole numbers.
CELL = re.compile(r"\s*-?[0-9]+\s*,\s*-?[0-9]+\s*")


def check_shape(command: Mapping[str, Any]) -> None:
    """Refuse a command whose fields have the wrong JSON types, before any rule looks at it.

    Names (cards, territories, colours, choices) are strings, a choice one of its field's words
    (`CHOICE_FIELDS`); lists hold strings; move and placement maps go from strings to whole
    numbers; counts are whole numbers; a vote or a choice to skip is true or false; a cell is
    "q,r" or [q, r] (docs/rules-api.md, "Errors").
    Raises InvalidCommand naming the first bad field.
    """

    def bad(name: str, what: str) -> None:
        raise InvalidCommand(_('"{field}" must be {what}.').format(field=name, what=what))

    for name in NAME_FIELDS:
        if name in command and not isinstance(command[name], str):
            bad(name, _("a name (text)"))
    for name in command:
        # A Triskel answer's card for later in the clash step and its arguments (all names).
        if name.startswith("then") and not isinstance(command[name], str):
            bad(name, _("a name (text)"))
    for name in LIST_FIELDS:
        if name in command and not (
            isinstance(command[name], list) and all(isinstance(x, str) for x in command[name])
        ):
            bad(name, _("a list of names"))
    for name in COUNT_MAP_FIELDS:
        value = command.get(name)
        if name in command and not (
            isinstance(value, dict) and all(isinstance(k, str) and type(v) is int for k, v in value.items())
        ):
            bad(name, _("an object of territory: whole number"))
    remove = command.get("remove")
    if "remove" in command and not (
        (isinstance(remove, list) and all(isinstance(x, str) for x in remove))
        or (
            isinstance(remove, dict) and all(isinstance(k, str) and type(v) is int for k, v in remove.items())
        )
    ):
        bad("remove", _("a list of colours or an object of colour: whole number"))
    for name in COUNT_FIELDS:
        if name in command and type(command[name]) is not int:
            bad(name, _("a whole number"))
    for name in TRUE_OR_FALSE_FIELDS:
        if name in command and type(command[name]) is not bool:
            bad(name, _("true or false"))
    if "discard" in command and not (
        isinstance(command["discard"], str)
        or (isinstance(command["discard"], list) and all(isinstance(x, str) for x in command["discard"]))
    ):
        bad("discard", _("a card name or a list of card names"))
    for name, words in CHOICE_FIELDS.items():
        if name in command and command[name] not in words:
            bad(name, _("one of {values}").format(values=", ".join(words)))
    cell = command.get("cell")
    if "cell" in command and not (
        (isinstance(cell, str) and CELL.fullmatch(cell))
        or (isinstance(cell, list) and len(cell) == 2 and all(type(x) is int for x in cell))
    ):
        bad("cell", _('a place such as "1,-1"'))


# Fields that hold a name of the catalogue whatever the command (docs/commands.md). `to` is a
# territory, but a seat for Master Craftsman's Triskel half; an attack's `target` is checked by
# the clash, whose refusal also names the players who may be attacked.
TERRITORY_FIELDS = ("territory", "from", "then_to")
TERRITORY_LIST_FIELDS = ("territories",)
CARD_FIELDS = ("card", "then")
CARD_LIST_FIELDS = ("keep", "cards")
COLOUR_FIELDS = ("opponent", "owner", "next", "instigator", "then_next", "then_instigator")


def check_names(state: GameState, command: Mapping[str, Any]) -> None:
    """Refuse a command naming a territory, a card or a colour that none of the catalogue's is
    (docs/rules-api.md, "Errors": unknown names are malformed). A real territory not on the
    island, a card not in the hand, a colour nobody plays are understood: the rules refuse
    them, if at all, as against the rules.

    Call after `check_shape` (names are strings). Raises InvalidCommand naming the unknown name
    and what is known instead."""

    def territory(name: str) -> None:
        if name not in TERRITORY_INFO:
            known = ", ".join(sorted(territory_name(t) for t in state.territories))
            raise InvalidCommand(
                _("Unknown territory {name}. In play: {territories}.").format(
                    name=repr(name), territories=known
                )
            )

    def card(name: str) -> None:
        if name not in CARDS:
            raise InvalidCommand(_("Unknown card {name}.").format(name=repr(name)))

    def colour(name: str) -> None:
        if name not in COLOURS:
            raise InvalidCommand(
                _("Unknown colour {name}: the colours are {colours}.").format(
                    name=repr(name), colours=", ".join(COLOURS)
                )
            )

    for name in TERRITORY_FIELDS:
        if name in command:
            territory(command[name])
    for name in TERRITORY_LIST_FIELDS + COUNT_MAP_FIELDS:
        for tid in command.get(name) or ():
            territory(tid)
    for name in CARD_FIELDS:
        # A standing policy names a card or "all", and says so itself (`reactions.set_policy`).
        if name in command and command["type"] != "set_policy":
            card(command[name])
    for name in CARD_LIST_FIELDS:
        for c in command.get(name) or ():
            card(c)
    discard = command.get("discard")
    for c in [discard] if isinstance(discard, str) else discard or ():
        card(c)
    for name in COLOUR_FIELDS:
        if name in command:
            colour(command[name])
    for seat in command.get("remove") or ():
        colour(seat)
    to = command.get("to")
    if isinstance(to, str) and to not in TERRITORY_INFO and to not in COLOURS:
        if command.get("card") == "act_master_craftsman":
            colour(to)
        territory(to)


def decide(state: GameState, seat: str, command: Mapping[str, Any], *, rng: random.Random) -> list[Event]:
    """The events that `seat` sending `command` produces; `state` is not changed.

    Raises InvalidCommand (malformed command or unknown seat), IllegalCommand (it breaks a rule
    now; the message says what is awaited instead) or AmbiguousCommand.
    """
    if not isinstance(command, dict) or not isinstance(command.get("type"), str):
        raise InvalidCommand(
            _('A command is an object with a "type", such as {example}.').format(example='{"type": "pass"}')
        )
    if seat not in state.seats:
        raise InvalidCommand(_("There is no {colour} seat in this game.").format(colour=seat))
    if command["type"] not in COMMAND_TYPES:
        raise InvalidCommand(
            _("Unknown command type {name}: the types are {types}.").format(
                name=repr(command["type"]), types=", ".join(COMMAND_TYPES)
            )
        )
    check_shape(command)
    check_names(state, command)
    fields = canonical_command(command)
    if state.phase == "over":
        raise IllegalCommand(_("The game is over: no more commands are accepted."))
    ctx = Context(state.clone(), rng)
    kind = fields["type"]
    if kind in GLOBAL_COMMANDS:
        GLOBAL_COMMANDS[kind](ctx, seat, fields)
    else:
        # `state`, equal to the working copy until the command emits: its decisions are known.
        if not any(d.seat == seat for d in pending(state)):
            known = pending_for(state, seat)  # never who a private Triskel window asked
            # The seats awaited, by name only: their prompts speak to them ("Your turn ..."), not
            # to this seat. A decision of nobody named ("Waiting for possible Triskel reactions:
            # ...") is written for every reader, and follows as it is.
            seats = ", ".join(player_name(c) for c in dict.fromkeys(d.seat for d in known if d.seat))
            refusal = (
                _("You have nothing to decide now: the game waits for {players}.").format(players=seats)
                if seats
                else _("You have nothing to decide now.")
            )
            raise IllegalCommand(" ".join([refusal] + [d.prompt for d in known if not d.seat]))
        frame = ctx.state.top()
        assert frame is not None  # a seat has a pending decision
        try:
            PROCEDURES[frame["kind"]].handle(ctx, frame, seat, fields)
        except IllegalCommand as refused:
            missing = missing_fields(state, seat, fields)
            if missing:
                names = ", ".join(f'"{f}"' for f in missing)
                raise InvalidCommand(
                    _("This command lacks {fields}. {refusal}").format(fields=names, refusal=refused)
                ) from None
            raise
    ctx.run()
    return ctx.events


def missing_fields(state: GameState, seat: str, command: Mapping[str, Any]) -> list[str]:
    """The fields that `command` lacks (sorted) while every legal command that has all of its
    fields, with the same values, has them too; [] when none is missing or no legal command
    agrees with it (then it is against the rules, not malformed). A card's `optional_args` (The
    Morrigan's, the Plains' `from`...) are never missing: the rules give them a value. Called
    only for a refused command, so listing the legal commands costs nothing on the accepted
    ones."""
    same = [c for c in _legal(state, seat) if all(k in c and c[k] == v for k, v in command.items())]
    if not same:
        return []
    # A card that cannot do anything is played with `no_effect`; its absence is no malformation.
    effect = CARD_EFFECTS.get(command.get("card", ""))
    optional = {"no_effect"} | set(effect.optional_args if effect is not None else ())
    required = set.intersection(*(set(c) for c in same)) - optional
    return sorted(required - set(command))


def canonical_command(command: Mapping[str, Any]) -> CommandFields:
    """`command` in its canonical form: every list of names (`territories`, `keep`, `cards`,
    and `remove` / `discard` given as lists) sorted, as `legal_commands` lists them.

    These lists are sets (or multisets: New Clans may name a territory twice), so their order
    never changes what a command means; `decide` accepts any order and records this form, and
    a reader matching a command against `legal_commands` may compare canonical forms."""
    out: CommandFields | None = None
    for name in LIST_FIELDS + ("remove", "discard"):
        value = command.get(name)
        if type(value) is list and value != sorted(value):
            if out is None:
                out = dict(command)
            out[name] = sorted(value)
    if out is not None:
        return out
    return command if type(command) is dict else dict(command)
