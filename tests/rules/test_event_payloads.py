"""Every event type the rules fold has its payload's TypedDict (`games.rules.event_payloads`),
`Context.emit` has its typed signature, and real games' events carry exactly those keys; every
procedure kind has its frame's TypedDict (`games.rules.frames`), which the frames of real games
fit at every step.

mypy checks the emitters, the evolvers and the procedures against these types; this test keeps
the types true to what the rules actually record, so that a new event type or procedure kind,
or a key an event or a frame gains, cannot go untyped."""

import inspect
import types
import typing
from typing import Any, get_args, get_origin, get_type_hints, is_typeddict

import pytest

from games.rules import event_payloads, frames
from games.rules.engine import EVOLVERS, PROCEDURES, evolve
from games.rules.events import Event
from games.rules.state import GameState
from tests.games.test_every_event_folds import _every_evolver, _real_logs


def _payload_types() -> dict[str, type]:
    """The TypedDicts defined in `event_payloads`, by name (the event type they type)."""
    return {
        name: value
        for name, value in vars(event_payloads).items()
        if is_typeddict(value) and value.__module__ == event_payloads.__name__
    }


def _fits(value: Any, annotation: Any) -> bool:
    """True when JSON `value` is of `annotation`'s JSON type (containers checked one level)."""
    if annotation is Any:
        return True
    origin = get_origin(annotation)
    if origin is typing.Literal:
        return value in get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        return any(_fits(value, option) for option in get_args(annotation))
    if annotation is type(None):
        return value is None
    if is_typeddict(annotation):
        return isinstance(value, dict)
    if origin is list:
        return isinstance(value, list) and all(_fits(item, get_args(annotation)[0]) for item in value)
    if origin is dict:
        return isinstance(value, dict) and all(
            _fits(item, get_args(annotation)[1]) for item in value.values()
        )
    if annotation is int:
        return type(value) is int
    return isinstance(value, annotation)


def test_every_event_type_has_its_payload_type_and_every_payload_type_its_event():
    assert sorted(set(_every_evolver()) ^ set(_payload_types())) == []


def test_emit_is_typed_for_every_event_type_by_its_payload_type():
    typed = {}
    for signature in map(inspect.signature, typing.get_overloads(event_payloads.Emit.__call__)):
        (event_type,) = get_args(signature.parameters["event_type"].annotation)
        payload = signature.parameters.get("payload")
        typed[event_type] = None if payload is None else get_args(payload.annotation)[0]
    payload_types = _payload_types()
    assert sorted(typed) == sorted(payload_types)
    for event_type, payload_type in typed.items():
        if payload_type is None:  # an event without a payload: its TypedDict has no key
            assert get_type_hints(payload_types[event_type]) == {}, event_type
        else:
            assert payload_type is payload_types[event_type], event_type


@pytest.mark.slow  # bot games until every event type appeared (shared with test_every_event_folds)
def test_the_events_of_real_games_carry_the_keys_and_json_types_of_their_payload_type():
    payload_types = _payload_types()
    wrong: dict[str, set[str]] = {}
    for log in _real_logs(set(EVOLVERS) | _every_evolver()):
        for event in log:
            wrong.setdefault(event["type"], set()).update(
                _misfits(event["payload"], payload_types[event["type"]])
            )
    assert {event_type: problems for event_type, problems in wrong.items() if problems} == {}


def _misfits(value: dict[str, Any], typed: Any) -> set[str]:
    """What is wrong with JSON object `value` as a `typed` (a TypedDict), in words."""
    hints = get_type_hints(typed)
    keys = set(value)
    return (
        {f"missing {key}" for key in typed.__required_keys__ - keys}
        | {f"unknown {key}" for key in keys - set(hints)}
        | {
            f"{key} is {type(value[key]).__name__}"
            for key in keys & set(hints)
            if not _fits(value[key], hints[key])
        }
    )


def test_every_procedure_kind_has_its_frame_type_in_the_frame_union():
    _every_evolver()  # imports every rules module, so that every procedure is registered
    assert sorted(frames.FRAME_TYPES) == sorted(PROCEDURES)
    assert set(frames.FRAME_TYPES.values()) == set(get_args(frames.Frame))
    for kind, frame_type in frames.FRAME_TYPES.items():
        assert get_type_hints(frame_type)["kind"] == typing.Literal[kind]


@pytest.mark.slow  # bot games until every event type appeared (shared with test_every_event_folds)
def test_the_frames_of_real_games_fit_their_kind_at_every_step():
    wrong: dict[str, set[str]] = {}
    kinds: set[str] = set()
    for log in _real_logs(_every_evolver()):
        state = GameState()
        for stored in log:
            evolve(state, Event.from_json(stored))
            for frame in state.stack:
                kinds.add(frame["kind"])
                wrong.setdefault(frame["kind"], set()).update(
                    _misfits(frame, frames.FRAME_TYPES[frame["kind"]])
                )
    assert {kind: problems for kind, problems in wrong.items() if problems} == {}
    assert kinds == set(frames.FRAME_TYPES)
