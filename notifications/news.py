"""News emails for players who want them: at most one per seat per minute.

By default news is told only in a seat's next prompt ("What happened since your last move"). A
player whose delivery preference is EVERY also gets news emails between prompts; those are
coalesced: the lines wait as unmailed `NewsItem`s and one email carries all of a seat's lines,
no sooner than NEWS_INTERVAL after the seat's previous news email. The email is sent by the
`send_news` task, enqueued after the commit with a Celery countdown that ends when the interval
does (no sleeping); when that task is lost, or runs early (tasks run in-process without a broker,
where a countdown is not waited for), the lines stay unmailed and the next one goes out: the next
news task, the seat's next prompt (which tells them and marks them mailed), or the sweep
(`notifications.digests.due_digests` lists players with news older than the interval).
"""

from __future__ import annotations

from datetime import timedelta

from celery import shared_task
from django.db import OperationalError, transaction
from django.utils import timezone, translation

from games import rules, store
from games.models import Game, Seat
from games.play.models import SeatClock
from notifications import outbox, prompts
from notifications.models import NewsItem, Outbox
from players import preferences
from players.display_names import seat_names
from players.models import Player

# At most one news email per seat in this time.
NEWS_INTERVAL = timedelta(seconds=60)


def last_news_at(seat_id: int):
    """When the seat's last news email was written (None: never)."""
    return (
        Outbox.objects.filter(seat_id=seat_id, kind=Outbox.Kind.NEWS)
        .order_by("-created_at")
        .values_list("created_at", flat=True)
        .first()
    )


def due_at(seat_id: int, now=None):
    """The earliest time the seat's next news email may be written: now, or NEWS_INTERVAL after
    its previous one."""
    now = now or timezone.now()
    last = last_news_at(seat_id)
    return now if last is None or last + NEWS_INTERVAL <= now else last + NEWS_INTERVAL


def schedule(seat_id: int) -> None:
    """After the current transaction commits, enqueue `send_news` for the seat to run when its
    interval allows (a countdown in seconds, 0 when it may go now)."""
    countdown = max(0.0, (due_at(seat_id) - timezone.now()).total_seconds())
    transaction.on_commit(lambda: send_news_task.apply_async((seat_id,), countdown=countdown), robust=True)


def send_news(seat_id: int, now=None) -> int:
    """Write one news email with every unmailed news line of the seat, if its player still takes
    news emails and the seat's previous news email is at least NEWS_INTERVAL old; returns the
    number of lines sent (0: nothing due yet, or nothing to send, or the seat is no longer a
    player's). Idempotent: the seat's clock row is locked, and the lines are marked mailed in
    the same transaction.

    Locks the seat's game first, then reads the seat, as an erasure takes them (docs/privacy.md's
    order: the games, then the news lines): a seat read before would give an erased player's
    address to an email written after their erasure, and lines held while waiting for the game
    (the email's row names it) would be waited for by an erasure holding it (a deadlock)."""
    now = now or timezone.now()
    with transaction.atomic():
        game = Game.objects.select_for_update(of=("self",)).filter(seats__pk=seat_id).first()
        seat = Seat.objects.filter(pk=seat_id).first()
        if game is None or seat is None or seat.is_bot or not seat.email:
            return 0
        seat.game = game
        SeatClock.objects.select_for_update().filter(seat=seat).first()  # one sender at a time
        player = preferences.player_for(seat.email)
        items = list(
            NewsItem.objects.select_for_update()
            .filter(seat=seat, mailed_at__isnull=True)
            .order_by("seq", "id")
        )
        if not items:
            return 0
        if not player.news or player.delivery != Player.Delivery.EVERY:
            return 0  # the digest takes them, or nobody asked for them
        if due_at(seat.pk, now) > now:
            return 0  # a later task (or the sweep) sends them, with whatever comes meanwhile
        state, head = store.load(seat.game)
        # Whom the game waits for, by name ("Ann (blue)"); the lines were named when written.
        # A bot's seat and a departed player's are named in the reader's language.
        with translation.override(player.language or "en"):
            names = seat_names(seat.game.seats.all())
        with rules.players_named(names):
            email = prompts.news_email(
                prompts.Recipient.of(seat, player), state, lines=[item.text for item in items]
            )
        outbox.enqueue(
            kind=Outbox.Kind.NEWS, to_email=seat.email, email=email, seq=head, game=seat.game, seat=seat
        )
        NewsItem.objects.filter(pk__in=[item.pk for item in items]).update(mailed_at=now)
        return len(items)


def send_player_news(player_id: int, now=None) -> int:
    """`send_news` for every seat of the player with unmailed news; returns the lines sent."""
    player = Player.objects.filter(pk=player_id).first()
    if player is None:
        return 0
    seat_ids = set(
        NewsItem.objects.filter(seat__email__iexact=player.email, mailed_at__isnull=True).values_list(
            "seat_id", flat=True
        )
    )
    return sum(send_news(seat_id, now) for seat_id in sorted(seat_ids))


def waiting_players(now=None) -> list[int]:
    """Players taking news emails who have a news line older than NEWS_INTERVAL still unmailed
    (its task was lost, or ran before the interval ended): the sweep sends them."""
    now = now or timezone.now()
    emails = {
        e.lower()
        for e in NewsItem.objects.filter(
            mailed_at__isnull=True, created_at__lte=now - NEWS_INTERVAL
        ).values_list("seat__email", flat=True)
    }
    return list(
        Player.objects.filter(delivery=Player.Delivery.EVERY, news=True, email__in=emails).values_list(
            "pk", flat=True
        )
    )


# Errors worth another try a little later: a lost race with a concurrent command, a database blip.
TRANSIENT = (store.ConcurrencyConflict, OperationalError)


@shared_task(
    name="notifications.tasks.send_news",
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def send_news_task(seat_id: int) -> int:
    """A seat's coalesced news email, when its minute is up (`send_news`)."""
    return send_news(seat_id)
