"""The players' profiles: the `profiles` projection of the games' ends log (finished games, wins,
seats left to the stand-in, the last finished games), and what a profile page shows
(docs/profiles.md).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils.dateparse import parse_datetime

from community.models import FinishedSeat, GameEnd, PlayerRecord, ProfileChoice
from community.projections import Projection
from players.erasure import erased_account, is_erased
from players.models import Erasure


class ProfilesProjection(Projection):
    """`profiles`: one `PlayerRecord` per player with a finished game, one `FinishedSeat` per
    seat of theirs in a finished game (every game, rated or not; bots have none)."""

    name = "profiles"
    source = GameEnd

    def handle(self, row: GameEnd) -> None:
        payload = row.payload
        ended_at = parse_datetime(payload["ended_at"])
        assert ended_at is not None  # written by `game_ends.facts` as ISO 8601
        for seat in payload["seats"]:
            if seat["player"] is None:
                continue
            # The stand-in's win is not the player's: they left the seat (docs/profiles.md).
            won = seat["colour"] == payload["winner"] and not seat["abandoned"]
            _finished(seat["player"], row.game_id, seat["colour"], ended_at, won=won, left=seat["abandoned"])
        # A player who left a seat on the way (`"left"`, ranked last by the ratings) played
        # the game too, and left it: counted as a seat left, so that the games played agree
        # with the rated games (docs/ratings.md).
        for leaver in payload.get("left", ()):
            _finished(leaver["player"], row.game_id, leaver["colour"], ended_at, won=False, left=True)

    def reset(self) -> None:
        FinishedSeat.objects.all().delete()
        PlayerRecord.objects.all().delete()

    def forget_erased(self) -> None:
        erased = Erasure.objects.values("user_id")
        FinishedSeat.objects.filter(player_id__in=erased).delete()
        PlayerRecord.objects.filter(player_id__in=erased).delete()


def _finished(player: int, game_id: int, colour: str, ended_at, *, won: bool, left: bool) -> None:
    """Count one finished game of `player` at `colour`: its `FinishedSeat` and their record."""
    FinishedSeat.objects.create(
        player_id=player, game_id=game_id, colour=colour, won=won, abandoned=left, ended_at=ended_at
    )
    PlayerRecord.objects.get_or_create(player_id=player)
    PlayerRecord.objects.filter(player_id=player).update(
        finished=F("finished") + 1, won=F("won") + int(won), abandoned=F("abandoned") + int(left)
    )


def is_hidden(player_id: int) -> bool:
    """Whether the player chose to hide their profile from strangers."""
    return ProfileChoice.objects.filter(player_id=player_id, hidden=True).exists()


class ChoiceRefused(Exception):
    """The choice is not saved: the account was erased (the message says so, for the player)."""


def set_hidden(player_id: int, hidden: bool) -> None:
    """Record the player's choice to hide their profile from strangers (or show it). Raises
    ChoiceRefused, nothing written, when the account was erased since the request read it."""
    with transaction.atomic():
        # The account locked first, as an erasure locks it before it deletes the person's
        # choice: a choice made as they are erased waits for the erasure and is refused, rather
        # than outliving it.
        get_user_model().objects.select_for_update(no_key=True).filter(pk=player_id).exists()
        if is_erased(player_id):
            raise ChoiceRefused(erased_account())
        ProfileChoice.objects.update_or_create(player_id=player_id, defaults={"hidden": hidden})


def hidden_among(player_ids) -> set[int]:
    """The accounts among `player_ids` that hide their profile from strangers (one query). For
    the game pages' links to profiles (`web.pages.seat_profiles`)."""
    ids = {pid for pid in player_ids if pid is not None}
    if not ids:
        return set()
    return set(
        ProfileChoice.objects.filter(player_id__in=ids, hidden=True).values_list("player_id", flat=True)
    )
