"""Every game email names the log's head hash at that point (its first 12 hex digits), so that a
player holding an old email can check later, with `verify_game --head`, that the record still
contains it: deleting the last commands and their events together is then caught."""

from __future__ import annotations

import io
import re
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.conf import settings
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client

from games import rules, store
from games.models import Command, Event, Game, Seat
from games.services import submit_command
from inis_pbem.tasks import sweep
from players.models import Player
from tests.notifications import mail_clients
from tests.notifications.email_positions import END, game_from
from tests.notifications.test_inbound import feed, last_to, prompt_for, send_all

FINGERPRINT = re.compile(r"Fingerprint of (?:the|this) game so far: ([0-9a-f]+)\.")
SENTENCE = "Keep it: anyone can check later that the game's record still contains it."


def fingerprint_in(message) -> str:
    """The one fingerprint of an email, the same in its text and HTML parts."""
    found = FINGERPRINT.findall(message.body)
    html = message.alternatives[0][0]
    assert len(found) == 1, message.body
    assert f"<code>{found[0]}</code>" in html
    return found[0]


def verify_head(game, digits: str) -> str:
    out = io.StringIO()
    call_command("verify_game", str(game.pk), "--head", digits, stdout=out)
    return out.getvalue()


@contextmanager
def commands_unprotected():
    """Within: the command table accepts DELETE (its PostgreSQL triggers are off)."""
    postgres = connection.vendor == "postgresql"
    if postgres:
        with connection.cursor() as cursor:
            cursor.execute(f"ALTER TABLE {Command._meta.db_table} DISABLE TRIGGER USER")
    try:
        yield
    finally:
        if postgres:
            with connection.cursor() as cursor:
                cursor.execute(f"ALTER TABLE {Command._meta.db_table} ENABLE TRIGGER USER")


def head_digits(game, seq: int | None = None) -> str:
    seq = store.head(game)[0] if seq is None else seq
    return Event.objects.get(game=game, seq=seq).hash[:12]


@pytest.fixture
def game(db):
    # white takes every email, news included; orange a daily digest.
    Player.objects.create(email="player4@example.org", delivery=Player.Delivery.EVERY)
    Player.objects.create(email="player3@example.org", delivery=Player.Delivery.DIGEST)
    game = Game.objects.get(pk=game_from(END, seed="log-fingerprint").pk)
    send_all()
    return game


def test_prompt_answer_news_and_game_over_name_the_head_and_verify_game_accepts_it(
    game, django_capture_on_commit_callbacks
):
    prompt = prompt_for(game, "green")
    named = fingerprint_in(prompt)
    assert named == head_digits(game) and SENTENCE in prompt.body
    said = verify_head(game, named)
    assert "OK" in said
    # docs/email-commands.md: it says which event has that fingerprint.
    seq = Event.objects.get(game=game, hash__startswith=named).seq
    assert (
        f"  The fingerprint {named} is that of event #{seq}: the event log holds it, unchanged up to that event."
        in said.splitlines()
    )

    with django_capture_on_commit_callbacks(execute=True):  # news goes after the commit
        assert feed(mail_clients.gmail(prompt, "Pretender")).startswith("accepted")
    answer = last_to("player1@example.org")
    assert answer.subject.startswith("Accepted: ")
    after_reply = fingerprint_in(answer)
    assert after_reply != named and after_reply in {e.hash[:12] for e in Event.objects.filter(game=game)}
    news = last_to("player4@example.org")
    assert news.subject.startswith("News")
    for digits in (after_reply, fingerprint_in(news)):
        assert "OK" in verify_head(game, digits)

    state, seq = store.load(game)
    while not rules.is_over(state):  # every other seat passes: the game ends
        colour = rules.pending(state)[0].seat
        with django_capture_on_commit_callbacks(execute=True):
            assert submit_command(
                game=game,
                seat=Seat.objects.get(game=game, colour=colour),
                command={"type": "pass"},
                expected_seq=seq,
            ).accepted
        state, seq = store.load(game)
    send_all()
    over = last_to("player1@example.org")
    assert over.subject.startswith("Game over: ")
    assert fingerprint_in(over) == head_digits(game)
    assert "OK" in verify_head(game, fingerprint_in(over))
    # Its link to the history leads to the steps by which a player checks the game themselves.
    link = re.search(r"every draw now checkable: (\S+)", over.body).group(1)
    assert link.endswith(f"/games/{game.pk}/history/#check-yourself")
    assert f'href="{link}"' in over.alternatives[0][0]
    page = Client().get(link.split("#")[0].removeprefix(settings.SITE_URL)).content.decode()
    assert 'id="check-yourself"' in page and "python3 -m games.verify" in page


def test_a_digest_names_each_games_head(game):
    state, seq = store.load(game)
    assert submit_command(
        game=game,
        seat=Seat.objects.get(game=game, colour="green"),
        command={"type": "pretender"},
        expected_seq=seq,
    ).accepted
    morning = datetime(2026, 11, 22, 7, 30, tzinfo=UTC)
    with mock.patch("django.utils.timezone.now", return_value=morning + timedelta(days=1)):
        assert sweep.apply().result["digests"] == 1
        send_all()
    digest = last_to("player3@example.org")
    assert digest.subject.startswith("Daily news")
    named = fingerprint_in(digest)
    assert named == head_digits(game) and "OK" in verify_head(game, named)


def test_a_log_cut_after_an_email_no_longer_holds_its_fingerprint(game, unprotected_log):
    """The attack: the last command and its events deleted together (the chain that is left is
    consistent, so only a hash kept from before shows the cut)."""
    state, seq = store.load(game)
    assert submit_command(
        game=game,
        seat=Seat.objects.get(game=game, colour="green"),
        command={"type": "pretender"},
        expected_seq=seq,
    ).accepted
    send_all()
    kept = fingerprint_in(prompt_for(game, "blue"))  # blue's prompt, after green's move
    assert kept == head_digits(game)
    with unprotected_log(), commands_unprotected():
        Event.objects.filter(game=game, seq__gt=seq).delete()
        Command.objects.filter(game=game).delete()
    assert "OK" in verify_head(game, head_digits(game))  # what is left is a consistent chain
    with pytest.raises(CommandError):
        verify_head(game, kept)
