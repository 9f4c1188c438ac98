"""The reminder of a seat's open decision, a while before its deadline (`SeatClock.remind_at`,
computed by the play room: `games.play.schedule`); the sweep finds it due and enqueues
`send_reminder_task` (its name is the one it had: queued tasks carry it)."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError, transaction
from django.utils import translation

from games import rules, store
from games.play.models import SeatClock
from games.store.models import Game
from notifications import outbox, prompts
from notifications.models import Outbox
from players import preferences
from players.display_names import seat_names

# Errors worth another try a little later: a lost race with a concurrent command, a database blip.
TRANSIENT = (store.ConcurrencyConflict, OperationalError)


def _lock_game(game_id: int) -> Game:
    return Game.objects.select_for_update().get(pk=game_id)


def send_reminder(clock_id: int, seq: int) -> bool:
    """Enqueue the reminder of the decision `seq` of the clock `clock_id`, once; True when sent
    now. Nothing when the decision has moved on, the reminder went already, the game is over,
    or the seat is no longer a player's: its player erased their account (docs/privacy.md; the
    stand-in bot plays it, and its address is empty) after the sweep found the reminder due."""
    clock = SeatClock.objects.filter(pk=clock_id).select_related("seat").first()
    if clock is None:
        return False
    with transaction.atomic():
        game = _lock_game(clock.game_id)
        clock = SeatClock.objects.select_for_update().select_related("seat").get(pk=clock_id)
        seat = clock.seat
        if (
            clock.seq != seq
            or clock.reminded
            or clock.stand_in
            or game.is_over
            or seat.is_bot
            or not seat.email
        ):
            return False
        state, head = store.load(game)
        player = preferences.player_for(clock.seat.email)
        # The decision and whom it concerns name the players as the table does ("Ann (blue)"),
        # a bot's seat and a departed player's in the reader's language ("Robot au hasard").
        with translation.override(player.language or "en"):
            names = seat_names(game.seats.all())
        with rules.players_named(names):
            email = prompts.reminder_email(
                prompts.Recipient.of(clock.seat, player),
                state,
                deadline=clock.deadline,
                decision_seq=clock.seq,
            )
        outbox.enqueue(
            kind=Outbox.Kind.REMINDER,
            to_email=clock.seat.email,
            email=email,
            seq=head,
            game=game,
            seat=clock.seat,
            decision_seq=clock.seq,
        )
        clock.reminded = True
        clock.save(update_fields=["reminded"])
    return True


@shared_task(
    name="notifications.tasks.send_reminder",
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def send_reminder_task(clock_id: int, seq: int) -> bool:
    """The reminder of a seat's decision (`send_reminder`)."""
    return send_reminder(clock_id, seq)
