"""Followers' daily digest (watching.digest, docs/spectators.md): through the outbox with its own
kind, once a day, only what a spectator may see, one-click unsubscribe in every email."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.test import Client

from games import rules, store
from games.models import Event
from games.play import table
from games.record.options import table_options
from games.services import SeatSpec, create_game, submit_command
from games.store.selectors import history_entry
from games.story.event_text import describe_event, is_bookkeeping
from notifications.models import Outbox
from notifications.prompts import waiting_words
from players.accounts import user_for_email
from watching import digest
from watching.models import Follow
from watching.services import FollowError, follow

pytestmark = pytest.mark.django_db

MORNING = datetime(2031, 5, 6, 8, 0, tzinfo=UTC)  # after DIGEST_HOUR (7) in UTC


@pytest.fixture
def game(make_game):
    return make_game(seed="follow-digest", n_players=3, options={**table_options(), "public": True})


@pytest.fixture
def fan():
    return user_for_email("fan@example.org")


def _digests():
    return list(Outbox.objects.filter(kind=Outbox.Kind.FOLLOWER_DIGEST).order_by("id"))


def test_a_followers_digest_tells_what_a_spectator_sees_since_the_follow(game, fan, play):
    play(game, 6, seed="before")  # before the follow: not told
    told_from = store.head(game)[0]
    follow(user=fan, game=game)
    play(game, 12, seed="after")
    from press.services import press_send

    green = game.seats.get(colour="green")
    press_send(game=game, seat=green, to=None, text="Peace in the Moor, anyone?")
    press_send(game=game, seat=green, to="blue", text="Blue, let us take the Moor together")

    assert digest.send_follower_digest(fan.pk, now=MORNING) > 0
    [row] = _digests()
    assert row.to_email == "fan@example.org" and row.seat is None and row.game is None
    expected = [
        describe_event(e.type, e.payload)
        for e in (
            history_entry(r, colour=None, complete=False)
            for r in Event.objects.filter(game=game, seq__gt=told_from).order_by("seq")
        )
        if not is_bookkeeping(e.type, e.payload)
    ]
    for line in expected:
        assert line in row.body_text
    before = [
        describe_event(e.type, e.payload)
        for e in (
            history_entry(r, colour=None, complete=False)
            for r in Event.objects.filter(game=game, seq__lte=told_from)
        )
        if not is_bookkeeping(e.type, e.payload)
    ]
    assert not [line for line in before if line not in expected and line in row.body_text]
    assert "Green, to the whole table: “Peace in the Moor, anyone?”" in row.body_text
    assert "let us take the Moor together" not in row.body_text + row.body_html
    state, _ = store.load(game)
    assert f"Waiting for: {', '.join(waiting_words(state, None))}." in row.body_text
    assert game.seed not in row.body_text
    # One-click unsubscribe (RFC 8058) in the headers, a link per game in the body.
    assert row.headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    unsubscribe = row.headers["List-Unsubscribe"].strip("<>")
    assert unsubscribe in row.body_text and "Stop following this game" in row.body_text
    assert "Reply-To" not in row.headers


def test_once_a_day_and_only_with_news(game, fan, play):
    follow(user=fan, game=game)
    assert digest.send_follower_digest(fan.pk, now=MORNING) == 0  # nothing happened yet
    play(game, 5)
    assert digest.due_followers(now=MORNING.replace(hour=6)) == []  # before the digest hour
    assert digest.due_followers(now=MORNING) == [fan.pk]
    assert digest.send_follower_digest(fan.pk, now=MORNING) > 0
    assert digest.send_follower_digest(fan.pk, now=MORNING + timedelta(hours=3)) == 0  # the same day
    told = store.head(game)[0]
    play(game, 5, seed="later")
    assert digest.due_followers(now=MORNING + timedelta(hours=3)) == []
    assert digest.due_followers(now=MORNING + timedelta(days=1)) == [fan.pk]
    assert digest.send_follower_digest(fan.pk, now=MORNING + timedelta(days=1)) > 0
    _first, second = _digests()
    # The second tells only what happened after the first, in order.
    expected = [
        "- " + describe_event(e.type, e.payload)
        for e in (
            history_entry(r, colour=None, complete=False)
            for r in Event.objects.filter(game=game, seq__gt=told).order_by("seq")
        )
        if not is_bookkeeping(e.type, e.payload)
    ][-digest.MAX_LINES_PER_GAME :]
    assert [line for line in second.body_text.splitlines() if line.startswith("- ")][
        -len(expected) :
    ] == expected


def test_the_sweep_writes_the_digest_and_the_outbox_sends_it(
    game, fan, play, monkeypatch, mailoutbox, django_capture_on_commit_callbacks
):
    monkeypatch.setattr(digest, "DIGEST_HOUR", 0)  # due whatever the hour the test runs at
    follow(user=fan, game=game)
    play(game, 5)
    from inis_pbem.tasks import sweep

    with django_capture_on_commit_callbacks(execute=True):  # the outbox delivers after the commit
        assert sweep()["followers"] == 1
    [row] = _digests()
    assert row.status == Outbox.Status.SENT
    [mail] = [m for m in mailoutbox if m.to == ["fan@example.org"]]
    assert mail.extra_headers["List-Unsubscribe"] == row.headers["List-Unsubscribe"]
    assert sweep()["followers"] == 0  # told today


def test_no_digest_once_the_host_makes_the_game_private_nor_after_unsubscribing(game, fan, play):
    follow(user=fan, game=game)
    play(game, 5)
    table.game_set_public(game=game, public=False)
    assert digest.due_followers(now=MORNING) == []
    assert digest.send_follower_digest(fan.pk, now=MORNING) == 0
    table.game_set_public(game=game, public=True)
    assert digest.due_followers(now=MORNING) == [fan.pk]
    client = Client()
    from watching.links import unsubscribe_url

    assert client.post(unsubscribe_url(user_id=fan.pk), {"List-Unsubscribe": "One-Click"}).status_code == 200
    assert digest.send_follower_digest(fan.pk, now=MORNING) == 0 and not _digests()


def test_a_finished_game_is_told_whole_with_its_seed(fan):
    from tests.games.record.test_verify import ENDGAME  # a position one pass from the end

    game = create_game(
        seats=[SeatSpec(email="g@example.org"), SeatSpec(email="b@example.org")],
        seed="followed-to-the-end",
        setup=ENDGAME,
        play_bots=False,
        options={"public": True},
    )
    follow(user=fan, game=game)
    assert submit_command(
        game=game,
        seat=game.seats.get(colour="green"),
        command={"type": "pass"},
        expected_seq=store.head(game)[0],
    ).accepted
    game.refresh_from_db()
    assert game.is_over
    with pytest.raises(FollowError):
        follow(user=user_for_email("late@example.org"), game=game)
    assert digest.send_follower_digest(fan.pk, now=MORNING) > 0
    [row] = _digests()
    assert "green is the High King" in row.body_text
    assert f"seed, now revealed: {game.seed}" in row.body_text and game.seed_commitment in row.body_text
    assert "Waiting for" not in row.body_text
    assert rules.is_over(store.load(game)[0])


def test_a_private_game_cannot_be_followed(make_game, fan):
    private = make_game(seed="not-public", n_players=2, options=table_options())
    with pytest.raises(FollowError):
        follow(user=fan, game=private)
    assert not Follow.objects.exists()


def test_a_french_followers_digest_names_a_bot_in_french(make_game, fan, play):
    """The digest names a bot seat as the French game page does ("Robot au hasard"), not in
    English, for a follower who reads French."""
    from players.models import Player

    game = make_game(seed="follow-bot", n_players=2, bots=1, options={**table_options(), "public": True})
    Player.objects.update_or_create(email="fan@example.org", defaults={"language": "fr"})
    follow(user=fan, game=game)
    play(game, 20, seed="after")
    assert digest.send_follower_digest(fan.pk, now=MORNING) > 0
    body = _digests()[-1].body_text
    assert "Robot au hasard" in body and "Random bot" not in body, body
