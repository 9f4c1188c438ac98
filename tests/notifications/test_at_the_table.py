"""At the table, no email: while a player has the game's page open (its head polled), the
emails about their decisions in that game wait; answered on the page, none is sent
(players.at_the_table, notifications.outbox)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from games import rules, store
from games.services import submit_command
from notifications import outbox
from notifications.models import Outbox


@pytest.fixture
def table(make_game):
    game = make_game()
    state, _seq = store.load(game)
    seat = game.seats.get(colour=rules.pending(state)[0].seat)
    email = Outbox.objects.get(seat=seat, kind=Outbox.Kind.PROMPT, channel=Outbox.Channel.EMAIL)
    mail.outbox.clear()
    return game, seat, state, email


def poll(client, game, seat) -> None:
    """The seat's player with the game page open: signed in, its head polled."""
    client.force_login(seat.user)
    assert client.get(reverse("games:head", args=[game.pk])).json()["your_turn"] is True


def test_the_email_waits_while_the_page_is_open_and_is_dropped_once_answered_there(client, table):
    game, seat, state, email = table
    poll(client, game, seat)
    assert outbox.deliver(email.pk) is False
    email.refresh_from_db()
    assert email.status == Outbox.Status.PENDING and email.not_before > timezone.now()
    assert email.queued_at == email.not_before  # the relay comes back to it then
    submit_command(
        game=game, seat=seat, command=rules.legal_commands(state, seat.colour)[0], expected_seq=state.seq
    )
    Outbox.objects.filter(pk=email.pk).update(not_before=timezone.now() - timedelta(seconds=1))
    cache.clear()  # the page closed since
    assert outbox.deliver(email.pk) is False
    email.refresh_from_db()
    assert email.status == Outbox.Status.SKIPPED and mail.outbox == []


def test_the_email_comes_once_the_page_is_closed_with_the_decision_open(client, table):
    game, seat, _state, email = table
    poll(client, game, seat)
    assert outbox.deliver(email.pk) is False
    cache.clear()  # no poll for AT_TABLE_SECONDS: the page is closed
    Outbox.objects.filter(pk=email.pk).update(not_before=timezone.now() - timedelta(seconds=1))
    assert outbox.deliver(email.pk) is True
    assert [m.to for m in mail.outbox] == [[seat.email]]


def test_another_players_page_or_another_game_does_not_hold_the_email(client, table, make_game):
    game, seat, _state, email = table
    other = game.seats.exclude(pk=seat.pk).first()
    client.force_login(other.user)
    client.get(reverse("games:head", args=[game.pk]))
    client.force_login(seat.user)
    client.get(reverse("games:head", args=[make_game().pk]))
    assert outbox.deliver(email.pk) is True
