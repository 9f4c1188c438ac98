"""The lobby's part of erasing a person (docs/privacy.md): their places at tables being gathered.

Registered as a personal data holder (`players.personal_data`) in `LobbyConfig.ready()`.
"""

from __future__ import annotations

from django.db.models import Q

from lobby.models import Invitation
from players.personal_data import Person


def erase_invitations(person: Person) -> None:
    """Every place `person` was asked to or took keeps no address and no account; a place still
    waiting for their answer is declined (an empty place would read as an open seat)."""
    theirs = Invitation.objects.filter(Q(email__iexact=person.email) | Q(user_id=person.user_id))
    theirs.filter(status=Invitation.Status.PENDING).update(status=Invitation.Status.DECLINED)
    theirs.update(email="", user=None)
