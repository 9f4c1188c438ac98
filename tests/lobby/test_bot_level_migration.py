"""Migration lobby 0010: the tables proposed before the bots' level was kept with the table keep
the level of their first bot, so that filling their open seats later plays as the host chose."""

from __future__ import annotations

import pytest

from lobby.models import Proposal
from tests.migrating import migrate_to, migrate_to_latest


@pytest.mark.django_db(transaction=True)
def test_a_table_proposed_with_easy_bots_fills_its_open_seats_with_easy_bots_after_the_migration():
    old = migrate_to([("lobby", "0009_proposal_listed_at")])
    User = old.get_model("auth", "User")
    OldProposal, OldInvitation = old.get_model("lobby", "Proposal"), old.get_model("lobby", "Invitation")
    host = User.objects.create(username="host", email="host@example.org")
    with_bots = OldProposal.objects.create(host=host, listed=True)
    OldInvitation.objects.create(proposal=with_bots, position=0, email="host@example.org", status="accepted")
    OldInvitation.objects.create(
        proposal=with_bots, position=1, is_bot=True, bot_level="easy", status="accepted"
    )
    OldInvitation.objects.create(proposal=with_bots, position=2)  # an open seat
    without = OldProposal.objects.create(host=host, listed=True)
    migrate_to_latest()
    assert Proposal.objects.get(pk=with_bots.pk).bot_level == "easy"
    assert Proposal.objects.get(pk=without.pk).bot_level == "hard"
