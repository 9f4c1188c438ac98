"""Names, not addresses: a new player is asked for their name at the table at first sign-in
("My games"); the lobby and the invitation email name the host by it, never by their address;
the reaction mode is said in words, not as "holders"."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from lobby import services
from players.accounts import user_for_email
from players.models import Player

pytestmark = pytest.mark.django_db(transaction=True)


def propose(host, *emails):
    places = [services.PlaceSpec(email=e) for e in emails]
    return services.proposal_create(
        host=host,
        places=places,
        host_plays=True,
        setup="discovery",
        deadlines={"default": 24, "reaction": 6},
        reaction_mode="holders",
    )


def test_a_new_player_is_asked_for_a_name_then_not_again(client):
    user = user_for_email("ann@example.org")
    client.force_login(user)
    home = client.get(reverse("lobby:home")).content.decode()
    assert 'id="your-name"' in home

    refused = client.post(reverse("lobby:name"), {"display_name": "ann@example.org"})
    assert refused.status_code == 400 and "not an email address" in refused.content.decode()

    saved = client.post(reverse("lobby:name"), {"display_name": "  Ann  of the Isles "}, follow=True)
    assert "Other players now see you as Ann of the Isles." in saved.content.decode()
    assert Player.objects.get(email="ann@example.org").display_name == "Ann of the Isles"
    assert 'id="your-name"' not in client.get(reverse("lobby:home")).content.decode()


def test_the_lobby_and_the_invitation_name_the_host_never_by_address(client):
    host = user_for_email("ann@example.org")
    Player.objects.update_or_create(email="ann@example.org", defaults={"display_name": "Ann"})
    proposal = propose(host, "bob@example.org")
    bob = user_for_email("bob@example.org")
    client.force_login(bob)

    home = client.get(reverse("lobby:home")).content.decode()
    page = client.get(reverse("lobby:proposal", args=[proposal.pk])).content.decode()

    assert "Ann invites you to a game" in home and "ann@example.org" not in home
    assert "A game of Inis by Ann" in page and "ann@example.org" not in page
    assert "only the players who can answer are asked" in page and "holders" not in page
    invitation = next(m for m in mail.outbox if m.to == ["bob@example.org"])
    assert "Ann invites you" in invitation.body and "ann@example.org" not in invitation.body


def test_a_host_without_a_name_is_named_by_the_start_of_the_address(client):
    host = user_for_email("carol@example.org")
    proposal = propose(host, "dan@example.org")
    client.force_login(user_for_email("dan@example.org"))

    page = client.get(reverse("lobby:proposal", args=[proposal.pk])).content.decode()

    assert "A game of Inis by carol" in page and "carol@example.org" not in page
