"""games.tasks.play_bots: bot moves after a commit, cut into bounded task runs."""
from __future__ import annotations

from games import rules, store, tasks
from games.models import Command
from games.services import SeatSpec, create_game


def test_the_task_plays_bots_in_bounded_runs_until_a_player_must_decide(db, monkeypatch):
    monkeypatch.setattr(tasks, "BOT_COMMANDS_PER_TASK", 1)
    game = create_game(seats=[SeatSpec(email="me@example.org")] + [SeatSpec(is_bot=True)] * 3,
                       seed="tasks", play_bots=False)
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
