"""What a player's profile page shows (docs/profiles.md): the projections' figures (finished
games, wins, seats left to the stand-in, the last finished games, the rating) and, read from the
seats at the request, the games in progress and the answer-time figures.

Public facts only: the name players read, never an address; a game in progress is listed only
when it is public (its table option `public`, docs/spectators.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.db.models import Count, Q

from community.models import FinishedSeat, PlayerRecord
from community.profiles import is_hidden
from community.ratings import Rating, rating_of
from games.models import Command, Game
from games.play.answer_times import median_for_address
from games.play.departures import holdings, seats_held
from players.display_names import public_name
from players.email_addresses import canonical_address
from players.erasure import is_erased
from players.models import Player
from players.personal_data import Person

# Finished games listed on a profile.
LAST_FINISHED = 10
# Idempotency-key prefixes: the player answered; the deadline or the stand-in did
# (`games.play.answer_times.PLAYER_CHANNELS`, `games.play.clocks.PROXY_PREFIXES`).
ANSWERED = ("email:", "web:")
NOT_ANSWERED = ("deadline:", "standin:")


@dataclass(frozen=True)
class Profile:
    """One player's page. median_seconds: their median answer time (None: no answer yet);
    answered_share: the share (0 to 1) of their decisions they answered before the deadline,
    None before any; rating: None before their first rated game."""

    player_id: int
    name: str
    language: str
    played: int
    finished: int
    won: int
    abandoned: int
    rating: Rating | None
    median_seconds: float | None
    answered_share: float | None
    in_progress: list[Game]
    last_finished: list[FinishedSeat]
    hidden: bool


def strangers(viewer_id: int | None, player_id: int) -> bool:
    """Whether the viewer (None: a visitor) never sat at a game with the player (the player is
    no stranger to themselves): neither held one of its seats while the other held another, or
    before or after, a seat given to somebody else since still counting for its players one
    after another (`games.play.departures.seats_held`). A few queries."""
    if viewer_id == player_id:
        return False
    if viewer_id is None:
        return True
    viewer_games = seats_held(_person(viewer_id)).values("game_id")
    return not seats_held(_person(player_id)).filter(game_id__in=viewer_games).exists()


def _person(user_id: int) -> Person:
    """The account `user_id` as `games.play.departures` reads a player (its address "" when the
    account was erased or is gone)."""
    email = get_user_model().objects.filter(pk=user_id).values_list("email", flat=True).first()
    return Person(user_id=user_id, email=email or "")


def no_such_player(viewer_id: int | None, player_id: int) -> bool:
    """Whether the account `player_id` is, for the viewer (None: a visitor), "no such player":
    it never was, was deleted, was erased by its owner (docs/privacy.md), or hides its profile
    from this stranger (docs/profiles.md). One answer for all four, so that blocking or
    reporting tells nobody more than the profile page does."""
    if not get_user_model().objects.filter(pk=player_id).exists() or is_erased(player_id):
        return True
    return is_hidden(player_id) and strangers(viewer_id, player_id)


def answered_share(player_id: int, email: str = "") -> float | None:
    """The share of the player's decisions they answered themselves (by email or on the web),
    out of those and the ones the deadline or the stand-in settled; None when there are none.
    Standing orders and moves with one way to go count neither way. The decisions are those of
    their time at each seat (`games.play.departures.holdings`): a seat that changed hands gives
    each of its players their own, never the previous or next player's. `email`: their address,
    for the seats held by address. Three queries and the holdings' traces."""
    held = holdings(Person(user_id=player_id, email=email))
    theirs = Q(pk__in=[])
    for seat, holding in held:
        for since, until in holding.spans:
            span = Q(seat_id=seat.pk)
            if since is not None:
                span &= Q(accepted_at__gt=since)
            if until is not None:
                span &= Q(accepted_at__lte=until)
            theirs |= span
    counts = Command.objects.filter(theirs).aggregate(
        answered=Count("pk", filter=_prefixed(ANSWERED)), missed=Count("pk", filter=_prefixed(NOT_ANSWERED))
    )
    answered, missed = counts["answered"], counts["missed"]
    return answered / (answered + missed) if answered + missed else None


def _prefixed(prefixes: tuple[str, ...]) -> Q:
    query = Q()
    for prefix in prefixes:
        query |= Q(command_id__startswith=prefix)
    return query


def profile(player_id: int) -> Profile | None:
    """The profile of the account `player_id`, or None when there is no such account (never
    was, deleted, or erased by its owner: docs/privacy.md)."""
    email = get_user_model().objects.filter(pk=player_id).values_list("email", flat=True).first()
    if email is None or is_erased(player_id):
        return None
    record = PlayerRecord.objects.filter(player_id=player_id).first()
    running = [
        game
        for game in Game.objects.filter(seats__user_id=player_id, status=Game.Status.ACTIVE).distinct()
        if (game.options or {}).get("public")
    ]
    active = Game.objects.filter(seats__user_id=player_id, status=Game.Status.ACTIVE).distinct().count()
    finished = record.finished if record else 0
    return Profile(
        player_id=player_id,
        name=public_name(email),
        language=_language(email),
        played=finished + active,
        finished=finished,
        won=record.won if record else 0,
        abandoned=record.abandoned if record else 0,
        rating=rating_of(player_id),
        median_seconds=median_for_address(email) if email else None,
        answered_share=answered_share(player_id, email),
        in_progress=running,
        last_finished=list(
            FinishedSeat.objects.filter(player_id=player_id).order_by("-ended_at")[:LAST_FINISHED]
        ),
        hidden=is_hidden(player_id),
    )


def _language(email: str) -> str:
    """The player's language ("en", "fr"): their preference, English when they have none (read
    only: a profile page writes nothing)."""
    found = Player.objects.filter(email=canonical_address(email)).values_list("language", flat=True).first()
    return found or Player.Language.EN
