"""Rules rows: the pure engine, no database.

- events folded per second (`rules.fold` over recorded random 4-player games) against a trivial
  fold of the same number of plain dict events: the ceiling of a Python fold on this machine.
  The events are folded as a load gets them, read back from their JSON; and, for comparison
  only, as `decide` made them while the games were played, objects scattered in memory over
  the whole play, which alone costs the fold about a third of its speed;
- random legal commands decided and applied per second, and complete random 4-player games per
  second (`games.rules.simulate.play_game`), both against the same trivial fold so that the
  figure reads in units of this machine's Python speed.
"""

from __future__ import annotations

import json
import time

from bench.clock import rate
from bench.table import Row
from games import rules
from games.rules.simulate import play_game

SECTION = "rules"


def trivial_fold(events: list[dict], handlers: dict) -> dict:
    """The least a fold can do per event, in the shape of `rules.fold`: look the handler up by the
    event's type, call it with the state and the payload, count the event. Handlers do nothing."""
    state = {"seq": 0}
    for event in events:
        handlers[event["type"]](state, event["payload"])
        state["seq"] += 1
    return state


def _nothing(state, payload) -> None:
    return None


def record_games(count: int, *, players: int = 4) -> tuple[list[list], int, float]:
    """Play `count` random games (`play_game`, at most 30 rounds); returns ([(final state, events)],
    commands decided, seconds)."""
    commands = 0

    def count_command(_state, _events):
        nonlocal commands
        commands += 1

    games = []
    start = time.perf_counter()
    for i in range(count):
        state, events = play_game(players, f"bench-{i}", check=count_command)
        games.append((state, events))
    return games, commands, time.perf_counter() - start


def read_back(events: list) -> list:
    """`events` (rules.Event) as a load of the log gives them: each read back from its JSON."""
    return [rules.Event.from_json(json.loads(json.dumps(event.to_json()))) for event in events]


def run(*, quick: bool) -> list[Row]:
    seconds = 1.0 if quick else 3.0
    played, commands, played_for = record_games(3 if quick else 10)
    as_decided = [events for _state, events in played]
    games = [read_back(events) for events in as_decided]
    won = sum(state.winner is not None for state, _events in played)
    events = [event for game in games for event in game]
    plain = [{"type": e.type, "payload": e.payload} for e in events]
    handlers = {e["type"]: _nothing for e in plain}

    def fold(of: list) -> int:
        for game in of:
            rules.fold(game)
        return len(events)

    def fold_games() -> int:
        return fold(games)

    def fold_as_decided() -> int:
        return fold(as_decided)

    def fold_plain() -> int:
        trivial_fold(plain, handlers)
        return len(plain)

    trivial = rate(fold_plain, seconds=seconds)
    folded = rate(fold_games, seconds=seconds)
    scattered = rate(fold_as_decided, seconds=seconds)
    trivial = (trivial + rate(fold_plain, seconds=seconds)) / 2  # bracket the rules' runs
    # Deciding, against folding what was decided: commands (games) per second of play, against
    # commands (games) per second of folding their events.
    fold_seconds = len(events) / folded
    # The goal of the fast command path: the fold at 0.35 of the trivial one (it was 0.25).
    return [
        Row(
            SECTION,
            "rules.fold of recorded 4-player games, read back from JSON as a load reads them",
            folded,
            "events/s",
            "trivial fold of as many dict events",
            trivial,
            goal=(">=", 0.35),
            note=f"{len(events):,} events; trivial fold: handler looked up by type, called, event counted",
        ),
        Row(
            SECTION,
            "rules.fold of the same events as decide made them (scattered over the play)",
            scattered,
            "events/s",
            "trivial fold of as many dict events",
            trivial,
            note="for comparison: the service never folds these objects",
        ),
        Row(
            SECTION,
            "random legal commands decided + applied",
            commands / played_for,
            "commands/s",
            "rules.fold of their events",
            commands / fold_seconds,
            note="pending + bot_command (legal_commands) + decide + evolve",
        ),
        Row(
            SECTION,
            "complete random 4-player games",
            len(games) / played_for,
            "games/s",
            "rules.fold of their events",
            len(games) / fold_seconds,
            note=f"{won} of {len(games)} won within 30 rounds; {len(events) / len(games):,.0f} events, "
            f"{commands / len(games):,.0f} commands a game",
        ),
    ]
