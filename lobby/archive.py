"""The lobby's part of a person's archive (docs/privacy.md): the tables they proposed and their
places at tables (asked, joined, answered).

Registered with the lobby's personal data holder (`players.personal_data`) in
`LobbyConfig.ready()`. Only the person's own: a table they proposed says what they chose for
it, never whom they asked (the other places hold other people's addresses); a place of theirs
at another's table names the table and its game, never its host or the other players.
"""

from __future__ import annotations

from django.db.models import Q

from lobby.models import Invitation, Proposal
from players.personal_data import Person


def _when(moment) -> str | None:
    return moment.isoformat() if moment is not None else None


def collect_tables(person: Person) -> dict[str, object]:
    """`person`'s part of their archive: "tables.json", each table they proposed (its number,
    when, the set-up and options they chose, open to anyone or by invitation, its language,
    rated or not, the game it asks again, where it stands: "open", "started" (with its game's
    number), "cancelled", "closed"), and "invitations.json", each place of theirs at a table
    (the table's number and game, the place's number from 1, whether they were asked, joined
    an open table or were asked again for a rematch, their answer and when). Times in ISO 8601."""
    tables = Proposal.objects.filter(host_id=person.user_id).order_by("created_at", "id")
    mine = Q(user_id=person.user_id) | (Q(email__iexact=person.email) if person.email else Q(pk__in=[]))
    places = Invitation.objects.filter(mine, is_bot=False).select_related("proposal").order_by("proposal_id")
    return {
        "tables.json": [
            {
                "table": table.pk,
                "proposed_at": _when(table.created_at),
                "setup": table.setup,
                "options": table.options,
                "open_to_anyone": table.listed,
                "language": table.language,
                "rated": table.rated,
                "rematch_of_game": table.rematch_of_id,
                "status": table.status,
                "game": table.game_id,
            }
            for table in tables
        ],
        "invitations.json": [
            {
                "table": place.proposal_id,
                "game": place.proposal.game_id,
                "your_table": place.proposal.host_id == person.user_id,
                "place": place.position + 1,
                "how": "joined" if place.joined else "rematch" if place.from_rematch else "asked",
                "answer": place.status,
                "answered_at": _when(place.answered_at),
            }
            for place in places
        ],
    }
