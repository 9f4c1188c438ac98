"""Time-driven work on seats: reminders, deadline defaults, the stand-in bot, daily digests.

The periodic sweep (`notifications.tasks.sweep`, run by Celery beat) finds what is due and enqueues
one small task per item; each function here is such a task's body and is idempotent: it checks
again, under the game's row lock, that the item is still due, and the commands it sends carry an
idempotency key (`deadline:<colour>:<seq>`, `standin:<colour>:<seq>`), so a task run twice acts once.

Lock order, as in `games.store.append`: the game's row first, then seat clocks, so these never
deadlock with a command being appended.
"""
from __future__ import annotations

import logging
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

from django.db import transaction
from django.db.models import F
from django.dispatch import receiver
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games import rules, store
from games.bots import bot_rng
from games.models import Game, Seat
from games.services import submit_command
from games.store.selectors import log_fingerprint
from notifications import deadlines, outbox, prompts
from notifications.models import NewsItem, Outbox, SeatClock
from players import preferences
from players.models import Player
from players.signals import preferences_saved

logger = logging.getLogger(__name__)

# Stand-in commands per task run (a long run is cut into several tasks, as games.tasks does).
STANDIN_COMMANDS_PER_TASK = 200
# The hour (in the player's time zone) from which the day's digest goes out.
DIGEST_HOUR = 7


def _lock_game(game_id: int) -> Game:
    return Game.objects.select_for_update().get(pk=game_id)


def schedule(clock: SeatClock, game, player: Player, now: datetime | None = None) -> bool:
    """Set `clock`'s deadline and reminder time (not saved) from its decision, the game's
    options and the player's vacation, as of `now`; True when they changed. A closed clock or a
    stood-in seat has none."""
    before = (clock.deadline, clock.remind_at)
    if clock.seq is None or clock.stand_in or clock.opened_at is None:
        clock.deadline = clock.remind_at = None
    else:
        clock.deadline = deadlines.deadline(
            options=game.options or {}, kind=clock.kind, colour=clock.seat.colour, since_seq=clock.seq,
            opened_at=clock.opened_at, now=now or timezone.now(), away=preferences.vacation(player))
        clock.remind_at = deadlines.remind_at(clock.opened_at, clock.deadline) if clock.deadline else None
    return (clock.deadline, clock.remind_at) != before


def reschedule(player: Player) -> int:
    """Recompute the deadlines of every open decision of the player's seats (after a vacation
    change); returns how many clocks changed."""
    changed = 0
    clocks = (SeatClock.objects.select_for_update().select_related("game", "seat")
              .filter(seat__email__iexact=player.email, seq__isnull=False, stand_in=False))
    for clock in clocks:
        if schedule(clock, clock.game, player):
            clock.save(update_fields=["deadline", "remind_at"])
            changed += 1
    return changed


@receiver(preferences_saved, dispatch_uid="notifications.clocks.reschedule")
def _preferences_saved(sender, *, player: Player, **kwargs) -> None:
    """A player's preferences were saved (their vacation may have moved): move their deadlines,
    in the same transaction."""
    reschedule(player)


def send_reminder(clock_id: int, seq: int) -> bool:
    """Enqueue the reminder of the decision `seq` of the clock `clock_id`, once; True when sent
    now. Nothing when the decision has moved on, the reminder went already, or the game is over."""
    clock = SeatClock.objects.filter(pk=clock_id).select_related("seat").first()
    if clock is None:
        return False
    with transaction.atomic():
        game = _lock_game(clock.game_id)
        clock = SeatClock.objects.select_for_update().select_related("seat").get(pk=clock_id)
        if clock.seq != seq or clock.reminded or clock.stand_in or game.is_over:
            return False
        state, head = store.load(game)
        player = preferences.player_for(clock.seat.email)
        email = prompts.reminder_email(prompts.Recipient.of(clock.seat, player), state,
                                       deadline=clock.deadline, decision_seq=clock.seq)
        outbox.enqueue(kind=Outbox.Kind.REMINDER, to_email=clock.seat.email, email=email, seq=head,
                       game=game, seat=clock.seat, decision_seq=clock.seq)
        clock.reminded = True
        clock.save(update_fields=["reminded"])
    return True


def apply_deadline(clock_id: int, seq: int) -> str | None:
    """Play the documented default (docs/deadlines.md) for the clock's decision `seq` when its
    deadline has passed, through `submit_command`; count the miss, and hand the seat to the bot
    after `deadlines.MISSES_BEFORE_STAND_IN` misses in a row. Returns the description of what was
    played, or None when nothing was due (the decision moved on, the deadline moved, twice run)."""
    clock = SeatClock.objects.filter(pk=clock_id).first()
    if clock is None:
        return None
    with transaction.atomic():
        game = _lock_game(clock.game_id)
        clock = SeatClock.objects.select_for_update().select_related("seat").get(pk=clock_id)
        now = timezone.now()
        seat = clock.seat
        if clock.seq != seq or clock.stand_in or seat.is_bot or game.is_over:
            return None
        schedule(clock, game, preferences.player_for(seat.email), now)
        if clock.deadline is None or clock.deadline > now:  # moved meanwhile (host, vacation)
            clock.save(update_fields=["deadline", "remind_at"])
            return None
        state, head = store.load(game)
        if not any(d.seat == seat.colour for d in rules.pending(state)):
            return None
        command = deadlines.default_command(state, seat.colour, clock.kind,
                                            rules.rng_for(f"{game.seed}:deadline:{seat.colour}", head))
        result = submit_command(game=game, seat=seat, command=command, expected_seq=head,
                                command_id=f"deadline:{seat.colour}:{seq}")
        if not result.accepted or result.duplicate:
            logger.warning("%s: the deadline default for %s was not played: %s", game, seat.colour, result.message)
            return None
        SeatClock.objects.filter(pk=clock_id).update(missed_in_row=F("missed_in_row") + 1)
        clock.refresh_from_db()
        if clock.missed_in_row >= deadlines.MISSES_BEFORE_STAND_IN and not clock.stand_in:
            _stand_in(game, clock)
        return result.message


def _stand_in(game: Game, clock: SeatClock) -> None:
    """Hand the seat to the bot (inside the caller's transaction) and tell the player."""
    clock.stand_in = True
    clock.deadline = clock.remind_at = None
    clock.save(update_fields=["stand_in", "deadline", "remind_at"])
    seat = clock.seat
    player = preferences.player_for(seat.email)
    state, head = store.load(game)
    with translation.override(player.language or "en"):
        message = _("You let {count} deadlines in a row run out, so a bot now plays {colour} for you "
                    "and the game goes on. To take your seat back, reply to this email (any text), or "
                    "play a move on your page: the bot stops at once.").format(
            count=clock.missed_in_row, colour=rules.colour_name(seat.colour))
        email = prompts.notice_email(prompts.Recipient.of(seat, player), state, message=message,
                                     decision_seq=head, about=_("a bot now plays for you"))
    outbox.enqueue(kind=Outbox.Kind.NOTICE, to_email=seat.email, email=email, seq=head, game=game, seat=seat)
    from notifications.tasks import play_standins  # tasks import this module

    game_id = game.pk
    transaction.on_commit(lambda: play_standins.delay(game_id), robust=True)


def come_back(clock: SeatClock) -> bool:
    """The player of a stood-in seat is back (a reply of theirs arrived): the bot stops, missed
    deadlines are forgotten, and an open decision gets a fresh deadline. Call inside a transaction
    holding the game's lock; returns True when the seat was stood in."""
    was = clock.stand_in
    clock.stand_in = False
    clock.missed_in_row = 0
    if was and clock.seq is not None:
        clock.opened_at = timezone.now()
        clock.reminded = False
        schedule(clock, clock.game, preferences.player_for(clock.seat.email))
    clock.save()
    return was


def play_standins(game_id: int) -> int:
    """Play the pending decisions of the game's stood-in seats with the bot (`rules.bot_command`)
    until none waits, at most STANDIN_COMMANDS_PER_TASK commands (then it enqueues itself again).
    Returns the commands accepted."""
    accepted = 0
    while accepted < STANDIN_COMMANDS_PER_TASK:
        with transaction.atomic():
            game = _lock_game(game_id)
            if game.is_over:
                return accepted
            state, head = store.load(game)
            waiting = {d.seat for d in rules.pending(state)}
            clock = (SeatClock.objects.select_related("seat")
                     .filter(game=game, stand_in=True, seat__colour__in=waiting).order_by("seat__position").first())
            if clock is None:
                return accepted
            seat: Seat = clock.seat
            command = rules.bot_command(state, seat.colour, bot_rng(game, seat.colour, head))
            result = submit_command(game=game, seat=seat, command=command, expected_seq=head,
                                    command_id=f"standin:{seat.colour}:{head}")
            if not result.accepted:
                logger.error("%s: the stand-in's command for %s was refused: %s", game, seat.colour, result.message)
                return accepted
            accepted += 0 if result.duplicate else 1
    from notifications.tasks import play_standins as task

    task.delay(game_id)
    return accepted


def digest_due(player: Player, now=None) -> bool:
    """True when the player's digest may go now: from DIGEST_HOUR in their time zone, once a day."""
    now = now or timezone.now()
    try:
        zone = ZoneInfo(player.time_zone)
    except Exception:  # a zone removed from the system's database: fall back rather than never send
        zone = ZoneInfo("UTC")
    local = now.astimezone(zone)
    if local.hour < DIGEST_HOUR:
        return False
    return player.last_digest_at is None or player.last_digest_at.astimezone(zone).date() < local.date()


def send_digest(player_id: int) -> int:
    """Enqueue the player's digest of unmailed news (one email for all their games) when due;
    returns the number of lines sent (0: nothing due). For a player who takes news emails
    (delivery EVERY), the news emails whose task was lost or came early instead
    (`notifications.news.send_player_news`)."""
    from notifications import news  # news sends through prompts and outbox, as this module

    if Player.objects.filter(pk=player_id, delivery=Player.Delivery.EVERY).exists():
        return news.send_player_news(player_id)
    with transaction.atomic():
        player = Player.objects.select_for_update().get(pk=player_id)
        if not player.news or player.delivery != Player.Delivery.DIGEST or not digest_due(player):
            return 0
        items = list(NewsItem.objects.select_for_update().select_related("seat")
                     .filter(seat__email__iexact=player.email, mailed_at__isnull=True).order_by("game_id", "seq", "id"))
        if not items:
            return 0
        sections: dict[int, prompts.DigestSection] = {}
        for item in items:
            section = sections.get(item.game_id)
            if section is None:
                section = sections[item.game_id] = prompts.DigestSection(
                    game_id=item.game_id, colour=item.seat.colour,
                    seat_url=prompts.seat_url(item.game_id, item.seat_id, item.seat.token), lines=[],
                    fingerprint=log_fingerprint(game_id=item.game_id))
            section.lines.append(item.text)
        email = prompts.digest_email(email=player.email, player_id=player.pk, sections=list(sections.values()),
                                     language=player.language)
        outbox.enqueue(kind=Outbox.Kind.DIGEST, to_email=player.email, email=email, seq=0)
        now = timezone.now()
        NewsItem.objects.filter(pk__in=[i.pk for i in items]).update(mailed_at=now)
        player.last_digest_at = now
        player.save(update_fields=["last_digest_at"])
        return len(items)


def due_work(now=None) -> dict:
    """What the sweep should enqueue now: {"reminders": [(clock id, seq)], "deadlines": [...],
    "standins": [game ids], "digests": [player ids]} ("digests" also lists the players taking
    news emails whose news has waited longer than `news.NEWS_INTERVAL`: `send_digest` sends
    those).

    Every open clock's deadline is computed again here (the host may have extended it or paused
    the game, the player may have left on vacation) and saved when it moved: one pass over the
    open decisions of active games, a handful per game.
    """
    now = now or timezone.now()
    open_clocks = list(SeatClock.objects.select_related("game", "seat").filter(
        seq__isnull=False, stand_in=False, seat__is_bot=False, game__status=Game.Status.ACTIVE))
    prefs = {p.email: p for p in Player.objects.filter(
        email__in={c.seat.email.strip().lower() for c in open_clocks})}
    reminders, due = [], []
    for clock in open_clocks:
        email = clock.seat.email.strip().lower()
        if schedule(clock, clock.game, prefs.get(email) or Player(email=email), now):
            clock.save(update_fields=["deadline", "remind_at"])
        if clock.deadline is not None and clock.deadline <= now:
            due.append((clock.pk, clock.seq))
        elif clock.remind_at is not None and not clock.reminded and clock.remind_at <= now:
            reminders.append((clock.pk, clock.seq))
    standins = sorted(set(SeatClock.objects.filter(stand_in=True, seq__isnull=False, seat__is_bot=False,
                                                   game__status=Game.Status.ACTIVE)
                          .values_list("game_id", flat=True)))
    emails = {e.lower() for e in NewsItem.objects.filter(mailed_at__isnull=True).values_list("seat__email", flat=True)}
    digests = [p.pk for p in Player.objects.filter(delivery=Player.Delivery.DIGEST, news=True, email__in=emails)
               if digest_due(p, now)]
    from notifications import news

    # News emails whose coalescing task was lost (or ran before its minute was up) go this way.
    digests += news.waiting_players(now)
    return {"reminders": reminders, "deadlines": due, "standins": standins, "digests": digests}


def stale_inbound_ids(*, older_than_seconds: int) -> list[int]:
    """Inbound emails received but not processed after `older_than_seconds` (their task was lost)."""
    from notifications.models import InboundEmail

    cutoff = timezone.now() - timedelta(seconds=older_than_seconds)
    return list(InboundEmail.objects.filter(status=InboundEmail.Status.RECEIVED, received_at__lt=cutoff)
                .values_list("pk", flat=True))
