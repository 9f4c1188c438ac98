"""Taking back a seat's last move (docs/rulings.md, "Taking back a move"; `rules.take_back_events`).

A take-back is a command like any other in the log: the seat's `{"type": "take_back"}`, recorded
with its one `MoveTakenBack` event (the state before the move, for the server alone), appended
after the move's events (and the standing Triskel policies set since). Nothing is deleted: the
log stays append-only and hash-chained, and `verify_game` decides the take-back again from the
same facts (the last command before it that is not a policy, and the fold up to that command).

What only the log knows is checked here, under the game's row lock: the move is the log's last
command but for standing Triskel policies (`move_to_take_back`: nobody has acted since, not even a
forced move or a bot; a policy, the seat's or another's, is no move and is passed over, so that
whether another seat set one never changes the answer), it is this seat's, and the player made it
(not a forced move, a standing order, a deadline default or the stand-in bot, all recorded with
their own key: `games.play.clocks.is_proxy`). What the move itself revealed is the rules' to judge.
The policies set since the move stand (`rules.take_back_events`).

A take-back that gives the seat back its Season turn pauses its queued play and "pass until" for
that turn (`games.play.standing_orders.paused_by_take_back`: the seat's last command is the
take-back), so that the player who reads "decide again" does decide; the answer says so.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _

from games import rules, store
from games.play.clocks import is_proxy
from games.play.commands import CommandResult, append_and_announce, play_forced_moves, seat_changed_result
from games.play.models import StandingOrder
from games.play.standing_orders import SEASON_TURN_KINDS
from games.store.models import Command, Game, Seat
from players.email_addresses import canonical_address
from players.models import Player

# Commands read at a time, newest first, looking for the move past the policies set since.
_BATCH = 8


def move_to_take_back(game: Game, head_seq: int) -> Command | None:
    """The move a take-back at the log's head `head_seq` would take back: the log's last command
    (with its seat), whoever's, that is not a standing Triskel policy (`rules.NO_MOVE_COMMANDS`),
    every command after it being one (docs/rulings.md, "Taking back a move"). None when there is
    no such command, or when the log's last events were recorded by no command (the set-up)."""
    newest_first = Command.objects.filter(game=game).select_related("seat").order_by("-first_seq")
    start = 0
    while True:
        batch = list(newest_first[start : start + _BATCH])
        if start == 0 and (not batch or batch[0].last_seq != head_seq):
            return None
        move = next((c for c in batch if c.body.get("type") not in rules.NO_MOVE_COMMANDS), None)
        if move is not None or len(batch) < _BATCH:
            return move
        start += _BATCH


def take_back_refusal(state, seat: Seat, move: Command | None) -> str | None:
    """Why `seat` may not take back now, in the active language, from what the log says
    (`state` the state at the log's head, `move` the move a take-back would take back:
    `move_to_take_back`); None when the log allows it (the rules may still refuse:
    `rules.take_back_events`)."""
    if rules.is_over(state):
        return _("The game is over: no move can be taken back.")
    if move is None:
        # Also when the seat only set standing Triskel policies: a policy is no move, it is
        # changed by setting another.
        return _("You have made no move to take back.")
    if move.seat_id != seat.pk:
        return _("You can take back only your own last move: another player has acted since.")
    if is_proxy(move.command_id):
        return _(
            "Your last move was made for you (a forced move, a standing order or a deadline): it stands."
        )
    return None


def saw_the_move(move: Command, seen_seq: int, head_seq: int) -> bool:
    """Whether a page or an email that showed the log up to `seen_seq` events showed `move` as
    the move to take back: it showed the move's events, and nothing but standing Triskel
    policies has come since (`move_to_take_back` at `head_seq`). A policy set since, another
    seat's or the seat's own, does not make the player's view older: whether another seat set
    one never changes the answer."""
    return move.last_seq <= seen_seq <= head_seq


def season_orders_wait(seat: Seat, state) -> bool:
    """Whether the take-back just made gave `seat` back a Season turn while it holds a queued
    play or "pass until" (`standing_orders.SEASON_TURN_KINDS`): those wait for its next turn
    (docs/standing-orders.md), and the answer says so."""
    if not any(d.seat == seat.colour and d.kind == "season_turn" for d in rules.pending(state)):
        return False
    return StandingOrder.objects.filter(seat=seat, kind__in=SEASON_TURN_KINDS).exists()


def take_back(
    *, game: Game, seat: Seat, expected_seq: int, command_id: str | None = None, play_bots: bool = True
) -> CommandResult:
    """Take back `seat`'s last move, when nobody has acted since (a standing Triskel policy set
    since, by the seat or another, is no action: `move_to_take_back`; it stands) and the move
    revealed nothing.

    expected_seq: the log's length the player's page showed (a page older than the move, or
    than a command after it other than a standing Triskel policy, is refused: the player must
    see what they take back; `saw_the_move`). command_id: the idempotency key (a form
    nonce, an inbound Message-ID); a key already accepted is answered with that result and
    nothing is written. play_bots: as for `submit_command` (False: the caller starts the bot
    seats after its commit, as the inbound path does after its answer).

    Returns a CommandResult (accepted with the events appended, or refused with the reason, in
    the active language, nothing written; `error_kind` SEAT_CHANGED when, under the game's row
    lock, the seat has another holder than `seat` as the caller read it: an erasure or a
    hand-over committed in between). Raises ValueError when the seat is not at this game.
    """
    if seat.game_id != game.pk:
        raise ValueError(f"{seat} does not sit at {game}")
    earlier = _earlier_answer(game, seat, command_id)
    if earlier is not None:
        return earlier
    try:
        return _take_back_locked(game, seat, expected_seq, command_id, play_bots=play_bots)
    except store.SeatChangedHands:
        return seat_changed_result(
            store.head(game)[0],
            _(
                "This seat is no longer yours: it changed hands just before your take-back arrived, "
                "and nothing was taken back."
            ),
        )


def _take_back_locked(
    game: Game, seat: Seat, expected_seq: int, command_id: str | None, *, play_bots: bool
) -> CommandResult:
    """`take_back`'s work in one transaction, under the game's row lock. Raises
    `store.SeatChangedHands` (nothing written) when the seat has another holder under the lock."""
    with transaction.atomic():
        store.lock(game)
        # The seats read with the lock: no query. The player read their seat before it.
        store.check_holder(seat, game.seats.all())
        state, seq = store.load(game)
        events, refusal = _events_or_refusal(game, seat, expected_seq, state, seq)
        if refusal is not None:
            return CommandResult(
                accepted=False, seq=seq, message=refusal, error_kind=rules.IllegalCommand.kind
            )
        pending_before = rules.pending(state)
        rows = append_and_announce(
            game,
            state,
            events,
            seq=seq,
            seat=seat,
            command_id=command_id,
            record=store.CommandRecord(
                seat=seat, body={"type": rules.TAKE_BACK}, client_seq=expected_seq, by_holder=True
            ),
            pending_before=pending_before,
            play_bots=play_bots,
        )
        last_rows = play_forced_moves(game, state, play_bots=play_bots) or rows
        store.remember_state(game, state, last_rows[-1].hash)
        message = _("Your move was taken back: decide again.")
        if season_orders_wait(seat, state):
            message += " " + _(
                "Your order for your Season turn waits for your next turn: it is not played on this one."
            )
    return CommandResult(
        accepted=True,
        message=message,
        seq=rows[-1].seq,
        first_seq=rows[0].seq,
        last_seq=rows[-1].seq,
        events=tuple(rules.redact(e, seat.colour).to_json() for e in events),
    )


def _earlier_answer(game: Game, seat: Seat, command_id: str | None) -> CommandResult | None:
    """The answer to a take-back whose key `command_id` was already used (accepted only for the
    same seat), or None when it is new."""
    if command_id is None:
        return None
    earlier = Command.objects.filter(game=game, command_id=command_id).first()
    if earlier is None:
        return None
    return CommandResult(
        accepted=earlier.seat_id == seat.pk,
        message=_("Already received: your move was taken back."),
        seq=store.head(game)[0],
        first_seq=earlier.first_seq,
        last_seq=earlier.last_seq,
        duplicate=True,
    )


def _events_or_refusal(game: Game, seat: Seat, expected_seq: int, state, seq: int) -> tuple[list, str | None]:
    """The events that take back `seat`'s last move at the head `seq` (`state`), and None; or []
    and why it may not be taken back (`take_back_refusal`, a page that did not show the move as
    the one to take back: `saw_the_move`, the rules' refusal: the move revealed something
    hidden)."""
    move = move_to_take_back(game, seq)
    refusal = take_back_refusal(state, seat, move)
    if refusal is None and move is not None and not saw_the_move(move, expected_seq, seq):
        refusal = _("The game has moved on since your page: reload it to see what happened.")
    if refusal is not None:
        return [], refusal
    assert move is not None  # `take_back_refusal` refuses when there is no move
    return rules_judgement(game, seat, move)


def rules_judgement(game: Game, seat: Seat, move: Command) -> tuple[list, str | None]:
    """What the rules say of `seat` taking back `move` (`move_to_take_back`'s, with its seat):
    the events that take it back, and None; or [] and the rules' refusal in the active language
    (it drew at random, a Triskel card could answer it, it revealed something: docs/rulings.md,
    "Taking back a move"). Reads the log up to the move (`store.load(until=...)`)."""
    before, _before_seq = store.load(game, until=move.first_seq - 1)
    try:
        events = rules.take_back_events(
            before,
            seat.colour,
            move.body,
            mover=move.seat.colour,
            first_seq=move.first_seq,
            last_seq=move.last_seq,
            seed_rng=rules.rng_for(game.seed, move.first_seq - 1),
        )
    except rules.CommandError as error:
        return [], str(error)
    return events, None


def take_back_grace(seat: Seat, command_id: str | None) -> int:
    """Seconds the bots wait before acting on `seat`'s command (`settings.BOT_TAKE_BACK_GRACE`),
    so that its player may take it back as at a table of people (docs/rulings.md, "Taking back a
    move"): 0 for a bot seat, for a command the system made for the seat (a forced move, an
    order, a deadline: it cannot be taken back, `clocks.is_proxy`), and for a player who turned
    "confirm every move" off (they chose speed). One query (the player's preference)."""
    grace = int(getattr(settings, "BOT_TAKE_BACK_GRACE", 0))
    if grace <= 0 or seat.is_bot or is_proxy(command_id):
        return 0
    confirms = Player.objects.filter(email=canonical_address(seat.email)).values_list(
        "confirm_moves", flat=True
    )
    return grace if next(iter(confirms), True) else 0
