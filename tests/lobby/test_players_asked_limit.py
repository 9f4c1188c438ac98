"""A host asking somebody else for a seat ("Ask somebody else" on the table's page) sends an
invitation email each time: at most PLAYERS_ASKED_PER_HOUR an hour (docs/security.md), or a
host could have the site mail any address, the same one again and again, as fast as they post."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from lobby import services
from notifications.models import Outbox
from players.accounts import user_for_email

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(client, settings):
    cache.clear()
    settings.PLAYERS_ASKED_PER_HOUR = 3
    host = user_for_email("ann@example.org")
    proposal = services.proposal_create(
        host=host,
        places=[services.PlaceSpec(email="bob@example.org")],
        host_plays=True,
        setup="discovery",
        deadlines={"default": 24, "reaction": 6},
        reaction_mode="holders",
    )
    client.force_login(host)
    return proposal


def _ask(client, proposal, email: str, **headers):
    position = proposal.invitations.get(is_bot=False, user__isnull=False, position__gt=0).position
    return client.post(
        reverse("lobby:proposal", args=[proposal.pk]),
        {"action": "reinvite", "position": position, "email": email},
        follow=True,
        **headers,
    )


def test_a_host_asking_one_address_again_and_again_mails_it_at_most_the_limit(client, table):
    for _ in range(10):
        answer = _ask(client, table, "victim@example.net")
    assert Outbox.objects.filter(to_email="victim@example.net").count() == 3
    assert "You asked too many players this hour: try again later." in answer.content.decode()
    french = _ask(client, table, "victim@example.net", HTTP_ACCEPT_LANGUAGE="fr")
    assert "Vous avez invité trop de joueurs cette heure-ci : réessayez plus tard." in french.content.decode()
    assert Outbox.objects.filter(to_email="victim@example.net").count() == 3


def test_asking_other_addresses_counts_the_same_and_a_bot_is_always_free(client, table):
    for n in range(5):
        _ask(client, table, f"stranger{n}@example.net")
    assert Outbox.objects.filter(to_email__startswith="stranger").count() == 3
    position = table.invitations.filter(is_bot=False).exclude(user=table.host).first().position
    client.post(reverse("lobby:proposal", args=[table.pk]), {"action": "bot", "position": position})
    assert table.invitations.filter(position=position, is_bot=True).exists()
