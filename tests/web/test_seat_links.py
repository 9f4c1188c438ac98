"""Seat links: the link in a game email acts for its own seat of its own game only, not for the
player's account, and stops acting when the seat changes hands, when the game ends and after
SEAT_LINK_DAYS. The attack: an old or forwarded prompt, opened by somebody else."""

from __future__ import annotations

import re
import time
from unittest import mock
from urllib.parse import urlsplit

import pytest
from django.test import Client
from django.urls import reverse

from games import rules, store
from games.models import Command, Game, Seat
from games.play import table
from games.record.hashchain import canonical_json
from games.services import submit_command
from players import seat_links as seat_access
from players.accounts import user_for_email
from tests.notifications.email_positions import END, game_from
from tests.notifications.test_inbound import last_to, prompt_for, send_all
from tests.web.test_views import text_of

# A seat's page says "Game N: you play green" (the island's tooltips quote card texts, where
# "after you play a Season card" appears on every page).
LINK = re.compile(r"https?://\S+?/games/\d+/seat/[^/\s]+/(?:history/)?")


def links_in(body: str) -> list[str]:
    """The seat links of an email body, as a reader would click them (path only)."""
    return [urlsplit(url).path for url in LINK.findall(body)]


@pytest.fixture
def two_games(make_game):
    """Two games of player1 (green in both), who hosts the first; and green's prompt link."""
    host = user_for_email("player1@example.org")
    first = make_game(seed="seat-links-1", host=host)
    second = make_game(seed="seat-links-2", host=host)
    return Game.objects.get(pk=first.pk), Game.objects.get(pk=second.pk)


def prompt_link(game, colour: str) -> str:
    """The link to the seat's page in its latest prompt email (what gets forwarded)."""
    body = prompt_for(game, colour).body
    page = [path for path in links_in(body) if not path.endswith("/history/")]
    assert page, "the prompt carries a link to the seat's page"
    return page[0]


def pending_colour(game) -> str:
    state, _seq = store.load(game)
    return rules.pending(state)[0].seat


def decide(client, game, colour: str):
    """Post the first legal command of `colour` from the game page, as its form does."""
    state, seq = store.load(game)
    command = rules.legal_commands(state, colour)[0]
    return client.post(
        reverse("games:detail", args=[game.pk]),
        {"seat": colour, "expected_seq": seq, "nonce": f"n{seq}", "choice": canonical_json(command)},
    )


def test_a_forwarded_prompt_opens_its_seat_and_decides_without_signing_anybody_in(two_games):
    game, _other = two_games
    colour = pending_colour(game)
    stranger = Client()
    landing = stranger.get(prompt_link(game, colour))
    assert landing.status_code == 302 and "sesame" not in landing.url
    page = stranger.get(landing.url)
    assert page.status_code == 200 and ": you play" in text_of(page) and colour in text_of(page)
    assert not page.wsgi_request.user.is_authenticated
    assert "_auth_user_id" not in stranger.session

    before = store.head(game)[0]
    response = decide(stranger, game, colour)
    assert response.status_code == 302 and store.head(game)[0] > before
    assert Command.objects.get(game=game).command_id.startswith("web:")
    history = stranger.get(reverse("games:history", args=[game.pk]))
    assert history.status_code == 200
    export = stranger.get(reverse("games:export", args=[game.pk]))
    assert export.status_code == 200 and f'-{colour}.json"' in export["Content-Disposition"]


def test_the_prompt_carries_no_sign_in_and_no_seat_secret(two_games):
    game, _other = two_games
    colour = pending_colour(game)
    prompt = prompt_for(game, colour)
    seat = game.seats.get(colour=colour)
    for body in (prompt.body, prompt.alternatives[0][0]):
        assert "sesame" not in body and seat.token not in body
    assert any(path.endswith("/history/") for path in links_in(prompt.body))


def test_a_forwarded_prompt_opens_no_other_game_no_my_games_and_no_host_tools(two_games):
    game, other = two_games
    colour = pending_colour(game)
    stranger = Client()
    stranger.get(prompt_link(game, colour))

    # The same player's seat in another game: a spectator's page, and no decision.
    elsewhere = stranger.get(reverse("games:detail", args=[other.pk]))
    assert elsewhere.status_code == 200 and ": you play" not in text_of(elsewhere)
    other_colour = pending_colour(other)
    assert decide(stranger, other, other_colour).status_code == 403
    assert stranger.get(reverse("games:detail", args=[other.pk]) + f"?as={other_colour}").status_code == 403
    assert not Command.objects.filter(game=other).exists()
    # "My games" asks for a sign-in; the host tools and the lobby's forms too.
    home = stranger.get(reverse("lobby:home"))
    assert "player1@example.org" not in text_of(home) and f"Game {other.pk}" not in text_of(home)
    host = stranger.get(reverse("lobby:host", args=[game.pk]))
    assert host.status_code == 302 and reverse("lobby:sign_in") in host.url
    assert stranger.get(reverse("lobby:new")).status_code == 302
    # Nor does the link make another seat of the same game its own.
    others = [c for c in game.seats.values_list("colour", flat=True) if c != colour]
    assert stranger.get(reverse("games:detail", args=[game.pk]) + f"?as={others[0]}").status_code == 403


def test_a_link_stops_acting_when_its_seat_changes_hands(two_games, django_capture_on_commit_callbacks):
    game, _other = two_games
    colour = pending_colour(game)
    link = prompt_link(game, colour)
    stranger = Client()
    stranger.get(link)  # followed once, before the host replaces the player
    seat = game.seats.get(colour=colour)
    with django_capture_on_commit_callbacks(execute=True):
        table.seat_replace(game=game, colour=colour, email="newcomer@example.org")

    gone = Client().get(link)
    assert gone.status_code == 410 and "no longer opens a seat" in text_of(gone)
    assert stranger.get(link).status_code == 410
    page = stranger.get(reverse("games:detail", args=[game.pk]))
    assert ": you play" not in text_of(page)
    assert decide(stranger, game, colour).status_code == 403
    assert seat.token != game.seats.get(colour=colour).token


def test_after_the_end_a_link_leads_to_the_public_page_and_acts_for_nobody(db):
    game = Game.objects.get(pk=game_from(END, seed="seat-link-end").pk)
    send_all()
    green_link = prompt_link(game, "green")  # green decides first
    stranger = Client()
    stranger.get(green_link)
    state, seq = store.load(game)
    command = {"type": "pretender"}  # green; then every seat passes until the game is over
    while not rules.is_over(state):
        colour = rules.pending(state)[0].seat
        assert submit_command(
            game=game, seat=Seat.objects.get(game=game, colour=colour), command=command, expected_seq=seq
        ).accepted
        command = {"type": "pass"}
        state, seq = store.load(game)
    send_all()
    game.refresh_from_db()
    assert game.is_over

    response = Client().get(green_link)
    assert response.status_code == 302 and response.url == reverse("games:detail", args=[game.pk])
    over = last_to("player1@example.org")
    assert over.subject.startswith("Game over: ")
    for path in links_in(over.body):
        followed = Client().get(path)
        assert followed.status_code == 302 and "/seat/" not in followed.url
    # The grant taken before the end no longer names a seat.
    page = stranger.get(reverse("games:detail", args=[game.pk]))
    assert page.status_code == 200 and ": you play" not in text_of(page)


def test_a_link_older_than_seat_link_days_is_refused_and_a_grant_ends_with_its_link(two_games, settings):
    game, _other = two_games
    colour = pending_colour(game)
    seat = game.seats.get(colour=colour)
    days = settings.SEAT_LINK_DAYS
    assert days == 7
    with mock.patch("time.time", return_value=time.time() - (days + 1) * 86400):  # sent 8 days ago
        old = seat_access.seat_link_url(game_id=game.pk, seat_id=seat.pk, seat_secret=seat.token)
    response = Client().get(urlsplit(old).path)
    assert response.status_code == 410 and "no longer opens a seat" in text_of(response)
    assert f"{reverse('lobby:sign_in')}?next=" in response.content.decode()

    with mock.patch("time.time", return_value=time.time() - 2 * 86400):  # sent 2 days ago: acts
        recent = seat_access.seat_link_url(game_id=game.pk, seat_id=seat.pk, seat_secret=seat.token)
    holder = Client()
    assert holder.get(urlsplit(recent).path).status_code == 302
    assert ": you play" in text_of(holder.get(reverse("games:detail", args=[game.pk])))
    settings.SEAT_LINK_DAYS = 1  # now the link, and the grant it gave, have run out
    assert ": you play" not in text_of(holder.get(reverse("games:detail", args=[game.pk])))
    assert decide(holder, game, colour).status_code == 403


def test_damaged_forged_and_old_form_links_act_for_nobody(two_games):
    game, other = two_games
    colour = pending_colour(game)
    link = prompt_link(game, colour)
    seat_id, stamp, signature = link.rstrip("/").rsplit("/", 1)[1].split(".")
    tampered = link.replace(signature, signature[:-1] + ("A" if signature[-1] != "A" else "B"))
    other_seat = game.seats.exclude(colour=colour).first()
    forged_seat = link.replace(f"/seat/{seat_id}.", f"/seat/{other_seat.pk}.")
    other_game = link.replace(f"/games/{game.pk}/", f"/games/{other.pk}/")
    old_form = reverse("games:seat", args=[game.pk, game.seats.get(colour=colour).token])
    for path in (tampered, forged_seat, other_game, old_form):
        client = Client()
        refused = client.get(path)
        assert refused.status_code == 410, path
        # A link cut or changed on its way is not said to have only run out.
        assert "was cut or changed on its way" in text_of(refused)
        assert seat_access.SESSION_KEY not in client.session
    assert Client().get(reverse("games:seat", args=[game.pk, "a.b.c"])).status_code == 400


def test_following_a_link_renews_the_session_key(two_games):
    """A session fixed in advance (a cookie planted by somebody else) does not receive the grant."""
    game, _other = two_games
    client = Client()
    client.get(reverse("lobby:home"))
    client.session.save()
    before = client.session.session_key
    client.get(prompt_link(game, pending_colour(game)))
    assert client.session.session_key != before


def test_a_signed_in_player_following_their_link_keeps_their_account(two_games):
    game, other = two_games
    host_seat = game.seats.get(email="player1@example.org")
    player = Client()
    player.force_login(host_seat.user)
    link = seat_access.seat_link_url(game_id=game.pk, seat_id=host_seat.pk, seat_secret=host_seat.token)
    assert player.get(urlsplit(link).path).status_code == 302
    assert ": you play" in text_of(player.get(reverse("games:detail", args=[other.pk])))
    assert player.get(reverse("lobby:host", args=[game.pk])).status_code == 200
