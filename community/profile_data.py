"""The community room's part of a person's archive besides their reports (docs/privacy.md):
what they chose about their profile page (`community.models.ProfileChoice`).

Registered as a personal data holder (`players.personal_data`) in `CommunityConfig.ready()`;
erasing the person deletes the choice with their other profile rows (`community.erasure`).
"""

from __future__ import annotations

from community.models import ProfileChoice
from players.personal_data import Person


def collect_profile_choice(person: Person) -> dict[str, object]:
    """`person`'s part of their archive: "profile.json", {"hidden": whether strangers (anyone
    who never sat at a game with them) are not shown their profile page} (false when they never
    chose: the default)."""
    hidden = ProfileChoice.objects.filter(player_id=person.user_id).values_list("hidden", flat=True).first()
    return {"profile.json": {"hidden": bool(hidden)}}
