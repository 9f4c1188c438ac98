"""Delayed passes: a Season turn the seat's own hand leaves only the pass is passed for it later,
at a time drawn like its player's answers (docs/rulings.md, "Forced moves").

Rulebook, Phase 2: The Season: on their turn a player plays an Action card, takes a Pretender
token, or passes. White holds only Geis, a Triskel card ("when an opponent plays an Action
card"): it cannot be played on white's turn, so white can only pass; the others, who cannot see
white's card, must not learn that from when white passes.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from games import rules, store
from games.models import Command, SeatClock
from games.play import delayed_passes
from games.services import submit_command
from games.store.verification import verify_game
from inis_pbem.tasks import sweep
from notifications import happenings, outbox
from notifications.models import Outbox
from notifications.prompts import player_urls
from players.accounts import user_for_email
from players.models import Player
from players.preferences import update_preferences
from tests.games.play.test_forced_moves import white_after_green_passes

HOUR = 3600


def _white_clock(game) -> SeatClock:
    return SeatClock.objects.get(seat__game=game, seat__colour="white")


def _answers(game, by_colour: dict) -> None:
    """Give the seats of `game` these kept answer times (seconds), as if they had answered."""
    for colour, seconds in by_colour.items():
        SeatClock.objects.filter(seat__game=game, seat__colour=colour).update(answer_seconds=seconds)


def _due_now(game) -> SeatClock:
    """White's drawn time moved to now, as when it has come."""
    clock = _white_clock(game)
    clock.pass_at = timezone.now() - timedelta(seconds=1)
    clock.save(update_fields=["pass_at"])
    return clock


def test_the_service_passes_for_the_seat_when_its_time_has_come(make_game):
    """Once its drawn time has come, the sweep's task passes for white: the seat's command in the
    log (keyed like every command the service plays, so a second run does nothing), and play
    goes on to the next seat."""
    game, white, state = white_after_green_passes(make_game, white_card="act_geis")
    clock = _due_now(game)
    assert delayed_passes.due_passes() == [(clock.pk, clock.seq)]
    assert delayed_passes.play_delayed_pass(clock.pk, clock.seq)
    command = Command.objects.get(game=game, seat=white)
    assert command.body == {"type": "pass"}
    assert command.command_id == f"hand:white:{clock.seq}"
    state, _seq = store.load(game)
    assert "white" not in {d.seat for d in rules.pending(state)}
    assert not delayed_passes.play_delayed_pass(clock.pk, clock.seq)
    assert Command.objects.filter(game=game, seat=white).count() == 1
    assert delayed_passes.due_passes() == []
    assert verify_game(game).ok  # decided again like any command of the log


def test_the_pass_waits_for_its_time(make_game):
    """Before its drawn time nothing is played, and the sweep finds nothing due."""
    game, white, state = white_after_green_passes(make_game, white_card="act_geis")
    clock = _white_clock(game)
    clock.pass_at = timezone.now() + timedelta(hours=1)
    clock.save(update_fields=["pass_at"])
    assert delayed_passes.due_passes() == []
    assert not delayed_passes.play_delayed_pass(clock.pk, clock.seq)
    assert not Command.objects.filter(game=game, seat=white).exists()


def test_the_player_who_answers_first_wins(make_game):
    """White's page still shows the decision while the pass waits: white passes there first; the
    delayed pass then finds the decision gone and plays nothing."""
    game, white, state = white_after_green_passes(make_game, white_card="act_geis")
    clock = _white_clock(game)
    result = submit_command(
        game=game, seat=white, expected_seq=state.seq, command={"type": "pass"}, command_id="web:first"
    )
    assert result.accepted, result.message
    assert SeatClock.objects.get(pk=clock.pk).pass_at is None
    assert not delayed_passes.play_delayed_pass(clock.pk, clock.seq)
    assert [c.command_id for c in Command.objects.filter(game=game, seat=white)] == ["web:first"]


def test_the_delay_is_one_of_the_seats_own_answer_times(make_game):
    """White has answered in 2 hours before: its pass comes 2 hours after its turn began, as its
    own answer would have, and that time is kept among its answers like one."""
    game = make_game(
        n_players=4, seed="own-answers", setup=_setup("act_geis"), options={"reaction_mode": "holders"}
    )
    _answers(game, {"white": [2 * HOUR], "green": [60]})
    _green_passes(game)
    clock = _white_clock(game)
    assert clock.pass_at - clock.opened_at == timedelta(hours=2)
    clock = _due_now(game)
    assert delayed_passes.play_delayed_pass(clock.pk, clock.seq)
    assert len(SeatClock.objects.get(pk=clock.pk).answer_seconds) == 2


def test_a_new_seat_is_drawn_like_the_table(make_game):
    """White has never answered: its delay is one of the table's answer times."""
    game = make_game(
        n_players=4, seed="table-answers", setup=_setup("act_geis"), options={"reaction_mode": "holders"}
    )
    _answers(game, {"blue": [3 * HOUR], "orange": [3 * HOUR]})
    _green_passes(game)
    clock = _white_clock(game)
    assert clock.pass_at - clock.opened_at == timedelta(hours=3)


def test_the_delay_never_passes_the_deadline(make_game):
    """White usually answers in 3 days, past its 48-hour deadline: the pass comes at the deadline,
    and it is the pass, not the deadline's default (no missed deadline is counted)."""
    game = make_game(
        n_players=4, seed="capped", setup=_setup("act_geis"), options={"reaction_mode": "holders"}
    )
    _answers(game, {"white": [72 * HOUR]})
    _green_passes(game)
    clock = _white_clock(game)
    assert clock.pass_at == clock.deadline
    SeatClock.objects.filter(pk=clock.pk).update(
        pass_at=timezone.now() - timedelta(seconds=1), deadline=timezone.now() - timedelta(seconds=1)
    )
    from games.play.schedule import due_work

    assert due_work()["deadlines"] == [] and due_work()["reminders"] == []
    assert delayed_passes.due_passes() == [(clock.pk, clock.seq)]
    assert delayed_passes.play_delayed_pass(clock.pk, clock.seq)
    assert SeatClock.objects.get(pk=clock.pk).missed_in_row == 0


def test_the_draw_reads_only_answer_times_with_an_unpredictable_source():
    """What the delay is drawn from: the seat's answers, else the table's, else a uniform draw
    under NO_ANSWERS_SECONDS; by default with the operating system's random source, never the
    game's seeded one."""
    assert isinstance(delayed_passes._RANDOM, random.SystemRandom)
    rng = random.Random(1)
    assert {delayed_passes.pass_delay([60, 120], [999], rng) for _ in range(50)} == {60, 120}
    assert {delayed_passes.pass_delay([], [999], rng) for _ in range(10)} == {999}
    draws = [delayed_passes.pass_delay(None, None, rng) for _ in range(50)]
    assert all(0 <= d <= delayed_passes.NO_ANSWERS_SECONDS for d in draws) and len(set(draws)) > 1


def test_a_player_who_chose_at_once_passes_at_once(make_game):
    """White's player chose "play my forced moves at once" in their preferences: white's pass is
    played in the transaction of green's pass, like a forced move, and white is not emailed."""
    Player.objects.create(email="player4@example.org", forced_moves_at_once=True)
    game, white, state = white_after_green_passes(make_game, white_card="act_geis")
    command = Command.objects.get(game=game, seat=white)
    assert command.body == {"type": "pass"} and command.command_id.startswith("forced:white:")
    assert "white" not in {d.seat for d in rules.pending(state)}
    assert not Outbox.objects.filter(seat=white, kind=Outbox.Kind.PROMPT).exists()


def test_at_once_changes_nothing_for_a_real_choice(make_game):
    """With Festival white has a choice: it is asked even with "at once" chosen."""
    Player.objects.create(email="player4@example.org", forced_moves_at_once=True)
    game, white, state = white_after_green_passes(make_game, white_card="act_festival")
    assert not Command.objects.filter(game=game, seat=white).exists()
    assert Outbox.objects.filter(seat=white, kind=Outbox.Kind.PROMPT).count() == 1


@pytest.mark.parametrize(
    "language, label, warning",
    [
        ("en", "Play my forced moves at once", "the other players may infer your hand"),
        ("fr", "Jouer aussitôt mes coups forcés", "les autres joueurs peuvent deviner votre main"),
    ],
)
def test_the_preferences_page_offers_at_once_with_its_warning(client, db, language, label, warning):
    """The choice is on the preferences page, off by default, with the warning that the table
    may then infer the hand; saving it, signed in as the player (the email's link alone cannot:
    tests/notifications/test_preferences_sign_in.py), turns it on."""
    player = Player.objects.create(email="pref@example.org", language=language)
    client.force_login(user_for_email(player.email))
    url = player_urls(player.pk)["preferences"]
    page = client.get(url, HTTP_ACCEPT_LANGUAGE=language).content.decode()
    assert label in page and warning in page
    assert player.forced_moves_at_once is False
    form = {"delivery": "prompt", "time_zone": "UTC", "language": language, "forced_moves_at_once": "on"}
    assert client.post(url, form).status_code == 302
    player.refresh_from_db()
    assert player.forced_moves_at_once is True


@pytest.mark.parametrize(
    "language, line",
    [
        ("en", "You passed: nothing in your hand could be played."),
        ("fr", "Vous avez passé : aucune carte de votre main ne pouvait être jouée."),
    ],
)
def test_the_seats_next_email_says_it_passed_and_why(make_game, language, line):
    """After the delayed pass, the others pass too and the Season ends; white's next email tells
    it, in its own language, that it passed because nothing in its hand could be played. The
    others read only that white passed."""
    Player.objects.create(email="player4@example.org", language=language)
    game, white, state = white_after_green_passes(make_game, white_card="act_geis")
    clock = _due_now(game)
    assert delayed_passes.play_delayed_pass(clock.pk, clock.seq)
    _play_until_white_is_asked(game)
    (row,) = Outbox.objects.filter(seat=white, kind=Outbox.Kind.PROMPT)
    assert line in outbox.written(row).body_text
    others = [
        outbox.written(row).body_text
        for row in Outbox.objects.filter(game=game, kind=Outbox.Kind.PROMPT).exclude(seat=white)
    ]
    assert others and not any("nothing in your hand" in text for text in others)
    events = store.events_between(game, 0, store.head(game)[0])
    for colour in ("green", "blue", "orange"):
        assert happenings.passes_for_the_hand(game, colour, events) == frozenset()
        lines = [line for _seq, line in happenings.lines_for(events, colour)]
        assert "White passed." in lines


# -- helpers -------------------------------------------------------------------------------------


def _setup(white_card: str) -> dict:
    from tests.faults.test_hidden_forced_moves import _position

    return _position(white_card)


def _green_passes(game) -> None:
    state, seq = store.load(game)
    result = submit_command(
        game=game, seat=game.seats.get(colour="green"), expected_seq=seq, command={"type": "pass"}
    )
    assert result.accepted, result.message


def _play_until_white_is_asked(game) -> None:
    """Every other seat passes, or takes the first legal command, until white is prompted."""
    seats = {seat.colour: seat for seat in game.seats.all()}
    for _step in range(60):
        if Outbox.objects.filter(seat=seats["white"], kind=Outbox.Kind.PROMPT).exists():
            return
        state, seq = store.load(game)
        colour = str(rules.pending(state)[0].seat)
        legal = [dict(c) for c in rules.legal_commands(state, colour)]
        command = {"type": "pass"} if {"type": "pass"} in legal else legal[0]
        result = submit_command(game=game, seat=seats[colour], expected_seq=seq, command=command)
        assert result.accepted, result.message
    raise AssertionError("white was never asked again")


def test_a_vacation_saved_after_the_turn_began_moves_the_pass_past_it(make_game, monkeypatch):
    """White usually answers in 2 hours; its hand-forced turn opens, then its player saves a
    10-day vacation starting a minute later. Its pass is not played during the vacation: it comes
    2 hours of white's time after the turn began, the vacation not counting, as the deadline
    moves by the vacation too."""
    clock_now = {"now": timezone.now()}
    monkeypatch.setattr(timezone, "now", lambda: clock_now["now"])
    game = make_game(
        n_players=4, seed="vacation-pass", setup=_setup("act_geis"), options={"reaction_mode": "holders"}
    )
    _answers(game, {"white": [2 * HOUR]})
    _green_passes(game)
    opened = _white_clock(game).opened_at
    deadline = _white_clock(game).deadline
    player = Player.objects.get(email="player4@example.org")
    away_from, back = opened + timedelta(minutes=1), opened + timedelta(days=10)
    update_preferences(
        player,
        delivery=player.delivery,
        news=player.news,
        time_zone=player.time_zone,
        language=player.language,
        away_from=away_from,
        away_until=back,
    )

    clock = _white_clock(game)
    assert clock.deadline == deadline + (back - away_from)
    assert clock.pass_at == back + timedelta(hours=2, minutes=-1)
    for hours in (2, 24, 24 * 10 - 1):  # the drawn time without the vacation, and inside it
        clock_now["now"] = opened + timedelta(hours=hours, minutes=1)
        assert delayed_passes.due_passes() == []
        sweep.apply()
        assert not Command.objects.filter(game=game, seat__colour="white").exists(), hours
    clock_now["now"] = clock.pass_at + timedelta(minutes=1)
    sweep.apply()
    command = Command.objects.get(game=game, seat__colour="white")
    assert command.body == {"type": "pass"} and command.command_id.startswith("hand:white:")
    assert command.accepted_at > back


def test_a_vacation_changed_again_keeps_the_drawn_delay():
    """The pass moves from the vacation the player had to the new one, keeping the delay drawn
    (5 hours, counted without each): a vacation shortened, then dropped; and it never passes the
    deadline."""
    opened, hour = timezone.now(), timedelta(hours=1)
    long_away, short_away = (opened + hour, opened + 50 * hour), (opened + hour, opened + 10 * hour)
    drawn = delayed_passes.pass_time(
        own=[5 * HOUR], table=None, opened_at=opened, deadline=None, away=long_away
    )
    assert drawn == opened + 54 * hour
    shorter = delayed_passes.moved_pass_time(
        pass_at=drawn, opened_at=opened, deadline=opened + 100 * hour, before=long_away, after=short_away
    )
    assert shorter == opened + 14 * hour
    dropped = delayed_passes.moved_pass_time(
        pass_at=shorter, opened_at=opened, deadline=opened + 48 * hour, before=short_away, after=None
    )
    assert dropped == opened + 5 * hour
    capped = delayed_passes.moved_pass_time(
        pass_at=dropped,
        opened_at=opened,
        deadline=opened + 3 * hour,
        before=None,
        after=(opened, opened + hour),
    )
    assert capped == opened + 3 * hour
