"""`rematch` from a mail client that sends HTML only (docs/email-commands.md, "Several commands in
one reply" and "Playing again: `rematch`"): the reply is read as the text it shows, as a reply
with a text part is."""

from __future__ import annotations

import pytest

from lobby.models import Invitation, Proposal
from tests.community.test_open_tables import last_to
from tests.lobby.test_rematch import finished, game_over_to
from tests.notifications import mail_clients
from tests.notifications.grace import after_the_grace
from tests.notifications.test_inbound import feed

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_rematch_from_an_html_only_mail_client_is_read():
    game = finished("by-html")
    after_the_grace()
    blue, orange = game.seats.get(colour="blue"), game.seats.get(colour="orange")
    feed(mail_clients.html_only(game_over_to(blue.email), "Rematch", sender=blue.email))
    table = Proposal.objects.get(rematch_of=game)
    assert table.host_id == blue.user_id
    assert last_to(blue.email).subject == "Your rematch of Inis"
    # Outlook's Word HTML, with its <style> block, too.
    feed(mail_clients.outlook_word_html(game_over_to(orange.email), "rematch", sender=orange.email))
    assert table.invitations.get(user=orange.user).status == Invitation.Status.ACCEPTED
    assert "You have a seat at the rematch." in last_to(orange.email).body
