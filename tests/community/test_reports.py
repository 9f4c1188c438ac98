"""Reports to the operator (docs/profiles.md, "Reporting"): anyone signed in reports a player from
their profile or a table-talk message from the game page, with a short reason; the report lands
in the admin list with the message's words, its game and the reporter; the reported player is not
told; a spectator reports only talk they may read; reports are limited per hour."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse

from community.models import Report
from players.accounts import user_for_email
from players.erasure import erase_account
from press.services import press_send

pytestmark = pytest.mark.django_db(transaction=True)


def signed_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


@pytest.fixture
def game(make_game):
    game = make_game(3, seed="reports", options={"public": True})
    return game


def seats(game) -> dict:
    return {seat.colour: seat for seat in game.seats.all()}


def report_message(client: Client, game, number: int, reason: str = "Insults after the clash."):
    return client.post(
        reverse("community:report_message", args=[game.pk, number]), {"reason": reason}, follow=True
    )


def test_a_player_reports_another_players_message_from_the_game_page(game):
    green, blue, *_rest = seats(game).values()
    press_send(game=game, seat=green, to="all", text="You play like a sheep.")
    reader = signed_in(blue.user)
    page = reader.get(reverse("games:detail", args=[game.pk])).content.decode()
    talk = page[page.index('id="talk"') :]
    assert reverse("community:report_message", args=[game.pk, 1]) in talk
    # Not beside one's own message.
    own = signed_in(green.user).get(reverse("games:detail", args=[game.pk])).content.decode()
    assert reverse("community:report_message", args=[game.pk, 1]) not in own
    mail.outbox.clear()

    response = report_message(reader, game, 1)
    assert "your report went to the people who run this site" in response.content.decode()
    report = Report.objects.get()
    assert (report.reporter, report.reported, report.game_id, report.message_number) == (
        blue.user,
        green.user,
        game.pk,
        1,
    )
    assert report.message_text == "You play like a sheep." and report.reason == "Insults after the clash."
    assert not mail.outbox  # nobody is told, the reported player least of all


def test_the_admin_lists_reports_with_the_message_its_game_and_the_reporter(game):
    green, blue, *_rest = seats(game).values()
    press_send(game=game, seat=green, to="all", text="You play like a sheep.")
    report_message(signed_in(blue.user), game, 1)
    operator = get_user_model().objects.create_superuser("op", "op@example.org", "pw")
    page = signed_in(operator).get(reverse("admin:community_report_changelist")).content.decode()
    assert "You play like a sheep." in page and "Insults after the clash." in page
    assert blue.user.username in page and str(game.pk) in page


def test_a_spectator_reports_public_talk_but_never_a_private_message_or_a_private_games(game, make_game):
    green, blue, orange = seats(game).values()
    press_send(game=game, seat=green, to="all", text="Hello all.")
    press_send(game=game, seat=green, to=blue.colour, text="Psst, the Cove.")
    spectator = signed_in(user_for_email("watcher@example.org"))
    assert "your report went" in report_message(spectator, game, 1).content.decode()
    refusal = "There is no such message at this table that you may read."
    assert refusal in report_message(spectator, game, 2).content.decode()
    assert refusal in report_message(signed_in(orange.user), game, 2).content.decode()
    private = make_game(2, seed="reports-private")
    press_send(game=private, seat=private.seats.first(), to="all", text="Hi.")
    assert refusal in report_message(spectator, private, 1).content.decode()
    assert refusal in report_message(spectator, game, 99).content.decode()
    assert Report.objects.count() == 1


def test_a_player_is_reported_from_their_profile_and_bad_reports_are_refused(game):
    green, blue, *_rest = seats(game).values()
    reporter = signed_in(blue.user)
    page = reporter.get(reverse("community:profile", args=[green.user.pk])).content.decode()
    assert reverse("community:report_player", args=[green.user.pk]) in page
    url = reverse("community:report_player", args=[green.user.pk])
    assert (
        "Say in a few words what is wrong."
        in reporter.post(url, {"reason": "  "}, follow=True).content.decode()
    )
    too_long = reporter.post(url, {"reason": "x" * 501}, follow=True).content.decode()
    assert "Say it in 500 characters at most, not 501." in too_long
    own = reverse("community:report_player", args=[blue.user.pk])
    assert "You cannot report yourself." in reporter.post(own, {"reason": "me"}, follow=True).content.decode()
    assert not Report.objects.exists()
    taken = reporter.post(url, {"reason": "Threatens in every game."}, follow=True).content.decode()
    assert "your report went" in taken
    report = Report.objects.get()
    assert (report.reported, report.game_id, report.message_text) == (green.user, None, "")
    assert Client().post(url, {"reason": "x"}).status_code == 302  # a visitor signs in first
    assert Report.objects.count() == 1


def test_an_erased_player_is_no_such_player_to_report(game):
    """docs/profiles.md: refused, "with nothing written: ... a player that does not exist or was
    erased ... ("There is no such player.")"."""
    green, blue, *_rest = seats(game).values()
    erase_account(green.user.pk)
    url = reverse("community:report_player", args=[green.user.pk])
    refused = signed_in(blue.user).post(url, {"reason": "Rude."}, follow=True).content.decode()
    assert "There is no such player." in refused and "your report went" not in refused
    assert not Report.objects.exists()


def test_reports_are_limited_per_hour_with_a_clear_refusal(game, settings):
    settings.REPORTS_PER_HOUR = 2
    green, blue, *_rest = seats(game).values()
    reporter = signed_in(blue.user)
    url = reverse("community:report_player", args=[green.user.pk])
    for _ in range(2):
        reporter.post(url, {"reason": "Rude."})
    refused = reporter.post(url, {"reason": "Rude."}, follow=True).content.decode()
    assert "You sent too many reports this hour: try again later." in refused
    assert Report.objects.count() == 2
