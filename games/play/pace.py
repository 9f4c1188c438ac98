"""The calendar of a game: how many days it takes at a table's speed, by simulation.

A game by email is as slow as its slowest necessary answers. `simulate` plays one game with the
rules alone (every seat a person, choosing as `rules.bot_command` does) on a simulated clock:
each prompted person answers after a delay drawn from a lognormal distribution (`Delays`: median
4 hours, shape 1.0, so a quarter of the answers come within 2 h and one in ten after 14 h),
capped by the decision's deadline (the deadline default plays for the late); a decision whose
only answer the whole table can see is played at once by the service (`forced_moves`), and so
is a bot's. The seat whose answer is due first acts next and the clock moves to that moment: a
simultaneous decision (draft picks, peace votes, the seats of one Triskel window) costs its
slowest asked seat, sequential decisions add up, and a window nobody is asked costs nothing. A
seat asked the same again after its own command answers it with a fresh delay, except after an
"at any time" command (the Moor, a standing policy), which leaves its email open. Deterministic
for a seed: the choices and the delays have their own seeded generators.

`expected_days` is what the lobby shows for a table speed (`games.record.options.
DEADLINE_PRESETS`): the median days a round takes in simulated games at that speed, times the
rounds a game lasts when people play to win (`ROUNDS_A_GAME`). The random choices of the
simulation make longer games than people do (8 to 18 rounds) but a round of the same length, so
the calendar of a round comes from the simulation and the number of rounds from measured play.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from games import rules
from games.play.forced_moves import forced_command
from games.record.options import DEFAULT_DEADLINES, deadline_hours

DAY = 86_400.0  # seconds
SEATS = ("green", "blue", "orange", "white")
# Commands a seat may send at any time, next to its pending decision: they answer nothing.
AT_ANY_TIME = ("moor", "set_policy")
# Rounds a 4-player game lasts when its players play to win: the median of games played by bots
# that look one move ahead on the victory race, as people end theirs (issue "A game in a month").
ROUNDS_A_GAME = 6
# The sample `expected_days` simulates: games, and the rounds of each it plays.
SAMPLE_GAMES = 6
SAMPLE_ROUNDS = 2
# The median answer a person gives, as a share of the decision's deadline: a twelfth, 4 hours at
# the normal 2-day deadline (the median the pace measures start from); 4 hours without deadlines.
ANSWER_SHARE_OF_DEADLINE = 1 / 12
MEDIAN_ANSWER_HOURS = 4.0


@dataclass(frozen=True)
class Delays:
    """How long a person takes to answer a prompt: lognormal, `median_hours` and shape `sigma`
    (the standard deviation of the logarithm), capped by the decision's deadline."""

    median_hours: float = 4.0
    sigma: float = 1.0

    def draw(self, rng: random.Random, cap_hours: float) -> float:
        """Seconds until the answer (cap_hours 0: no deadline, no cap)."""
        hours = rng.lognormvariate(math.log(self.median_hours), self.sigma)
        if cap_hours:
            hours = min(hours, cap_hours)
        return hours * 3600.0


@dataclass(frozen=True)
class Calendar:
    """One simulated game: seconds of (simulated) calendar time, rounds played (the last one
    possibly unfinished), commands played, and whether somebody won."""

    seconds: float
    rounds: int
    commands: int
    won: bool

    @property
    def days_a_round(self) -> float:
        return self.seconds / DAY / max(self.rounds, 1)


def by_seat(state) -> dict[str, list]:
    """`rules.pending(state)` grouped by seat, in order: {seat: [Decision, ...]}."""
    grouped: dict[str, list] = {}
    for decision in rules.pending(state):
        if decision.seat is not None:  # every pending decision names its seat
            grouped.setdefault(decision.seat, []).append(decision)
    return grouped


def simulate(  # noqa: PLR0913 - the simulation's options, keyword-only, each with its default
    seed: str,
    *,
    players: int = 4,
    humans: int | None = None,
    max_rounds: int = 30,
    delays: Delays = Delays(),
    deadlines: dict | None = None,
    rules_options: dict | None = None,
    start: Callable | None = None,
    prompted: Callable | None = None,
    stream: str = "",
) -> Calendar:
    """Play one game with the rules alone on a simulated clock (the module docstring).

    seed: the game's seed; humans: how many seats (the first ones) are people, default all (the
    others answer at once); max_rounds: the game stops, unfinished, once it passes this round;
    deadlines: hours by decision kind (`DEFAULT_DEADLINES` by default; 0: none); rules_options:
    given to `rules.start_game` (e.g. `{"reactions": "holders"}`); start(state, apply): called
    once before play (apply(seat, command) plays a command, e.g. a standing policy);
    prompted(state, seat, decisions, table): called for each person's new prompt; stream: names
    the generators of choices and delays (`<seed>/<stream>/bot`, `.../delays`).
    Raises rules.InvalidCommand when the rules refuse `rules_options`; AssertionError when a game
    waits on nobody before its end.
    """
    table = {"deadlines": dict(DEFAULT_DEADLINES if deadlines is None else deadlines)}
    seats = list(SEATS[:players])
    game = _Simulation(
        seed=seed,
        state=rules.fold(rules.start_game(seats, seed=seed, options=rules_options)),
        seats=seats,
        people=set(seats[: players if humans is None else humans]),
        table=table,
        delays=delays,
        delay_rng=random.Random(f"{seed}/{stream}/delays"),
        prompted=prompted,
    )
    if start is not None:
        start(game.state, game.apply)
    bot_rng = random.Random(f"{seed}/{stream}/bot")
    game.refresh()
    commands = 0
    while not rules.is_over(game.state) and game.state.round <= max_rounds:
        if not game.due:
            raise AssertionError(f"{seed}: no pending decision before the end of the game")
        seat = min(game.due, key=lambda s: (game.due[s], seats.index(s)))
        game.clock = max(game.clock, game.due[seat])
        command = rules.bot_command(game.state, seat, bot_rng)
        game.apply(seat, command)
        commands += 1
        game.refresh(seat, command)
    return Calendar(
        seconds=game.clock,
        rounds=min(game.state.round, max_rounds),
        commands=commands,
        won=game.state.winner is not None,
    )


@dataclass
class _Simulation:
    """One game `simulate` plays: its `state` (evolved in place), the seats and which are
    `people`, the simulated `clock` (seconds since the start), when each seat answers (`due`,
    seconds) and the decisions it was last asked (`current`)."""

    seed: str
    state: Any
    seats: list[str]
    people: set[str]
    table: dict
    delays: Delays
    delay_rng: random.Random
    prompted: Callable | None
    clock: float = 0.0
    due: dict[str, float] = field(default_factory=dict)
    current: dict[str, list] = field(default_factory=dict)

    def apply(self, seat: str, command: rules.Command) -> None:
        """Play `seat`'s `command` at once (the rules decide it with the game's draws)."""
        for event in rules.decide(self.state, seat, command, rng=rules.rng_for(self.seed, self.state.seq)):
            rules.evolve(self.state, event)

    def ask(self, seat: str, decisions: list) -> None:
        """When `seat` answers `decisions`: at once for a bot or a forced move, else after a drawn
        delay within the decision's deadline."""
        at_once = seat not in self.people or forced_command(self.state, seat) is not None
        self.due[seat] = self.clock + (
            0.0
            if at_once
            else self.delays.draw(self.delay_rng, deadline_hours(self.table, decisions[0].kind))
        )

    def refresh(self, acted: str | None = None, command: rules.Command | None = None) -> None:
        """Ask each seat whose decisions changed after `acted`'s `command` (a person's new prompt
        goes to `prompted`), and forget the seats with nothing to decide."""
        now = by_seat(self.state)
        for seat in self.seats:
            mine, before = now.get(seat), self.current.get(seat)
            if mine and mine != before:
                self.ask(seat, mine)
                if seat in self.people and self.prompted is not None:
                    self.prompted(self.state, seat, mine, self.table)
            elif mine and seat == acted and command is not None and command["type"] not in AT_ANY_TIME:
                self.ask(seat, mine)  # answered, and asked the same again: no new email, a new answer
            elif not mine:
                self.due.pop(seat, None)
        self.current.clear()
        self.current.update(now)


@lru_cache(maxsize=32)
def _days_a_round(deadline_items: tuple, reactions: str | None, delays: Delays) -> float:
    calendars = [
        simulate(
            f"pace-{i}",
            max_rounds=SAMPLE_ROUNDS,
            delays=delays,
            deadlines=dict(deadline_items),
            rules_options={"reactions": reactions} if reactions else None,
        )
        for i in range(SAMPLE_GAMES)
    ]
    return statistics.median(c.days_a_round for c in calendars)


def delays_at(deadlines: dict) -> Delays:
    """The answer delays assumed at a table with these `deadlines` (hours by decision kind, 0:
    none): players who choose a speed answer within it, at a median of
    ANSWER_SHARE_OF_DEADLINE of a decision's deadline (MEDIAN_ANSWER_HOURS without one)."""
    hours = deadline_hours({"deadlines": deadlines}, "default")
    return Delays(median_hours=hours * ANSWER_SHARE_OF_DEADLINE if hours else MEDIAN_ANSWER_HOURS)


def expected_days(
    deadlines: dict, *, reactions: str | None = "holders", delays: Delays | None = None
) -> float:
    """The days a 4-player game is expected to take at a table speed: the median days a round
    takes over SAMPLE_GAMES simulated games (their first SAMPLE_ROUNDS rounds) with these
    `deadlines` (hours by decision kind, 0: none), Triskel windows `reactions` (the rules'
    option: "holders", the default mode, or None for "public") and answer `delays` (default:
    `delays_at(deadlines)`), times ROUNDS_A_GAME.

    Deterministic, and kept per process (the first call for a speed takes about a second).
    """
    delays = delays_at(deadlines) if delays is None else delays
    return ROUNDS_A_GAME * _days_a_round(tuple(sorted(deadlines.items())), reactions, delays)
