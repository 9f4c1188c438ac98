"""The read models' part of erasing a person (docs/privacy.md): their rows go, their name leaves
the open tables they host. The ratings and profiles of an erased account are left out when read
(`community.ratings.leaderboard`, `community.profile_page.profile`), so a rebuild of the
projections, which folds the games' ends again, shows them to nobody either; their games still
count in the other players' ratings.

Registered as a personal data holder (`players.personal_data`) in `CommunityConfig.ready()`.
"""

from __future__ import annotations

from community.models import FinishedSeat, OpenTable, PlayerRating, PlayerRecord, ProfileChoice
from players.personal_data import Person


def erase_read_models(person: Person) -> None:
    """Delete the read models' rows of `person`'s account and empty the host's name of the open
    tables they host, in the caller's transaction."""
    for model in (PlayerRating, PlayerRecord, FinishedSeat, ProfileChoice):
        model.objects.filter(player_id=person.user_id).delete()
    OpenTable.objects.filter(host_id=person.user_id).update(host_name="")
