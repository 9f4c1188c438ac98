"""Deadlines (docs/deadlines.md): the default at the deadline through submit_command, the bot for
a player who misses several in a row until they come back, vacations, the host's extensions and
pauses, and the one sweep task that finds what is due."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta

import pytest
from django.core import mail
from django.utils import timezone

from games import rules, store
from games.models import Command
from games.play import deadlines, standing_orders, standins
from games.play import tasks as play_tasks
from games.play.models import SeatClock
from games.play.table import deadline_extend, game_pause, game_resume
from games.services import submit_command
from inis_pbem.tasks import sweep
from notifications import wording
from notifications.models import Outbox
from notifications.prompts import format_deadline
from players.models import Player
from tests.notifications import mail_clients
from tests.notifications.email_positions import ASSEMBLY, CLASH, END, MIGRATE_TO_COVE, game_from
from tests.notifications.test_inbound import feed, last_to, send_all
from tests.rules.triskel_positions import attack_with_raid_for_later

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def test_time_on_vacation_does_not_count():
    hours = timedelta(hours=48)
    assert deadlines.without_vacation(T0, hours, None) == T0 + hours
    # A vacation after the deadline changes nothing; one that starts before it adds its length.
    assert (
        deadlines.without_vacation(T0, hours, (T0 + timedelta(days=3), T0 + timedelta(days=5))) == T0 + hours
    )
    assert deadlines.without_vacation(
        T0, hours, (T0 + timedelta(days=1), T0 + timedelta(days=4))
    ) == T0 + hours + timedelta(days=3)
    # Opened during the vacation: the whole time starts when it ends.
    assert (
        deadlines.without_vacation(T0, hours, (T0 - timedelta(days=1), T0 + timedelta(days=2)))
        == T0 + timedelta(days=2) + hours
    )


def test_the_game_sets_hours_per_kind_and_the_host_extends_and_pauses():
    options = {"deadlines": {"default": 48, "reaction": 12, "draft": 0}, "extensions": [], "pauses": []}
    at = dict(colour="green", since_seq=10, opened_at=T0, now=T0)
    assert deadlines.deadline(options=options, kind="season_turn", **at) == T0 + timedelta(hours=48)
    assert deadlines.deadline(options=options, kind="reaction", **at) == T0 + timedelta(hours=12)
    assert deadlines.deadline(options=options, kind="draft", **at) is None  # 0: no deadline
    options["extensions"] = [
        {"seat": "green", "hours": 24, "at_seq": 10},
        {"seat": "blue", "hours": 5, "at_seq": 10},
        {"seat": None, "hours": 1, "at_seq": 3},
    ]  # the last one was for an older decision
    assert deadlines.deadline(options=options, kind="season_turn", **at) == T0 + timedelta(hours=72)
    options["pauses"] = [
        {"from": (T0 + timedelta(hours=1)).isoformat(), "until": (T0 + timedelta(hours=4)).isoformat()}
    ]
    at["now"] = T0 + timedelta(hours=5)
    assert deadlines.deadline(options=options, kind="season_turn", **at) == T0 + timedelta(hours=75)


@pytest.mark.parametrize(
    "position, colour, setup, expected",
    [
        (END, "green", None, {"type": "pass"}),
        (CLASH, "blue", MIGRATE_TO_COVE, {"type": "no_citadel"}),
    ],
)
def test_the_documented_default_per_kind(db, position, colour, setup, expected):
    game = game_from(position, seed="defaults")
    if setup:
        state, seq = store.load(game)
        submit_command(game=game, seat=game.seats.get(colour="green"), command=setup, expected_seq=seq)
    state, _ = store.load(game)
    kind = next(d.kind for d in rules.pending(state) if d.seat == colour)
    assert deadlines.default_command(state, colour, kind, random.Random(1), stand_in=_no_bot) == expected


def test_a_triskel_windows_deadline_declines_and_commits_to_no_card_later(db):
    """docs/deadlines.md: at a Triskel window's deadline the seat declines. Green holds Raid,
    whose Triskel may be played later in the clash's step ("decline, then Raid"): that is a
    choice the player did not make, so the deadline never plays it, and the prompt promises the
    plain decline alone (it used to say "one of Decline; Decline; later in this step ...")."""
    table = attack_with_raid_for_later()
    kind = table.decision("green").kind
    assert {"type": "decline", "then": "act_raid"} in table.legal("green")
    played = {
        str(deadlines.default_command(table.state, "green", kind, random.Random(seed), stand_in=_no_bot))
        for seed in range(20)
    }
    assert played == {str({"type": "decline"})}
    words = wording.default_words(table.state, "green", kind, lambda command: str(command))
    assert words == str({"type": "decline"})


def _no_bot():
    raise AssertionError("a template answers this decision: the stand-in bot is not asked")


def test_the_default_draft_pick_is_the_stand_in_bots_never_a_random_one(db):
    """At a draft pick's deadline the bot that plays absent players picks (from what the seat may
    see): the same pick every time, whatever the random generator."""
    game = game_from(ASSEMBLY, seed="default-draft")
    state, seq = store.load(game)
    green = game.seats.get(colour="green")
    picks = {
        tuple(
            deadlines.default_command(
                state,
                "green",
                "draft",
                random.Random(i),
                stand_in=lambda: standins.stand_in_command(game, green, state, seq),
            )["keep"]
        )
        for i in range(5)
    }
    legal = {tuple(c["keep"]) for c in rules.legal_commands(state, "green")}
    assert len(picks) == 1 and picks <= legal


def test_at_the_deadline_the_sweep_plays_the_stand_in_bots_draft_pick(db):
    game = game_from(ASSEMBLY, seed="deadline-draft")
    send_all()
    green = game.seats.get(colour="green")
    state, seq = store.load(game)
    expected = standins.stand_in_command(game, green, state, seq)
    _expire(game, "green")
    SeatClock.objects.filter(seat=green).update(opened_at=timezone.now() - timedelta(days=30))

    sweep.apply()

    command = Command.objects.get(game=game, seat=green)
    assert command.body == expected and command.command_id == f"deadline:green:{seq}"


def test_the_deadline_tasks_result_names_no_card(db):
    """Celery logs each task's result (`CELERY_TRACE_LOG_LEVEL` INFO): the deadline task's is a
    status, never the move's words, which for a draft pick name a card of the seat's hand
    ("Accepted: Keep Geis."): the operator's log shows hands no more than `show_game` does."""
    game = game_from(ASSEMBLY, seed="deadline-task-result")
    send_all()
    green = game.seats.get(colour="green")
    _state, seq = store.load(game)
    SeatClock.objects.filter(seat=green).update(opened_at=timezone.now() - timedelta(days=30))
    clock = SeatClock.objects.get(seat=green)
    assert play_tasks.apply_deadline.apply(args=[clock.pk, seq]).result == "played"
    assert play_tasks.apply_deadline.apply(args=[clock.pk, seq]).result == "nothing due"
    assert Command.objects.get(game=game, seat=green).command_id == f"deadline:green:{seq}"


def _expire(game, colour):
    SeatClock.objects.filter(seat__game=game, seat__colour=colour).update(
        opened_at=timezone.now() - timedelta(hours=49)
    )


@pytest.fixture
def end_game(db):
    game = game_from(END, seed="deadline-end")
    send_all()
    return game


def test_at_the_deadline_the_sweep_plays_the_default_through_submit_command(end_game):
    _expire(end_game, "green")
    state, seq = store.load(end_game)

    counts = sweep.apply().result

    assert counts["deadlines"] == 1
    command = Command.objects.get(game=end_game)
    assert (command.seat.colour, command.body, command.command_id) == (
        "green",
        {"type": "pass"},
        f"deadline:green:{seq}",
    )
    assert SeatClock.objects.get(seat=command.seat).missed_in_row == 1
    # Run again (a duplicate task, a second sweep): nothing more.
    play_tasks.apply_deadline.apply(args=[SeatClock.objects.get(seat=command.seat).pk, seq])
    sweep.apply()
    assert Command.objects.filter(game=end_game).count() == 1


def test_a_player_who_misses_deadlines_in_a_row_is_replaced_by_the_bot_until_they_return(
    end_game, django_capture_on_commit_callbacks
):
    green = end_game.seats.get(colour="green")
    SeatClock.objects.filter(seat=green).update(missed_in_row=deadlines.MISSES_BEFORE_STAND_IN - 1)
    _expire(end_game, "green")

    sweep.apply()
    send_all()

    clock = SeatClock.objects.get(seat=green)
    assert clock.stand_in and clock.missed_in_row == deadlines.MISSES_BEFORE_STAND_IN
    notice = last_to("player1@example.org")
    assert "a bot now plays green for you" in notice.body
    # The others play on; when green's turn comes, the bot plays it at once and no prompt goes out.
    seats = {s.colour: s for s in end_game.seats.all()}
    with django_capture_on_commit_callbacks(execute=True):  # the stand-in task runs after the commit
        _play_until_green(end_game, seats)
    # (Or, when the rules leave green only one move, it is played as a forced move: nobody asked.)
    green_moves = Command.objects.filter(game=end_game, seat=green).exclude(
        command_id__startswith="deadline:"
    )
    assert green_moves.exists(), list(
        Command.objects.filter(game=end_game).values_list("command_id", flat=True)
    )
    assert all(c.command_id.startswith(("standin:", "forced:")) for c in green_moves)
    send_all()
    sent_prompts = Outbox.objects.filter(seat=green, kind=Outbox.Kind.PROMPT, status=Outbox.Status.SENT)
    assert sent_prompts.count() == 1  # only the first, from before the bot took over

    # A reply brings green back.
    feed(mail_clients.gmail(notice, "I am back"))
    clock.refresh_from_db()
    assert (clock.stand_in, clock.missed_in_row) == (False, 0)
    assert "Welcome back" in last_to("player1@example.org").body


def _play_until_green(game, seats):
    """Blue, orange and white take their turns (answering the Triskel windows on the way)."""
    for _turn in range(3):
        state, seq = store.load(game)
        decision = next(d for d in rules.pending(state))
        if decision.seat == "green":  # (orange's and white's passes may be forced: played already)
            return
        assert submit_command(
            game=game,
            seat=seats[decision.seat],
            command=deadlines.default_command(
                state,
                decision.seat,
                decision.kind,
                random.Random(0),
                stand_in=lambda: rules.legal_commands(state, decision.seat)[0],
            ),
            expected_seq=seq,
        ).accepted
        # Blue's Bard opens Triskel windows: answer them too.
        for _ in range(5):
            state, seq = store.load(game)
            pending = [d for d in rules.pending(state) if d.kind == "reaction"]
            if not pending:
                break
            submit_command(
                game=game, seat=seats[pending[0].seat], command={"type": "decline"}, expected_seq=seq
            )


def test_a_vacation_moves_the_deadline(end_game):
    green_player = Player.objects.get(email="player1@example.org")
    now = timezone.now()
    green_player.away_from, green_player.away_until = now - timedelta(hours=50), now + timedelta(days=7)
    green_player.save()
    _expire(end_game, "green")

    counts = sweep.apply().result

    assert counts["deadlines"] == 0 and not Command.objects.filter(game=end_game).exists()
    assert SeatClock.objects.get(seat__game=end_game, seat__colour="green").deadline > now + timedelta(days=7)


def test_the_hosts_extension_and_pause_move_the_deadline(end_game):
    _expire(end_game, "green")
    deadline_extend(game=end_game, colour="green", hours=24)
    assert sweep.apply().result["deadlines"] == 0

    _expire(end_game, "green")
    SeatClock.objects.filter(seat__game=end_game, seat__colour="green").update(
        opened_at=timezone.now() - timedelta(hours=80)
    )
    game_pause(game=end_game)
    assert sweep.apply().result["deadlines"] == 0
    assert not Command.objects.filter(game=end_game).exists()


def test_an_extension_of_true_hours_is_refused(end_game):
    """docs/table-log.md: `DeadlineExtended` records `"hours": n`, a number of hours ("An
    extension is 1 to ... hours"); `true` (a Python int) is none, and nothing is recorded."""
    from games.play.table import TableError

    with pytest.raises(TableError, match="An extension is 1 to"):
        deadline_extend(game=end_game, colour="green", hours=True)
    end_game.refresh_from_db()
    assert not end_game.options.get("extensions")


def test_the_sweep_is_the_only_periodic_task(settings):
    schedule = settings.CELERY_BEAT_SCHEDULE
    assert [entry["task"] for entry in schedule.values()] == ["notifications.tasks.sweep"]


def test_a_stand_in_thinks_without_the_lock_and_plays_nothing_if_its_player_came_back(end_game, monkeypatch):
    """The stand-in (a hard bot, seconds of thought) decides outside the game's row lock; a reply
    of the player arriving meanwhile brings them back, and the move the bot thought of is dropped."""
    from games.play import standins

    green = end_game.seats.get(colour="green")
    SeatClock.objects.filter(seat=green).update(stand_in=True)
    thought = []

    def thinking(game, seat, state, seq):
        thought.append(seq)
        SeatClock.objects.filter(seat=seat).update(stand_in=False)  # the player's reply, meanwhile
        return {"type": "pass"}

    monkeypatch.setattr(standins, "stand_in_command", thinking)
    assert standins.play_standins(end_game.pk) == 0
    assert thought and not Command.objects.filter(game=end_game, command_id__startswith="standin:").exists()


def test_the_stand_in_plays_the_strongest_bot_on_what_its_seat_may_see(end_game, settings):
    """A stood-in seat's move is that of the strongest level within the stand-in's CPU budget
    (the arena's figures), keyed `standin:<colour>:<seq>`."""
    from games.bots.ratings import level_ratings
    from games.play import bot_seats, standins

    # Bounded by iterations, the strong bot's move is reproducible.
    settings.BOT_STRONG_ITERATIONS = 8
    level = standins.stand_in_level()
    assert level_ratings()[level] >= level_ratings()["hard"]
    green = end_game.seats.get(colour="green")
    SeatClock.objects.filter(seat=green).update(stand_in=True)
    state, seq = store.load(end_game)
    expected = bot_seats.bot_command(end_game, "green", level, state, seq)
    standins.play_standins(end_game.pk)
    command = Command.objects.get(game=end_game, command_id=f"standin:green:{seq}")
    assert command.body == expected


def test_the_stand_in_waits_while_the_host_has_the_game_paused(
    end_game, settings, django_capture_on_commit_callbacks
):
    """docs/deadlines.md: "no default is played while the game is paused, nor does the stand-in
    bot play for an absent player until the host resumes it" (a host often pauses to find the
    absent player a replacement). Resuming starts it again."""
    from games.play import standins

    settings.BOT_STRONG_ITERATIONS = 8
    green = end_game.seats.get(colour="green")
    SeatClock.objects.filter(seat=green).update(stand_in=True)
    game_pause(game=end_game)

    assert sweep.apply().result["standins"] == 0
    assert standins.play_standins(end_game.pk) == 0
    assert not Command.objects.filter(game=end_game, command_id__startswith="standin:").exists()

    with django_capture_on_commit_callbacks(execute=True):
        game_resume(game=end_game)
    assert Command.objects.filter(game=end_game, command_id__startswith="standin:green:").exists()


# -- time not counted: vacations, pauses; orders at the deadline ----------------------------------


@pytest.fixture
def fake_now(monkeypatch):
    """The service's clock, which the test moves: `fake_now["now"]` is what `timezone.now()` says."""
    clock = {"now": timezone.now()}
    monkeypatch.setattr(timezone, "now", lambda: clock["now"])
    return clock


def _sweep_at(fake_now, when) -> None:
    """The sweep runs at `when`, and what it wrote is delivered."""
    fake_now["now"] = when
    sweep.apply()
    send_all()


def _reminders_to(address: str) -> list:
    return [m for m in mail.outbox if address in m.to and m.subject.startswith("Reminder:")]


def test_no_reminder_during_the_vacation_and_half_the_time_after_it(db, fake_now):
    """Green's 6-hour Season turn opens while its player is away for 10 days: its clock starts
    when the vacation ends, and so does its reminder's. No reminder email all through the
    vacation (not even 12 hours before the deadline); it comes 3 hours (half of 6) after the
    vacation, naming the deadline 6 hours after it."""
    opened = fake_now["now"]
    back = opened + timedelta(days=10)
    Player.objects.create(email="player1@example.org", away_from=opened - timedelta(hours=1), away_until=back)
    game_from(END, seed="vacation-reminder", options={"deadlines": {"default": 48, "season_turn": 6}})
    send_all()

    for when in (opened + timedelta(days=5), back - timedelta(hours=6), back - timedelta(minutes=1)):
        _sweep_at(fake_now, when)
        assert _reminders_to("player1@example.org") == [], when - opened
    _sweep_at(fake_now, back + timedelta(hours=2, minutes=59))
    assert _reminders_to("player1@example.org") == []
    _sweep_at(fake_now, back + timedelta(hours=3, minutes=1))
    (reminder,) = _reminders_to("player1@example.org")
    assert f"Deadline: {format_deadline(back + timedelta(hours=6), 'UTC')}" in reminder.body


def test_a_pause_during_the_vacation_is_not_left_out_twice(db, fake_now):
    """Green's 48-hour decision opens; its player is away from hour 1 to hour 25, and the host
    pauses the game from hour 2 to hour 12, inside the vacation: 24 hours do not count, not 34.
    The reminder names the deadline 72 hours after the opening, and the default is played then."""
    opened = fake_now["now"]
    Player.objects.create(
        email="player1@example.org",
        away_from=opened + timedelta(hours=1),
        away_until=opened + timedelta(hours=25),
    )
    game = game_from(END, seed="pause-in-vacation")
    send_all()
    fake_now["now"] = opened + timedelta(hours=2)
    game_pause(game=game)
    fake_now["now"] = opened + timedelta(hours=12)
    game_resume(game=game)

    deadline = opened + timedelta(hours=72)
    _sweep_at(fake_now, deadline - timedelta(hours=12) + timedelta(minutes=1))
    (reminder,) = _reminders_to("player1@example.org")
    assert f"Deadline: {format_deadline(deadline, 'UTC')}" in reminder.body
    _sweep_at(fake_now, deadline + timedelta(minutes=1))
    command = Command.objects.get(game=game)
    assert (command.seat.colour, command.command_id[: len("deadline:")]) == ("green", "deadline:")


def test_a_deadline_answered_by_the_players_own_order_is_not_a_missed_one(end_game):
    """Green has missed 2 deadlines in a row, then leaves a standing order (take a Pretender
    token) that answers the third: the order is played, and it is not a third miss, so no bot
    takes the seat and no "a bot now plays" email goes; nor does it wipe the two misses out (the
    order says nothing of the player being here now)."""
    green = end_game.seats.get(colour="green")
    SeatClock.objects.filter(seat=green).update(missed_in_row=deadlines.MISSES_BEFORE_STAND_IN - 1)
    standing_orders.set_order(end_game, green, {"kind": "queue_play", "command": {"type": "pretender"}})
    _expire(end_game, "green")
    state, seq = store.load(end_game)

    sweep.apply()
    send_all()

    command = Command.objects.get(game=end_game, seat=green)
    assert (command.body, command.command_id) == ({"type": "pretender"}, f"order:green:{seq}")
    clock = SeatClock.objects.get(seat=green)
    assert (clock.stand_in, clock.missed_in_row) == (False, deadlines.MISSES_BEFORE_STAND_IN - 1)
    assert not any("a bot now plays" in m.body for m in mail.outbox if "player1@example.org" in m.to)
