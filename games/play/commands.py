"""The play room's commands: create a game, submit a seat's command. Every change to a game goes
through here (`games.services` is their documented name).

Each write is one database transaction holding the new events, the command record, the seats'
clocks and the outbox rows of the seats whose prompt changed: the command path announces its
events (`games.play.signals.events_recorded`, inside the transaction), the clocks listen
(`games.play.clocks`) and announce the decisions that changed, and the mail, listening, writes
its rows. After the commit, and only then: a snapshot if one is due, and whatever the
after-append hooks scheduled (the bot seats' task when a bot seat must decide,
`games.play.bot_seats`).

The command path is kept to a handful of queries (tests/games/play/test_query_count.py): the row lock
reads the head and the seats in one query (`store.lock`), the append takes no savepoint, the
receivers get the command's events and its seat in the signal, and whether a snapshot is due is
known from the seqs alone.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils.translation import gettext as _

from games import bots, rules, store
from games.play.forced_moves import forced_seat
from games.play.signals import events_recorded
from games.play.standing_orders import ordered_seat
from games.record.options import for_new_game, rules_options
from games.store.models import COLOURS, Command, Game, Seat, seed_commitment
from games.story.descriptions import describe_command
from players.accounts import normalise_email, user_for_email
from players.email_addresses import canonical_address
from players.models import Player

logger = logging.getLogger(__name__)

# How many times a command is decided again after losing the race to append (ConcurrencyConflict).
# Each retry follows somebody else's successful append, so with k concurrent submitters a command
# needs at most k attempts; the bound only stops a pathological livelock.
MAX_ATTEMPTS = 25


@dataclass(frozen=True)
class SeatSpec:
    """One seat to create: a player's email, or a bot (no email) playing at `bot_level`
    (`games.bots.LEVELS`: "random", "easy", "hard")."""

    email: str = ""
    is_bot: bool = False
    bot_level: str = "random"


@dataclass(frozen=True)
class CommandResult:
    """What became of a submitted command.

    accepted: True when its events are in the log (now or by an earlier submission).
    message: for the player: what was understood, or the rules' reason for refusing it.
    seq: the log's length after this submission as far as it knows.
    first_seq, last_seq: the events the command produced (None when rejected).
    events: those events as the submitting seat may see them (`rules.redact`), JSON dicts.
    duplicate: answered from an earlier submission with the same command_id (nothing new written).
    rebased: the log had moved on since `expected_seq`, and the command was decided against the
        newer state (accepted only because it was still legal there).
    error_kind: "invalid", "illegal" or "ambiguous" for a refusal by the rules;
        SEAT_CHANGED ("seat_changed") when the seat changed hands before the command reached
        the log (`submit_command`, `seat_changed_result`); None otherwise.
    """

    accepted: bool
    message: str
    seq: int
    first_seq: int | None = None
    last_seq: int | None = None
    events: tuple = field(default=())
    duplicate: bool = False
    rebased: bool = False
    error_kind: str | None = None


# `CommandResult.error_kind` of a command refused because its seat changed hands (an erasure or
# a hand-over) between the caller's read of the seat and the game's row lock.
SEAT_CHANGED = "seat_changed"


def seat_changed_result(seq: int, message: str | None = None) -> CommandResult:
    """The refusal of a command whose seat changed hands before it reached the log
    (`store.SeatChangedHands`), at the head `seq`: nothing was played. `message`: the words for
    the player (default: a move's), in the active language."""
    return CommandResult(
        accepted=False,
        seq=seq,
        error_kind=SEAT_CHANGED,
        message=message
        or _(
            "This seat is no longer yours: it changed hands just before your move arrived, "
            "and nothing was played."
        ),
    )


def create_game(
    *,
    seats: Sequence[SeatSpec],
    seed: str | None = None,
    setup: str | dict = "random",
    options: dict | None = None,
    play_bots: bool = True,
    host=None,
) -> Game:
    """Create a game: its seats (colours in the order of COLOURS), seed, commitment and set-up.

    seats: 2 to 4 `SeatSpec`s, the first being the first seat; a player seat needs a valid email
    and belongs to the account of that email (`players.accounts.user_for_email`).
    seed: the secret seed (default: 32 random hex digits). setup: "random", "discovery" or a
    described position (dict, docs/positions.md). options: docs/game-options.md, e.g.
    {"buildings": "later_print", "reaction_mode": "quick"}; only the rules' keys go to
    `rules.start_game`. Without a reaction_mode the game gets the default ("holders": Triskel
    windows ask only the players able to answer; `games.record.options.with_reaction_mode`), and
    every game gets the current rules its options do not set (`for_new_game`: take-backs judged on
    what their mover sees). With
    reaction_mode "quick", every player seat starts with the standing policy "never ask" for
    Triskel cards (a `set_policy` command, which the player may undo).
    play_bots: False leaves bot seats waiting (simulate_games drives them itself).
    host: the user who may use the host tools (None: nobody).

    Raises ValueError (wrong seat count, bad email, a bot level not in `games.bots.LEVELS`, a
    seed that is empty, longer than 128 characters or not printable) and `rules.InvalidCommand`
    (the rules refuse the configuration); nothing is written then.
    """
    _check_new_game(seats, seed)
    seed = seed or secrets.token_hex(16)
    options = for_new_game(options)
    colours = list(COLOURS[: len(seats)])
    events = rules.start_game(colours, seed=seed, setup=setup, options=rules_options(options) or None)
    with transaction.atomic():
        game = Game.objects.create(
            seed=seed,
            seed_commitment=seed_commitment(seed),
            setup=setup if isinstance(setup, str) else Game.Setup.POSITION,
            position=setup if isinstance(setup, dict) else None,
            options=options,
            player_count=len(seats),
            host=host,
        )
        _create_seats(game, zip(colours, seats))
        _record_set_up(game, events, play_bots=play_bots)
        if options.get("reaction_mode") == "quick":
            _set_quick_policies(game, play_bots=play_bots)
    return game


def _check_new_game(seats: Sequence[SeatSpec], seed: str | None) -> None:
    """Raise ValueError, saying what is allowed, for a seat count, a seat or a seed that
    `create_game` refuses."""
    if not 2 <= len(seats) <= len(COLOURS):
        raise ValueError(f"Inis is played by 2 to 4 seats, not {len(seats)}.")
    for spec in seats:
        if spec.is_bot and spec.bot_level not in bots.LEVELS:
            raise ValueError(
                f"A bot plays at one of the levels {', '.join(bots.LEVELS)}, not {spec.bot_level!r}."
            )
        if not spec.is_bot:
            try:
                validate_email(spec.email)
            except ValidationError:
                raise ValueError(f"{spec.email!r} is not an email address.") from None
    if seed is not None and not (0 < len(seed) <= 128 and seed.isprintable()):
        raise ValueError("A seed is 1 to 128 printable characters.")


def _create_seats(game: Game, seats: Iterable[tuple[str, SeatSpec]]) -> None:
    """The game's seats, `(colour, spec)` in seating order; a player seat belongs to the account
    of its email."""
    for position, (colour, spec) in enumerate(seats):
        Seat.objects.create(
            game=game,
            colour=colour,
            position=position,
            email="" if spec.is_bot else normalise_email(spec.email),
            is_bot=spec.is_bot,
            bot_level=spec.bot_level if spec.is_bot else "random",
            user=None if spec.is_bot else user_for_email(spec.email),
        )


def _record_set_up(game: Game, events: list, *, play_bots: bool) -> None:
    """Append the set-up's `events` as the game's first, tell the hooks (`after_append`), then
    play the forced moves that follow, as after any command (`play_forced_moves`): a Brenn whose
    only possible Capital is one territory (a 2-player island whose other starting territory is
    the Swamp, ruling U15) is not asked, and the next decision is (docs/rulings.md, "Forced
    moves"). Without it that first decision's clock stayed closed and nobody was asked at all."""
    rows = store.append(game, events, expected_seq=0)
    stored = [store.to_rules_event(row) for row in rows]
    state = rules.fold(stored)
    store.remember_rows(game, rows, stored)
    after_append(
        game,
        state,
        pending_before=[],
        first_seq=1,
        last_seq=len(events),
        play_bots=play_bots,
        events=list(zip((row.seq for row in rows), stored)),
        prev_hash=rows[0].prev_hash,
        last_hash=rows[-1].hash,
    )
    last = play_forced_moves(game, state, play_bots=play_bots)
    if last is not None:
        store.remember_state(game, state, last[-1].hash)


def _set_quick_policies(game: Game, *, play_bots: bool) -> None:
    """Reaction mode "quick": every player seat's standing policy "never ask" for Triskel cards.
    Raises RuntimeError if the rules refuse it (legal at any time: a rules fault)."""
    for seat in game.seats.filter(is_bot=False):
        result = submit_command(
            game=game,
            seat=seat,
            command={"type": "set_policy", "card": "all", "policy": "never"},
            expected_seq=store.head(game)[0],
            play_bots=play_bots,
        )
        if not result.accepted:
            raise RuntimeError(f"{game}: the rules refused the quick reaction policy: {result.message}")


def submit_command(
    *,
    game: Game,
    seat: Seat,
    command: dict,
    expected_seq: int,
    command_id: str | None = None,
    play_bots: bool = True,
    by_holder: bool = False,
) -> CommandResult:
    """Decide `command` for `seat` and record its events, once.

    command: a JSON dict with a "type" (docs/commands.md). expected_seq: the seq the seat's prompt
    was made against. command_id: idempotency key (form nonce, inbound Message-ID); a key already
    accepted for this game is answered with that first result and nothing is written.
    by_holder: the command is the holder's of `seat` as the caller read it (a player's move by
    the web or by email, a bot seat's own): when, under the game's row lock, the seat has
    another holder (an erasure or a hand-over committed since the caller read it:
    `store.same_holder`), it is refused (`error_kind` SEAT_CHANGED) and nothing is written.
    The web's moves, the email replies' and the bot loop's pass True; False (the default) for
    what is played for the seat as it is now, whoever holds it (a deadline's default, the
    stand-in, a delayed pass, an order, the policies a hand-over sets back) and for a caller
    that read the seat under the game's lock or just now.

    The command is decided against the current state with `rules.rng_for(game.seed, seq)`. When
    the log is ahead of `expected_seq`, or another append wins the race, it is decided again
    against the newer state and accepted only if it is still legal there (`rebased`).

    Returns a CommandResult; a refusal by the rules (`rules.CommandError`) is a result with
    accepted=False and the rules' message, with nothing written. Raises ValueError when the seat
    is not at this game, and store.ConcurrencyConflict when MAX_ATTEMPTS appends all lost races.
    """
    result, _state = submit_command_and_fold(
        game=game,
        seat=seat,
        command=command,
        expected_seq=expected_seq,
        command_id=command_id,
        play_bots=play_bots,
        by_holder=by_holder,
    )
    return result


def submit_command_and_fold(
    *,
    game: Game,
    seat: Seat,
    command: dict,
    expected_seq: int,
    command_id: str | None = None,
    play_bots: bool = True,
    loaded: tuple[rules.GameState, int] | None = None,
    by_holder: bool = False,
) -> tuple[CommandResult, Any]:
    """`submit_command`, returning `(CommandResult, state)`: the state after the command's events
    (a GameState equal to a fresh load at the new head), or None when nothing was written
    (refused, or answered from an earlier submission). Typed `Any`: the bench and the query-count
    test submit only legal commands and read the state unchecked.

    loaded: an optional `(state, seq)` the caller already holds (the bot loop), used for the
    first attempt instead of loading; it is not modified.
    """
    if seat.game_id != game.pk:
        raise ValueError(f"{seat} does not sit at {game}")
    submission = _Submission(game, seat, command, expected_seq, command_id, play_bots, by_holder)
    conflict = None
    for attempt in range(MAX_ATTEMPTS):
        # Checked on every attempt: the race just lost may have been against this very command
        # (the same key sent twice at once), which must be answered, not decided again.
        earlier = _earlier_submission(game, command_id)
        if earlier is not None:
            return _answer_duplicate(earlier, seat), None
        base = _base_of(game, expected_seq, first=attempt == 0, loaded=loaded)
        loaded = None
        try:
            outcome = _attempt(submission, base)
        except store.ConcurrencyConflict as error:
            conflict = error
            continue
        if outcome is not None:
            return outcome
    # Only the first attempt may decide on a guess; each later one returns or loses a race.
    assert conflict is not None
    raise conflict


@dataclass(frozen=True)
class _Submission:
    """One `submit_command_and_fold` call's arguments, as each of its attempts reads them."""

    game: Game
    seat: Seat
    command: dict
    expected_seq: int
    command_id: str | None
    play_bots: bool
    by_holder: bool = False


@dataclass(frozen=True)
class _Base:
    """The state an attempt decides against: `state` at the head `seq`. expected_hash: the head's
    hash when `state` is this process's recent state (a guess, which the append checks), else
    None. owned: whether `state` is this call's own (the caller's `loaded` state is decided
    against, since decide changes no state, and copied only when something is to be folded into
    it, so that the decisions the caller already worked out for it are not worked out again:
    `rules.pending` remembers a state, not its copies)."""

    state: rules.GameState
    seq: int
    expected_hash: str | None = None
    owned: bool = True


def _base_of(
    game: Game, expected_seq: int, *, first: bool, loaded: tuple[rules.GameState, int] | None
) -> _Base:
    """The state an attempt decides against: the caller's `loaded` one, else (on the `first`
    attempt) this process's last state of the game when it is not behind `expected_seq`, else a
    fresh load."""
    if loaded is not None:
        return _Base(loaded[0], loaded[1], owned=False)
    if first and (recent := store.recent_state(game)) is not None and recent[1] >= expected_seq:
        # This process's last state of the game: no load. It may be behind the log, so it only
        # ever leads to an append checked against its seq and hash; anything else (a refusal,
        # nothing to do) is decided again on a fresh load.
        return _Base(*recent)
    state, seq = store.load(game)
    return _Base(state, seq)


def _attempt(submission: _Submission, base: _Base) -> tuple[CommandResult, rules.GameState | None] | None:
    """Decide the command against `base` and record its events; returns the answer, or None to
    decide again on a fresh load (`base` was a guess the log had moved past). Raises
    `store.ConcurrencyConflict` when another append won the race."""
    state, seq, expected_seq = base.state, base.seq, submission.expected_seq
    if expected_seq > seq:
        message = _(
            "This command refers to move {expected}, but the game has only {seq} events. "
            "Reload your page and try again."
        ).format(expected=expected_seq, seq=seq)
        return CommandResult(
            accepted=False, seq=seq, error_kind=rules.InvalidCommand.kind, message=message
        ), None
    try:
        events = rules.decide(
            state, submission.seat.colour, submission.command, rng=rules.rng_for(submission.game.seed, seq)
        )
    except rules.CommandError as error:
        if base.expected_hash is not None:
            return None
        return _refused(submission, seq, error), None
    if not events and base.expected_hash is not None:
        return None
    if not events:
        # A legal command that changes nothing: there is nothing to record.
        return CommandResult(accepted=True, seq=seq, message=_("Nothing changed.")), (
            state if base.owned else state.clone()
        )
    return _record(submission, base, events)


def _refused(submission: _Submission, seq: int, error: rules.CommandError) -> CommandResult:
    """The answer to a command the rules refused at the head `seq` (`error`), saying when the
    game has moved on since the seat's prompt; or, when the same command was accepted meanwhile
    (the reason it is now illegal), that earlier answer."""
    earlier = _earlier_submission(submission.game, submission.command_id)
    if earlier is not None:
        return _answer_duplicate(earlier, submission.seat)
    message = str(error)
    if seq != submission.expected_seq:
        message += " " + _("(The game has moved on since your prompt: {expected} → {seq} events.)").format(
            expected=submission.expected_seq, seq=seq
        )
    return CommandResult(accepted=False, seq=seq, message=message, error_kind=error.kind)


def _record(
    submission: _Submission, base: _Base, events: list
) -> tuple[CommandResult, rules.GameState | None]:
    """Append the command's `events` at `base`'s head, with the forced moves and orders that
    follow, in one transaction; returns the accepted answer and the state after them, or the
    refusal when the seat changed hands meanwhile (`submission.by_holder`). Raises
    `store.ConcurrencyConflict` when another append won the race."""
    game, seat, command = submission.game, submission.seat, submission.command
    state, seq = base.state, base.seq
    description = describe_command(state, command)
    pending_before = rules.pending(state)
    if not base.owned:
        state = state.clone()
    try:
        # The transaction (or, inside a caller's, the one savepoint) of the command: the
        # append below takes no savepoint of its own, so a refused insert rolls back here.
        with transaction.atomic():
            rows = append_and_announce(
                game,
                state,
                events,
                seq=seq,
                seat=seat,
                command_id=submission.command_id,
                record=store.CommandRecord(
                    seat=seat,
                    body=command,
                    client_seq=submission.expected_seq,
                    by_holder=submission.by_holder,
                ),
                pending_before=pending_before,
                play_bots=submission.play_bots,
                expected_hash=base.expected_hash,
            )
            last = play_forced_moves(game, state, play_bots=submission.play_bots) or rows
            store.remember_state(game, state, last[-1].hash)
    except store.DuplicateCommand as duplicate:
        return _answer_duplicate(duplicate.command, seat), None
    except store.SeatChangedHands:
        # Nothing was written (the transaction rolled back); the head is `seq` or later.
        return seat_changed_result(seq), None
    return CommandResult(
        accepted=True,
        message=_("Accepted: {what}.").format(what=description),
        seq=rows[-1].seq,
        first_seq=rows[0].seq,
        last_seq=rows[-1].seq,
        events=tuple(rules.redact(e, seat.colour).to_json() for e in events),
        rebased=seq != submission.expected_seq,
    ), state


# A bound on forced moves after one command: each is a whole decision, and a round has far
# fewer; reaching it would mean the rules loop, which must not hang a request.
MAX_FORCED_MOVES = 200


def play_forced_moves(game: Game, state, *, play_bots: bool) -> list | None:
    """Inside the append's transaction (the game row is locked): play every player seat's forced
    move (`games.play.forced_moves`), then what its standing orders answer
    (`games.play.standing_orders`), one command each, until none is left. `state` is evolved in
    place to the new head. Returns the rows of the last such move's events (None: none was
    played). Raises RuntimeError if the rules refuse the only command they list."""
    rows = None
    for _attempt in range(MAX_FORCED_MOVES):
        # The seats read with the row lock (`store.lock`): no query; a seat's orders are read
        # only when the clocks' read said it holds some.
        seats = list(game.seats.all())
        forced, prefix = forced_seat(seats, state, at_once=_plays_forced_moves_at_once), "forced"
        if forced is None:
            forced, prefix = ordered_seat(game, seats, state), "order"
        if forced is None:
            return rows
        seat, command = forced
        seq = state.seq
        try:
            events = rules.decide(state, seat.colour, command, rng=rules.rng_for(game.seed, seq))
        except rules.CommandError as error:
            # An order's command was checked against the legal ones (a queued play by deciding
            # it): a refusal here is a rules fault either way.
            raise RuntimeError(
                f"{game}: the rules refused the {prefix} command {command!r} of {seat.colour}: {error}"
            ) from error
        pending_before = rules.pending(state)
        command_id = f"{prefix}:{seat.colour}:{seq}"
        rows = append_and_announce(
            game,
            state,
            events,
            seq=seq,
            seat=seat,
            command_id=command_id,
            record=store.CommandRecord(seat=seat, body=command, client_seq=seq),
            pending_before=pending_before,
            play_bots=play_bots,
        )
    raise RuntimeError(f"{game}: more than {MAX_FORCED_MOVES} forced moves in a row")


def _plays_forced_moves_at_once(seat: Seat) -> bool:
    """Whether the player of `seat` chose "play my forced moves at once" (one query, made only
    for a seat whose Season turn its hand leaves the pass: `forced_moves.forced_seat`)."""
    return Player.objects.filter(email=canonical_address(seat.email), forced_moves_at_once=True).exists()


def _earlier_submission(game: Game, command_id: str | None) -> Command | None:
    if command_id is None:
        return None
    return Command.objects.filter(game=game, command_id=command_id).select_related("game").first()


def _answer_duplicate(record: Command, seat: Seat) -> CommandResult:
    if record.seat_id != seat.pk:
        return CommandResult(
            accepted=False,
            seq=store.head(record.game)[0],
            error_kind=rules.InvalidCommand.kind,
            message=_("This message was already used by another seat."),
        )
    rows = record.events.order_by("seq")
    return CommandResult(
        accepted=True,
        message=_("Already received: this command was accepted as events {first}–{last}.").format(
            first=record.first_seq, last=record.last_seq
        ),
        seq=store.head(record.game)[0],
        first_seq=record.first_seq,
        last_seq=record.last_seq,
        events=tuple(rules.redact(store.to_rules_event(row), seat.colour).to_json() for row in rows),
        duplicate=True,
    )


def append_and_announce(  # noqa: PLR0913 - the facts of one append, all keyword-only, as the hooks read them
    game: Game,
    state,
    events: list,
    *,
    seq: int,
    seat: Seat,
    command_id: str | None,
    record: store.CommandRecord,
    pending_before: list,
    play_bots: bool,
    expected_hash: str | None = None,
) -> list:
    """Append `seat`'s command `record` and its `events` at the head `seq` (inside the
    caller's transaction, no savepoint of its own), fold what was stored into `state`, and tell
    the hooks (`after_append`: clocks, mail, bots). Returns the appended Event rows. Raises what
    `store.append` raises (`store.ConcurrencyConflict`, a duplicate command id)."""
    rows = store.append(
        game,
        events,
        expected_seq=seq,
        command_id=command_id,
        command=record,
        savepoint=False,
        expected_hash=expected_hash,
    )
    # Fold what was stored (JSON read back), not decide's objects, so that this state is exactly
    # what any later load of the log gives.
    stored = fold_rows(game, state, rows)
    after_append(
        game,
        state,
        pending_before=pending_before,
        first_seq=rows[0].seq,
        last_seq=rows[-1].seq,
        play_bots=play_bots,
        events=stored,
        acting=(seat, command_id),
        prev_hash=rows[0].prev_hash,
        last_hash=rows[-1].hash,
    )
    return rows


def fold_rows(game: Game, state, rows) -> list[tuple[int, object]]:
    """Evolve `state` in place with the stored `rows`; returns `[(seq, rules.Event)]` of them.
    They are also kept, after the commit, in this process's recent events (`store.events_between`)."""
    stored = [store.to_rules_event(row) for row in rows]
    for event in stored:
        rules.evolve(state, event)
    store.remember_rows(game, rows, stored)
    return [(row.seq, event) for row, event in zip(rows, stored)]


def snapshot_due(first_seq: int, last_seq: int) -> bool:
    """True when the events first_seq..last_seq (one batch) cross a multiple of SNAPSHOT_EVERY:
    a snapshot then follows at most SNAPSHOT_EVERY events plus one batch after the previous one,
    known without reading the snapshot table (a lost snapshot is made again at the next
    multiple; `store.load` folds from whichever snapshot is latest)."""
    every = settings.SNAPSHOT_EVERY
    return (first_seq - 1) // every != last_seq // every


def after_append(  # noqa: PLR0913 - the facts of one append, all keyword-only, as the hooks read them
    game: Game,
    state,
    *,
    pending_before,
    first_seq,
    last_seq,
    play_bots,
    events=None,
    acting=None,
    prev_hash=None,
    last_hash=None,
) -> None:
    """Inside the append's transaction: game over, outbox (via the signal), after-commit work.

    events: `[(seq, rules.Event)]` of the events just appended, as stored; acting: `(seat,
    command_id)` of the command that made them (None for the set-up). Both go to the receivers
    so that they need not read again what is in hand.
    """
    if rules.is_over(state) and game.status != Game.Status.OVER:
        game.status = Game.Status.OVER
        game.winner = state.winner or ""
        Game.objects.filter(pk=game.pk).update(status=game.status, winner=game.winner)
    events_recorded.send(
        sender=Game,
        game=game,
        state=state,
        pending_before=pending_before,
        first_seq=first_seq,
        last_seq=last_seq,
        events=events,
        seat=acting[0] if acting else None,
        command_id=acting[1] if acting else None,
        prev_hash=prev_hash,
        last_hash=last_hash,
    )
    if snapshot_due(first_seq, last_seq):
        # A copy: the caller may go on evolving its state after the commit.
        snapshot_state = state.clone()
        transaction.on_commit(lambda: store.save_snapshot(game, snapshot_state), robust=True)
    for hook in _AFTER_APPEND:
        hook(game, state, play_bots=play_bots, acting=acting)


# What runs last after each append, inside its transaction, in the order registered: hook(game,
# state, play_bots=bool, acting=(seat, command_id) or None). Registered in GamesConfig.ready() by the modules of this room that
# the command path must not import, because they import it (the bot seats, which play through
# `submit_command`).
_AFTER_APPEND: list[Callable[..., None]] = []


def register_after_append(hook: Callable[..., None]) -> None:
    """Call `hook(game, state, play_bots=..., acting=...)` after every append (the set-up, each
    command and each forced move), inside its transaction, after the `events_recorded` receivers
    and the snapshot's scheduling: `state` is the state after the new events (do not modify it),
    play_bots is what the command was submitted with, acting the `(Seat, command_id)` of the
    command that made them (None for the set-up). Registering a hook again does nothing."""
    if hook not in _AFTER_APPEND:
        _AFTER_APPEND.append(hook)
