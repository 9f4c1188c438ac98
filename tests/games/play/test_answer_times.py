"""Answer times: each seat's median time to answer a decision, kept from its player's own answers
by email and on the web (web answers while online left out), shown on the game page and in the
lobby."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from games import rules, store
from games.play import answer_times
from games.play.models import SeatClock
from games.services import submit_command
from lobby import services as lobby
from players.accounts import user_for_email

pytestmark = pytest.mark.django_db


def answer(game, *, channel: str, after: timedelta, key: str) -> str:
    """The seat that must decide answers with its first legal command through `channel`
    ("email" or "web"), its decision having opened `after` ago; returns its colour."""
    state, seq = store.load(game)
    colour = next(d.seat for d in rules.pending(state))
    seat = game.seats.get(colour=colour)
    SeatClock.objects.filter(seat=seat).update(opened_at=timezone.now() - after)
    command = next(c for c in rules.legal_commands(state, colour) if c["type"] not in ("moor", "set_policy"))
    result = submit_command(
        game=game, seat=seat, command=command, expected_seq=seq, command_id=f"{channel}:{key}"
    )
    assert result.accepted, result.message
    return colour


def kept(game, colour: str) -> list:
    return SeatClock.objects.get(seat__game=game, seat__colour=colour).answer_seconds


def test_answers_by_email_count_and_their_median_is_on_the_game_page(client, make_game):
    game = make_game(n_players=2, seed="answer-times")
    first = answer(game, channel="email", after=timedelta(hours=3), key="a:0")
    assert kept(game, first) == [pytest.approx(3 * 3600, abs=5)]
    other = next(s for s in game.seats.all() if s.colour != first)
    client.force_login(other.user)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "answers in about 3 hours" in page
    row = page[page.index(f'<tr data-seat="{first}"') :]
    assert "answers in about 3 hours" in row[: row.index("</tr>")]


def test_web_answers_while_online_are_left_out():
    """A web answer to a decision that opened within 15 minutes of the seat's previous web
    answer was made at the table, page open: it is not counted; one after a longer absence is,
    and so is every answer by email."""
    clock = SeatClock(answer_seconds=[], last_web_at=None)
    start = timezone.now()

    def at(minutes):
        return start + timedelta(minutes=minutes)

    answer_times.record(clock, command_id="web:1", opened_at=at(-300), now=at(0))  # back after 5 h
    answer_times.record(clock, command_id="web:2", opened_at=at(2), now=at(3))  # still at the table
    answer_times.record(clock, command_id="email:m:0", opened_at=at(4), now=at(10))  # by email
    answer_times.record(clock, command_id="web:3", opened_at=at(180), now=at(300))  # back after 3 h
    assert clock.answer_seconds == [300 * 60, 6 * 60, 120 * 60]


def test_commands_the_player_did_not_send_are_no_answers(make_game):
    game = make_game(n_players=2, seed="answer-proxy")
    colour = answer(game, channel="deadline", after=timedelta(hours=40), key="x")
    assert kept(game, colour) == []


def test_the_median_and_its_words():
    assert answer_times.median_seconds([60, 7200, 90000]) == 7200
    assert answer_times.in_words(7200) == "answers in about 2 hours"
    assert answer_times.in_words(20 * 60) == "answers in about 20 minutes"
    assert answer_times.in_words(3 * 86400) == "answers in about 3 days"
    assert answer_times.in_words(None) == ""


def test_the_lobby_shows_each_invited_players_median_answer_time(client, make_game):
    game = make_game(n_players=2, seed="answer-lobby")
    colour = answer(game, channel="email", after=timedelta(hours=6), key="l:0")
    player = game.seats.get(colour=colour).email
    host = user_for_email("host@example.org")
    proposal = lobby.proposal_create(
        host=host,
        places=[lobby.PlaceSpec(email=player), lobby.PlaceSpec(email="new@example.org")],
        host_plays=True,
        setup="discovery",
        deadlines={"default": 48, "reaction": 12},
        reaction_mode="holders",
    )
    client.force_login(host)
    page = client.get(reverse("lobby:proposal", args=[proposal.pk])).content.decode()
    assert page.count("answers in about 6 hours") == 1
