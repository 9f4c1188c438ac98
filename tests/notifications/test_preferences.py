"""Players' preferences: every email or a daily digest of news (prompts still at once), one-click
unsubscribe from news without leaving the game, time zone, language of card names, vacation."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from unittest import mock

from django.utils import timezone

from games import store
from games.play.models import SeatClock
from games.services import submit_command
from inis_pbem.tasks import sweep
from notifications import tasks
from notifications.models import NewsItem, Outbox
from notifications.prompts import player_urls
from players.models import Player
from tests.notifications.email_positions import ASSEMBLY, END, game_from
from tests.notifications.test_inbound import last_to, prompt_for, send_all


def _take_pretender(game):
    state, seq = store.load(game)
    green = game.seats.get(colour="green")
    assert submit_command(game=game, seat=green, command={"type": "pretender"}, expected_seq=seq).accepted
    send_all()


def test_by_default_news_comes_only_with_the_next_prompt(db):
    game = game_from(END, seed="news-default")
    send_all()

    _take_pretender(game)

    # Nobody gets a news email; blue reads it in its next prompt, orange and white at the end.
    assert not Outbox.objects.filter(game=game, kind=Outbox.Kind.NEWS).exists()
    text = prompt_for(game, "blue").body
    assert "What happened since your last move:" in text and "- Green took a Pretender token." in text
    state, seq = store.load(game)
    assert submit_command(
        game=game, seat=game.seats.get(colour="blue"), command={"type": "pass"}, expected_seq=seq
    ).accepted
    send_all()
    assert not Outbox.objects.filter(game=game, kind=Outbox.Kind.NEWS).exists()
    over = last_to("player3@example.org")
    assert over.subject == f"Game over: green is the High King — Inis {game.pk}"
    assert "- Green took a Pretender token." in over.body and "- Blue passed." in over.body


def test_news_emails_when_chosen_go_at_most_once_a_minute_per_seat(db, django_capture_on_commit_callbacks):
    Player.objects.create(email="player4@example.org", delivery=Player.Delivery.EVERY)
    game = game_from(END, seed="news-every")
    send_all()
    white = game.seats.get(colour="white")

    with django_capture_on_commit_callbacks(execute=True):  # the news task, as after a commit
        _take_pretender(game)

    first = last_to("player4@example.org")  # white: nothing to decide now
    assert first.subject == f"News — Inis {game.pk}"
    assert first.body.startswith(f"News from Inis game {game.pk} (you play white):")
    assert "- Green took a Pretender token." in first.body
    assert "The game waits for blue." in first.body
    # Green itself, who acted, gets no news of its own move.
    assert not Outbox.objects.filter(seat__colour="green", kind=Outbox.Kind.NEWS).exists()

    # Two more lines of news within the minute: they wait, then go out together, once.
    for seq, text in ((90, "Round 4 began."), (91, "Blue is the Brenn (chieftain of the Capital).")):
        NewsItem.objects.create(game=game, seat=white, seq=seq, text=text)
    assert tasks.send_news.apply(args=(white.pk,)).result == 0  # too soon after the first
    assert sweep.apply().result["digests"] == 0
    later = timezone.now() + timedelta(seconds=61)
    with mock.patch("django.utils.timezone.now", return_value=later):
        assert sweep.apply().result["digests"] == 1
        assert sweep.apply().result["digests"] == 0
    send_all()
    news = Outbox.objects.filter(seat=white, kind=Outbox.Kind.NEWS).order_by("id")
    assert news.count() == 2
    assert "- Round 4 began.\n- Blue is the Brenn" in news.last().body_text


def test_a_digest_player_gets_one_email_a_day_and_prompts_at_once(db):
    Player.objects.create(
        email="player3@example.org", delivery=Player.Delivery.DIGEST, time_zone="Asia/Tokyo"
    )
    Player.objects.create(email="player2@example.org", delivery=Player.Delivery.DIGEST)
    game = game_from(END, seed="news-digest")
    send_all()
    _take_pretender(game)
    assert not Outbox.objects.filter(seat__colour="orange", kind=Outbox.Kind.NEWS).exists()
    assert NewsItem.objects.filter(seat__colour="orange", mailed_at__isnull=True).exists()

    morning = datetime(2026, 11, 22, 7, 30, tzinfo=UTC) - timedelta(hours=9)  # 7:30 in Tokyo
    with mock.patch("django.utils.timezone.now", return_value=morning - timedelta(hours=2)):
        assert sweep.apply().result["digests"] == 0  # 5:30 in Tokyo: too early
    with mock.patch("django.utils.timezone.now", return_value=morning):
        assert sweep.apply().result["digests"] == 1
        assert sweep.apply().result["digests"] == 0  # once a day
        send_all()

    digest = last_to("player3@example.org")
    assert digest.subject == "Daily news: 1 line from your games — Inis"
    assert (
        f"Game {game.pk} (you play orange)" in digest.body
        and "- Green took a Pretender token." in digest.body
    )
    assert digest.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"

    # Prompts still come at once: blue's, a digest player too, came with green's Pretender token.
    assert prompt_for(game, "blue")


def test_one_click_unsubscribe_stops_news_but_not_prompts(client, db):
    Player.objects.create(email="player3@example.org", delivery=Player.Delivery.EVERY)
    game = game_from(END, seed="unsubscribe")
    send_all()
    orange = Player.objects.get(email="player3@example.org")
    url = player_urls(orange.pk)["unsubscribe"].replace("http://127.0.0.1:8000", "")

    # RFC 8058: the provider posts List-Unsubscribe=One-Click, without cookies or CSRF token.
    response = client.post(url, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    orange.refresh_from_db()
    assert orange.news is False

    _take_pretender(game)
    assert not Outbox.objects.filter(seat__colour="orange", kind=Outbox.Kind.NEWS).exists()
    state, seq = store.load(game)
    submit_command(game=game, seat=game.seats.get(colour="blue"), command={"type": "pass"}, expected_seq=seq)
    send_all()
    assert last_to("player3@example.org").subject.startswith("Game over: ")  # still in the game


def test_an_unsubscribe_link_with_a_bad_signature_is_refused(client, db):
    game_from(END, seed="bad-link")
    player = Player.objects.get(email="player3@example.org")
    url = player_urls(player.pk)["unsubscribe"].replace("http://127.0.0.1:8000", "")
    forged = url.replace(f"/{player.pk}.", f"/{player.pk + 1}.")
    assert client.post(forged).status_code == 404
    player.refresh_from_db()
    assert player.news is True


def test_the_preferences_page_saves_time_zone_language_and_vacation(client, db):
    game = game_from(END, seed="preferences")
    player = Player.objects.get(email="player1@example.org")
    client.force_login(
        game.seats.get(colour="green").user
    )  # a vacation needs a sign-in (test_preferences_sign_in.py)
    url = player_urls(player.pk)["preferences"].replace("http://127.0.0.1:8000", "")
    before = SeatClock.objects.get(seat__game=game, seat__colour="green").deadline

    bad = client.post(url, {"delivery": "digest", "time_zone": "Mars/Olympus", "language": "fr"})
    assert bad.status_code == 400 and "is not a time zone name" in bad.content.decode()

    today = timezone.now().date()
    response = client.post(
        url,
        {
            "delivery": "digest",
            "news": "on",
            "time_zone": "Europe/Paris",
            "language": "fr",
            "away_from": today.isoformat(),
            "away_until": (today + timedelta(days=6)).isoformat(),
        },
    )
    assert response.status_code == 302
    player.refresh_from_db()
    assert (player.delivery, player.time_zone, player.language) == ("digest", "Europe/Paris", "fr")
    # The vacation moved green's open deadline by about its length.
    after = SeatClock.objects.get(seat__game=game, seat__colour="green").deadline
    assert after - before > timedelta(days=5)


def test_card_names_in_the_players_language(db):
    Player.objects.create(email="player3@example.org", language="fr")
    game = game_from(ASSEMBLY, seed="email-tests")
    text = prompt_for(game, "orange").body
    assert "- Émissaires (Action, Saison) : " in text  # Emissaries, in French
    assert "Draft : « garder barde, druide »" in text  # the syntax help too
