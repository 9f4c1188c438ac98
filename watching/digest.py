"""Followers' daily digests: one email a day per person, across the public games they follow.

What a digest tells of a game is what anybody may see of it (docs/spectators.md):
- the rules' events since the last digest, each as `games.store.selectors.history_entry` gives it to
  colour None (`rules.redact(event, None)`: no hand, no drawn card, no deck order), engine steps
  left out; once the game is over, everything (the fold is public then), with the seed revealed;
- the host's acts (the table log, public);
- the table talk addressed to the whole table — never a private message, whatever the game's
  option for private messages after the end — but that of a player the follower blocked
  (`players.blocks`, docs/profiles.md "Blocking a player");
- who the game waits for, as `rules.pending_for(state, None)` says it (a Triskel window that asks
  only the card holders is "possible Triskel reactions", never who was asked).

The sweep (`notifications.tasks.sweep`, every minute) asks `due_followers` and enqueues
`watching.tasks.send_follower_digest` for each; the digest goes at most once a day, from
`notifications.digests.DIGEST_HOUR` in the person's time zone (their email preferences when they
also play, else UTC), and only when something happened. It is written to the outbox
(kind FOLLOWER_DIGEST) in the transaction that moves the follows' `told_*` marks, so it is sent
once even if its task runs twice. It is written in the person's language (`Player.language` when
they also play, else English).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from email.utils import make_msgid
from urllib.parse import urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Max
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games import rules, store
from games.models import Event, Game, Seat, TableEvent
from games.store.selectors import history_entry
from games.story.event_text import describe_event, is_bookkeeping
from games.story.names import player_name
from games.story.table_events import describe_table_event
from notifications import outbox
from notifications.digests import DIGEST_HOUR
from notifications.models import Outbox
from notifications.prompts import render_email, waiting_words
from players.blocks import blocked_by
from players.display_names import seat_names_by_game
from players.models import Player
from press import selectors as press_selectors
from watching.links import unsubscribe_url
from watching.models import Follow
from watching.selectors import PUBLIC_TEXT, is_public

# The most lines of rules events one game's section tells (the latest); the earlier ones are on
# the game's history page. The host's acts and the talk to the whole table are always told.
MAX_LINES_PER_GAME = 60


@dataclass
class GameSection:
    """One followed game in a digest: its public page and history (absolute addresses), the
    lines since the last digest (plain words, as a spectator may read them, oldest first),
    how many earlier event lines were left out, whom it waits for, and — once over — the High
    King (as the table names them: "Ann (blue)") and the seed."""

    game_id: int
    page_url: str
    history_url: str
    unfollow_url: str
    lines: list = field(default_factory=list)
    more: int = 0
    waiting_for: list = field(default_factory=list)
    over: bool = False
    winner: str = ""
    seed: str = ""
    seed_commitment: str = ""


def _zone(email: str) -> ZoneInfo:
    name = Player.objects.filter(email__iexact=email.strip()).values_list("time_zone", flat=True).first()
    try:
        return ZoneInfo(name or "UTC")
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo("UTC")


def _language(email: str) -> str:
    """The language of `email`'s digest: their Player's ("en"/"fr"), English when they only watch."""
    return (
        Player.objects.filter(email__iexact=email.strip()).values_list("language", flat=True).first() or "en"
    )


def is_due(*, email: str, last_digest_at, now=None) -> bool:
    """True when a person's follower digest may go now: from DIGEST_HOUR in their time zone,
    at most once a (local) day. `last_digest_at`: their last follower digest (None: never)."""
    now = now or timezone.now()
    zone = _zone(email)
    local = now.astimezone(zone)
    if local.hour < DIGEST_HOUR:
        return False
    return last_digest_at is None or last_digest_at.astimezone(zone).date() < local.date()


def _heads(game_ids: set[int]) -> dict[int, tuple[int, int, int]]:
    """{game id: (last event seq, last table seq, last whole-table message number)}."""
    seqs = dict(
        Event.objects.filter(game_id__in=game_ids)
        .values("game_id")
        .annotate(m=Max("seq"))
        .values_list("game_id", "m")
    )
    tables = dict(
        TableEvent.objects.filter(game_id__in=game_ids)
        .values("game_id")
        .annotate(m=Max("seq"))
        .values_list("game_id", "m")
    )
    talk = press_selectors.last_numbers(game_ids, whole_table_only=True)
    return {g: (seqs.get(g) or 0, tables.get(g) or 0, talk.get(g) or 0) for g in game_ids}


def _has_news(follow: Follow, head: tuple[int, int, int]) -> bool:
    return head[0] > follow.told_seq or head[1] > follow.told_table_seq or head[2] > follow.told_press_number


def due_followers(now=None) -> list[int]:
    """Ids of the people (auth.User) whose follower digest is due now and has something to
    tell: they follow a public game with an event, a host's act or a message to the whole
    table they have not been told. A few queries, whatever the number of follows."""
    now = now or timezone.now()
    follows = [
        f
        for f in Follow.objects.select_related("user", "game").filter(game__options__contains=PUBLIC_TEXT)
        if is_public(f.game)
    ]
    heads = _heads({f.game_id for f in follows})
    by_user: dict[int, list[Follow]] = {}
    for f in follows:
        by_user.setdefault(f.user_id, []).append(f)
    due = []
    for user_id, mine in by_user.items():
        if not any(_has_news(f, heads[f.game_id]) for f in mine):
            continue
        last = max((f.last_digest_at for f in mine if f.last_digest_at), default=None)
        if is_due(email=mine[0].user.email, last_digest_at=last, now=now):
            due.append(user_id)
    return sorted(due)


def _absolute(name: str, game_id: int) -> str:
    return settings.SITE_URL + reverse(name, args=[game_id])


def game_section(follow: Follow, game: Game) -> tuple[GameSection, tuple[int, int, int]]:
    """The section of `game` for `follow`'s next digest, and the marks it tells up to
    (seq, table seq, message number). Everything in it is what colour None may see, but the
    talk of players the follower blocked."""
    complete = game.is_over
    events = []  # (rules seq it follows, order within, text)
    rows = Event.objects.filter(game=game, seq__gt=follow.told_seq).order_by("seq")
    last_seq = follow.told_seq
    for row in rows.iterator(chunk_size=500):
        last_seq = row.seq
        seen = history_entry(row, colour=None, complete=complete)
        if not is_bookkeeping(seen.type, seen.payload):
            events.append((row.seq, 0, describe_event(seen.type, seen.payload, numbered=False)))
    left_out = max(0, len(events) - MAX_LINES_PER_GAME)
    entries = events[left_out:]
    last_table = follow.told_table_seq
    for t in TableEvent.objects.filter(game=game, seq__gt=follow.told_table_seq).order_by("seq"):
        last_table = t.seq
        entries.append((t.at_seq, 1, describe_table_event(t.type, t.payload)))
    last_talk = follow.told_press_number
    blocked = blocked_by(follow.user_id)
    muted = {seat.colour for seat in game.seats.all() if seat.user_id in blocked} if blocked else set()
    # Only the messages to the whole table: a private one never reaches a follower.
    for m in press_selectors.whole_table_after(game=game, number=follow.told_press_number):
        last_talk = m.number
        # Its author erased their account (no words left to tell), or the follower blocked them.
        if m.erased or m.sender in muted:
            continue
        entries.append(
            (
                m.at_seq,
                2,
                _("{sender}, to the whole table: “{text}”").format(
                    sender=player_name(m.sender, capital=True), text=press_selectors.told(m.text)
                ),
            )
        )
    entries.sort(key=lambda e: (e[0], e[1]))
    lines = [text for _seq, _order, text in entries]
    section = GameSection(
        game_id=game.pk,
        page_url=_absolute("games:detail", game.pk),
        history_url=_absolute("games:history", game.pk),
        unfollow_url=unsubscribe_url(user_id=follow.user_id, game_id=game.pk),
        lines=lines,
        more=left_out,
        over=complete,
    )
    if complete:
        section.seed, section.seed_commitment = game.seed, game.seed_commitment
        section.winner = player_name(game.winner) if game.winner else ""
    else:
        state, _seq = store.load(game)
        section.waiting_for = waiting_words(state, None)
    return section, (last_seq, last_table, last_talk)


def _domain() -> str:
    return urlsplit(settings.SITE_URL).hostname or "localhost"


def digest_email(*, user, sections: list[GameSection]):
    """The follower digest of `user` (a `notifications.prompts.RenderedEmail`): one section per
    game, one-click unsubscribe from every followed game in List-Unsubscribe (RFC 2369 / 8058)
    and a link per game to stop following it. No Reply-To: there is nothing to answer."""
    everything = unsubscribe_url(user_id=user.pk)
    headers = {
        "Message-ID": make_msgid("inis-follow", domain=_domain()),
        "List-Unsubscribe": f"<{everything}>",
        "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        "Auto-Submitted": "auto-generated",
    }
    context = {
        "sections": sections,
        "unsubscribe_url": everything,
        "watch_url": settings.SITE_URL + reverse("watching:list"),
        "lines": sum(len(s.lines) + s.more for s in sections),
    }
    return render_email("follower_digest", context, headers=headers)


def send_follower_digest(user_id: int, now=None) -> int:
    """Write `user_id`'s follower digest to the outbox when it is due and has news; returns the
    number of lines told (0: not due, nothing new, or nobody). The person's follows are locked
    while it is written and their marks moved in the same transaction: run twice, it tells once.
    """
    now = now or timezone.now()
    user = get_user_model().objects.filter(pk=user_id).first()
    if user is None or not (user.email or "").strip():
        return 0
    with transaction.atomic():
        follows = list(Follow.objects.select_for_update().filter(user=user).order_by("game_id"))
        last = max((f.last_digest_at for f in follows if f.last_digest_at), default=None)
        if not follows or not is_due(email=user.email, last_digest_at=last, now=now):
            return 0
        games = {g.pk: g for g in Game.objects.filter(pk__in=[f.game_id for f in follows])}
        sections, told = [], []
        with translation.override(_language(user.email)):
            # Names are public at a table: the lines say "Ann (blue)" as the game's page does,
            # a bot's or a departed player's in the reader's language.
            names = seat_names_by_game(Seat.objects.filter(game_id__in=games))
            for f in follows:
                game = games[f.game_id]
                if not is_public(game):
                    continue  # made private since: followers are told nothing more
                with rules.players_named(names.get(game.pk, {})):
                    section, marks = game_section(f, game)
                told.append((f, marks))  # engine steps alone are passed over, not told tomorrow
                if section.lines or section.more:
                    sections.append(section)
            email = digest_email(user=user, sections=sections) if sections else None
        for f, (seq, table_seq, number) in told:
            f.told_seq, f.told_table_seq, f.told_press_number = seq, table_seq, number
        if email is not None:
            outbox.enqueue(kind=Outbox.Kind.FOLLOWER_DIGEST, to_email=user.email, email=email, seq=0)
            for f in follows:
                f.last_digest_at = now
        Follow.objects.bulk_update(
            follows, ["told_seq", "told_table_seq", "told_press_number", "last_digest_at"]
        )
        return sum(len(s.lines) + s.more for s in sections)
