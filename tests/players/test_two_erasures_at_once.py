"""Two players erase their accounts at the same moment, each the host of a game the other plays
in without playing in it themselves (real PostgreSQL, one connection per thread).
docs/privacy.md, "Asking for it": an erasure locks the games it changes in one order, those of
the person's seats and those they host together. Were it to lock its seats' games first and the
hosted ones after, each erasure would hold the game the other waits for (a deadlock, which
PostgreSQL breaks by failing one of them: that player would read an error and have to ask
again)."""

from __future__ import annotations

import threading

import pytest

from games.models import Game, Seat
from games.play import departures
from games.services import SeatSpec, create_game
from players.accounts import user_for_email
from players.erasure import erase_account, is_erased
from tests.lock_races import run_together, session, until_waiting

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def hosted_by(host: str, player: str, seed: str) -> Game:
    """A 3-player game that `host` set up for others: `player` and two more play in it."""
    seats = [
        SeatSpec(email=player),
        SeatSpec(email=f"{seed}-2@example.org"),
        SeatSpec(email=f"{seed}-3@example.org"),
    ]
    return create_game(seats=seats, seed=seed, play_bots=False, host=user_for_email(host))


def test_two_hosts_erased_at_once_each_playing_in_the_others_game(monkeypatch):
    """Ann hosts a game Bob plays in; Bob hosts one Ann plays in. They erase their accounts at
    once: both erasures go through, both seats are left and neither game keeps a host."""
    ann, bob = "ann@example.org", "bob@example.org"
    first = hosted_by(bob, ann, "hosted-by-bob")
    second = hosted_by(ann, bob, "hosted-by-ann")
    assert first.pk < second.pk
    ann_id, bob_id = user_for_email(ann).pk, user_for_email(bob).pk
    pids: dict = {}
    errors: list[str] = []
    ann_paused = threading.Event()
    leave = departures.seat_left

    def seat_left_pausing_for_ann(*, seat: Seat):
        left = leave(seat=seat)
        if seat.user_id == ann_id:
            ann_paused.set()
            until_waiting(pids, "bob", errors, "Bob's erasure never waited for Ann's")
        return left

    monkeypatch.setattr(departures, "seat_left", seat_left_pausing_for_ann)

    run_together(
        session("ann", errors, lambda: erase_account(ann_id)),
        session("bob", errors, lambda: erase_account(bob_id), pids=pids, after=ann_paused),
    )

    assert errors == []
    assert is_erased(ann_id) and is_erased(bob_id)
    for game in (first, second):
        assert Game.objects.get(pk=game.pk).host_id is None
        assert not Seat.objects.filter(game=game, email__in=[ann, bob]).exists()
