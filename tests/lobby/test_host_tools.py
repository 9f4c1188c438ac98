"""Host tools (lobby.views.host_tools, games.play.table): extend a deadline, pause and resume, replace
a player by the bot or by a new email — each recorded in the table log, never in the rules log."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest
from django.conf import settings
from django.urls import reverse

from games import rules, store
from games.models import Event, TableEvent
from games.play import table
from games.record.options import extension_hours, is_paused, paused_seconds, table_options
from games.store.verification import verify_game
from players.accounts import user_for_email
from tests.moments import in_words, machine_forms, text_of


@pytest.fixture
def game(make_game):
    host = user_for_email("host@example.org")
    return make_game(seed="host-tools", n_players=3, host=host, options=table_options())


@pytest.fixture
def host_client(client, game):
    client.force_login(game.host)
    return client


def act(client, game, **data):
    return client.post(reverse("lobby:host", args=[game.pk]), data)


def test_only_the_host_has_the_tools(client, game):
    player = game.seats.get(colour="green").user
    client.force_login(player)
    assert client.get(reverse("lobby:host", args=[game.pk])).status_code == 403
    assert act(client, game, action="pause").status_code == 403
    game.refresh_from_db()
    assert not is_paused(game.options) and not TableEvent.objects.exists()


def test_extending_a_deadline_is_recorded_beside_the_rules_log(host_client, game):
    events_before = Event.objects.filter(game=game).count()
    response = act(host_client, game, action="extend", seat="blue", hours="36")
    assert response.status_code == 302
    game.refresh_from_db()
    seq = store.head(game)[0]
    assert game.options["extensions"] == [{"seat": "blue", "hours": 36, "at_seq": seq}]
    assert extension_hours(game.options, "blue", since_seq=seq) == 36
    assert extension_hours(game.options, "blue", since_seq=seq + 1) == 0  # a later decision
    assert extension_hours(game.options, "green", since_seq=0) == 0
    assert Event.objects.filter(game=game).count() == events_before
    record = TableEvent.objects.get(game=game)
    assert (record.type, record.payload, record.actor, record.at_seq) == (
        "DeadlineExtended",
        {"seat": "blue", "hours": 36},
        "host",
        seq,
    )
    history = host_client.get(reverse("games:history", args=[game.pk])).content.decode()
    assert "The host gave blue 36 more hours" in history
    assert verify_game(game).ok


def test_pause_and_resume_stop_the_clocks(host_client, game):
    act(host_client, game, action="pause")
    game.refresh_from_db()
    assert is_paused(game.options)
    page = host_client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "Paused by the host" in page
    act(host_client, game, action="pause")  # already paused: refused, nothing recorded
    act(host_client, game, action="resume")
    game.refresh_from_db()
    assert not is_paused(game.options)
    assert list(TableEvent.objects.filter(game=game).values_list("type", flat=True)) == [
        "GamePaused",
        "GameResumed",
    ]
    start = datetime.fromisoformat(game.options["pauses"][0]["from"]) - timedelta(hours=1)
    end = datetime.now(UTC) + timedelta(hours=1)
    assert 0 <= paused_seconds(game.options, start, end) < 60


def test_replacing_a_player_by_the_bot_plays_its_decision_and_retires_the_old_link(
    host_client, game, django_capture_on_commit_callbacks
):
    state, seq = store.load(game)
    colour = rules.pending(state)[0].seat
    seat = game.seats.get(colour=colour)
    old_token, old_user = seat.token, seat.user
    with django_capture_on_commit_callbacks(execute=True):
        act(host_client, game, action="replace", seat=colour, email="")
    seat.refresh_from_db()
    assert seat.is_bot and seat.user is None and seat.email == "" and seat.token != old_token
    assert store.head(game)[0] > seq  # the bot decided at once (tasks run in-process in tests)
    assert host_client.get(reverse("games:seat", args=[game.pk, old_token])).status_code == 410
    record = TableEvent.objects.get(game=game, type="SeatReplaced")
    assert record.payload == {"seat": colour, "now": "bot", "before": "player"}
    assert old_user.email not in str(record.payload)
    assert verify_game(game).ok


@pytest.mark.django_db(transaction=True)  # real commits: the email is delivered after the commit
def test_replacing_a_player_by_a_new_email_gives_them_the_seat(client, host_client, game):
    from django.core import mail

    act(host_client, game, action="replace", seat="blue", email="new@example.org")
    seat = game.seats.get(colour="blue")
    assert seat.email == "new@example.org" and seat.user == user_for_email("new@example.org")
    given = [m for m in mail.outbox if m.to == ["new@example.org"]]
    assert given and "You now play blue" in given[0].subject
    before = TableEvent.objects.count()
    act(host_client, game, action="replace", seat="green", email="new@example.org")  # one seat each
    assert TableEvent.objects.count() == before
    with pytest.raises(table.TableError):
        table.seat_replace(game=game, colour="purple", email=None)


def test_a_prompt_waiting_when_the_seat_is_given_away_never_reaches_the_old_player(host_client, game):
    """Prompts are written when they are delivered, with the seat's links: one still waiting
    for the old player when the host gives the seat to someone else is not sent, so the old
    player never gets the new player's seat link or reply address."""
    from django.core import mail

    from notifications import outbox
    from notifications.models import Outbox

    state, _seq = store.load(game)
    colour = rules.pending(state)[0].seat
    seat = game.seats.get(colour=colour)
    old_email = seat.email
    waiting = Outbox.objects.get(seat=seat, kind=Outbox.Kind.PROMPT, status=Outbox.Status.PENDING)
    act(host_client, game, action="replace", seat=colour, email="new@example.org")

    assert outbox.deliver(waiting.pk) is False
    waiting.refresh_from_db()
    assert waiting.status == Outbox.Status.SKIPPED
    to_old = [m for m in mail.outbox if old_email in m.to]
    assert not to_old
    # Never written: the new player's links were never put into it.
    assert waiting.body_text == "" and waiting.render_spec is not None


@pytest.mark.postgres
def test_the_table_log_is_append_only(game):
    """The trigger that protects the rules log protects the table log too (PostgreSQL)."""
    from django.db import transaction

    record = table.game_pause(game=game)
    with pytest.raises(Exception), transaction.atomic():
        TableEvent.objects.filter(pk=record.pk).update(type="Edited")
    with pytest.raises(Exception), transaction.atomic():
        TableEvent.objects.filter(pk=record.pk).delete()


def test_extending_the_deadline_of_every_seat_is_accepted(host_client, game):
    """ "For: every seat" is the empty choice: it used to be refused as a missing field, with no
    error on the page."""
    response = act(host_client, game, action="extend", seat="", hours="12")
    assert response.status_code == 302
    game.refresh_from_db()
    seq = store.head(game)[0]
    assert game.options["extensions"] == [{"seat": None, "hours": 12, "at_seq": seq}]
    assert all(
        extension_hours(game.options, colour, since_seq=seq) == 12 for colour in ("green", "blue", "orange")
    )
    assert TableEvent.objects.get(game=game).payload == {"seat": None, "hours": 12}


def test_a_refused_extension_says_why_on_the_page(host_client, game):
    response = act(host_client, game, action="extend", seat="purple", hours="12")
    assert response.status_code == 400
    assert "Select a valid choice" in response.content.decode()
    assert not TableEvent.objects.filter(game=game).exists()


def test_the_host_reads_names_and_an_address_only_for_an_invitee_without_a_name(host_client, game):
    """The host sees a player's chosen name, not their address beside it; the address the host
    typed only for an invitee who has chosen no name yet."""
    from players.preferences import player_for

    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    named = player_for(green.email)
    named.display_name = "Ann"
    named.save()
    page = host_client.get(reverse("lobby:host", args=[game.pk])).content.decode()
    replace = page[page.index('id="replace"') :]
    replace = replace[: replace.index("</ul>")]
    assert "Ann" in replace and green.email not in replace, replace
    assert blue.email in replace, replace


def test_the_seat_of_a_player_who_erased_their_account_reads_player_n_left(host_client, game):
    """docs/privacy.md: every seat of an erased person reads "Player N (left)" on every page,
    for every reader; the host's list of seats too, though the stand-in bot plays it now."""
    from players.erasure import erase_account

    blue = game.seats.get(colour="blue")
    erase_account(blue.user_id)
    page = host_client.get(reverse("lobby:host", args=[game.pk])).content.decode()
    replace = page[page.index('id="replace"') :]
    replace = replace[: replace.index("</ul>")]
    assert f"Player {blue.position + 1} (left)" in replace, replace
    assert "the bot" not in replace, replace


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_host_tools_log_gives_each_moment_in_words(host_client, game, language):
    """The host paused the game on 1 January 2026 at 14:03 UTC: "Recorded" ("Actes inscrits") reads
    "1 January 2026, 14:03 UTC, after event N" ("1er janvier 2026, 14:03 UTC, après l'événement
    N"), as "My games" writes its moments, not "2026-01-01 14:03"; the ISO moment stays in the
    line's <time datetime>."""
    moment = datetime(2026, 1, 1, 14, 3, tzinfo=UTC)
    with mock.patch("django.utils.timezone.now", return_value=moment):
        paused = table.game_pause(game=game)
    host_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language

    page = host_client.get(reverse("lobby:host", args=[game.pk])).content.decode()
    recorded = page.split("<ol>")[-1].split("</ol>")[0]

    after = "après l'événement" if language == "fr" else "after event"
    assert f"{in_words(moment, language)} UTC, {after} {paused.at_seq}" in text_of(recorded)
    assert not any(form in text_of(page) for form in machine_forms(moment))
    assert f'datetime="{moment.isoformat()}"' in recorded


@pytest.mark.parametrize(("language", "green"), [("en", "green"), ("fr", "vert")])
def test_each_seat_of_the_host_list_says_its_colour_once(host_client, game, language, green):
    """ "Replace a player" lists each seat as "green: Ann" ("vert : Ann"), its colour said once
    (not "greengreen: Ann")."""
    from players.preferences import player_for

    named = player_for(game.seats.get(colour="green").email)
    named.display_name = "Ann"
    named.save()
    host_client.cookies[settings.LANGUAGE_COOKIE_NAME] = language
    page = host_client.get(reverse("lobby:host", args=[game.pk])).content.decode()
    replace = page[page.index('id="replace"') :]
    line = " ".join(text_of(replace[replace.index("<li>") : replace.index("</li>")]).split())
    assert line == (f"{green} : Ann" if language == "fr" else f"{green}: Ann"), line
