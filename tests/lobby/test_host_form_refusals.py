"""What a host reads when a table's form is refused: words, in their language, never Python's
("invalid literal for int()", an address in repr quotes); and a count of seats in good French."""

from __future__ import annotations

import html

import pytest
from django.conf import settings
from django.urls import reverse

from players.models import Player
from tests.community.test_open_tables import host, open_table, signed_in  # noqa: F401 - fixture

pytestmark = pytest.mark.django_db(transaction=True)


def follow(response) -> str:
    return html.unescape(response.content.decode())


def test_a_damaged_seat_or_a_mistyped_address_is_refused_in_words(host):  # noqa: F811 - fixture
    table = open_table(host, open_seats=2)
    client = signed_in("host@example.org")
    url = reverse("lobby:proposal", args=[table.pk])
    damaged = follow(client.post(url, {"action": "remove", "position": "abc"}, follow=True))
    assert "Choose a seat of this table." in damaged and "invalid literal" not in damaged
    typo = follow(
        client.post(url, {"action": "reinvite", "position": "1", "email": "notanemail"}, follow=True)
    )
    assert "“notanemail” is not an email address." in typo and "'notanemail'" not in typo
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"  # the language a player chose
    french = follow(
        client.post(url, {"action": "reinvite", "position": "1", "email": "notanemail"}, follow=True)
    )
    assert "« notanemail » n’est pas une adresse électronique." in french


def test_one_seat_taken_reads_in_the_singular_in_french(host):  # noqa: F811 - fixture
    table = open_table(host, open_seats=2, language="fr")
    page = follow(
        signed_in("guest@example.org").get(
            reverse("community:join", args=[table.pk]), HTTP_ACCEPT_LANGUAGE="fr"
        )
    )
    assert "1 place prise sur 3." in page and "1 places" not in page
    Player.objects.filter(email="host@example.org").update(language="fr")
    home = follow(signed_in("host@example.org").get(reverse("lobby:home")))
    assert "1 place prise sur 3" in home
