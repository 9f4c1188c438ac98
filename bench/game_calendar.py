"""The calendar of a game with and without standing orders (section "pace"; docs/standing-orders.md).

How many days a 4-player game by email takes when every seat is a person who answers like the
pacing bench's (bench/pacing.py): each prompt is answered after a lognormal delay, median
`Delays.median_hours` (4 h), sigma 1, capped by the decision's deadline; a decision the service
plays by itself (a forced move, games/play/forced_moves.py) or that a standing order answers costs
no time. The seat whose answer is due first acts next and the clock moves to that moment.

What the people play: the bots that play to win (`games.bots.choose`, level `LEVEL`: the hard
bots, whose games take the rounds people's do), so games have a human length. A build without
`games.bots` plays the random-legal-move bot (`rules.bot_command`) and says so in every row's
note: those games are far longer than people's. A hard decision costs up to a second of CPU, so
the games (deterministic for their seed) are played in `WORKERS` processes at once.

What orders the simulated people set (only orders a person would):

- once a game, when it starts: a draft ranking (`DRAFT_RANKING`, the same for everyone), "when
  attacked, remove a clan", "always accept peace", "shelter a clan in a free Citadel", "ask me
  about any Triskel card only when it concerns me, and in my clashes only when I am attacked",
  "let the stand-in bot make my maneuvers in clashes and answer with my Triskel cards after
  my own plays", and "let it place my setup clans and make the choices my cards ask once played"
  (`stand_in`: the bot of these orders is the service's, `STAND_IN_ORDER_LEVEL`, so these hand it
  decisions a person finds small; its generator is another one, so the games' paths differ). The
  Brenn's choice of the Capital, the game's first decision, is asked: the others set their orders
  meanwhile, and the Brenn in the same reply;
- once a turn: after passing, "pass until something concerns me"; after playing a card, a queued
  play for the next turn, chosen without hindsight: when the next player's turn begins, from the
  state the seat sees then (`_queued_play`: the play its bot would make were it its turn), and
  watching the territories that play names. At the seat's next turn the service's code plays it
  only if it is legal and no public event since named those territories; otherwise the person
  is asked. A person whose next move would be a pass sets "pass until something concerns me"
  then instead, and one who would take a Pretender token queues that. Nothing queued survives
  the end of the Season (the Assembly deals new hands); when the next Season begins, every seat
  queues its first move of it the same way (a person who has drafted their hand says what they
  will open with), from what it sees then.

Conditions (`CONDITIONS`, the same seeds): with every order above (the main figure); the same
with the Triskel order of before ("only when it concerns me", for the row `Triskel emails per seat
and clash`); with only the once-a-game orders; without orders.

The orders are decided by the service's own code (`games.play.standing_orders.decide_order`) on
the simulated state and public log. A *human wait* is a point where the game waits for a person:
a decision answered after a delay, the decisions that opened at the same point of the log
(simultaneous ones) counted once. Deterministic for a seed.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import statistics
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from bench.pacing import AT_ANY_TIME, DAY, SEATS, Delays, by_seat
from bench.table import Row
from games import rules
from games.play.forced_moves import forced_command
from games.play.models import StandingOrder
from games.play.standing_orders import decide_order
from games.record.options import DEFAULT_DEADLINES, deadline_hours

SECTION = "pace"
LEVEL = "hard"
# Processes playing the games at once (a game is deterministic for its seed, whichever plays it).
WORKERS = int(os.environ.get("BENCH_CALENDAR_WORKERS", "0")) or os.cpu_count() or 1
GOAL_DAYS = 35.0
PEOPLE = Delays()  # how people answer (bench/pacing.py)
WITH, WITHOUT = "standing orders", "no standing orders"
ONCE = "only the once-a-game orders"
BEFORE = "standing orders, Triskel only when it concerns me"
# label -> the conditions of `play`: orders at all, the once-a-game orders, the once-a-turn ones.
CONDITIONS = {
    WITH: (True, "after", True),
    BEFORE: (True, "before", True),
    ONCE: (True, "after", False),
    WITHOUT: (False, "after", False),
}
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
    ("triskel", {"card": "all", "when": "attacked"}),
    ("stand_in", {"decision": "maneuver"}),
    ("stand_in", {"decision": "own_triskel"}),
    ("stand_in", {"decision": "setup"}),
    ("stand_in", {"decision": "card_choices"}),
)
# The once-a-game orders before the Triskel order for one's own clashes existed: "ask me about
# any Triskel card only when it concerns me" (every step of one's own clash concerns).
ONCE_A_GAME_BEFORE = tuple(
    (kind, {"card": "all", "when": "concerned"}) if kind == "triskel" else (kind, body)
    for kind, body in ONCE_A_GAME
)


def brain(level: str = LEVEL):
    """`(choose(state, seat, rng) -> command, name)`: the bots that play to win (`level`, by
    default `LEVEL`) when this build has them, else the random-legal-move bot."""
    try:
        from games import bots  # a tool, not the service: the bots may be missing from a build
    except ImportError:
        return rules.bot_command, "rules.bot_command (random moves: this build has no games.bots)"
    return (lambda state, seat, rng: bots.choose(state, seat, level, rng)), f"games.bots, level {level}"


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
    triskel_asked: int = 0  # Triskel windows of a clash put to a person with clans in it
    clash_seats: int = 0  # (clash, seat with clans in it) pairs


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


def _queued_play(state, seat: str, choose, rng) -> dict | None:
    """What a person queues for their next Season turn, chosen from what they see now: the
    command `choose` would give were it `seat`'s turn on this state (a copy whose Season turn is
    given to `seat`): a card to play, a Pretender token to take, or a pass (the person then sets
    "pass until something concerns me" instead). None when the Season is not between two turns
    now."""
    top = state.top()
    if top is None or top["kind"] != "season" or top.get("status") != "choose":
        return None
    what_if = state.clone()
    what_if.top()["turn"] = seat
    chosen = choose(what_if, seat, rng)
    return chosen if chosen.get("type") in ("play", "pretender", "pass") else None


def play(  # noqa: PLR0913 - one game's conditions, keyword-only
    seed: str,
    *,
    orders: bool,
    choose,
    max_rounds: int = 20,
    delays: Delays = PEOPLE,
    once_a_game: tuple = ONCE_A_GAME,
    once_a_turn: bool = True,
) -> CalendarRun:
    """Play one 4-player game with every seat a simulated person (see the module docstring).
    once_a_game: the `(kind, body)` orders each seat sets when the game starts (with `orders`);
    once_a_turn: whether they also queue their next Season play and pass until it concerns them."""
    table = {"deadlines": dict(DEFAULT_DEADLINES)}
    seats = list(SEATS)
    state = rules.fold(rules.start_game(seats, seed=seed, options={"reactions": "holders"}))
    log: list[tuple[int, object]] = []

    def events(after: int, until: int) -> list:
        return [(seq, e) for seq, e in log if after < seq <= until]

    def order(colour, kind, body, since=0) -> StandingOrder:
        return StandingOrder(kind=kind, key=body.get("card", ""), body=body, since_seq=since)

    standing = {s: [order(s, k, dict(b)) for k, b in once_a_game] if orders else [] for s in seats}
    to_queue: set[str] = set()  # seats that played a card and will queue their next play
    bot_rng = random.Random(f"{seed}/bot")
    queue_rng = random.Random(f"{seed}/queue")
    delay_rng = random.Random(f"{seed}/delays")
    clock, due, answer, current = 0.0, {}, {}, {}
    waits: set[int] = set()
    wait_kinds: dict[str, int] = {}
    clash_seats: set[str] = set()  # the seats with clans in the clash under way
    triskel = {"asked": 0, "pairs": 0}
    ordered = 0

    def apply(seat, command):
        for event in rules.decide(state, seat, command, rng=rules.rng_for(seed, state.seq)):
            rules.evolve(state, event)
            log.append((state.seq, rules.redact(event, None)))
            if event.type == "SeasonEnded":
                to_queue.clear()  # the Assembly deals new hands: nothing is queued across it
            if event.type == "SeasonStarted" and orders and once_a_turn:
                to_queue.update(seats)  # each seat queues its first play of the new Season
            if event.type == "ClashStarted":
                where = event.payload["territory"]
                clash_seats.clear()
                clash_seats.update(s for s in seats if state.clans(where, s))
                triskel["pairs"] += len(clash_seats)

    def queue_plays():
        top = state.top()
        if top is None or top["kind"] != "season" or top.get("status") != "choose":
            return  # not between two turns yet: the person queues when the next turn begins
        for seat in sorted(to_queue):
            to_queue.discard(seat)
            chosen = _queued_play(state, seat, choose, queue_rng)
            if chosen is None:
                continue
            standing[seat] = [o for o in standing[seat] if o.kind not in ("queue_play", "pass_until")]
            if chosen["type"] == "pass":
                # A person who would pass next says "pass until something concerns me" from now:
                # a queued pass would pass whatever happened meanwhile.
                standing[seat].append(order(seat, "pass_until", {}, state.seq))
                continue
            body = {"command": chosen, "watch": _territories(chosen)}
            standing[seat].append(order(seat, "queue_play", body, state.seq))

    def by_order(seat, decision) -> dict | None:
        outcome = decide_order(events, state, seat, standing[seat])
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
        if rules.asks_triskel(decisions[0]) and seat in clash_seats and rules.current_clash(state):
            triskel["asked"] += 1
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
        if kind == "season_turn" and orders and once_a_turn:
            standing[seat] = [o for o in standing[seat] if o.kind not in ("queue_play", "pass_until")]
            if command["type"] == "pass":
                standing[seat].append(order(seat, "pass_until", {}, state.seq))
            elif command["type"] == "play":
                to_queue.add(seat)
        if to_queue:
            queue_plays()
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
        triskel_asked=triskel["asked"],
        clash_seats=triskel["pairs"],
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
    triskel_per_clash_seat: float  # Triskel windows of a clash put to a person, per seat in it


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
        triskel_per_clash_seat=sum(r.triskel_asked for r in runs) / max(1, sum(r.clash_seats for r in runs)),
    )


def _one_game(label: str, seed: str, delays: Delays) -> CalendarRun:
    """One game of the condition `label` (a worker process's task)."""
    orders, triskel, once_a_turn = CONDITIONS[label]
    choose, _name = brain()
    once = ONCE_A_GAME if triskel == "after" else ONCE_A_GAME_BEFORE
    return play(seed, orders=orders, choose=choose, delays=delays, once_a_game=once, once_a_turn=once_a_turn)


def measure(
    games: int, *, seed: str = "calendar", delays: Delays = PEOPLE, workers: int = WORKERS
) -> tuple[dict, str]:
    """Every condition (`CONDITIONS`) over the same seeds: ({label: Summary}, the bots' name).
    The games are played by `workers` processes (1: in this one)."""
    _choose, name = brain()
    tasks = [(label, f"{seed}-{i}") for label in CONDITIONS for i in range(games)]
    if workers <= 1:
        runs = [_one_game(label, game, delays) for label, game in tasks]
    else:
        # Forked: the workers inherit the set-up Django and the rules' registries.
        with ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("fork")) as pool:
            futures = [pool.submit(_one_game, label, game, delays) for label, game in tasks]
            runs = [f.result() for f in futures]
    by_label: dict[str, list[CalendarRun]] = {label: [] for label in CONDITIONS}
    for (label, _game), run_ in zip(tasks, runs, strict=True):
        by_label[label].append(run_)
    return {label: summarise(label, found) for label, found in by_label.items()}, name


def assumptions(delays: Delays, bots: str) -> str:
    return (
        f"4 seats, all people; they play as {bots}; answer delay lognormal, median "
        f"{delays.median_hours:g} h, sigma {delays.sigma:g}, capped by the deadline "
        f"({DEFAULT_DEADLINES['default']} h, a Triskel window {DEFAULT_DEADLINES['reaction']} h); "
        "orders: once a game a draft ranking, attack (remove a clan), peace (accept), Citadel "
        "(shelter), Triskel (ask only when it concerns me, in my clashes only when I am attacked), "
        "the stand-in bot for maneuvers, for Triskel answers after my own plays, for my setup clans "
        "and for the choices my cards ask once played; once a turn, "
        "after playing a card, and when a Season begins, a queued play (or a Pretender token) "
        "chosen when the next turn begins from what the seat sees then (voided if a public event "
        "names its territories, or illegal), or pass-until when that choice is a pass; pass-until "
        "after a pass"
    )


GOAL_WAITS = 14.0  # human waits per round with standing orders (issue 40)


def rows(summaries: dict, bots: str, delays: Delays) -> list[Row]:
    """The section's rows: median days with orders (goal: at most GOAL_DAYS), with only the
    once-a-game orders, and without; days a round, rounds a game; human waits per round (goal:
    at most GOAL_WAITS); Triskel emails per seat and clash, with the order for one's own clashes
    against before it."""
    w, wo, once, before = summaries[WITH], summaries[WITHOUT], summaries[ONCE], summaries[BEFORE]
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
            note=(
                f"{w.games} games ({w.won} won); with only the once-a-game orders {once.median_days:.1f} days; "
                f"without orders {wo.median_days:.1f} days; {note}"
            ),
        ),
        Row(
            SECTION,
            figure.format(ONCE),
            once.median_days,
            "days",
            "with standing orders",
            w.median_days,
            note=f"{once.games} games ({once.won} won), the same seeds; no queued play, no pass-until",
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
            "goal: 14 waits",
            GOAL_WAITS,
            goal=("<=", 1.0),
            note=(
                f"no standing orders: {wo.waits_per_round:.1f}; only the once-a-game orders: "
                f"{once.waits_per_round:.1f}; decisions answered by orders per round: {w.ordered_per_round:.1f}; "
                "by kind: " + ", ".join(f"{k} {n:.1f}" for k, n in w.waits_by_kind.items() if n >= 0.05)
            ),
        ),
        Row(
            SECTION,
            "Triskel emails per seat and clash",
            w.triskel_per_clash_seat,
            "emails",
            "before: Triskel only when it concerns me",
            before.triskel_per_clash_seat,
            note=(
                "Triskel windows of a clash put to a person with clans in it, per clash and such seat, "
                'with the order "in my clashes, only when I am attacked" against "only when it concerns me" '
                f"(the same seeds); before, days {before.median_days:.1f}, waits per round {before.waits_per_round:.1f}"
            ),
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
