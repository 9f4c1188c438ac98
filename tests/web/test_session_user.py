"""The game page reads its viewer as Django's authentication does (`request.user`, the auth
middleware's `get_user`): a session whose password hash no longer matches, or whose account was
made inactive, is a visitor's, and is signed out."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def _password_changed(user) -> None:
    user.set_password("changed elsewhere")
    user.save()


def _made_inactive(user) -> None:
    user.is_active = False
    user.save()


@pytest.mark.parametrize("change", [_password_changed, _made_inactive])
def test_a_game_page_after_the_account_changed_is_a_visitors_and_signs_out(client, make_game, change):
    game = make_game(n_players=2, seed="signed-in")
    seat = game.seats.get(colour="green")
    client.force_login(seat.user)
    url = reverse("games:detail", args=[game.pk])
    assert f'<span class="who">{seat.user.email}</span>' in client.get(url).content.decode()
    change(seat.user)
    page = client.get(url).content.decode()
    assert 'class="who"' not in page and reverse("lobby:sign_in") in page
    if change is _password_changed:  # Django flushes a session whose hash no longer matches
        assert "_auth_user_id" not in client.session
