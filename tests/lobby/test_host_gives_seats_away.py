"""The host's power over the seats (docs/rulings.md, "Host tools"): at a table of strangers or in
a rated game the host gives away a player's seat only once that player is absent (a deadline of
theirs passed with their decision open, or the stand-in plays for them), refused otherwise with
words that say when it becomes possible; among invited friends, unrated, the host keeps the
power. Whoever's seat is given away is told by email, in their language."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from community.models import SeatLeaver
from games.models import SeatClock, TableEvent
from games.play import table
from lobby import services
from lobby.selectors import my_games
from players.accounts import user_for_email
from players.preferences import player_for, set_display_name
from tests.community.test_open_tables import open_table, signed_in

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def host(transactional_db):
    user = user_for_email("bob@example.org")
    set_display_name("bob@example.org", "Bob")
    return user


def rated_open_game(host):
    """Bob's rated open table, Ivan (French, named) joined it, one bot: the game runs."""
    set_display_name("ivan@example.org", "Ivan")
    ivan = player_for("ivan@example.org")
    ivan.language = "fr"
    ivan.save()
    proposal = open_table(host, open_seats=1, bots=1, rated=True)
    services.table_join(proposal_id=proposal.pk, user=user_for_email("ivan@example.org"))
    proposal.refresh_from_db()
    return proposal.game


def replace(client, game, colour: str, email: str = ""):
    return client.post(
        reverse("lobby:host", args=[game.pk]),
        {"action": "replace", "seat": colour, "email": email},
        follow=True,
    )


def test_a_host_may_not_give_a_present_players_seat_away_in_a_rated_open_game(host):
    game = rated_open_game(host)
    ivan = game.seats.get(email="ivan@example.org")
    tools = signed_in("bob@example.org").get(reverse("lobby:host", args=[game.pk])).content.decode()
    assert "the seat of a player who is late" in tools
    page = replace(signed_in("bob@example.org"), game, ivan.colour).content.decode()
    assert "Ivan is not late: you can give their seat away once a deadline of theirs passes" in page
    assert "is now played by the bot" not in page
    ivan.refresh_from_db()
    assert not ivan.is_bot and ivan.email == "ivan@example.org"
    assert not TableEvent.objects.filter(game=game).exists()
    assert not [m for m in mail.outbox if "ivan@example.org" in m.to and "gave your seat" in m.subject]
    # The service refuses it too, whatever page sent it.
    with pytest.raises(table.TableError, match="Ivan is not late"):
        table.seat_replace(game=game, colour=ivan.colour, email="carol@example.org")


def open_decision(seat, *, opened_ago: timedelta) -> SeatClock:
    """Give `seat` an open Season turn, opened `opened_ago` (the game's deadline: 24 hours)."""
    SeatClock.objects.filter(seat=seat).update(
        seq=1, kind="season_turn", opened_at=timezone.now() - opened_ago, missed_in_row=0, stand_in=False
    )
    return SeatClock.objects.select_related("seat").get(seat=seat)


def test_the_refusal_says_when_the_players_decision_runs_out(host):
    game = rated_open_game(host)
    ivan = game.seats.get(email="ivan@example.org")
    open_decision(ivan, opened_ago=timedelta(hours=1))
    with pytest.raises(table.TableError, match=r"Their decision now runs out on .* UTC\."):
        table.seat_replace(game=game, colour=ivan.colour, email=None)


def test_once_a_deadline_of_theirs_passed_the_host_may_and_the_player_is_told_in_french(host):
    game = rated_open_game(host)
    ivan = game.seats.get(email="ivan@example.org")
    SeatClock.objects.filter(seat=ivan).update(missed_in_row=1)  # a deadline ran out on him
    page = replace(signed_in("bob@example.org"), game, ivan.colour).content.decode()
    assert "is now played by the bot" in page
    ivan.refresh_from_db()
    assert ivan.is_bot
    told = [m for m in mail.outbox if m.to == ["ivan@example.org"]][-1]
    assert "Bob a donné votre place" in told.subject and f"Inis {game.pk}" in told.subject
    assert "au bot" in told.body and "est classée" in told.body  # rated: how it counts for him
    assert "dernier" in told.body and "bob@example.org" not in told.body
    # His games list no longer holds it.
    assert not [g for g in my_games(user=user_for_email("ivan@example.org")) if g.game.pk == game.pk]


def test_a_deadline_passed_with_the_decision_still_open_makes_the_player_absent(host):
    """Before the sweep plays the default, the deadline passed with the decision open is enough."""
    game = rated_open_game(host)
    ivan = game.seats.get(email="ivan@example.org")
    assert not table.absent(game, ivan, open_decision(ivan, opened_ago=timedelta(hours=23)))
    assert table.absent(game, ivan, open_decision(ivan, opened_ago=timedelta(hours=25)))
    table.seat_replace(game=game, colour=ivan.colour, email="carol@example.org")
    assert game.seats.get(colour=ivan.colour).email == "carol@example.org"


def test_among_invited_friends_unrated_the_host_keeps_the_power_and_the_friend_is_told(host):
    friends = services.proposal_create(
        host=host,
        places=[services.PlaceSpec(email="ann@example.org"), services.PlaceSpec(is_bot=True)],
        host_plays=True,
        setup="random",
        deadlines={"default": 24, "reaction": 6},
        reaction_mode="holders",
    )
    services.invitation_answer(
        invitation=friends.invitations.get(position=1), user=user_for_email("ann@example.org"), accept=True
    )
    friends.refresh_from_db()
    game = friends.game
    ann = game.seats.get(email="ann@example.org")
    page = replace(signed_in("bob@example.org"), game, ann.colour, "cy@example.org").content.decode()
    assert "is now played by cy@example.org" in page and "the seat of a player who is late" not in page
    told = [m for m in mail.outbox if m.to == ["ann@example.org"]][-1]
    assert "Bob gave your seat" in told.subject and "to another player" in told.body
    assert "rated" not in told.body and "cy@example.org" not in told.body


def test_the_host_who_gives_their_own_seat_away_left_the_game_and_is_not_told(host):
    """Giving up one's own seat is leaving: in a rated game the host who hands their seat to a
    friend is ranked last (docs/ratings.md) and gets no email about what they did themselves."""
    game = rated_open_game(host)
    own = game.seats.get(email="bob@example.org")
    before = len(mail.outbox)
    page = replace(signed_in("bob@example.org"), game, own.colour, "dan@example.org").content.decode()
    assert "is now played by dan@example.org" in page
    assert list(SeatLeaver.objects.filter(game_id=game.pk).values_list("player_id", "colour")) == [
        (host.pk, own.colour)
    ]
    assert not [m for m in mail.outbox[before:] if m.to == ["bob@example.org"]]
