"""What a signed-in page or the sign-in page writes for an account, as that account is erased
(real PostgreSQL, one connection per thread; docs/privacy.md, "Asking for it"): the name form
of "My games", the delay of the emails after a push, the preferences link of the site's header
and a sign-in link asked for. Each locks the account (or its preferences' row) first, as the
erasure does: done whole before the erasure, or refused after it ("This account was erased:
nothing was saved."), never a new row of preferences with the erased address."""

from __future__ import annotations

import re
import threading

import pytest
from django.contrib import auth
from django.contrib.auth import get_user_model
from django.core import mail
from django.db import connection
from django.test import Client
from django.urls import reverse

from community.models import ProfileChoice
from notifications import push_views
from players import preferences
from players.erasure import erase_account, is_erased
from players.models import Player
from tests.i18n.test_lobby_press_watching_french import visible
from tests.lock_races import JOIN_SECONDS, WAIT_SECONDS, backend_pid
from tests.notifications.test_web_push import push_on  # noqa: F401
from tests.players.test_devices_and_erasure_at_once import at_once, paused_erasure, the_deciding_seat

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

REFUSALS = {
    "en": ("This account was erased: nothing was saved.", "Sign in"),
    "fr": ("Ce compte a été effacé : rien n'a été enregistré.", "Se connecter"),
}


def erased_within(monkeypatch, owner, name: str, user_id: int) -> list[str]:
    """Make the first call of `owner.<name>` meet the erasure of the account `user_id`: the
    erasure starts on its own connection and locks the account, its preferences and the games
    of its seats, then the call runs (and the erasure goes on once it waits for a lock:
    `paused_erasure`). Returns the erasure's errors (filled once the call returned)."""
    real = getattr(owner, name)
    pids: dict = {}
    errors: list[str] = []
    erasing, games_locked = paused_erasure(monkeypatch, user_id, pids, errors)

    def meeting(*args, **kwargs):
        monkeypatch.setattr(owner, name, real)
        pids["change"] = backend_pid()
        erasing.start()
        try:
            assert games_locked.wait(WAIT_SECONDS)
            return real(*args, **kwargs)
        finally:
            erasing.join(timeout=JOIN_SECONDS)
            assert not erasing.is_alive(), "the erasure still runs: hung on a lock"

    monkeypatch.setattr(owner, name, meeting)
    return errors


def erased_once_read(monkeypatch, user_id: int) -> None:
    """Erase the account `user_id` (on its own connection, committed) just after the next
    request read it as its signed-in account: the page then writes for an account erased."""
    real = auth.get_user

    def read_then_erased(request):
        user = real(request)
        monkeypatch.setattr(auth, "get_user", real)
        erasing = threading.Thread(target=lambda: (erase_account(user_id), connection.close()))
        erasing.start()
        erasing.join(timeout=JOIN_SECONDS)
        assert is_erased(user_id)
        return user

    monkeypatch.setattr(auth, "get_user", read_then_erased)


def signed_in(seat, language: str) -> Client:
    """A browser asking for pages in `language`, signed in as `seat`'s player, who chose it."""
    player = preferences.player_for(seat.email)
    player.language = language
    player.save()
    browser = Client(headers={"accept-language": language})
    browser.force_login(seat.user)
    return browser


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_name_chosen_as_its_player_erases_their_account(make_game, monkeypatch, language):
    """The player chooses their name on "My games", signed in before the erasure, as they erase
    their account: the erasure goes through, and the name, after it, is refused on the page,
    in its language (before, its save found no row: a server error)."""
    game = make_game()
    seat, _state = the_deciding_seat(game)
    browser = signed_in(seat, language)
    answers: list[str] = []

    def choose_a_name() -> None:
        response = browser.post(reverse("lobby:name"), {"display_name": "Brigid"}, follow=True)
        answers.append(visible(response))

    errors = at_once(monkeypatch, choose_a_name, seat.user_id)

    assert errors == []
    assert is_erased(seat.user_id)
    assert not Player.objects.filter(email=seat.email).exists()
    assert not Player.objects.filter(display_name="Brigid").exists()
    refusal, page = REFUSALS[language]
    (answer,) = answers
    assert refusal in answer and page in answer


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_name_chosen_just_after_its_account_was_erased(make_game, monkeypatch, language):
    """The name form's request read its account just before the erasure committed: the name is
    refused on the page, and no row of preferences comes back with the erased address (before,
    one did, with the name)."""
    game = make_game()
    seat, _state = the_deciding_seat(game)
    browser = signed_in(seat, language)
    erased_once_read(monkeypatch, seat.user_id)

    response = browser.post(reverse("lobby:name"), {"display_name": "Brigid"}, follow=True)

    assert not Player.objects.filter(email=seat.email).exists()
    assert not Player.objects.filter(display_name="Brigid").exists()
    refusal, page = REFUSALS[language]
    assert refusal in visible(response) and page in visible(response)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_email_after_push_chosen_as_its_player_erases_their_account(
    make_game,
    monkeypatch,
    language,
    push_on,  # noqa: F811
):
    """The player chooses when emails follow a push, the request's account read before the
    erasure, which then locks their preferences before the choice is saved: the erasure goes
    through, and the choice, after it, is refused on the page, in its language (before, its
    save found no row: a server error)."""
    game = make_game()
    seat, _state = the_deciding_seat(game)
    browser = signed_in(seat, language)
    errors = erased_within(monkeypatch, push_views, "save_email_after_push", seat.user_id)

    response = browser.post(
        reverse("push:email_after_push"),
        {"email_after_push": "never", "next": reverse("watching:list")},
        follow=True,
    )

    assert errors == []
    assert is_erased(seat.user_id)
    assert not Player.objects.filter(email=seat.email).exists()
    refusal, _page = REFUSALS[language]
    assert refusal in visible(response)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_preferences_link_followed_just_after_its_account_was_erased(make_game, monkeypatch, language):
    """The site header's link to the preferences, its request's account read just before the
    erasure committed: refused on the page, and no row of preferences comes back with the
    erased address (before, one did, and the page led to it)."""
    game = make_game()
    seat, _state = the_deciding_seat(game)
    browser = signed_in(seat, language)
    erased_once_read(monkeypatch, seat.user_id)

    response = browser.get(reverse("lobby:preferences"), follow=True)

    assert not Player.objects.filter(email=seat.email).exists()
    refusal, page = REFUSALS[language]
    assert refusal in visible(response) and page in visible(response)


def test_a_sign_in_asked_as_the_account_is_erased_makes_a_new_one(make_game, monkeypatch):
    """Somebody asks for a sign-in link for a player's address as that player erases their
    account: the sign-in waits for the erasure, and the address, which no account has then,
    gets a new one (a new person), its link signing in to it. Nothing of the erased account
    comes back (before, the link was the erased account's, which signs nobody in)."""
    game = make_game()
    seat, _state = the_deciding_seat(game)
    mail.outbox.clear()
    asked: list[int] = []

    def ask_for_a_link() -> None:
        asked.append(Client().post(reverse("lobby:sign_in"), {"email": seat.email}).status_code)

    errors = at_once(monkeypatch, ask_for_a_link, seat.user_id)

    assert errors == []
    assert asked == [200]
    assert is_erased(seat.user_id)
    erased = get_user_model().objects.get(pk=seat.user_id)
    assert erased.email == "" and not erased.is_active
    (account,) = get_user_model().objects.filter(email=seat.email)
    assert account.pk != seat.user_id
    (sent,) = [message for message in mail.outbox if message.to == [seat.email]]
    link = re.search(r"http://127\.0\.0\.1:8000(/\S*sesame=\S+)", sent.body).group(1)
    browser = Client()
    browser.get(link, follow=True)
    assert browser.session.get("_auth_user_id") == str(account.pk)


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_profile_hidden_as_its_player_erases_their_account(make_game, monkeypatch, language):
    """The player hides their profile from strangers, signed in before the erasure, as they
    erase their account: the erasure goes through, and the choice, after it, is refused on the
    page, in its language, nothing kept of it (before, the erasure deleted their choice and the
    page's wrote it back, for an account erased)."""
    game = make_game()
    seat, _state = the_deciding_seat(game)
    browser = signed_in(seat, language)
    answers: list[str] = []

    def hide_the_profile() -> None:
        response = browser.post(reverse("community:profile_visibility"), {"hidden": "1"}, follow=True)
        answers.append(visible(response))

    errors = at_once(monkeypatch, hide_the_profile, seat.user_id)

    assert errors == []
    assert is_erased(seat.user_id)
    assert not ProfileChoice.objects.filter(player_id=seat.user_id).exists()
    refusal, page = REFUSALS[language]
    (answer,) = answers
    assert refusal in answer and page in answer


def test_a_profile_hidden_just_after_its_account_was_erased(make_game, monkeypatch):
    """The choice's request read its account just before the erasure committed: refused on the
    page, and the erased account keeps no choice (before, the choice was written after the
    erasure had deleted its rows)."""
    game = make_game()
    seat, _state = the_deciding_seat(game)
    browser = signed_in(seat, "en")
    erased_once_read(monkeypatch, seat.user_id)

    response = browser.post(reverse("community:profile_visibility"), {"hidden": "1"}, follow=True)

    assert not ProfileChoice.objects.filter(player_id=seat.user_id).exists()
    refusal, page = REFUSALS["en"]
    assert refusal in visible(response) and page in visible(response)
