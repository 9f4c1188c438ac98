"""A form posted on the game page in the instant its seat changes hands (the host gives it away,
or its player erases their account: docs/web.md, "Seat links") is refused with 403, saying the
seat is no longer the poster's, and nothing is written: the seat as the game's row lock finds it
is not the one the page was for. The page's seats are read before the lock; here the hand-over
commits right after that read, through the host's own tool."""

from __future__ import annotations

import html
import re

import pytest
from django.urls import reverse

from games import rules, store
from games.models import Command, Event, StandingOrder
from games.play.table import seat_replace
from games.record.hashchain import canonical_json
from games.services import submit_command
from tests.games.play.test_take_backs import NEW_CLANS, position
from web import views

NOT_YOURS = (
    "This seat is no longer yours: it changed hands just before your move arrived, and nothing was played."
)


def text_of(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.content.decode())).split())


def log_of(game) -> tuple[int, int]:
    return Event.objects.filter(game=game).count(), Command.objects.filter(game=game).count()


@pytest.fixture
def handed_over_as_it_posts(monkeypatch):
    """Once the view has read the poster's seat (for the form's colour), the host gives that seat
    to newcomer@example.org: the commit the poster's request races."""
    reading = views._viewer

    def reads_then_the_host_hands_over(request, game, wanted):
        found = reading(request, game, wanted)
        if wanted and found[0] is not None and found[0].email != "newcomer@example.org":
            seat_replace(game=game, colour=found[0].colour, email="newcomer@example.org")
        return found

    monkeypatch.setattr(views, "_viewer", reads_then_the_host_hands_over)


def test_a_move_posted_as_the_host_hands_the_seat_over_is_refused(client, make_game, handed_over_as_it_posts):
    game = make_game(2, seed="web-changed-hands")
    state, seq = store.load(game)
    colour = rules.pending(state)[0].seat
    seat = game.seats.get(colour=colour)
    client.force_login(seat.user)
    before = log_of(game)
    data = {
        "seat": colour,
        "expected_seq": seq,
        "nonce": "n1",
        "confirmed": "1",
        "choice": canonical_json(rules.legal_commands(state, colour)[0]),
    }

    response = client.post(reverse("games:detail", args=[game.pk]), data)

    assert response.status_code == 403
    assert NOT_YOURS in text_of(response)
    assert log_of(game) == before and not Command.objects.filter(command_id="web:n1").exists()
    # What the seat holds now is the newcomer's: the refusal shows none of it.
    assert "Your hand" not in text_of(response)


def test_a_take_back_posted_as_the_host_hands_the_seat_over_is_refused(
    client, make_game, handed_over_as_it_posts
):
    game = make_game(n_players=2, seed="take-back", setup=position(), options={"reaction_mode": "quick"})
    green = game.seats.get(colour="green")
    assert submit_command(game=game, seat=green, command=NEW_CLANS, expected_seq=store.head(game)[0]).accepted
    client.force_login(green.user)

    response = client.post(
        reverse("games:detail", args=[game.pk]),
        {"seat": "green", "expected_seq": store.head(game)[0], "nonce": "t1", "take_back": "1"},
    )

    assert response.status_code == 403
    text = text_of(response)
    assert "This seat is no longer yours" in text and "nothing was taken back" in text
    # Only the hand-over wrote (green's "never ask" policies set back to "ask" for the newcomer).
    assert not Command.objects.filter(game=game, body={"type": "take_back"}).exists()
    assert store.load(game)[0].territories["valley"]["clans"] == {"green": 5}


def test_an_order_posted_as_the_host_hands_the_seat_over_is_refused(
    client, make_game, handed_over_as_it_posts
):
    game = make_game(2, seed="web-changed-hands")
    green = game.seats.get(colour="green")
    client.force_login(green.user)

    response = client.post(
        reverse("games:orders", args=[game.pk]), {"seat": "green", "order": "peace refuse"}
    )

    assert response.status_code == 403
    assert "This seat is no longer yours" in text_of(response)
    assert not StandingOrder.objects.filter(seat=green).exists()
