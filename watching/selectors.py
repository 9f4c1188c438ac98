"""Reads of following: which games may be followed, which are listed, who follows what.

A game may be followed while its table option `public` is true (docs/game-options.md). What a
follower is shown of a game is what anybody is shown: its public page (`web.pages` for colour
None, redacted until the end) and the digest (`watching.digest`).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Max
from django.utils import timezone

from games.models import Game
from watching.models import Follow

# How long a finished public game stays on the "Games to watch" list after its last event (days).
RECENTLY_FINISHED_DAYS = 14


def is_public(game: Game) -> bool:
    """Whether anyone may follow `game` now (its table option `public`)."""
    return bool((game.options or {}).get("public", False))


# How `"public": true` reads in the options' JSON text (games.store.fields.OrderedJSONField writes it
# with json.dumps' separators): a cheap filter in SQL, which `is_public` then confirms.
PUBLIC_TEXT = '"public": true'


def public_games():
    """The games that may be public (a QuerySet of Game): those whose options' text says
    `"public": true` (the options are JSON text, not queryable inside); confirm with `is_public`."""
    return Game.objects.filter(options__contains=PUBLIC_TEXT)


@dataclass(frozen=True)
class WatchList:
    """The "Games to watch": public games in progress (newest first) and those finished within
    RECENTLY_FINISHED_DAYS (most recently finished first), each with its seats prefetched."""

    in_progress: list
    finished: list


def games_to_watch(now=None) -> WatchList:
    """The public games in progress, and those finished in the last RECENTLY_FINISHED_DAYS."""
    now = now or timezone.now()
    games = (
        public_games()
        .prefetch_related("seats")
        .annotate(last_event_at=Max("events__recorded_at"))
        .order_by("-created_at", "-id")
    )
    games = [g for g in games if is_public(g)]
    in_progress = [g for g in games if g.status == Game.Status.ACTIVE]
    since = now - timedelta(days=RECENTLY_FINISHED_DAYS)
    finished = sorted(
        (
            g
            for g in games
            if g.status != Game.Status.ACTIVE and g.last_event_at is not None and g.last_event_at >= since
        ),
        key=lambda g: g.last_event_at,
        reverse=True,
    )
    return WatchList(in_progress=in_progress, finished=finished)


def followed_game_ids(user) -> set[int]:
    """Ids of the games `user` follows (empty for an anonymous visitor)."""
    if user is None or not user.is_authenticated:
        return set()
    return set(Follow.objects.filter(user=user).values_list("game_id", flat=True))


def is_following(user, game: Game) -> bool:
    """Whether `user` follows `game` (False for an anonymous visitor)."""
    return bool(
        user is not None and user.is_authenticated and Follow.objects.filter(user=user, game=game).exists()
    )
