"""Table talk when a seat changes hands (docs/press.md, "When a seat changes hands"): a private
message is its sender's and recipient's as persons, so the host's new player at a colour reads
the public talk and what is written to or by them since, never what was said to or by the player
before them."""

from __future__ import annotations

import html
import io
import re

import pytest
from django.core import mail
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from community.reports import ReportRefused, report_message
from games.play.table import seat_replace
from players.models import Player
from players.preferences import player_for
from press.services import press_send
from press.waiting_talk import waiting_lines
from tests.notifications.test_inbound import send_all

GREEN_TO_BLUE = "Meet me at the Cove, just us two."
BLUE_TO_GREEN = "Deal: the Cove is yours."
TO_ALL = "Good luck, all."


@pytest.fixture
def handed_over(make_game):
    """A game where green (player1) and blue talked privately and green spoke to everyone, then
    the host gave green to newcomer@example.org."""
    game = make_game(4, seed="talk-hand-over")
    green, blue = (game.seats.get(colour=c) for c in ("green", "blue"))
    press_send(game=game, seat=green, to="blue", text=GREEN_TO_BLUE)
    press_send(game=game, seat=blue, to="green", text=BLUE_TO_GREEN)
    press_send(game=game, seat=green, to=None, text=TO_ALL)
    game.previous_green = green.user
    game.previous_green_page = _panel(_page(game, green.user))  # kept lines, before the hand-over
    seat_replace(game=game, colour="green", email="newcomer@example.org")
    return game


def _page(game, user):
    client = Client()
    client.force_login(user)
    return client.get(reverse("games:detail", args=[game.pk]))


def _panel(response) -> list[str]:
    """The lines of the page's Table talk panel as read: "who to whom: words"."""
    body = response.content.decode()
    start = body.index('id="talk"')
    lines = []
    for item in re.findall(r"<li>(.*?)</li>", body[start : body.index("</section>", start)], re.S):
        item = re.sub(r"<details.*?</details>", "", item, flags=re.S)
        text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", item)).split())
        line = re.fullmatch(r"(?:#\d+ )?(.*?) · .*? UTC (.*)", text)
        assert line is not None, text
        who, words = line.groups()
        lines.append(f"{who}: {words}")
    return lines


def _newcomer(game):
    return game.seats.get(colour="green").user


def test_the_new_player_reads_the_public_talk_but_none_of_the_private_talk_before_them(handed_over):
    game = handed_over
    assert game.previous_green_page == [
        f"You to blue alone: {GREEN_TO_BLUE}",
        f"blue to you alone: {BLUE_TO_GREEN}",
        f"You to everyone: {TO_ALL}",
    ]

    # The public talk is public; the previous player's words are green's, not "You".
    assert _panel(_page(game, _newcomer(game))) == [f"green to everyone: {TO_ALL}"]
    # Blue, who was party to the talk, still reads it.
    assert _panel(_page(game, game.seats.get(colour="blue").user)) == [
        f"green to you alone: {GREEN_TO_BLUE}",
        f"You to green alone: {BLUE_TO_GREEN}",
        f"green to everyone: {TO_ALL}",
    ]


def test_the_new_players_export_and_show_game_leave_the_private_talk_before_them_out(handed_over):
    game = handed_over
    client = Client()
    client.force_login(_newcomer(game))
    export = client.get(reverse("games:export", args=[game.pk])).json()

    assert [(m["number"], m["text"]) for m in export["press"]] == [(3, TO_ALL)]
    # Their links are still there to check the chain, without who, to whom or what.
    assert [link["number"] for link in export["proofs"]["press_hidden"]] == [1, 2]
    assert export["proofs"]["press"] == []
    out = io.StringIO()
    call_command("show_game", str(game.pk), "--as", "green", stdout=out)
    assert GREEN_TO_BLUE not in out.getvalue() and BLUE_TO_GREEN not in out.getvalue()


def test_the_new_player_may_not_report_a_private_message_before_them(handed_over):
    with pytest.raises(ReportRefused) as refused:
        report_message(reporter=_newcomer(handed_over), game_id=handed_over.pk, number=2, reason="rude")
    assert str(refused.value) == "There is no such message at this table that you may read."


def test_a_message_to_green_after_the_hand_over_is_the_new_players(handed_over):
    game = handed_over
    send_all()  # what was written before the hand-over
    mail.outbox.clear()
    press_send(game=game, seat=game.seats.get(colour="blue"), to="green", text="Welcome, green.")
    press_send(game=game, seat=game.seats.get(colour="green"), to="blue", text="Thanks, blue.")
    send_all()

    assert _panel(_page(game, _newcomer(game))) == [
        f"green to everyone: {TO_ALL}",
        "blue to you alone: Welcome, green.",
        "You to blue alone: Thanks, blue.",
    ]
    told = [m for m in mail.outbox if "Welcome, green." in m.body]
    assert [m.to for m in told] == [["newcomer@example.org"]]
    assert not [m for m in mail.outbox if game.previous_green.email in m.to]


def test_the_previous_player_given_the_seat_back_reads_their_own_words_again(handed_over):
    game = handed_over
    seat_replace(game=game, colour="green", email=game.previous_green.email)

    # Their own words are theirs, whenever written; what was said to green before is not.
    assert _panel(_page(game, game.previous_green)) == [
        f"You to blue alone: {GREEN_TO_BLUE}",
        f"You to everyone: {TO_ALL}",
    ]


def test_talk_waiting_for_the_previous_players_digest_is_not_in_the_new_players_prompt(make_game):
    game = make_game(3, seed="talk-hand-over-digest")
    Player.objects.filter(email=game.seats.get(colour="green").email).update(delivery=Player.Delivery.DIGEST)
    press_send(game=game, seat=game.seats.get(colour="blue"), to="green", text="For the old green only.")
    seat_replace(game=game, colour="green", email="newcomer@example.org")
    newcomer = player_for("newcomer@example.org")
    Player.objects.filter(pk=newcomer.pk).update(delivery=Player.Delivery.DIGEST)
    newcomer.refresh_from_db()
    green = game.seats.get(colour="green")
    press_send(game=game, seat=game.seats.get(colour="blue"), to="green", text="For the new green.")

    # The lines the newcomer's next prompt carries (`notifications.talk.waiting_lines`).
    assert waiting_lines(green, newcomer) == ["blue to you: “For the new green.”"]


def test_the_previous_players_news_waiting_for_their_digest_is_not_the_new_players(make_game, monkeypatch):
    """A private line kept for the previous green's daily digest was written for them: the
    newcomer's digest does not carry it, only what was written to them after the hand-over."""
    from notifications import digests
    from tests.community.test_open_tables import last_to

    monkeypatch.setattr(digests, "digest_due", lambda player, now=None: True)
    game = make_game(3, seed="news-hand-over-digest")
    old_green = game.seats.get(colour="green").email
    Player.objects.filter(email=old_green).update(delivery=Player.Delivery.DIGEST)
    press_send(game=game, seat=game.seats.get(colour="blue"), to="green", text="Zorblax, for the old green.")
    seat_replace(game=game, colour="green", email="newcomer@example.org")
    newcomer = player_for("newcomer@example.org")
    Player.objects.filter(pk=newcomer.pk).update(delivery=Player.Delivery.DIGEST)
    press_send(game=game, seat=game.seats.get(colour="blue"), to="green", text="Quillon, for the new green.")
    assert digests.send_digest(newcomer.pk) >= 1
    send_all()
    body = last_to("newcomer@example.org").body
    assert "Quillon" in body and "Zorblax" not in body


def test_a_report_of_the_previous_players_words_names_them_not_the_newcomer(handed_over):
    """Green's public "Good luck, all." (message 3) was the previous player's: the newcomer may
    report it, and the report names who wrote it; the previous player still may not."""
    report = report_message(reporter=_newcomer(handed_over), game_id=handed_over.pk, number=3, reason="rude")
    assert report.reported_id == handed_over.previous_green.pk
    blue = handed_over.seats.get(colour="blue").user
    assert report_message(reporter=blue, game_id=handed_over.pk, number=3, reason="rude").reported_id == (
        handed_over.previous_green.pk
    )
