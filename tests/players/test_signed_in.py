"""The session's user read with another query (players.signed_in): adopted as `request.user`
exactly where Django's own `get_user` gives that user, and never otherwise: a password changed
since the sign-in, an inactive account, a backend no longer configured, another user's row."""

from __future__ import annotations

from importlib import import_module

import pytest
from django.conf import settings
from django.contrib import auth
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory
from django.urls import reverse

from players import signed_in
from players.accounts import user_for_email

pytestmark = pytest.mark.django_db


def signed_in_request(user):
    """A request whose session has `user` signed in, as Django's `login` leaves it (the session
    saved; the request's user not read yet)."""
    request = RequestFactory().get("/")
    request.session = import_module(settings.SESSION_ENGINE).SessionStore()
    auth.login(request, user, backend=settings.AUTHENTICATION_BACKENDS[0])
    request.session.save()
    fresh = RequestFactory().get("/")
    fresh.session = import_module(settings.SESSION_ENGINE).SessionStore(request.session.session_key)
    return fresh


def djangos_user(request):
    """What Django's own authentication reads for `request` (on a copy of its session)."""
    copy = RequestFactory().get("/")
    copy.session = import_module(settings.SESSION_ENGINE).SessionStore(request.session.session_key)
    return auth.get_user(copy)


def reread(user):
    return type(user).objects.get(pk=user.pk)


def test_the_sessions_user_is_adopted_as_django_would_read_it():
    user = user_for_email("ann@example.org")
    request = signed_in_request(user)
    assert signed_in.session_user_id(request) == user.pk
    assert djangos_user(request) == user
    assert signed_in.adopt(request, user.pk, reread(user))
    assert request.user == user and request.user.is_authenticated


def test_no_session_user_no_id():
    request = RequestFactory().get("/")
    request.session = import_module(settings.SESSION_ENGINE).SessionStore()
    assert signed_in.session_user_id(request) is None


def changed_password(user, request):
    user.set_password("a new password")
    user.save()


def inactive(user, request):
    user.is_active = False
    user.save()


def unknown_backend(user, request):
    request.session[auth.BACKEND_SESSION_KEY] = "somewhere.else.Backend"


def no_hash(user, request):
    del request.session[auth.HASH_SESSION_KEY]


@pytest.mark.parametrize("change", [changed_password, inactive, unknown_backend, no_hash])
def test_nothing_is_adopted_where_django_would_not_give_that_user(change):
    user = user_for_email("ann@example.org")
    request = signed_in_request(user)
    change(user, request)
    request.session.save()
    assert isinstance(djangos_user(request), AnonymousUser)
    assert not signed_in.adopt(request, user.pk, reread(user))
    assert not hasattr(request, "user")  # left for Django to read


def test_another_users_row_is_never_adopted():
    ann, bob = user_for_email("ann@example.org"), user_for_email("bob@example.org")
    request = signed_in_request(ann)
    assert not signed_in.adopt(request, ann.pk, bob)
    assert not signed_in.adopt(request, bob.pk, bob)
    assert not signed_in.adopt(request, ann.pk, None)
    assert not hasattr(request, "user")


def test_a_game_page_after_the_password_changed_is_a_visitors_and_signs_out(client, make_game):
    """Through the game page (web.views reads the user with the game): a session whose hash no
    longer matches is refused as Django refuses it, the session flushed."""
    game = make_game(n_players=2, seed="signed-in")
    seat = game.seats.get(colour="green")
    client.force_login(seat.user)
    url = reverse("games:detail", args=[game.pk])
    assert f'<span class="who">{seat.user.email}</span>' in client.get(url).content.decode()
    seat.user.set_password("changed elsewhere")
    seat.user.save()
    page = client.get(url).content.decode()
    assert 'class="who"' not in page and reverse("lobby:sign_in") in page
    assert "_auth_user_id" not in client.session
