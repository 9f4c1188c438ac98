"""The welcome page a stranger lands on (docs/open-tables.md): besides signing in, it says how
many tables are looking for players and leads to them, so a newcomer finds a game without
knowing where to look."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from lobby import services
from tests.community.test_leaving_a_table import page_text
from tests.community.test_open_tables import host, open_table  # noqa: F401  (host: a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_stranger_reads_how_many_tables_look_for_players_and_finds_them(host):  # noqa: F811
    assert "No table is looking for players just now" in page_text(Client().get(reverse("lobby:home")))

    open_table(host)
    first = page_text(Client().get(reverse("lobby:home")))
    assert "One table is looking for players: take a seat" in first
    assert reverse("community:open_tables") in Client().get(reverse("lobby:home")).content.decode()

    second = open_table(host)
    assert "2 tables are looking for players" in page_text(Client().get(reverse("lobby:home")))

    services.proposal_cancel(proposal=second, user=host)
    assert "One table is looking for players" in page_text(Client().get(reverse("lobby:home")))


def test_the_same_in_french(host):  # noqa: F811
    open_table(host)
    open_table(host)
    french = page_text(Client(headers={"accept-language": "fr"}).get(reverse("lobby:home")))
    assert "Trouver une partie" in french
    assert "2 tables cherchent des joueurs : prenez une place" in french
