"""Every email names the players as the table does (issue 40, "People, not colours"): news,
digests, reminders and the followers' digest say "Ann (green)" where they said "green", and
still speak to the reader as "you"; French too."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from unittest import mock

from django.utils import timezone

from games import store
from games.play.models import SeatClock
from games.record.options import table_options
from games.services import submit_command
from inis_pbem.tasks import sweep
from notifications.models import Outbox
from players.accounts import user_for_email
from players.models import Player
from tests.notifications import mail_clients
from tests.notifications.email_positions import CLASH, END, MIGRATE_TO_COVE, game_from
from tests.notifications.test_inbound import feed, last_to, prompt_for, send_all
from watching import digest
from watching.services import follow


def _names(**more) -> None:
    Player.objects.create(email="player1@example.org", display_name="Ann")
    Player.objects.create(email="player2@example.org", display_name="Bob")
    for email, fields in more.items():
        Player.objects.update_or_create(email=f"{email}@example.org", defaults=fields)


def _take_pretender(game) -> None:
    _state, seq = store.load(game)
    green = game.seats.get(colour="green")
    assert submit_command(game=game, seat=green, command={"type": "pretender"}, expected_seq=seq).accepted
    send_all()


def test_a_news_email_names_who_acted_and_whom_the_game_waits_for(db, django_capture_on_commit_callbacks):
    _names(player4={"delivery": Player.Delivery.EVERY})
    game = game_from(END, seed="names-in-news")
    send_all()
    with django_capture_on_commit_callbacks(execute=True):
        _take_pretender(game)
    news = last_to("player4@example.org")
    assert news.subject == f"News — Inis {game.pk}"
    assert "- Ann (green) took a Pretender token." in news.body, news.body
    assert "The game waits for Bob (blue)." in news.body, news.body


def test_a_french_digest_names_the_players(db):
    _names(player3={"delivery": Player.Delivery.DIGEST, "language": "fr"})
    game = game_from(END, seed="names-in-digest")
    send_all()
    _take_pretender(game)
    morning = datetime(2026, 11, 22, 8, 0, tzinfo=UTC)
    with mock.patch("django.utils.timezone.now", return_value=morning):
        assert sweep.apply().result["digests"] == 1
        send_all()
    body = last_to("player3@example.org").body
    assert "Ann (vert)" in body, body
    assert "- green" not in body.lower() and "vert a pris" not in body.lower(), body


def test_a_reminder_names_the_instigator_of_the_clash(db):
    _names()
    game = game_from(CLASH, seed="names-in-reminder")
    green = game.seats.get(colour="green")
    _state, seq = store.load(game)
    assert submit_command(game=game, seat=green, command=MIGRATE_TO_COVE, expected_seq=seq).accepted
    send_all()
    clock = SeatClock.objects.get(seat__game=game, seat__colour="blue")
    SeatClock.objects.filter(pk=clock.pk).update(opened_at=timezone.now() - timedelta(hours=40))
    sweep.apply()
    reminder = Outbox.objects.get(seat=clock.seat, kind=Outbox.Kind.REMINDER)
    assert "(instigator: Ann (green))" in reminder.body_text, reminder.body_text
    assert "Bob" not in reminder.body_text + reminder.subject  # blue reads "you"


def test_a_followers_digest_names_the_players_and_their_table_talk(make_game, play):
    game = make_game(seed="names-follow", n_players=3, options={**table_options(), "public": True})
    green = game.seats.get(colour="green")
    Player.objects.update_or_create(email=green.email, defaults={"display_name": "Ann"})
    fan = user_for_email("fan@example.org")
    follow(user=fan, game=game)
    play(game, 12, seed="after")
    from press.services import press_send

    press_send(game=game, seat=green, to=None, text="Peace in the Moor, anyone?")
    assert digest.send_follower_digest(fan.pk, now=datetime(2031, 5, 6, 8, 0, tzinfo=UTC)) > 0
    body = Outbox.objects.get(kind=Outbox.Kind.FOLLOWER_DIGEST).body_text
    assert "Ann (green), to the whole table: “Peace in the Moor, anyone?”" in body, body
    assert "Ann (green)" in body.replace("Ann (green), to the whole table", ""), body


def test_the_answer_to_a_stale_reply_names_whom_the_game_waits_for(db):
    """Ann answers an old prompt after playing on the web: the answer says whom the game waits
    for as her prompts do, "Bob (blue)", not "blue"."""
    _names()
    game = game_from(END, seed="names-in-stale-answer")
    old_prompt = prompt_for(game, "green")
    _take_pretender(game)

    assert feed(mail_clients.gmail(old_prompt, "pass")).startswith("stale")

    answer = last_to("player1@example.org").body
    assert "(the game waits for Bob (blue))" in answer, answer


def test_a_french_answer_to_a_garbled_reply_names_the_players(db):
    """Ann, who reads French, replies words that are no move: the refusal shows the island
    again, naming each seat's player as her prompts do ("Bob (bleu)"), not by colour alone."""
    _names(player1={"language": "fr"})
    game = game_from(END, seed="names-in-refusal")
    prompt = prompt_for(game, "green")

    assert feed(mail_clients.gmail(prompt, "blah blah")).startswith("rejected")

    answer = last_to("player1@example.org").body
    assert "Bob (bleu)" in answer, answer
