"""Every event type folds in a fresh process that imports only `games.rules`.

A game is read by many processes (web pages, `show_game`, `export_game`, `receive_email`, the
worker): none of them may depend on a rules module that only the creating process happened to
import. A game started from a described position once could not be read anywhere else (its
`PositionDescribed` event had no evolver there).
"""

from __future__ import annotations

import functools
import importlib
import json
import pkgutil
import random
import subprocess
import sys
from pathlib import Path

import pytest

import games.rules
from games.rules import bot_command, decide, evolve, fold, is_over, pending, rng_for, start_game
from games.rules.engine import EVOLVERS
from tests.rules.positions import Table

ROOT = Path(__file__).resolve().parents[2]

# Raid (green, after its attack) resolves first and takes blue's only Action card — the Warlord
# blue answered the same window with — so blue's Warlord lapses (ReactionLapsed).
CLASH_ISLAND = """
    hills   0,0  blue 2
    valley  1,0  green 3
    plains  0,1  orange 1
    cove   -1,0
"""
# The Morrigan's Gates effect removes green's only clan there before its clash (ClashLapsed).
GATES = """
    moor    0,0   green 3  blue 2
    valley  1,0   green 2  orange 1
    gates   0,1   green 1  blue 2  sanctuaries 1
    cove    -1,1  orange 2
"""

FOLD_IN_A_FRESH_PROCESS = """
import json, sys
import games.rules as rules
from games.rules.engine import EVOLVERS
logs = json.load(sys.stdin)
for log in logs:
    state = rules.fold(log)
    assert state.seq == len(log), (state.seq, len(log))
print(json.dumps({"folded": len(logs), "evolvers": sorted(EVOLVERS),
                  "modules": sorted(m for m in sys.modules if m.split(".")[0] == "django")}))
"""


def _every_evolver() -> set:
    """The event types of every rules module, whether or not `games.rules` imports it."""
    for module in pkgutil.iter_modules(games.rules.__path__):
        importlib.import_module(f"games.rules.{module.name}")
    return set(EVOLVERS)


def _lapsed_reaction_log() -> list:
    table = Table(
        CLASH_ISLAND,
        capital="valley",
        flock="clockwise",
        hands={"green": ["act_migration", "act_raid"], "blue": ["act_warlord"]},
    )
    table.do("blue", "set_policy", card="act_geis", policy="never")
    table.play("green", "act_migration", **{"from": "valley", "moves": {"hills": 2}})
    table.auto_decline = False
    table.do("green", "attack", target="blue")
    table.do("blue", "attack_response", choice="remove")
    table.do("green", "react", card="act_raid")
    table.do("blue", "react", card="act_warlord", next="blue")
    table.auto_decline = True
    table.decline_reactions()
    return table.events


def _lapsed_clash_log() -> list:
    table = Table(
        GATES, seats=("green", "blue", "orange"), capital="valley", hands={"green": ["ep_the_morrigan"]}
    )
    table.play("green", "ep_the_morrigan", flip=True, territory="gates", instigator="green")
    return table.events


def _taken_back_log() -> list:
    """Green plays New Clans and takes it back (docs/rulings.md, "Taking back a move")."""
    table = Table(CLASH_ISLAND, capital="valley", hands={"green": ["act_new_clans", "act_bard"], "blue": []})
    before, first = table.state.clone(), len(table.events) + 1
    command = {"type": "play", "card": "act_new_clans", "territories": ["valley", "valley"]}
    made = table.do("green", command)
    taken = games.rules.take_back_events(
        before,
        "green",
        command,
        mover="green",
        first_seq=first,
        last_seq=first + len(made) - 1,
        seed_rng=rng_for(table.seed, first - 1),
    )
    for event in taken:
        evolve(table.state, event)
    table.events.extend(taken)
    return table.events


def _bot_game(players: int, seed: str, *, setup: str, reactions: str, max_rounds: int = 30) -> list:
    """The log of a game of random legal commands (the rules' bot), with Triskel windows asking
    every possible holder ("public") or only the actual holders ("holders")."""
    events = start_game(
        ["green", "blue", "orange", "white"][:players],
        seed=seed,
        setup=setup,
        options={"reactions": reactions},
    )
    state = fold(events)
    rng = random.Random(seed)
    while not is_over(state) and state.round <= max_rounds:
        seat = rng.choice(sorted({d.seat for d in pending(state)}))
        new = decide(state, seat, bot_command(state, seat, rng), rng=rng_for(seed, state.seq))
        for event in new:
            evolve(state, event)
        events.extend(new)
    return events


def _real_logs(wanted: set) -> list[list[dict]]:
    """Logs of real games (described positions, then random bot games until every type of
    `wanted` appeared), as stored: the JSON form of each event. Played once per process (three
    test modules read them); each caller gets its own lists."""
    return [list(log) for log in _real_logs_once(frozenset(wanted))]


@functools.cache
def _real_logs_once(wanted: frozenset) -> tuple[list[dict], ...]:
    logs = [_lapsed_reaction_log(), _lapsed_clash_log(), _taken_back_log()]
    seen = {e.type for log in logs for e in log}
    for i in range(40):
        if wanted <= seen:
            break
        events = _bot_game(
            2 + i % 3,
            f"every-event-{i}",
            setup=("random", "discovery")[i % 2],
            reactions=("public", "holders")[i // 2 % 2],
        )
        if {e.type for e in events} - seen:
            logs.append(events)
            seen |= {e.type for e in events}
    return tuple([e.to_json() for e in log] for log in logs)


@pytest.mark.slow  # bot games until every event type appeared, folded again in a new Python
def test_a_log_of_every_event_type_folds_in_a_process_that_imports_only_the_rules():
    wanted = _every_evolver()
    logs = _real_logs(wanted)
    covered = {e["type"] for log in logs for e in log}
    assert sorted(wanted - covered) == []
    done = subprocess.run(
        [sys.executable, "-c", FOLD_IN_A_FRESH_PROCESS],
        input=json.dumps(logs),
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    answer = json.loads(done.stdout)
    assert answer["folded"] == len(logs)
    assert set(answer["evolvers"]) == wanted
    assert answer["modules"] == []  # the rules never import Django
