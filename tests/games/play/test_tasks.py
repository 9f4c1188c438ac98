"""games.play.tasks.play_bots (the task named games.tasks.play_bots): bot moves after a commit, cut into bounded task runs."""

from __future__ import annotations

from games import rules, store
from games.models import Command
from games.play import tasks
from games.services import SeatSpec, create_game


def test_the_task_plays_bots_in_bounded_runs_until_a_player_must_decide(db, monkeypatch):
    monkeypatch.setattr(tasks, "BOT_COMMANDS_PER_TASK", 1)
    game = create_game(
        seats=[SeatSpec(email="me@example.org")] + [SeatSpec(is_bot=True)] * 3, seed="tasks", play_bots=False
    )
    state, _ = store.load(game)
    assert {d.seat for d in rules.pending(state)} != {"green"}, "the player moves first: pick another seed"

    accepted = tasks.play_bots.apply(args=[game.pk]).get()

    assert accepted == 1
    state, _ = store.load(game)
    assert {d.seat for d in rules.pending(state)} == {"green"}
    # One command a run: more commands mean the task enqueued itself again.
    assert Command.objects.filter(game=game).count() > 1


def test_the_task_does_nothing_when_no_bot_must_decide(make_game):
    game = make_game(n_players=2)
    assert tasks.play_bots.apply(args=[game.pk]).get() == 0


def test_the_sweep_finds_the_games_whose_bots_wait_too_long_and_only_those(db):
    """games.play.bot_seats.games_waiting_for_bots: a game left with a bot to move (its task lost) is found
    once nothing was recorded for the given time; one waiting for a player, one just moved, and a
    game without bots are not. Enqueued again, the bots play until the player must decide."""
    from datetime import timedelta

    from django.utils import timezone

    from games.play.bot_seats import games_waiting_for_bots, play_bots

    me = [SeatSpec(email="me@example.org")]
    stuck = create_game(seats=me + [SeatSpec(is_bot=True)] * 3, seed="tasks", play_bots=False)
    humans = create_game(seats=me + [SeatSpec(email="you@example.org")], seed="tasks-humans")
    waiting_for_me = create_game(seats=me + [SeatSpec(is_bot=True)], seed="tasks-me", play_bots=False)
    play_bots(waiting_for_me, max_commands=100)
    assert {d.seat for d in rules.pending(store.load(waiting_for_me)[0])} == {"green"}
    later = timezone.now() + timedelta(seconds=301)

    assert games_waiting_for_bots(older_than_seconds=300) == []  # just moved: its task may be on its way
    assert games_waiting_for_bots(older_than_seconds=300, now=later) == [stuck.pk]
    assert humans.pk not in games_waiting_for_bots(older_than_seconds=0, now=later)

    assert tasks.enqueue_waiting_bots(older_than_seconds=0) == 1  # in-process here: the bots play
    assert {d.seat for d in rules.pending(store.load(stuck)[0])} == {"green"}
    assert games_waiting_for_bots(older_than_seconds=0, now=later) == []
