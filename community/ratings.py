"""The players' ratings: openskill's Plackett-Luce model over the rated games' ends, in the order
they ended (docs/ratings.md).

`rate` is the pure function: the ratings before a game and its result in, the ratings after out.
`RatingsProjection` (`ratings`) folds the games' ends log (`community.models.GameEnd`) with it, so
the ratings are a pure function of the finished games in their order, and a rebuild gives the
same figures as the feeds (tests/community/test_ratings.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from django.db.models import QuerySet
from openskill.models import PlackettLuce

from community.models import GameEnd, PlayerRating, ProfileChoice
from community.projections import Projection
from players.models import Erasure

# The scale: openskill's defaults (mu 25, sigma 25/3, beta 25/6, tau 25/300) times 60, so that a
# new player's estimate is 1,500 and the figure shown (mu - 3 sigma) starts at 0.
SCALE = 60
MU = 25 * SCALE
SIGMA = 25 / 3 * SCALE
BETA = 25 / 6 * SCALE
TAU = 25 / 300 * SCALE
MODEL = PlackettLuce(mu=MU, sigma=SIGMA, beta=BETA, tau=TAU)

# Rated games before a rating stops being provisional; the leaderboard shows only those.
PROVISIONAL_GAMES = 5


@dataclass(frozen=True)
class Rating:
    """One player's estimate `mu` and its uncertainty `sigma` (points), and rated `games`."""

    mu: float = MU
    sigma: float = SIGMA
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The conservative figure shown: mu - 3 sigma (the player is better than this with
        about 99.7% confidence)."""
        return self.mu - 3 * self.sigma

    @property
    def provisional(self) -> bool:
        return self.games < PROVISIONAL_GAMES


def ranks(payload: Mapping) -> dict[int, int]:
    """{account id: rank (1 first)} of the human seats of an ended game (`GameEnd.payload`):
    the winner first, the other players tied second, a seat left to the stand-in for good last
    (third), even when its stand-in won, and so a player who left a seat on the way (`"left"`:
    their own seat given up, or given away by the host while they were absent).
    Bot seats are not rated. Empty for an unrated game."""
    if not payload.get("rated"):
        return {}
    placed = {}
    for seat in payload["seats"]:
        if seat["player"] is None:
            continue
        if seat["abandoned"]:
            placed[seat["player"]] = 3
        else:
            placed[seat["player"]] = 1 if seat["colour"] == payload["winner"] else 2
    for leaver in payload.get("left", ()):
        placed.setdefault(leaver["player"], 3)
    return placed


def rate(before: Mapping[int, Rating], placed: Mapping[int, int]) -> dict[int, Rating]:
    """The ratings after one game of the players `placed` ({account id: rank}, `ranks`), from
    their ratings `before` (a player missing there is new). Pure: the same input gives the same
    output. Fewer than two players: no change ({})."""
    if len(placed) < 2:
        return {}
    players = sorted(placed)
    old = [before.get(player, Rating()) for player in players]
    teams = [[MODEL.rating(mu=rating.mu, sigma=rating.sigma)] for rating in old]
    rated = MODEL.rate(teams, ranks=[placed[player] for player in players])
    return {
        player: Rating(mu=team[0].mu, sigma=team[0].sigma, games=previous.games + 1)
        for player, team, previous in zip(players, rated, old)
    }


class RatingsProjection(Projection):
    """`ratings`: one `PlayerRating` row per player with a rated game."""

    name = "ratings"
    source = GameEnd

    def handle(self, row: GameEnd) -> None:
        self.handle_batch([row])

    def handle_batch(self, rows: list[GameEnd]) -> None:
        """Fold `rows` in order in memory, from the ratings of their players read in one
        query, and write the changed ratings in one statement (an upsert)."""
        games = [placed for placed in (ranks(row.payload) for row in rows) if len(placed) >= 2]
        if not games:
            return
        players = {player for placed in games for player in placed}
        current = {
            found.player_id: Rating(found.mu, found.sigma, found.games)
            for found in PlayerRating.objects.filter(player_id__in=list(players))
        }
        for placed in games:
            current.update(rate(current, placed))
        PlayerRating.objects.bulk_create(
            [
                PlayerRating(player_id=player, mu=r.mu, sigma=r.sigma, games=r.games, ordinal=r.ordinal)
                for player, r in current.items()
                if player in players
            ],
            update_conflicts=True,
            unique_fields=["player_id"],
            update_fields=["mu", "sigma", "games", "ordinal"],
        )

    def reset(self) -> None:
        PlayerRating.objects.all().delete()

    def forget_erased(self) -> None:
        # Kept while the log is folded: an erased player's rating weighs in the other players'
        # ratings in their games together (docs/privacy.md).
        PlayerRating.objects.filter(player_id__in=Erasure.objects.values("user_id")).delete()


def rating_of(player_id: int) -> Rating | None:
    """The rating of the account `player_id`, or None before its first rated game."""
    found = PlayerRating.objects.filter(player_id=player_id).first()
    return None if found is None else Rating(found.mu, found.sigma, found.games)


def leaderboard(limit: int = 100) -> QuerySet[PlayerRating]:
    """The `limit` first players with PROVISIONAL_GAMES rated games or more, the highest figure
    first; erased accounts and players who hide their profile from strangers are left out
    before the limit (an erased account's games still count in the others' ratings:
    docs/privacy.md)."""
    return (
        PlayerRating.objects.filter(games__gte=PROVISIONAL_GAMES)
        .exclude(player_id__in=Erasure.objects.values("user_id"))
        .exclude(player_id__in=ProfileChoice.objects.filter(hidden=True).values("player_id"))
        .order_by("-ordinal", "player_id")[:limit]
    )
