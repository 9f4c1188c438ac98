"""Daily digests: a player who chose them gets their news once a day, from DIGEST_HOUR in their
time zone, one email for all their games; the sweep finds who is due (`due_digests`) and
enqueues `send_digest_task` (its name is the one it had: queued tasks carry it)."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from celery import shared_task
from django.db import OperationalError, transaction
from django.utils import timezone

from games import store
from games.store.selectors import log_fingerprint
from notifications import news, outbox, prompts
from notifications.models import NewsItem, Outbox
from players.models import Player

# The hour (in the player's time zone) from which the day's digest goes out.
DIGEST_HOUR = 7

# Errors worth another try a little later: a lost race with a concurrent command, a database blip.
TRANSIENT = (store.ConcurrencyConflict, OperationalError)


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
    returns the number of lines sent (0: nothing due, or the player's account was erased since
    the sweep found it due: their preferences are gone). For a player who takes news emails
    (delivery EVERY), the news emails whose task was lost or came early instead
    (`notifications.news.send_player_news`)."""
    if Player.objects.filter(pk=player_id, delivery=Player.Delivery.EVERY).exists():
        return news.send_player_news(player_id)
    with transaction.atomic():
        player = Player.objects.select_for_update().filter(pk=player_id).first()
        if (
            player is None
            or not player.news
            or player.delivery != Player.Delivery.DIGEST
            or not digest_due(player)
        ):
            return 0
        items = list(
            NewsItem.objects.select_for_update()
            .select_related("seat")
            .filter(seat__email__iexact=player.email, mailed_at__isnull=True)
            .order_by("game_id", "seq", "id")
        )
        if not items:
            return 0
        sections: dict[int, prompts.DigestSection] = {}
        for item in items:
            section = sections.get(item.game_id)
            if section is None:
                section = sections[item.game_id] = prompts.DigestSection(
                    game_id=item.game_id,
                    colour=item.seat.colour,
                    seat_url=prompts.seat_url(item.game_id, item.seat_id, item.seat.token),
                    lines=[],
                    fingerprint=log_fingerprint(game_id=item.game_id),
                )
            section.lines.append(item.text)
        email = prompts.digest_email(
            email=player.email,
            player_id=player.pk,
            sections=list(sections.values()),
            language=player.language,
        )
        outbox.enqueue(kind=Outbox.Kind.DIGEST, to_email=player.email, email=email, seq=0)
        now = timezone.now()
        NewsItem.objects.filter(pk__in=[i.pk for i in items]).update(mailed_at=now)
        player.last_digest_at = now
        player.save(update_fields=["last_digest_at"])
        return len(items)


def due_digests(now=None) -> list[int]:
    """Ids of the players whose digest is due now (`digest_due`), then those taking news emails
    whose news has waited longer than `news.NEWS_INTERVAL` (`send_digest` sends those too)."""
    now = now or timezone.now()
    emails = {
        e.lower()
        for e in NewsItem.objects.filter(mailed_at__isnull=True).values_list("seat__email", flat=True)
    }
    digests = [
        p.pk
        for p in Player.objects.filter(delivery=Player.Delivery.DIGEST, news=True, email__in=emails)
        if digest_due(p, now)
    ]
    # News emails whose coalescing task was lost (or ran before its minute was up) go this way.
    digests += news.waiting_players(now)
    return digests


@shared_task(
    name="notifications.tasks.send_digest",
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def send_digest_task(player_id: int) -> int:
    """A player's daily digest (`send_digest`)."""
    return send_digest(player_id)
