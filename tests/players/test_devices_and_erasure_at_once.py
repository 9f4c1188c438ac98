"""A player's push device removed, or their preferences saved, while that player erases their
account (real PostgreSQL, one connection per thread). docs/privacy.md, "Asking for it": the
erasure locks the person's account with their preferences, push devices and chat target, then
the games of their seats, and only later deletes the preferences and what goes with them.

A device's removal (turned off on the web, or found gone by its push service) writes the emails
of its player's open decisions when nothing else reaches them (docs/notifications.md, "When a
device stops"): the device's row, then the outbox rows of those decisions, which name their
game. A vacation saved moves the deadlines of the player's open decisions: their preferences'
row, then the clocks and games of their seats. Were the erasure to lock the games first and
delete the preferences and devices last, each would hold what the other waits for (a deadlock,
which PostgreSQL breaks by failing one of them: the erasure, or the other)."""

from __future__ import annotations

import dataclasses
import threading
from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from notifications import outbox
from notifications.models import Outbox
from players import erasure, personal_data, preferences
from players.chat_targets import TargetError, set_target
from players.erasure import erase_account, is_erased
from players.models import ChatTarget, Player, PushSubscription
from players.push_devices import DeviceError, add_device, remove_device
from tests.i18n.test_lobby_press_watching_french import visible
from tests.lock_races import run_together, session, until_waiting
from tests.notifications.conftest import dns  # noqa: F401
from tests.notifications.test_web_push import (
    every_player_has_a_device,
    push_on,  # noqa: F401
    push_service,  # noqa: F401
    rows,
    the_deciding_seat,
)

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def paused_erasure(monkeypatch, user_id: int, pids: dict, errors: list[str]):
    """`(erasing, games_locked)`: the thread `erasing` (not started) erases the account
    `user_id` on its own connection, pausing, the games of the person's seats locked (`games_locked` then set), until the session
    `pids["change"]` waits for a lock (or, if it never does, WAIT_SECONDS: the change then went
    through first); its errors go to `errors`."""
    games_locked = threading.Event()
    registered = personal_data.holders()

    def paused_after(holder: personal_data.Holder) -> personal_data.Holder:
        if holder.name != "seats" or holder.erase is None:
            return holder
        leave_seats = holder.erase

        def erase(person: personal_data.Person) -> None:
            leave_seats(person)
            games_locked.set()
            until_waiting(pids, "change", errors, "the change never waited for the erasure")

        return dataclasses.replace(holder, erase=erase)

    monkeypatch.setattr(erasure, "holders", lambda: [paused_after(holder) for holder in registered])

    return session("erasure", errors, lambda: erase_account(user_id)), games_locked


def at_once(monkeypatch, change, user_id: int) -> list[str]:
    """Erase the account `user_id` and run `change()` at once, in two threads: the erasure, the
    games of the person's seats locked, goes on once the change waits for a lock (or, if it
    never does, after WAIT_SECONDS: the change then went through first). Returns the errors of
    either thread."""
    pids: dict = {}
    errors: list[str] = []
    erasing, games_locked = paused_erasure(monkeypatch, user_id, pids, errors)
    run_together(erasing, session("change", errors, change, pids=pids, after=games_locked))
    return errors


def test_a_device_turned_off_as_its_player_erases_their_account(
    make_game,
    monkeypatch,
    push_on,  # noqa: F811
    push_service,  # noqa: F811
):
    """Push only: the player's decision reached them by push alone. They turn their only device
    off on the web as they erase their account: the erasure goes through, the device goes with
    it, and nobody is emailed the decision of a seat that is no longer theirs."""
    devices = every_player_has_a_device(push_service, email_after_push=None)
    game = make_game()
    seat, _state = the_deciding_seat(game)
    assert rows(game, Outbox.Channel.EMAIL, seat=seat) == []
    player = Player.objects.get(email=seat.email)

    errors = at_once(monkeypatch, lambda: remove_device(player, devices[seat.email].endpoint), seat.user_id)

    assert errors == []
    assert is_erased(seat.user_id)
    assert not PushSubscription.objects.filter(endpoint=devices[seat.email].endpoint).exists()
    assert not Outbox.objects.filter(to_email__iexact=seat.email).exists()


def test_a_push_finding_the_device_gone_as_its_player_erases_their_account(
    make_game,
    monkeypatch,
    push_on,  # noqa: F811
    push_service,  # noqa: F811
):
    """Push only: the push of the player's decision finds their only device gone (410) as they
    erase their account: the erasure goes through, and the push sends nothing more."""
    # With a broker: the relay publishes the rows, none is delivered at its commit.
    monkeypatch.setattr(outbox, "through_relay", lambda: True)
    devices = every_player_has_a_device(push_service, email_after_push=None)
    game = make_game()
    seat, _state = the_deciding_seat(game)
    push_service.status[devices[seat.email].endpoint.removeprefix(push_service.base)] = 410
    (pushed,) = rows(game, Outbox.Channel.WEB_PUSH, seat=seat)

    errors = at_once(monkeypatch, lambda: outbox.deliver(pushed.pk), seat.user_id)

    assert errors == []
    assert is_erased(seat.user_id)
    assert not PushSubscription.objects.filter(endpoint=devices[seat.email].endpoint).exists()
    assert not Outbox.objects.filter(to_email__iexact=seat.email).exists()


def test_a_vacation_saved_as_its_player_erases_their_account(make_game, monkeypatch):
    """The player saves a vacation (which moves the deadlines of their open decision), their
    preferences page read before the erasure, as they erase their account: the erasure goes
    through, and the save, after it, is refused and writes nothing (saved, it would have put
    the erased address back in a new row of preferences)."""
    game = make_game()
    seat, _state = the_deciding_seat(game)
    player = preferences.player_for(seat.email)
    start = timezone.now() + timedelta(days=1)
    answers: list[str] = []

    def save_a_vacation() -> None:
        try:
            preferences.update_preferences(
                player,
                delivery=player.delivery,
                news=player.news,
                time_zone=player.time_zone,
                language=player.language,
                away_from=start,
                away_until=start + timedelta(days=3),
            )
        except preferences.PreferenceError as refused:
            answers.append(str(refused))

    errors = at_once(monkeypatch, save_a_vacation, seat.user_id)

    assert errors == []
    assert is_erased(seat.user_id)
    assert answers == ["This account was erased: nothing was saved."]
    assert not Player.objects.filter(email=seat.email).exists()


@pytest.mark.parametrize(
    ("language", "switch", "refusal", "page"),
    [
        ("en", "fr", "This account was erased: nothing was saved.", "Games to watch"),
        ("fr", "en", "Ce compte a été effacé : rien n'a été enregistré.", "Parties à regarder"),
    ],
)
def test_the_language_switch_as_its_player_erases_their_account(
    make_game, monkeypatch, language, switch, refusal, page
):
    """The player switches their pages' language, signed in on a page read before the erasure,
    as they erase their account: the erasure goes through, and the switch, after it, is refused
    in the language of the page, which stays as it was, and writes nothing (saved, it would have
    put the erased address back in a new row of preferences)."""
    game = make_game()
    seat, _state = the_deciding_seat(game)
    player = preferences.player_for(seat.email)
    player.language = language
    player.save()
    browser = Client()
    browser.force_login(seat.user)
    answers: list[str] = []

    def switch_language() -> None:
        response = browser.post(
            reverse("lobby:language"), {"language": switch, "next": reverse("watching:list")}, follow=True
        )
        answers.append(visible(response))

    errors = at_once(monkeypatch, switch_language, seat.user_id)

    assert errors == []
    assert is_erased(seat.user_id)
    assert not Player.objects.filter(email=seat.email).exists()
    (answer,) = answers
    assert refusal in answer and page in answer


ERASED = "This account was erased: nothing was saved."


def test_a_device_added_as_its_player_erases_their_account(
    make_game,
    monkeypatch,
    dns,  # noqa: F811
    push_on,  # noqa: F811
    push_service,  # noqa: F811
):
    """The player turns push on on a new device, their account read before the erasure, as they
    erase it: the erasure goes through, and the device, after it, is refused with a sentence
    and nothing is kept (before, its commit failed with a database error: the device's player
    was gone)."""
    game = make_game()
    seat, _state = the_deciding_seat(game)
    player = preferences.player_for(seat.email)
    dns["push.example.net"] = "93.184.215.14"
    endpoint = push_service.device().endpoint.replace(push_service.base, "https://push.example.net")
    answers: list[str] = []

    def add() -> None:
        try:
            add_device(player, {"endpoint": endpoint, "keys": push_service.device().keys})
        except DeviceError as refused:
            answers.append(str(refused))

    errors = at_once(monkeypatch, add, seat.user_id)

    assert errors == []
    assert is_erased(seat.user_id)
    assert answers == [ERASED]
    assert not PushSubscription.objects.filter(endpoint=endpoint).exists()
    assert not Player.objects.filter(email=seat.email).exists()


def test_a_chat_target_set_as_its_player_erases_their_account(make_game, monkeypatch, dns):  # noqa: F811
    """The player sets their chat's address, their account read before the erasure, as they
    erase it: the erasure goes through, and the chat target, after it, is refused with a
    sentence and nothing is kept (before, its commit failed with a database error)."""
    dns["chat.example.net"] = "93.184.215.14"
    game = make_game()
    seat, _state = the_deciding_seat(game)
    player = preferences.player_for(seat.email)
    answers: list[str] = []

    def set_chat() -> None:
        try:
            set_target(player, "ntfys://chat.example.net/inis-topic-4f7a9c21")
        except TargetError as refused:
            answers.append(str(refused))

    errors = at_once(monkeypatch, set_chat, seat.user_id)

    assert errors == []
    assert is_erased(seat.user_id)
    assert answers == [ERASED]
    assert not ChatTarget.objects.exists()
    assert not Player.objects.filter(email=seat.email).exists()


def test_push_turned_on_from_a_page_as_its_player_erases_their_account(
    make_game,
    monkeypatch,
    dns,  # noqa: F811
    push_on,  # noqa: F811
    push_service,  # noqa: F811
):
    """The player's page, signed in before the erasure, turns push on as they erase their
    account: the page's script is answered with the sentence, and neither the device nor new
    preferences keep the erased address."""
    game = make_game()
    seat, _state = the_deciding_seat(game)
    dns["push.example.net"] = "93.184.215.14"
    device = push_service.device()
    endpoint = device.endpoint.replace(push_service.base, "https://push.example.net")
    browser = Client()
    browser.force_login(seat.user)
    answers: list = []

    def turn_push_on() -> None:
        response = browser.post(
            reverse("push:add"),
            {"endpoint": endpoint, "keys": device.keys, "device": "phone"},
            content_type="application/json",
        )
        answers.append((response.status_code, response.json()))

    errors = at_once(monkeypatch, turn_push_on, seat.user_id)

    assert errors == []
    assert is_erased(seat.user_id)
    assert answers == [(403, {"error": ERASED})]
    assert not PushSubscription.objects.filter(endpoint=endpoint).exists()
    assert not Player.objects.filter(email=seat.email).exists()
