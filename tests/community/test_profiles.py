"""Profiles (docs/profiles.md): a player's page shows their name, language, games, rating and
answer-time figures, never an address; a player may hide it from strangers; a deleted player
has no page; the leaderboard lists players with 5 rated games or more; hosts' names in the open
tables link to their profiles; the profiles' rebuild equals what the feeds built."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from django.conf import settings
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import reverse

from community import projections
from community.models import FinishedSeat, PlayerRating, PlayerRecord
from community.profiles import set_hidden
from community.ratings import MU, SIGMA
from games import store
from games.models import Command, SeatClock
from games.services import submit_command
from players.accounts import user_for_email
from players.preferences import set_display_name
from tests.community.test_open_tables import open_table
from tests.community.test_ratings import play_to_the_end, rated_table
from tests.moments import in_words, machine_forms, text_of

pytestmark = pytest.mark.django_db(transaction=True)


def page(client: Client, player_id: int):
    return client.get(reverse("community:profile", args=[player_id]))


def test_a_profile_after_a_finished_game_shows_the_figures_and_no_address():
    game = rated_table("profile")
    green = game.seats.get(colour="green")
    set_display_name(green.email, "Brigid")
    SeatClock.objects.filter(seat=green).update(answer_seconds=[3600, 7200, 10800])
    play_to_the_end(game)
    response = page(Client(), green.user_id)
    body = response.content.decode()
    assert response.status_code == 200
    assert "Brigid" in body and green.email not in body
    assert "1 played, 1 finished, 1 won" in body
    assert "from 1 rated game" in body and "provisional" in body
    assert "answers in about 2 hours" in body
    assert f'href="{reverse("games:detail", args=[game.pk])}"' in body
    # In French, each count stands beside its word: no "1 jouées" for one game.
    french = page(Client(HTTP_ACCEPT_LANGUAGE="fr"), green.user_id).content.decode()
    assert "jouées : 1, terminées : 1, gagnées : 1" in french


def test_a_win_of_the_stand_in_is_not_the_players_win():
    """Green left the seat to the stand-in, which then won: green's profile counts no win and
    lists the game as left to the stand-in, as the rating ranks the seat last."""
    game = rated_table("stand-in-won")
    green = game.seats.get(colour="green")
    state, seq = store.load(game)
    assert submit_command(game=game, seat=green, command={"type": "pretender"}, expected_seq=seq).accepted
    SeatClock.objects.filter(seat=green).update(stand_in=True)  # green's own move cleared it
    state, seq = store.load(game)
    blue = game.seats.get(colour="blue")
    assert submit_command(game=game, seat=blue, command={"type": "pass"}, expected_seq=seq).accepted
    game.refresh_from_db()
    assert game.winner == "green"  # elected High King, the stand-in playing the seat
    body = page(Client(), green.user_id).content.decode()
    assert "1 played, 1 finished, 0 won" in body
    finished = body.split('id="finished"')[1].split("</ul>")[0]
    assert "left to the stand-in" in finished and ": won" not in finished


def test_the_share_answered_before_the_deadline():
    game = rated_table("share")
    blue = game.seats.get(colour="blue")
    for n, key in enumerate(["email:a", "web:b", "email:c", "deadline:blue:9"]):
        Command.objects.create(
            game=game, seat=blue, command_id=key, body={}, client_seq=0, first_seq=1000 + n, last_seq=1000 + n
        )
    body = page(Client(), blue.user_id).content.decode()
    assert "75% of decisions answered before the deadline" in body


def test_a_hidden_profile_is_shown_to_table_mates_only():
    game = rated_table("hidden")
    white = game.seats.get(colour="white")
    owner = Client()
    owner.force_login(white.user)
    response = owner.post(reverse("community:profile_visibility"), {"hidden": "1"})
    assert response.status_code == 302
    stranger = Client()
    stranger.force_login(user_for_email("stranger@example.org"))
    assert page(stranger, white.user_id).status_code == 404
    assert page(Client(), white.user_id).status_code == 404
    mate = Client()
    mate.force_login(game.seats.get(colour="green").user)
    assert page(mate, white.user_id).status_code == 200
    assert "Show my profile to anyone" in page(owner, white.user_id).content.decode()


def test_a_bad_visibility_choice_is_refused_and_nothing_is_written():
    user = user_for_email("someone@example.org")
    client = Client()
    client.force_login(user)
    response = client.post(reverse("community:profile_visibility"), {"hidden": "maybe"}, follow=True)
    assert "Choose to hide your profile from strangers or to show it." in response.content.decode()
    assert page(Client(), user.pk).status_code == 200


def test_a_deleted_player_has_no_profile_and_the_page_says_so():
    user = user_for_email("gone@example.org")
    user_id = user.pk
    user.delete()
    response = page(Client(), user_id)
    assert response.status_code == 404
    assert "There is no such player" in response.content.decode()


def test_the_leaderboard_lists_players_with_five_rated_games():
    ana, bo = user_for_email("ana@example.org"), user_for_email("bo@example.org")
    set_display_name("ana@example.org", "Ana")
    set_display_name("bo@example.org", "Bo")
    PlayerRating.objects.create(
        player_id=ana.pk, mu=MU + 100, sigma=SIGMA / 2, games=5, ordinal=MU + 100 - 1.5 * SIGMA
    )
    PlayerRating.objects.create(
        player_id=bo.pk, mu=MU + 900, sigma=SIGMA / 2, games=4, ordinal=MU + 900 - 1.5 * SIGMA
    )
    body = Client().get(reverse("community:leaderboard")).content.decode()
    # By their profile links: a bare "Bo" may turn up in the page's random CSRF token.
    assert "Ana" in body and f'href="{reverse("community:profile", args=[bo.pk])}"' not in body
    assert f'href="{reverse("community:profile", args=[ana.pk])}"' in body


def test_players_who_hide_their_profile_leave_their_places_on_the_leaderboard_to_others():
    """The leaderboard shows 100 players: with three of the 103 best hiding their profile, the
    next three take their places, and 100 are still shown."""
    users = [user_for_email(f"p{i}@example.org") for i in range(103)]
    PlayerRating.objects.bulk_create(
        PlayerRating(player_id=u.pk, mu=2000 - i, sigma=100, games=6, ordinal=1700 - i)
        for i, u in enumerate(users)
    )
    for u in users[:3]:
        set_hidden(u.pk, True)
    body = Client().get(reverse("community:leaderboard")).content.decode()
    shown = {u.pk for u in users if f'href="{reverse("community:profile", args=[u.pk])}"' in body}
    assert shown == {u.pk for u in users[3:]}


def test_the_hosts_name_in_the_open_tables_links_to_their_profile():
    host = user_for_email("host@example.org")
    set_display_name("host@example.org", "Brigid")
    open_table(host)
    body = Client().get(reverse("community:open_tables")).content.decode()
    assert f'<a href="{reverse("community:profile", args=[host.pk])}">Brigid</a>' in body


def test_the_profiles_rebuild_equals_what_the_feeds_built():
    for n in range(2):
        play_to_the_end(rated_table(f"profiles-{n}"))

    def built():
        records = sorted(PlayerRecord.objects.values_list("player_id", "finished", "won", "abandoned"))
        seats = sorted(FinishedSeat.objects.values_list("player_id", "game_id", "colour", "won", "abandoned"))
        return records, seats

    fed = built()
    assert len(fed[1]) == 8
    projections.rebuild("profiles")
    assert built() == fed


def test_a_joined_players_name_on_the_tables_page_links_to_their_profile():
    host = user_for_email("host@example.org")
    table = open_table(host, open_seats=2)
    ana = user_for_email("ana@example.org")
    set_display_name("ana@example.org", "Ana")
    joiner = Client()
    joiner.force_login(ana)
    joiner.post(reverse("community:join", args=[table.pk]))
    hosting = Client()
    hosting.force_login(host)
    body = hosting.get(reverse("lobby:proposal", args=[table.pk])).content.decode()
    assert f'<a href="{reverse("community:profile", args=[ana.pk])}">Ana</a>' in body


def test_my_profile_in_the_header_names_no_account_number():
    """The header's "My profile" leads to the player's own page through one address for all
    (two players' pages differ only in their own names, never in an account number); a
    visitor is sent to sign in."""
    user = user_for_email("ann@example.com")
    client = Client()
    client.force_login(user)
    page_html = client.get(reverse("community:leaderboard")).content.decode()
    assert reverse("community:own_profile") in page_html
    assert reverse("community:profile", args=[user.pk]) not in page_html
    response = client.get(reverse("community:own_profile"))
    assert response.status_code == 302
    assert response["Location"] == reverse("community:profile", args=[user.pk])
    visitor = Client().get(reverse("community:own_profile"))
    assert visitor.status_code == 302
    assert visitor["Location"].split("?")[0] == resolve_url(settings.LOGIN_URL)


def test_a_newcomer_to_a_seat_starts_with_no_answer_figures_of_the_previous_player():
    """docs/profiles.md: the answer figures are the player's own, "the decisions the player
    settled themselves" and "the answers their seats' clocks keep": a seat given to a newcomer
    (the host's tools) brings them none of the previous player's; the decision the deadline
    settled while the previous player held it stays theirs."""
    from games.play.table import seat_replace

    game = rated_table("answers-hand-over", rated=False)
    green = game.seats.get(colour="green")
    SeatClock.objects.filter(seat=green).update(answer_seconds=[7200, 7200, 7200])
    state, seq = store.load(game)
    assert submit_command(
        game=game,
        seat=green,
        command={"type": "pretender"},
        expected_seq=seq,
        command_id=f"deadline:green:{seq}",
    ).accepted
    seat_replace(game=game, colour="green", email="newcomer@example.org", actor="service")

    newcomer = page(Client(), user_for_email("newcomer@example.org").pk).content.decode()
    answers = newcomer.split('id="answers">')[1].split("</dd>")[0]
    assert answers == "no answer yet", answers
    before = page(Client(), green.user_id).content.decode()
    assert "0% of decisions answered before the deadline" in before


def test_a_hidden_profile_is_shown_to_a_table_mate_whose_seat_was_handed_over():
    """docs/profiles.md: a hidden profile "is shown only to the player and to the players who
    sat at a game with them": a player who sat there still did once their seat is given to
    somebody else, and the newcomer sits there too."""
    from games.play.table import seat_replace

    game = rated_table("hidden-hand-over", rated=False)
    white, orange = game.seats.get(colour="white"), game.seats.get(colour="orange")
    set_hidden(white.user_id, True)
    seat_replace(game=game, colour="orange", email="newcomer@example.org", actor="service")
    former = Client()
    former.force_login(orange.user)
    assert page(former, white.user_id).status_code == 200
    newcomer = Client()
    newcomer.force_login(user_for_email("newcomer@example.org"))
    assert page(newcomer, white.user_id).status_code == 200
    stranger = Client()
    stranger.force_login(user_for_email("stranger@example.org"))
    assert page(stranger, white.user_id).status_code == 404


@pytest.mark.parametrize("language", ["en", "fr"])
def test_last_finished_games_give_the_day_each_ended_in_words(language):
    """ "Last finished games" ("Dernières parties terminées") write the day a game ended as the
    other pages write their dates: "1 January 2026" and "1er janvier 2026" (French writes "1er"
    on the first of a month, docs/translation.md), not Django's "Jan. 1, 2026" / "1 janvier
    2026"."""
    player = user_for_email("ended@example.org")
    ended = datetime(2026, 1, 1, 14, 3, tzinfo=UTC)
    FinishedSeat.objects.create(player_id=player.pk, game_id=4321, colour="green", won=True, ended_at=ended)
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language

    body = page(client, player.pk).content.decode()
    finished = text_of(body.split('id="finished"')[1].split("</ul>")[0])

    colon = " :" if language == "fr" else ":"
    assert f"{in_words(ended, language, time=False)}{colon}" in finished
    assert not any(form in finished for form in machine_forms(ended))
