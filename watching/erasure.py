"""The spectators' part of a person's data (docs/privacy.md): the public games they follow.

Registered as a personal data holder (`players.personal_data`) in `WatchingConfig.ready()`.
Erasing them deletes their follows (the account stays, emptied: its rows would otherwise keep
it following); their archive lists the games they follow.
"""

from __future__ import annotations

from players.personal_data import Person
from watching.models import Follow


def erase_follows(person: Person) -> None:
    """Delete every follow of `person`'s account, in the caller's transaction."""
    Follow.objects.filter(user_id=person.user_id).delete()


def collect_follows(person: Person) -> dict[str, object]:
    """`person`'s part of their archive: "follows.json", each game they follow (its number) and
    since when."""
    follows = Follow.objects.filter(user_id=person.user_id).order_by("created_at", "id")
    return {"follows.json": [{"game": f.game_id, "since": f.created_at.isoformat()} for f in follows]}
