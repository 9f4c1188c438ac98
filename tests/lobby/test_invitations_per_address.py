"""One address is sent at most INVITATIONS_PER_ADDRESS_PER_DAY invitations a day by all hosts
together (docs/security.md): many hosts, or one person with many accounts, each under their own
hourly limit, cannot have the site mail an address without end. The host reads why, in words
that are the same whether or not the address has an account."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from lobby.models import Proposal
from notifications.models import Outbox
from players.accounts import user_for_email
from tests.lobby.test_rematch import ask, client_of, finished

pytestmark = pytest.mark.django_db

FORM = {
    "host_plays": "on",
    "bots": "1",
    "open_seats": "0",
    "language": "en",
    "setup": "random",
    "deadlines": "relaxed",
    "reaction_mode": "holders",
}


def host_client(n: int) -> Client:
    client = Client()
    client.force_login(user_for_email(f"host{n}@example.org"))
    return client


def new_table(client: Client, *emails: str, **headers):
    form = {**FORM, **{f"player_{i}": email for i, email in enumerate(emails, start=1)}}
    return client.post(reverse("lobby:new"), form, **headers)


def invitations_to(address: str) -> int:
    return Outbox.objects.filter(to_email=address, subject__icontains="invit").count()


@pytest.mark.parametrize("victim", ["victim@example.net", "player@example.net"])
def test_many_hosts_asking_one_address_mail_it_at_most_the_limit(settings, victim):
    settings.INVITATIONS_PER_ADDRESS_PER_DAY = 3
    if victim.startswith("player"):
        user_for_email(victim)  # an address with an account reads the same refusal
    spellings = [victim, victim.replace("@", "+inis@"), victim.upper()]
    for n in range(3):
        assert new_table(host_client(n), spellings[n]).status_code == 302
    assert invitations_to(victim) + invitations_to(spellings[1]) == 3
    tables = Proposal.objects.count()
    refused = new_table(host_client(3), victim, "friend@example.net")
    assert refused.status_code == 400
    words = html.unescape(refused.content.decode())
    assert (
        "An address you typed was invited too many times today, by you or other hosts: invite "
        "somebody else, or try again tomorrow." in words
    )
    french = html.unescape(new_table(host_client(4), victim, HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    assert (
        "Une adresse que vous avez saisie a été invitée trop de fois aujourd'hui, par vous ou "
        "d'autres hôtes : invitez quelqu'un d'autre, ou réessayez demain." in french
    )
    assert Proposal.objects.count() == tables  # nothing written
    assert invitations_to("friend@example.net") == 0
    # The other address of the refused table spent nothing of its own count.
    for n in range(3):
        assert new_table(host_client(10 + n), "friend@example.net").status_code == 302


def test_asking_somebody_else_for_a_seat_counts_for_all_hosts_together(settings):
    settings.INVITATIONS_PER_ADDRESS_PER_DAY = 2
    for n in range(2):
        new_table(host_client(n), "victim@example.net")
    client = host_client(5)
    new_table(client, "bob@example.net")
    table = Proposal.objects.get(host__email="host5@example.org")
    position = table.invitations.get(email="bob@example.net").position
    url = reverse("lobby:proposal", args=[table.pk])
    form = {"action": "reinvite", "position": position, "email": "victim@example.net"}
    words = html.unescape(client.post(url, form, follow=True).content.decode())
    assert (
        "victim@example.net was invited too many times today, by you or other hosts: ask somebody "
        "else, or try again tomorrow." in words
    )
    assert invitations_to("victim@example.net") == 2
    assert table.invitations.filter(email="bob@example.net").exists()  # the seat unchanged
    french = html.unescape(client.post(url, form, follow=True, HTTP_ACCEPT_LANGUAGE="fr").content.decode())
    assert "L'adresse victim@example.net a été invitée trop de fois aujourd'hui" in french


@pytest.mark.django_db(transaction=True)
def test_a_rematch_of_players_invited_too_often_is_refused_naming_no_address(settings):
    game = finished("invited too often")
    settings.INVITATIONS_PER_ADDRESS_PER_DAY = 1
    other = game.seats.exclude(colour="green").exclude(email="").first()
    new_table(host_client(1), other.email)
    words = html.unescape(ask(client_of(game, "green"), game).content.decode())
    assert (
        f"A player of game {game.pk} was invited too many times today: ask for the rematch again tomorrow."
        in words
    )
    assert other.email not in words
    assert not Proposal.objects.filter(rematch_of=game).exists()
