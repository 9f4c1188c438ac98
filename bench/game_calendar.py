"""The calendar of a game with and without standing orders (section "pace"; docs/standing-orders.md).

How many days a 4-player game by email takes when every seat is a person who answers like the
pacing bench's (bench/pacing.py): each prompt is answered after a lognormal delay, median
`Delays.median_hours` (4 h), sigma 1, capped by the decision's deadline; a decision the service
plays by itself (a forced move, games/play/forced_moves.py) or that a standing order answers costs
no time. The seat whose answer is due first acts next and the clock moves to that moment.

What the people play: the bots that play to win (`games.bots.choose`, level `LEVEL`), so games
have a human length. A build without `games.bots` plays the random-legal-move bot
(`rules.bot_command`) and says so in every row's note: those games are far longer than people's.

What orders the simulated people set (only orders a person would):

- once a game, when it starts: a draft ranking (`DRAFT_RANKING`, the same for everyone), "when
  attacked, remove a clan", "always accept peace", "shelter a clan in a free Citadel", and "ask me
  about any Triskel card only when it concerns me", and "let the stand-in bot make my maneuvers
  in clashes and answer with my Triskel cards after my own plays" (`stand_in`: the stand-in is
  the bot the simulated people play as, so these hand it decisions it would take anyway; its
  generator is another one, so the games' paths differ);
- once a turn: after passing, "pass until something concerns me"; and a queued play: when the
  seat's Season turn comes, the play its bot chooses now is taken as queued at the end of the
  seat's previous turn of the same Season, watching the territories that play names — played at
  once only if no public event since named them (a queued play the bot would still choose, and
  nothing listed changed), otherwise the person is asked.

The orders are decided by the service's own code (`games.play.standing_orders.decide_order`) on
the simulated state and public log. A *human wait* is a point where the game waits for a person:
a decision answered after a delay, the decisions that opened at the same point of the log
(simultaneous ones) counted once. Deterministic for a seed.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass, field

from bench.pacing import AT_ANY_TIME, DAY, SEATS, Delays, by_seat
from bench.table import Row
from games import rules
from games.play.forced_moves import forced_command
from games.play.models import StandingOrder
from games.play.standing_orders import decide_order
from games.record.options import DEFAULT_DEADLINES, deadline_hours

SECTION = "pace"
LEVEL = "easy"
GOAL_DAYS = 35.0
PEOPLE = Delays()  # how people answer (bench/pacing.py)
WITH, WITHOUT = "standing orders", "no standing orders"
# A person's ranking of the Action cards for the draft, best first (an experienced player's: the
# cards that move clans and start clashes first, the Triskel answers next).
DRAFT_RANKING = [
    "act_conquest",
    "act_migration",
    "act_new_clans",
    "act_warlord",
    "act_geis",
    "act_exploration",
    "act_emissaries",
    "act_craftsmen_peasants",
    "act_new_alliance",
    "act_scouts_spies",
    "act_sanctuary",
    "act_citadel",
    "act_bard",
    "act_raid",
    "act_master_craftsman",
    "act_druid",
    "act_festival",
]
ONCE_A_GAME = (
    ("draft", {"ranking": [c for c in DRAFT_RANKING if c in rules.CARDS], "ask": []}),
    ("attack", {"answer": "remove", "cards": []}),
    ("peace", {"agree": True}),
    ("citadel", {"shelter": True}),
    ("triskel", {"card": "all", "when": "concerned"}),
    ("stand_in", {"decision": "maneuver"}),
    ("stand_in", {"decision": "own_triskel"}),
)


def brain():
    """`(choose(state, seat, rng) -> command, name)`: the bots that play to win when this build
    has them, else the random-legal-move bot."""
    try:
        from games import bots  # a tool, not the service: the bots may be missing from a build
    except ImportError:
        return rules.bot_command, "rules.bot_command (random moves: this build has no games.bots)"
    return (lambda state, seat, rng: bots.choose(state, seat, LEVEL, rng)), f"games.bots, level {LEVEL}"


@dataclass
class CalendarRun:
    """One game: its calendar days, rounds (the last one possibly unfinished), whether it was won,
    human waits, and the decisions the orders answered."""

    seed: str
    orders: bool
    days: float
    rounds: int
    won: bool
    waits: int
    ordered: int
    wait_kinds: dict = field(default_factory=dict)  # decision kind -> human waits


def _territories(command: dict) -> list[str]:
    """The territory ids a command names (its watch list when queued)."""
    found = []

    def walk(value):
        if isinstance(value, dict):
            for key, inner in value.items():
                walk(key)
                walk(inner)
        elif isinstance(value, list):
            for inner in value:
                walk(inner)
        elif value in rules.TERRITORY_INFO and value not in found:
            found.append(value)

    walk({k: v for k, v in command.items() if k not in ("type", "card")})
    return found


def play(
    seed: str,
    *,
    orders: bool,
    choose,
    max_rounds: int = 20,
    delays: Delays = PEOPLE,
    once_a_game: tuple = ONCE_A_GAME,
) -> CalendarRun:
    """Play one 4-player game with every seat a simulated person (see the module docstring).
    once_a_game: the `(kind, body)` orders each seat sets when the game starts (with `orders`)."""
    table = {"deadlines": dict(DEFAULT_DEADLINES)}
    seats = list(SEATS)
    state = rules.fold(rules.start_game(seats, seed=seed, options={"reactions": "holders"}))
    log: list[tuple[int, object]] = []

    def events(after: int, until: int) -> list:
        return [(seq, e) for seq, e in log if after < seq <= until]

    def order(colour, kind, body, since=0) -> StandingOrder:
        return StandingOrder(kind=kind, key=body.get("card", ""), body=body, since_seq=since)

    standing = {s: [order(s, k, dict(b)) for k, b in once_a_game] if orders else [] for s in seats}
    last_turn_end: dict[str, int | None] = {s: None for s in seats}
    bot_rng = random.Random(f"{seed}/bot")
    delay_rng = random.Random(f"{seed}/delays")
    clock, due, answer, current = 0.0, {}, {}, {}
    waits: set[int] = set()
    wait_kinds: dict[str, int] = {}
    ordered = 0

    def apply(seat, command):
        for event in rules.decide(state, seat, command, rng=rules.rng_for(seed, state.seq)):
            rules.evolve(state, event)
            log.append((state.seq, rules.redact(event, None)))
            if event.type == "SeasonStarted":
                last_turn_end.update(dict.fromkeys(seats))

    def by_order(seat, decision) -> dict | None:
        mine = standing[seat]
        if decision.kind == "season_turn" and not any(o.kind == "pass_until" for o in mine):
            chosen = choose(state, seat, bot_rng)
            if chosen["type"] != "play" or last_turn_end[seat] is None:
                return None
            mine = [
                *mine,
                order(
                    seat,
                    "queue_play",
                    {"command": chosen, "watch": _territories(chosen)},
                    last_turn_end[seat],
                ),
            ]
        outcome = decide_order(events, state, seat, mine)
        if outcome is None:
            return None
        if outcome.order is not None and outcome.order in standing[seat]:
            if outcome.spent:
                standing[seat].remove(outcome.order)
            elif outcome.since_seq is not None:
                outcome.order.since_seq = outcome.since_seq
        return outcome.command

    def ask(seat, decisions):
        answer.pop(seat, None)
        if forced_command(state, seat) is not None:
            due[seat] = clock
            return
        command = by_order(seat, decisions[0]) if orders else None
        if command is not None:
            answer[seat], due[seat] = command, clock
            return
        if state.seq not in waits:
            waits.add(state.seq)
            wait_kinds[decisions[0].kind] = wait_kinds.get(decisions[0].kind, 0) + 1
        due[seat] = clock + delays.draw(delay_rng, deadline_hours(table, decisions[0].kind))

    def refresh(acted=None, command=None):
        now = by_seat(state)
        for seat in seats:
            mine, before = now.get(seat), current.get(seat)
            if mine and (mine != before or (seat == acted and command["type"] not in AT_ANY_TIME)):
                ask(seat, mine)
            elif not mine:
                due.pop(seat, None)
                answer.pop(seat, None)
        current.clear()
        current.update(now)

    refresh()
    while not rules.is_over(state) and state.round <= max_rounds:
        seat = min(due, key=lambda s: (due[s], seats.index(s)))
        clock = max(clock, due[seat])
        kind = current[seat][0].kind
        command = answer.pop(seat, None)
        ordered += command is not None
        if command is None:
            command = choose(state, seat, bot_rng)
        apply(seat, command)
        if kind == "season_turn":
            last_turn_end[seat] = state.seq
            if orders and command["type"] == "pass":
                standing[seat] = [o for o in standing[seat] if o.kind != "pass_until"]
                standing[seat].append(order(seat, "pass_until", {}, state.seq))
            elif orders:
                standing[seat] = [o for o in standing[seat] if o.kind != "pass_until"]
        refresh(seat, command)
    return CalendarRun(
        seed=seed,
        orders=orders,
        days=clock / DAY,
        rounds=max(1, min(state.round, max_rounds)),
        won=state.winner is not None,
        waits=len(waits),
        ordered=ordered,
        wait_kinds=wait_kinds,
    )


@dataclass(frozen=True)
class Summary:
    """Medians over one condition's games."""

    label: str
    games: int
    won: int
    median_days: float
    days_per_round: float
    rounds: float
    waits_per_round: float
    ordered_per_round: float
    waits_by_kind: dict  # decision kind -> human waits per round


def summarise(label: str, runs: list[CalendarRun]) -> Summary:
    """Medians of days and rounds; waits and orders per round over all the games' rounds."""
    rounds = sum(r.rounds for r in runs)
    kinds: dict[str, int] = {}
    for run in runs:
        for kind, n in run.wait_kinds.items():
            kinds[kind] = kinds.get(kind, 0) + n
    return Summary(
        label=label,
        games=len(runs),
        won=sum(r.won for r in runs),
        median_days=statistics.median(r.days for r in runs),
        days_per_round=statistics.median(r.days / r.rounds for r in runs),
        rounds=statistics.median(r.rounds for r in runs),
        waits_per_round=sum(r.waits for r in runs) / rounds,
        ordered_per_round=sum(r.ordered for r in runs) / rounds,
        waits_by_kind={k: n / rounds for k, n in sorted(kinds.items(), key=lambda kv: -kv[1])},
    )


def measure(games: int, *, seed: str = "calendar", delays: Delays = PEOPLE) -> tuple[dict, str]:
    """Both conditions over the same seeds: ({label: Summary}, the bots' name)."""
    choose, name = brain()
    out = {}
    for label, orders in ((WITH, True), (WITHOUT, False)):
        runs = [play(f"{seed}-{i}", orders=orders, choose=choose, delays=delays) for i in range(games)]
        out[label] = summarise(label, runs)
    return out, name


def assumptions(delays: Delays, bots: str) -> str:
    return (
        f"4 seats, all people; they play as {bots}; answer delay lognormal, median "
        f"{delays.median_hours:g} h, sigma {delays.sigma:g}, capped by the deadline "
        f"({DEFAULT_DEADLINES['default']} h, a Triskel window {DEFAULT_DEADLINES['reaction']} h); "
        "orders: once a game a draft ranking, attack (remove a clan), peace (accept), Citadel "
        "(shelter), Triskel (ask only when it concerns me), the stand-in bot for maneuvers and for "
        "Triskel answers after my own plays; once a turn a queued play the bot "
        "still chooses with nothing changed in its territories, and pass-until after a pass"
    )


def rows(summaries: dict, bots: str, delays: Delays) -> list[Row]:
    """The section's rows: median days with orders (goal: at most GOAL_DAYS) and without; days a
    round, rounds a game, human waits per round, each with orders against without."""
    w, wo = summaries[WITH], summaries[WITHOUT]
    note = assumptions(delays, bots)
    figure = "median days a 4-player game (bots that play to win, {})"
    return [
        Row(
            SECTION,
            figure.format(WITH),
            w.median_days,
            "days",
            "goal: 35 days",
            GOAL_DAYS,
            goal=("<=", 1.0),
            note=f"{w.games} games ({w.won} won); without orders {wo.median_days:.1f} days; {note}",
        ),
        Row(
            SECTION,
            figure.format(WITHOUT),
            wo.median_days,
            "days",
            "with standing orders",
            w.median_days,
            note=f"{wo.games} games ({wo.won} won), the same seeds",
        ),
        Row(SECTION, f"median days a round ({WITH})", w.days_per_round, "days", WITHOUT, wo.days_per_round),
        Row(SECTION, f"median rounds a game ({WITH})", w.rounds, "rounds", WITHOUT, wo.rounds),
        Row(
            SECTION,
            f"human waits per round ({WITH})",
            w.waits_per_round,
            "waits",
            WITHOUT,
            wo.waits_per_round,
            note=f"decisions answered by orders per round: {w.ordered_per_round:.1f}",
        ),
    ]


def run(*, quick: bool, extras: list | None = None) -> list[Row]:
    """4 (quick) or 20 games per condition, the same seeds."""
    delays = PEOPLE
    summaries, bots = measure(4 if quick else 20, delays=delays)
    if extras is not None:
        lines = [
            "## The calendar with and without standing orders (bench/game_calendar.py)",
            "",
            "| condition | games (won) | median days | median days a round | median rounds | human waits a round | answered by orders a round |",
            "|---|---:|---:|---:|---:|---:|---:|",
        ]
        for s in summaries.values():
            lines.append(
                f"| {s.label} | {s.games} ({s.won}) | {s.median_days:.1f} | {s.days_per_round:.2f} | "
                f"{s.rounds:g} | {s.waits_per_round:.1f} | {s.ordered_per_round:.1f} |"
            )
        lines += ["", "Human waits a round, by decision kind:", ""]
        for s in summaries.values():
            lines.append(
                f"- {s.label}: " + ", ".join(f"{k} {n:.1f}" for k, n in s.waits_by_kind.items() if n >= 0.05)
            )
        lines += ["", "Assumptions: " + assumptions(delays, bots) + "."]
        extras.append("\n".join(lines))
    return rows(summaries, bots, delays)
