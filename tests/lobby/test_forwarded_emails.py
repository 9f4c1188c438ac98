"""What a forwarded email gives away (docs/security.md, "Accounts and links"): only the sign-in
email signs in the whole account. The game started and a seat given carry the seat's link (that
seat's page, nobody signed in); an invitation, a link that answers that invitation only; the
host's notices, the plain address of a page that asks a visitor to sign in; the answer to "my
data", a link that downloads the archive and nothing else."""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from games.play import table
from lobby import mail as lobby_mail
from lobby import services
from players.accounts import user_for_email

# Real commits: the lobby's emails are delivered after the commit.
pytestmark = pytest.mark.django_db(transaction=True)


def link_in(message) -> str:
    """The path (and query) of the first link to this site in an email's text part."""
    found = re.search(r"https?://[^/\s]+(/\S*)", message.body)
    assert found, message.body
    return found[1]


def to(address: str, subject_start: str):
    """The last email to `address` whose subject starts so."""
    return [m for m in mail.outbox if m.to == [address] and m.subject.startswith(subject_start)][-1]


def propose(host, *emails, bots=0):
    places = [services.PlaceSpec(email=e) for e in emails] + [services.PlaceSpec(is_bot=True)] * bots
    return services.proposal_create(
        host=host,
        places=places,
        host_plays=True,
        setup="random",
        deadlines={"default": 24, "reaction": 6},
        reaction_mode="holders",
    )


@pytest.fixture
def host(transactional_db):
    return user_for_email("host@example.org")


@pytest.fixture
def started(host):
    """A game of the host, Ann and a bot, Ann having accepted: (game, Ann's "Game started")."""
    proposal = propose(host, "ann@example.org", bots=1)
    ann = user_for_email("ann@example.org")
    services.invitation_answer(invitation=proposal.invitations.get(user=ann), user=ann, accept=True)
    proposal.refresh_from_db()
    return proposal.game, to("ann@example.org", "Game started")


def assert_signs_nobody_in(client: Client, settings) -> None:
    """`client` is a visitor: the welcome page, no chat target set, no data downloaded."""
    home = client.get("/").content.decode()
    assert "My games" not in home and "ann@example.org" not in home
    settings.CHAT_TARGETS = True
    chat = client.post(reverse("push:chat"), {"url": "ntfys://my-inis-topic", "next": "/"}, follow=True)
    assert "Sign in first" in chat.content.decode()
    data = client.get(reverse("email:my_data"))
    assert data.status_code == 302 and urlsplit(data["Location"]).path == reverse("lobby:sign_in")


def test_a_forwarded_game_started_email_opens_the_seat_page_and_signs_nobody_in(started, settings):
    game, message = started
    assert "sesame" not in message.body and "sesame" not in message.alternatives[0][0]
    friend = Client()
    landing = friend.get(link_in(message))
    assert landing.status_code == 302 and landing.url == f"/games/{game.pk}/?as=blue"
    page = friend.get(landing.url)
    assert page.status_code == 200 and "Your hand" in page.content.decode()
    assert_signs_nobody_in(friend, settings)


def test_a_forwarded_seat_given_email_opens_that_seat_only(started, settings):
    game, _message = started
    table.seat_replace(game=game, colour="blue", email="cy@example.org")
    lobby_mail.send_seat_given(game.seats.get(colour="blue").pk)
    message = to("cy@example.org", "")
    assert "sesame" not in message.body
    friend = Client()
    landing = friend.get(link_in(message))
    assert landing.status_code == 302 and landing.url == f"/games/{game.pk}/?as=blue"
    assert_signs_nobody_in(friend, settings)
    # Ann's link of the game's start no longer acts: the seat changed hands.
    assert Client().get(link_in(_message)).status_code == 410


def test_a_forwarded_invitation_answers_that_invitation_only_and_signs_nobody_in(host, settings):
    proposal = propose(host, "ann@example.org", "bob@example.org")
    invitation = to("ann@example.org", "")
    assert "sesame" not in invitation.body and "sesame" not in invitation.alternatives[0][0]
    friend = Client()
    page = friend.get(link_in(invitation))
    assert page.status_code == 200
    text = page.content.decode()
    assert "You are invited" in text and "does not sign you in" in text
    assert "bob@example.org" not in text and "host@example.org" not in text  # names, never an address
    assert "<td>a player with no name yet</td>" in text  # Bob, as strangers read him
    # The link opens no other page: the table's own page asks for a sign-in.
    table_page = friend.get(reverse("lobby:proposal", args=[proposal.pk]))
    assert table_page.status_code == 302 and urlsplit(table_page.url).path == reverse("lobby:sign_in")
    friend.post(link_in(invitation), {"action": "accept"})
    assert proposal.invitations.get(email="ann@example.org").status == "accepted"
    assert proposal.invitations.get(email="bob@example.org").status == "pending"
    assert_signs_nobody_in(friend, settings)
    again = friend.get(link_in(invitation)).content.decode()
    assert "You accepted. The game starts when every seat is taken" in again and 'value="accept"' not in again
    # Bob accepts from his own email: the game starts, and Ann's "Game started" brings her seat link.
    Client().post(link_in(to("bob@example.org", "")), {"action": "accept"})
    proposal.refresh_from_db()
    assert proposal.game is not None
    started = to("ann@example.org", "Game started")
    assert f"/games/{proposal.game.pk}/seat/" in started.body and "sesame" not in started.body
    # The friend holding Ann's link is shown no way into the game; Ann, signed in, is.
    assert "to-the-game" not in friend.get(link_in(invitation)).content.decode()
    ann = Client()
    ann.force_login(user_for_email("ann@example.org"))
    page = ann.get(link_in(invitation)).content.decode()
    assert f'id="to-the-game" href="{reverse("games:detail", args=[proposal.game.pk])}"' in page


def test_an_invitation_link_declines_and_dies_when_the_seat_is_asked_of_somebody_else(host):
    proposal = propose(host, "ann@example.org", "bob@example.org")
    ann_link, bob_link = link_in(to("ann@example.org", "")), link_in(to("bob@example.org", ""))
    Client().post(ann_link, {"action": "decline"})
    assert proposal.invitations.get(position=1).status == "declined"
    declined = to("host@example.org", "")
    assert "sesame" not in declined.body and "declined" in declined.body
    services.place_reinvite(proposal=proposal, user=host, position=1, email="cy@example.org")
    refused = Client().get(ann_link)
    assert refused.status_code == 400 and "answers no invitation" in refused.content.decode()
    assert Client().post(ann_link, {"action": "accept"}).status_code == 400
    assert proposal.invitations.get(position=1).status == "pending"  # Cy's, unanswered
    # A forged or cut link answers nothing; one invitation's signature does not open another.
    ann_id, signature = ann_link.rstrip("/").rsplit("/", 1)[1].split(".", 1)
    bob_id = bob_link.rstrip("/").rsplit("/", 1)[1].split(".", 1)[0]
    forged = ann_link.replace(f"{ann_id}.{signature}", f"{bob_id}.{signature}")
    assert Client().post(forged, {"action": "decline"}).status_code == 400
    assert Client().get(ann_link[:-6] + "/").status_code == 400
    assert proposal.invitations.get(email="bob@example.org").status == "pending"


def test_the_hosts_notices_lead_to_pages_that_ask_a_visitor_to_sign_in(host):
    proposal = propose(host, "ann@example.org")
    ann = user_for_email("ann@example.org")
    services.invitation_answer(invitation=proposal.invitations.get(user=ann), user=ann, accept=False)
    declined = to("host@example.org", "")
    assert "sesame" not in declined.body and "sesame" not in declined.alternatives[0][0]
    visitor = Client()
    answer = visitor.get(link_in(declined), follow=True)
    assert answer.redirect_chain[-1][0].startswith(reverse("lobby:sign_in") + "?next=")
    text = answer.content.decode()
    assert "is for a signed-in player" in text and "Email me a link" in text
    host_tools = visitor.get(reverse("lobby:host", args=[1]), follow=True)
    assert "is for a signed-in player" in host_tools.content.decode()


def test_the_host_told_of_a_departure_gets_the_host_page_without_a_sign_in(started):
    from games.play.signals import player_left

    game, _message = started
    player_left.send(sender=None, game=game, seat=game.seats.get(colour="blue"), by_host=False)
    notice = to("host@example.org", "")
    assert "sesame" not in notice.body and "sesame" not in notice.alternatives[0][0]
    assert link_in(notice) == reverse("lobby:host", args=[game.pk])
    landing = Client().get(link_in(notice))
    assert landing.status_code == 302 and urlsplit(landing.url).path == reverse("lobby:sign_in")
