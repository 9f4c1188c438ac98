"""The lobby's part of erasing a person (docs/privacy.md): their places at tables, and the tables
they host that have not started.

Registered as a personal data holder (`players.personal_data`) in `LobbyConfig.ready()`.
"""

from __future__ import annotations

from django.db.models import Q

from lobby import gathering, mail
from lobby.models import OPEN_AGAIN, Invitation, Proposal
from players.personal_data import Person


def erase_invitations(person: Person) -> None:
    """Every place `person` was asked to or took, at any table, keeps no address and no account;
    a place still waiting for their answer is declined (an empty place would read as an open
    seat). At a table no longer gathering (started, cancelled, closed) the place stays as it was
    answered and reads "Player N (left)" (`Invitation.left`), as its seat does in the game.

    At a table still gathering, their seat is given up as leaving gives it up
    (`lobby.services.table_leave`): a seat they took by joining is open again, a seat they were
    asked for is declined (the host asks somebody else; no email, which would carry the erased
    address). A table they host that has not started is cancelled, and its players are told by
    email without the host's name (`mail.send_table_cancelled`). Each table so changed gets its
    row in the gathering's log, so the open tables' list shows it. In the erasure's transaction.

    Every table it changes (that they host, or where they sit or are asked) is locked first, in
    order of number, then the gathering's log (by the first row it records): the lobby's
    order, a table (then its places), then the log (`gathering.record`). Were it to cancel a
    table they host (taking the log's lock) before locking a table where they sit or are asked,
    a player leaving that table or its host asking somebody else for their place (holding the
    table, waiting for the log) and the erasure (holding the log, waiting for that table or
    place) would wait for each other.
    """
    open_status = Proposal.Status.OPEN
    theirs = Invitation.objects.filter(Q(email__iexact=person.email) | Q(user_id=person.user_id))
    seated = theirs.filter(proposal__status=open_status, status=Invitation.Status.ACCEPTED)
    seated_at = set(seated.values_list("proposal_id", flat=True))
    asked_at = set(theirs.filter(proposal__status=open_status).values_list("proposal_id", flat=True))
    changed = Proposal.objects.filter(Q(host_id=person.user_id) | Q(pk__in=asked_at), status=open_status)
    tables = list(changed.select_for_update().order_by("pk"))
    for table in tables:
        if table.host_id == person.user_id:
            table.status = Proposal.Status.CANCELLED
            table.save(update_fields=["status"])
            gathering.record(table, "cancelled")
            mail.send_table_cancelled(table.pk, name_host=False)
    left = [table for table in tables if table.host_id != person.user_id and table.pk in seated_at]
    seated.filter(joined=True).update(**OPEN_AGAIN)
    seated.update(status=Invitation.Status.DECLINED)
    theirs.filter(status=Invitation.Status.PENDING).update(status=Invitation.Status.DECLINED)
    theirs.update(email="", user=None)
    for table in left:
        gathering.record(table, "left")
