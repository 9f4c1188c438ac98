"""Auditing a game's record: is the stored log exactly what the rules and the seed produce?

`verify_game` checks, and reports every failure it finds rather than stopping at the first:

1. commitment: sha256(seed) equals the commitment published at creation;
2. hash chain: seq runs 1..N without gap, each prev_hash is the previous hash (the first is the
   commitment), each hash matches the event's content as the game's chain version hashes it
   (`games.record.hashchain`; the audit holds the seed, so every link of either version is checked,
   private events' public parts and hidden digests included): an out-of-band edit breaks this;
3. set-up: `rules.start_game` with the game's seats, seed, set-up and options gives exactly the
   events before the first command;
4. commands: the recorded commands cover every later event, in order, and each one, decided
   again by `rules.decide` against the fold of the events before it with
   `rules.rng_for(seed, seq_before)`, gives exactly its recorded events (so each was legal when
   appended and its random draws follow from the seed); a take-back is decided again by
   `rules.take_back_events` against the move it took back — the last command before it but for
   standing Triskel policies (`rules.NO_MOVE_COMMANDS`: no move, passed over) — and the fold up
   to that command;
5. the fold: every event folds (`rules.evolve`) and the game's status and winner agree with
   `rules.is_over` / `state.winner` at the end;
6. snapshots: each equals the fold at its seq (a stale one is a cache fault: deleting it fixes it);
7. an outside anchor (optional): a head hash a player kept (every email names the head at that
   point, the game page shows it) is still one of the chain's hashes — deleting the last
   commands and their events leaves a chain that checks, but not one that holds that hash;
8. reading: the game loads (`games.store.load`, from its latest snapshot) as the pages, emails and
   commands load it, before this audit runs any rules of its own — a game that only the audit
   could fold is reported as failing to load.

Stored events of old versions are compared after `rules.upcast`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from games import rules
from games.record.hashchain import CHAIN_VERSIONS, MIN_HEAD_DIGITS, chained_hash, normalise
from games.record.options import rules_options
from games.store import log
from games.store.models import Command, Event, Game, Snapshot, seed_commitment


@dataclass
class VerificationReport:
    """The outcome: counts of what was checked and one line per problem found (empty = sound)."""

    game_id: int
    events: int = 0
    commands: int = 0
    snapshots: int = 0
    problems: list[str] = field(default_factory=list)
    # The hash a player kept (`head`, as given) and the seq of the one event that has it.
    anchor: str | None = None
    anchor_seq: int | None = None

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        """A human-readable report, one line each."""
        verdict = "OK" if self.ok else f"FAILED ({len(self.problems)} problem(s))"
        head = (
            f"Game {self.game_id}: {verdict} — {self.events} events, {self.commands} commands, "
            f"{self.snapshots} snapshots checked"
        )
        told = []
        if self.ok and self.anchor_seq is not None:
            told.append(
                f"  The fingerprint {self.anchor} is that of event #{self.anchor_seq}: "
                "the event log holds it, unchanged up to that event."
            )
        return [head, *told] + [f"  - {problem}" for problem in self.problems]


def _stored(row: Event) -> dict[str, Any]:
    stored: dict[str, Any] = normalise(rules.upcast(row.to_json()))
    return stored


def _fresh(events: Iterable[rules.Event]) -> list[dict[str, Any]]:
    return [normalise(event.to_json()) for event in events]


def _compare(label: str, fresh: list[dict[str, Any]], rows: list[Event], problems: list[str]) -> None:
    if len(fresh) != len(rows):
        problems.append(f"{label}: the rules give {len(fresh)} events, the log holds {len(rows)}")
    for expected, row in zip(fresh, rows):
        if expected != _stored(row):
            problems.append(f"{label}: event #{row.seq} is {_stored(row)!r}, the rules give {expected!r}")
            break


def verify_game(game: Game, *, head: str | None = None) -> VerificationReport:
    """Check `game`'s record (see the module docstring); never raises for a bad record.

    head: a hash (64 hex digits, or a prefix of at least MIN_HEAD_DIGITS) that a player kept;
    a problem is reported unless exactly one event of the chain has it.
    """
    report = VerificationReport(game_id=game.pk)
    problems = report.problems
    if head is not None:
        report.anchor = head.strip().lower()
        report.anchor_seq = _check_anchor(game, report.anchor, problems)
    if seed_commitment(game.seed) != game.seed_commitment:
        problems.append("the seed does not match the published commitment (sha256(seed) differs)")

    try:
        log.load(game)
    except Exception as error:  # whatever stops a reader is what this check is for
        problems.append(f"load: the game cannot be read as players' pages and emails read it: {error!r}")

    rows = list(Event.objects.filter(game=game).order_by("seq"))
    report.events = len(rows)
    _check_chain(game, rows, problems)
    if any(row.seq != n for n, row in enumerate(rows, start=1)):
        return report  # without a contiguous log the replay below would compare the wrong events

    colours = list(game.seats.order_by("position").values_list("colour", flat=True))
    try:
        setup_events = rules.start_game(
            colours, seed=game.seed, setup=game.setup_argument(), options=rules_options(game.options) or None
        )
    except rules.CommandError as error:
        problems.append(f"set-up: the rules refuse this game's configuration: {error}")
        return report
    _compare("set-up", _fresh(setup_events), rows[: len(setup_events)], problems)

    commands = list(Command.objects.filter(game=game).select_related("seat").order_by("first_seq"))
    report.commands = len(commands)
    snapshots = {s.seq: s for s in Snapshot.objects.filter(game=game)}
    report.snapshots = len(snapshots)
    state = rules.GameState()
    expected_first = len(setup_events) + 1
    previous = None

    def fold_to(seq: int) -> bool:
        while state.seq < seq:
            row = rows[state.seq]
            try:
                rules.evolve(state, log.to_rules_event(row))
            except Exception as error:  # a log the rules cannot fold: report it, stop replaying
                problems.append(f"fold: event #{row.seq} ({row.type}) does not apply: {error!r}")
                return False
            snapshot = snapshots.get(state.seq)
            if snapshot is not None and normalise(snapshot.state) != normalise(state.to_json()):
                problems.append(f"snapshot at #{snapshot.seq} differs from the fold (delete it)")
        return True

    for record in commands:
        label = (
            f"command #{record.first_seq}-{record.last_seq} ({record.seat.colour} {record.body.get('type')})"
        )
        if record.first_seq != expected_first:
            problems.append(f"{label}: expected a command starting at #{expected_first}")
            return report
        if record.last_seq > len(rows) or record.last_seq < record.first_seq:
            problems.append(f"{label}: its events are not all in the log")
            return report
        if not fold_to(record.first_seq - 1):
            return report
        seq_before = record.first_seq - 1
        try:
            if record.body.get("type") == rules.TAKE_BACK:
                decided = _take_back_again(game, rows, record, previous)
            else:
                decided = rules.decide(
                    state, record.seat.colour, record.body, rng=rules.rng_for(game.seed, seq_before)
                )
        except rules.CommandError as error:
            problems.append(f"{label}: not legal at #{seq_before}: {error}")
            decided = None
        if decided is not None:
            _compare(label, _fresh(decided), rows[seq_before : record.last_seq], problems)
        linked = [row.seq for row in rows[seq_before : record.last_seq] if row.command_id != record.pk]
        if linked:
            problems.append(f"{label}: events {linked} are not linked to it")
        expected_first = record.last_seq + 1
        if record.body.get("type") not in rules.NO_MOVE_COMMANDS:
            previous = record  # a policy is no move: a take-back passes over it
    if expected_first != len(rows) + 1:
        problems.append(f"events #{expected_first}-#{len(rows)} were recorded by no command")
        return report
    if not fold_to(len(rows)):
        return report

    over = rules.is_over(state)
    if over != game.is_over:
        problems.append(f"the game's status is {game.status!r} but the rules say over={over}")
    if over and (state.winner or "") != game.winner:
        problems.append(f"the game's winner is {game.winner!r} but the rules say {state.winner!r}")
    return report


def _take_back_again(
    game: Game, rows: list[Event], record: Command, previous: Command | None
) -> list[rules.Event]:
    """The events of the take-back `record`, decided again (`rules.take_back_events`) against
    the move it took back (`previous`: the last command before it that is not a standing Triskel
    policy, `rules.NO_MOVE_COMMANDS`; None: none) and the fold of the log up to that command.
    Raises rules.CommandError when the rules refuse it (or there was no move to take back)."""
    if previous is None:
        raise rules.IllegalCommand("there was no move to take back")
    before = rules.fold(log.to_rules_event(row) for row in rows[: previous.first_seq - 1])
    return rules.take_back_events(
        before,
        record.seat.colour,
        previous.body,
        mover=previous.seat.colour,
        first_seq=previous.first_seq,
        last_seq=previous.last_seq,
        seed_rng=rules.rng_for(game.seed, previous.first_seq - 1),
    )


def _check_anchor(game: Game, head: str, problems: list[str]) -> int | None:
    """The seq of the one event of `game` whose hash starts with `head`, or None with the problem
    added to `problems` (not a hash, no such event, several)."""
    if len(head) < MIN_HEAD_DIGITS or any(c not in "0123456789abcdef" for c in head):
        problems.append(f"head: {head!r} is not a hash (at least {MIN_HEAD_DIGITS} hex digits)")
        return None
    found = list(Event.objects.filter(game=game, hash__startswith=head).values_list("seq", flat=True)[:2])
    if not found:
        problems.append(
            f"head: no event of the chain has the hash {head} — the log has been cut "
            f"or rewritten since that hash was shown"
        )
    elif len(found) > 1:
        problems.append(f"head: {head} is the start of several hashes; give more digits")
    return found[0] if len(found) == 1 else None


def _check_chain(game: Game, rows: list[Event], problems: list[str]) -> None:
    if game.chain_version not in CHAIN_VERSIONS:
        problems.append(
            f"chain: version {game.chain_version} is unknown to this code (it reads {CHAIN_VERSIONS})"
        )
        return
    prev_hash = game.seed_commitment
    for expected_seq, row in enumerate(rows, start=1):
        if row.seq != expected_seq:
            problems.append(f"chain: expected event #{expected_seq}, found #{row.seq} (a gap or a duplicate)")
            return
        if row.prev_hash != prev_hash:
            problems.append(f"chain: event #{row.seq} does not follow the hash of #{row.seq - 1}")
        try:
            digest = chained_hash(
                row.prev_hash,
                chain_version=game.chain_version,
                seed=game.seed,
                seq=row.seq,
                type=row.type,
                version=row.version,
                payload=row.payload,
                visibility=row.visibility,
            )
        except (KeyError, TypeError, ValueError) as error:  # a payload the rules cannot redact (version 2)
            digest = f"cannot be computed ({error!r})"
        if digest != row.hash:
            problems.append(
                f"chain: event #{row.seq} ({row.type}) does not match its hash: "
                "it was changed after it was appended"
            )
        prev_hash = row.hash
