"""Reacting to games: outbox rows for the seats that must hear about new events.

Runs inside the transaction that appended the events (games.signals.events_recorded), so the
rows commit or roll back with them; delivery is enqueued only after the commit.
"""
from __future__ import annotations

from django.dispatch import receiver

from games import rules
from games.signals import events_recorded
from notifications import outbox, prompts
from notifications.models import Outbox


def _decisions_by_seat(decisions) -> dict[str, list]:
    by_seat: dict[str, list] = {}
    for decision in decisions:
        by_seat.setdefault(decision.seat, []).append(decision)
    return by_seat


@receiver(events_recorded, dispatch_uid="notifications.queue_emails")
def queue_emails(sender, *, game, state, pending_before, **kwargs) -> None:
    """Write a prompt row for every human seat whose pending decisions changed and are not empty,
    and a game-over row for every human seat when the game has just ended."""
    before = _decisions_by_seat(pending_before)
    after = _decisions_by_seat(rules.pending(state))
    over = rules.is_over(state)
    for seat in game.seats.all():
        if seat.is_bot or not seat.email:
            continue
        if over:
            outbox.enqueue(game, seat, Outbox.Kind.GAME_OVER, state.seq, prompts.game_over_email(game, seat, state))
        elif after.get(seat.colour) and after.get(seat.colour) != before.get(seat.colour):
            outbox.enqueue(game, seat, Outbox.Kind.PROMPT, state.seq, prompts.prompt_email(game, seat, state))
