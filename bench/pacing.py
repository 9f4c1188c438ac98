"""Pacing rows: how much a game asks of each player, and how many days it takes, per reaction mode.

A game by email is as slow as its slowest necessary answer, and as tiresome as its emails. This
module measures both, for each table reaction mode (docs/game-options.md):

- "holders" (the default for new games): a Triskel window asks only the seats holding a card
  that can answer now (the rules option `reactions: "holders"`);
- "strict" (the behaviour before that option): a window asks every seat that could answer on
  public facts;
- "quick": as "strict", but every player seat starts with the standing policy "never ask"
  (`{"type": "set_policy", "card": "all", "policy": "never"}`), as `services.create_game` does.

**Prompts, with the rules alone** (`play`): N seeded random 4-player games, every seat played by
`rules.bot_command` but counted as a person's seat. A *prompt* is each time a seat's pending
decisions (`rules.pending`, grouped by seat) change to a non-empty list: the same comparison the
service makes to send a prompt email (games/play/clocks.py, notifications/receivers.py). Each prompt is classified by
its options, `rules.legal_commands` without the "at any time" Moor plays (offered next to every
decision, they are no answer to it): *decline-only* (the only option is "decline"),
*single-option* (exactly one option, decline-only included) and *real decision* (more than one).
A decline-only prompt *could cost* its deadline (`games.record.options.deadline_hours`, 12 hours for a
reaction by default): the time the game waits if the player never opens the email.

**Calendar** (same games, same pass; the simulation is the product's, `games.play.pace.simulate`,
which the lobby's expected length of a game also runs): each prompted person answers after a delay drawn from a
lognormal distribution, median `Delays.median_hours` (4 h), shape `Delays.sigma` (1.0: a quarter
of the answers come within 2 h, one in ten after 14 h), capped by the decision's deadline (the
deadline default plays for the late); a bot seat answers at once, and so does a decision whose
only answer the whole table can see, which the service plays by itself (games/play/forced_moves.py;
Triskel reactions are never forced, so a decline-only window still waits). A Season turn that
only the seat's hidden hand leaves the pass is no prompt (the service passes for it, unasked,
after a delay drawn like the seat's answers: games/play/delayed_passes.py), so it is counted as
no prompt and no decision, though its delay is drawn like an answer's. The seat whose answer is due
first acts next and the game's clock moves to that moment. So a simultaneous decision (draft
picks, peace votes, the seats of one reaction window) costs its slowest asked seat, sequential
decisions add up, and a window nobody is asked costs nothing. A seat still holding the same
decision after its own command (it played the Moor, or a second window asks it the same thing)
answers it with a fresh delay, except after an "at any time" command, which leaves the email it
is answering open. Deterministic for a seed: the bot's choices and the delays have their own
seeded generators.

**Emails, through the service** (`measure_emails`): a few games created by
`services.create_game` with four email seats and the mode's `reaction_mode`, every seat played by
`rules.bot_command` through `services.submit_command_and_fold` for a few rounds; Celery runs
eagerly and mail goes to Django's in-memory backend. Emails are the game's outbox rows per seat
that were delivered (every kind: prompts, news, game over), whatever their wording; a row the
delivery skips because its decision had moved on (the service played a seat's only answer in the
same transaction) reaches nobody and is not counted.

Goals (from the product's pace measure): in the default mode, 0 decline-only prompts, and emails
per seat per round at most the seat's real decisions per round + 1.
"""

from __future__ import annotations

import random
import statistics
from contextlib import contextmanager
from dataclasses import dataclass, field

from bench.clock import percentile
from bench.table import Row
from games import rules
from games.play import pace
from games.play.forced_moves import hand_forced_command
from games.play.pace import AT_ANY_TIME, DAY, SEATS, Delays, by_seat
from games.record.options import DEFAULT_DEADLINES, deadline_hours

SECTION = "pacing"
MODES = ("holders", "strict", "quick")
DEFAULT_MODE = "holders"
# What each mode gives `rules.start_game` (None: the rules' default, "public" windows).
RULES_OPTIONS = {"holders": {"reactions": "holders"}, "strict": None, "quick": None}
QUICK_POLICY = {"type": "set_policy", "card": "all", "policy": "never"}


class ModeUnavailable(RuntimeError):
    """The rules or the service of this build do not know a reaction mode (a build before the
    "holders" Triskel windows)."""


@dataclass
class SeatCount:
    """One seat's counts over one game (or a sum of them). Seconds: deadline time."""

    prompts: int = 0
    decline_only: int = 0
    single_option: int = 0
    real: int = 0
    decline_only_seconds: float = 0.0
    emails: int = 0
    hand_forced: int = 0  # Season turns passed later for the seat, unasked: no prompt

    def add(self, other: SeatCount) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))


def options_of(state, seat: str) -> list[dict]:
    """The answers to `seat`'s pending decision: `rules.legal_commands` without the Moor plays."""
    return [c for c in rules.legal_commands(state, seat) if c["type"] not in AT_ANY_TIME]


def count_prompt(count: SeatCount, state, seat: str, kind: str, table: dict) -> None:
    """Classify one new decision of `seat` (of `kind`) into `count`; `table`: the game's options
    (`Game.options`), for its deadlines. A Season turn the seat's hidden hand leaves only the
    pass is no prompt and no decision: the service passes for it later, unasked
    (`games.play.forced_moves.hand_forced_command`); it is counted apart (`hand_forced`)."""
    if hand_forced_command(state, seat) is not None:
        count.hand_forced += 1
        return
    options = options_of(state, seat)
    count.prompts += 1
    if len(options) > 1:
        count.real += 1
        return
    count.single_option += 1
    if options == [{"type": "decline"}]:
        count.decline_only += 1
        count.decline_only_seconds += deadline_hours(table, kind) * 3600.0


@dataclass
class GameRun:
    """One game played under one mode. counts: per person's seat; seconds: the calendar time the
    game took (simulated); rounds: the rounds played (the last one possibly unfinished)."""

    mode: str
    seed: str
    rounds: int
    won: bool
    commands: int
    seconds: float
    counts: dict[str, SeatCount] = field(default_factory=dict)


def play(
    seed: str,
    mode: str,
    *,
    players: int = 4,
    humans: int | None = None,
    max_rounds: int = 30,
    delays: Delays = Delays(),
    deadlines: dict | None = None,
) -> GameRun:
    """Play one random game under `mode` with the rules alone, counting prompts and the calendar.

    seed: the game's seed (the bot and the delays draw from generators seeded by it and the mode);
    humans: how many seats (the first ones) are people, default all; the others are bots, answer
    at once and are not counted; max_rounds: the game stops, unfinished, once it passes this round;
    deadlines: hours by decision kind (`games.record.options.DEFAULT_DEADLINES` by default).
    Raises ValueError for an unknown mode, ModeUnavailable when the rules do not know the mode's
    option.
    """
    if mode not in MODES:
        raise ValueError(f"the reaction mode is one of {', '.join(MODES)}, not {mode!r}")
    counts = {seat: SeatCount() for seat in SEATS[: players if humans is None else humans]}

    def start(state, apply):
        if mode == "quick":
            for seat in counts:
                apply(seat, QUICK_POLICY)

    def prompted(state, seat, decisions, table):
        count_prompt(counts[seat], state, seat, decisions[0].kind, table)

    try:
        calendar = pace.simulate(
            seed,
            players=players,
            humans=humans,
            max_rounds=max_rounds,
            delays=delays,
            deadlines=deadlines,
            rules_options=RULES_OPTIONS[mode],
            start=start,
            prompted=prompted,
            stream=mode,
        )
    except rules.InvalidCommand as error:
        raise ModeUnavailable(f"the rules refuse the {mode!r} mode's options: {error}") from None
    return GameRun(
        mode=mode,
        seed=seed,
        rounds=calendar.rounds,
        won=calendar.won,
        commands=calendar.commands,
        seconds=calendar.seconds,
        counts=counts,
    )


def play_all(
    games: int,
    *,
    seed: str = "pace",
    modes=MODES,
    players: int = 4,
    max_rounds: int = 30,
    delays: Delays = Delays(),
) -> dict[str, list[GameRun]]:
    """`play` games `seed-0` ... `seed-(games-1)` under each mode: {mode: [GameRun]}. The same
    seeds in every mode, so the modes start from the same deals."""
    return {
        mode: [
            play(f"{seed}-{i}", mode, players=players, max_rounds=max_rounds, delays=delays)
            for i in range(games)
        ]
        for mode in modes
    }


@dataclass(frozen=True)
class ModeSummary:
    """Per person's seat and per round, over a mode's games (sums over sums, so a long game
    weighs more); days: the calendar days of each game."""

    mode: str
    games: int
    won: int
    rounds: float
    per_seat_round: dict
    days: list
    rounds_each: list

    @property
    def median_days(self) -> float:
        return statistics.median(self.days)

    @property
    def p90_days(self) -> float:
        return percentile(self.days, 90)

    @property
    def days_per_round(self) -> float:
        return statistics.median(d / r for d, r in zip(self.days, self.rounds_each))


def summarise(mode: str, runs: list[GameRun]) -> ModeSummary:
    """The `ModeSummary` of `runs` (all of one mode). Raises ValueError for no runs."""
    if not runs:
        raise ValueError("no games to summarise")
    total, seat_rounds = SeatCount(), 0
    for run in runs:
        for count in run.counts.values():
            total.add(count)
        seat_rounds += len(run.counts) * max(run.rounds, 1)
    per = {name: getattr(total, name) / seat_rounds for name in total.__dataclass_fields__}
    return ModeSummary(
        mode=mode,
        games=len(runs),
        won=sum(r.won for r in runs),
        rounds=statistics.mean(r.rounds for r in runs),
        per_seat_round=per,
        days=[r.seconds / DAY for r in runs],
        rounds_each=[max(r.rounds, 1) for r in runs],
    )


# -- emails, through the service ----------------------------------------------------------------


@contextmanager
def mail_in_memory():
    """Celery eager and Django's in-memory email backend for the duration: nothing leaves the
    process, whatever the settings (a bench or a production machine)."""
    from django.test.utils import override_settings

    from inis_pbem.celery import app

    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True
    try:
        with override_settings(EMAIL_BACKEND="django.core.mail.backends.locmem.EmailBackend"):
            yield
    finally:
        app.conf.task_always_eager = eager


@dataclass
class EmailRun:
    """One service game under one mode, played for some rounds: per seat, its prompts (real
    decisions counted as in `play`, on the states the service returned) and the emails it was
    sent (outbox rows delivered); kinds: delivered rows by outbox kind; skipped: rows never
    delivered because their decision had moved on (a move the service played for the seat)."""

    mode: str
    seed: str
    rounds: int
    counts: dict[str, SeatCount]
    kinds: dict[str, int]
    skipped: int = 0


def measure_email_game(seed: str, mode: str, *, rounds: int = 3) -> EmailRun:
    """Create a 4-seat email game with the mode's `reaction_mode` through `services.create_game`,
    play every seat with `rules.bot_command` through `services.submit_command_and_fold` until
    round `rounds` is over (or the game), and count each seat's delivered outbox rows.

    Needs Django set up and a database in autocommit (each command commits, so its emails are
    delivered or skipped as in production); call inside `mail_in_memory()`. Raises
    ModeUnavailable when the service did not start the mode's rules; RuntimeError when it
    refuses a legal command or an email was neither delivered nor skipped (delivery did not run).
    """
    from django.db.models import Count

    from games import services, store
    from notifications.models import Outbox

    emails = [f"pace{i}@example.org" for i in range(1, 5)]
    game = services.create_game(
        seats=[services.SeatSpec(email=e) for e in emails],
        seed=seed,
        options={"reaction_mode": mode},
        play_bots=False,
    )
    seats = {s.colour: s for s in game.seats.all()}
    state, seq = store.load(game)
    expected = (RULES_OPTIONS[mode] or {}).get("reactions", "public")
    if state.options.get("reactions", "public") != expected:
        raise ModeUnavailable(
            f"the service started a {mode!r} game with {state.options.get('reactions', 'public')!r} "
            "Triskel windows: this build does not know the mode"
        )
    counts = {colour: SeatCount() for colour in seats}
    current: dict[str, list] = {}

    def refresh():
        now = by_seat(state)
        for colour in seats:
            mine = now.get(colour)
            if mine and mine != current.get(colour):
                count_prompt(counts[colour], state, colour, mine[0].kind, game.options or {})
        current.clear()
        current.update(now)

    refresh()
    rng = random.Random(f"{seed}/{mode}/bot")
    while not rules.is_over(state) and state.round <= rounds:
        colour = rng.choice(sorted(current))
        command = rules.bot_command(state, colour, rng)
        result, after = services.submit_command_and_fold(
            game=game, seat=seats[colour], command=command, expected_seq=seq, play_bots=False
        )
        if not result.accepted:
            raise RuntimeError(f"the service refused a legal command {command}: {result.message}")
        if after is not None:
            # The head, after the moves the service played for seats with one answer.
            state, seq = after, after.seq
            refresh()
    rows = Outbox.objects.filter(game=game)
    unsent = rows.exclude(status__in=(Outbox.Status.SENT, Outbox.Status.SKIPPED)).count()
    if unsent:
        raise RuntimeError(
            f"{unsent} emails of the pacing game were neither delivered nor skipped: "
            "the measure needs eager delivery after each commit"
        )
    kinds: dict[str, int] = {}
    for colour, kind, n in (
        rows.filter(status=Outbox.Status.SENT).values_list("seat__colour", "kind").annotate(n=Count("id"))
    ):
        if colour in counts:
            counts[colour].emails += n
        kinds[kind] = kinds.get(kind, 0) + n
    return EmailRun(
        mode=mode,
        seed=seed,
        rounds=min(state.round, rounds),
        counts=counts,
        kinds=kinds,
        skipped=rows.filter(status=Outbox.Status.SKIPPED).count(),
    )


def measure_emails(
    games: int, *, rounds: int = 3, seed: str = "pace-mail", modes=MODES
) -> dict[str, list[EmailRun]]:
    """`measure_email_game` for games `seed-0` ... under each mode, mail kept in memory:
    {mode: [EmailRun]}."""
    with mail_in_memory():
        return {
            mode: [measure_email_game(f"{seed}-{i}", mode, rounds=rounds) for i in range(games)]
            for mode in modes
        }


def email_per_seat_round(runs: list[EmailRun]) -> tuple[float, float, dict]:
    """(emails, real decisions, {outbox kind: emails}) per seat and per round over `runs`."""
    total, seat_rounds, kinds = SeatCount(), 0, {}
    for run in runs:
        for count in run.counts.values():
            total.add(count)
        seat_rounds += len(run.counts) * max(run.rounds, 1)
        for kind, n in run.kinds.items():
            kinds[kind] = kinds.get(kind, 0) + n
    return (
        total.emails / seat_rounds,
        total.real / seat_rounds,
        {kind: n / seat_rounds for kind, n in sorted(kinds.items())},
    )


# -- the report -------------------------------------------------------------------------------


def _verdict(ok: bool) -> str:
    return "met" if ok else "MISSED"


def prompt_table(summaries: list[ModeSummary]) -> str:
    """Markdown: per mode, prompts and their kinds per person's seat per round; the goal
    (0 decline-only prompts) is judged on the default mode."""
    lines = [
        "| reaction mode | games (won) | rounds a game | prompts | decline-only | single-option | "
        "real decisions | deadline time of decline-only prompts | goal: 0 decline-only |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for s in summaries:
        p = s.per_seat_round
        goal = _verdict(p["decline_only"] == 0) if s.mode == DEFAULT_MODE else ""
        lines.append(
            f"| {s.mode}{' (default)' if s.mode == DEFAULT_MODE else ''} | {s.games} ({s.won}) | "
            f"{s.rounds:.1f} | {p['prompts']:.2f} | {p['decline_only']:.2f} | {p['single_option']:.2f} | "
            f"{p['real']:.2f} | {p['decline_only_seconds']:,.0f} s ({p['decline_only_seconds'] / 3600:.1f} h) | "
            f"{goal} |"
        )
    return "\n".join(lines)


def calendar_table(summaries: list[ModeSummary], delays: Delays) -> str:
    """Markdown: per mode, the median and 90th percentile of the days a game took."""
    lines = [
        "| reaction mode | games (won) | median days | p90 days | median days a round |",
        "|---|---:|---:|---:|---:|",
    ]
    for s in summaries:
        lines.append(
            f"| {s.mode} | {s.games} ({s.won}) | {s.median_days:.1f} | {s.p90_days:.1f} | "
            f"{s.days_per_round:.2f} |"
        )
    lines.append(
        f"\nAnswer delays: lognormal, median {delays.median_hours:g} h, sigma {delays.sigma:g}, "
        f"capped by the decision's deadline ({DEFAULT_DEADLINES['default']} h, "
        f"a reaction {DEFAULT_DEADLINES['reaction']} h)."
    )
    return "\n".join(lines)


def email_table(email_runs: dict[str, list[EmailRun]]) -> str:
    """Markdown: per mode, emails and real decisions per seat per round through the service; the
    goal (emails ≤ real decisions + 1) is judged on the default mode."""
    lines = [
        "| reaction mode | games × rounds | emails | by kind | real decisions | goal: emails ≤ real decisions + 1 |",
        "|---|---|---:|---|---:|---|",
    ]
    for mode, runs in email_runs.items():
        emails, real, kinds = email_per_seat_round(runs)
        goal = _verdict(emails <= real + 1) if mode == DEFAULT_MODE else ""
        rounds = "/".join(str(r.rounds) for r in runs)
        by_kind = ", ".join(f"{kind} {n:.2f}" for kind, n in kinds.items())
        seat_rounds = sum(len(r.counts) * max(r.rounds, 1) for r in runs)
        by_kind += f"; not sent, moved on: {sum(r.skipped for r in runs) / seat_rounds:.2f}"
        lines.append(f"| {mode} | {len(runs)} × {rounds} | {emails:.2f} | {by_kind} | {real:.2f} | {goal} |")
    return "\n".join(lines)


def report(summaries: list[ModeSummary], email_runs: dict | None, delays: Delays, *, players: int = 4) -> str:
    """The three tables with their headings, as `simulate_games --pace` prints them; `players`:
    the seats of each game the rules alone played (`play_all`'s)."""
    parts = [
        f"Per person's seat and per round (rules alone, random {players}-player games):",
        "",
        prompt_table(summaries),
        "",
        "Calendar (simulated answers):",
        "",
        calendar_table(summaries, delays),
    ]
    if email_runs:
        parts += [
            "",
            "Emails per seat and per round (through the service, outbox rows):",
            "",
            email_table(email_runs),
        ]
    return "\n".join(parts)


def rows(summaries: list[ModeSummary], email_runs: dict | None) -> list[Row]:
    """The bench rows: per mode, decline-only prompts against all prompts and the median days
    against today's ("strict") mode; emails against real decisions + 1."""
    by_mode = {s.mode: s for s in summaries}
    strict = by_mode.get("strict")
    out = []
    for s in summaries:
        p = s.per_seat_round
        out.append(
            Row(
                SECTION,
                f"{s.mode}: decline-only prompts per seat and round",
                p["decline_only"],
                "prompts",
                "all prompts",
                p["prompts"],
                goal=("<=", 0.0) if s.mode == DEFAULT_MODE else None,
                note=f"{p['real']:.2f} real decisions, {p['single_option']:.2f} single-option; "
                f"decline-only deadline time {p['decline_only_seconds'] / 3600:.1f} h; "
                f"{s.games} games, {s.won} won",
            )
        )
    for s in summaries:
        out.append(
            Row(
                SECTION,
                f"{s.mode}: median days a 4-player game takes",
                s.median_days,
                "days",
                "strict mode" if strict else "",
                strict.median_days if strict else None,
                note=f"p90 {s.p90_days:.1f} days; {s.days_per_round:.2f} days a round",
            )
        )
    for mode, runs in (email_runs or {}).items():
        emails, real, _kinds = email_per_seat_round(runs)
        out.append(
            Row(
                SECTION,
                f"{mode}: emails per seat and round (service)",
                emails,
                "emails",
                "real decisions + 1",
                real + 1,
                goal=("<=", 1.0) if mode == DEFAULT_MODE else None,
                note=f"{len(runs)} games, {sum(r.rounds for r in runs)} rounds",
            )
        )
    return out


def run(*, quick: bool, extras: list | None = None) -> list[Row]:
    """The bench section: 4 (quick) or 20 games per mode with the rules alone, and 1 game of 2
    rounds (quick) or 2 games of 3 rounds per mode through the service (needs the bench's
    database). The three tables are appended to `extras` as Markdown when given."""
    delays = Delays()
    runs = play_all(4 if quick else 20, delays=delays)
    summaries = [summarise(mode, mode_runs) for mode, mode_runs in runs.items()]
    email_runs = measure_emails(1, rounds=2) if quick else measure_emails(2, rounds=3)
    if extras is not None:
        extras.append(
            "## Pace of a game, per reaction mode (bench/pacing.py)\n\n"
            + report(summaries, email_runs, delays)
        )
    return rows(summaries, email_runs)
