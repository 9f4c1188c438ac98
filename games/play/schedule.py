"""When a seat's open decision runs out: its clock's deadline and reminder time, computed again
whenever what they depend on moves (a new decision, the host's extensions and pauses, the
player's vacation), and what the periodic sweep finds due. A player's saved vacation also moves
the delayed passes drawn for their seats (`games.play.delayed_passes`).

The rules for players are in docs/deadlines.md; the arithmetic is `games.play.deadlines`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.db import transaction
from django.db.models.signals import pre_save
from django.dispatch import receiver
from django.utils import timezone

from games.play import deadlines, delayed_passes
from games.play.models import SeatClock
from games.record.options import is_paused
from games.store.models import Game
from players import preferences
from players.models import Player
from players.signals import preferences_saved


def schedule(clock: SeatClock, game, player: Player, now: datetime | None = None) -> bool:
    """Set `clock`'s deadline and reminder time (not saved) from its decision, the game's
    options and the player's vacation, as of `now`; True when they changed. A closed clock or a
    stood-in seat has none."""
    before = (clock.deadline, clock.remind_at)
    if clock.seq is None or clock.stand_in or clock.opened_at is None:
        clock.deadline = clock.remind_at = None
    else:
        # Both counted alike, without the player's vacation and the host's pauses.
        decision: dict[str, Any] = {
            "options": game.options or {},
            "kind": clock.kind,
            "colour": clock.seat.colour,
            "since_seq": clock.seq,
            "opened_at": clock.opened_at,
            "now": now or timezone.now(),
            "away": preferences.vacation(player),
        }
        clock.deadline = deadlines.deadline(**decision)
        clock.remind_at = deadlines.remind_at(**decision)
    return (clock.deadline, clock.remind_at) != before


# A clock keeps its delayed pass's time, not the delay drawn: that delay is found again from the
# vacation the time was counted around, which a save overwrites. So the vacation before the save is
# noted on the Player being saved (this attribute, by `_note_the_vacation_before`) for `reschedule`.
_VACATION_BEFORE = "_vacation_before_save"
_VACATION_FIELDS = frozenset({"away_from", "away_until"})


@receiver(pre_save, sender=Player, dispatch_uid="games.play.schedule.vacation_before")
def _note_the_vacation_before(sender, *, instance: Player, raw=False, update_fields=None, **kwargs) -> None:
    """A player's row is about to be written: note on it the vacation it had until now
    (`preferences.vacation`: (start, end) or None; None for a new player), from which
    `reschedule` moves their delayed passes. One query (locking the row inside a transaction, so
    that of two saves at once the second reads what the first wrote), and none for a save that
    leaves the vacation alone."""
    if raw or (update_fields is not None and not _VACATION_FIELDS & set(update_fields)):
        return
    stored = None
    if not instance._state.adding:
        rows = Player.objects.filter(pk=instance.pk)
        if transaction.get_connection().in_atomic_block:
            rows = rows.select_for_update()
        stored = rows.values("away_from", "away_until").first()
    setattr(instance, _VACATION_BEFORE, preferences.vacation(Player(**stored)) if stored else None)


def reschedule(player: Player) -> int:
    """Recompute the deadlines and reminder times of every open decision of the player's seats
    (after a vacation change), and move their delayed passes (`SeatClock.pass_at`) from the
    vacation the player had before the save (noted by `_note_the_vacation_before`; nothing moves
    without that note) to the new one, keeping the drawn delay
    (`delayed_passes.moved_pass_time`). Returns how many clocks changed."""
    noted = _VACATION_BEFORE in player.__dict__
    vacation_before = player.__dict__.pop(_VACATION_BEFORE, None)
    vacation_now = preferences.vacation(player)
    changed = 0
    clocks = (
        SeatClock.objects.select_for_update()
        .select_related("game", "seat")
        .filter(seat__email__iexact=player.email, seq__isnull=False, stand_in=False)
    )
    for clock in clocks:
        pass_at = clock.pass_at
        moved = schedule(clock, clock.game, player)
        if noted and pass_at is not None and clock.opened_at is not None and vacation_before != vacation_now:
            clock.pass_at = delayed_passes.moved_pass_time(
                pass_at=pass_at,
                opened_at=clock.opened_at,
                deadline=clock.deadline,
                before=vacation_before,
                after=vacation_now,
            )
            moved = moved or clock.pass_at != pass_at
        if moved:
            clock.save(update_fields=["deadline", "remind_at", "pass_at"])
            changed += 1
    return changed


@receiver(preferences_saved, dispatch_uid="games.play.schedule.reschedule")
def _preferences_saved(sender, *, player: Player, **kwargs) -> None:
    """A player's preferences were saved (their vacation may have moved): move their deadlines,
    in the same transaction."""
    reschedule(player)


def due_work(now=None) -> dict:
    """What the sweep should enqueue now for the seats' decisions: {"reminders": [(clock id,
    seq)], "deadlines": [(clock id, seq)], "standins": [game ids]} (the mail's own due work, the
    digests, is `notifications.digests.due_digests`).

    A clock waiting for a delayed pass (`SeatClock.pass_at`) gets no reminder and no default:
    `games.play.delayed_passes.due_passes` finds it.

    Every open clock's deadline is computed again here (the host may have extended it or paused
    the game, the player may have left on vacation) and saved when it moved: one pass over the
    open decisions of active games, a handful per game.
    """
    now = now or timezone.now()
    open_clocks = list(
        SeatClock.objects.select_related("game", "seat").filter(
            seq__isnull=False, stand_in=False, seat__is_bot=False, game__status=Game.Status.ACTIVE
        )
    )
    prefs = {
        p.email: p
        for p in Player.objects.filter(email__in={c.seat.email.strip().lower() for c in open_clocks})
    }
    reminders, due = [], []
    for clock in open_clocks:
        email = clock.seat.email.strip().lower()
        if schedule(clock, clock.game, prefs.get(email) or Player(email=email), now):
            clock.save(update_fields=["deadline", "remind_at"])
        if clock.pass_at is not None:
            continue  # hand-forced: the delayed pass plays it (`games.play.delayed_passes`), unasked
        if clock.deadline is not None and clock.deadline <= now:
            due.append((clock.pk, clock.seq))
        elif clock.remind_at is not None and not clock.reminded and clock.remind_at <= now:
            reminders.append((clock.pk, clock.seq))
    stood_in = SeatClock.objects.filter(
        stand_in=True, seq__isnull=False, seat__is_bot=False, game__status=Game.Status.ACTIVE
    ).select_related("game")
    # Not while the host has the game paused (docs/deadlines.md): the host's resume starts them.
    standins = sorted({clock.game_id for clock in stood_in if not is_paused(clock.game.options or {})})
    return {"reminders": reminders, "deadlines": due, "standins": standins}
