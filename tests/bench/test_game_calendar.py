"""The calendar rows (bench/game_calendar.py) on a tiny configuration: standing orders answer
some decisions at once and so cut the human waits, the rows carry the issue's names, and the
simulation is reproducible. No timing is asserted: the figures are for `python -m bench`. The
mechanics are tested with the easy bots (`MECHANICS`), which think in milliseconds: the bench's
people play as the hard bots, a second a decision."""

from __future__ import annotations

import random

import pytest

from bench import game_calendar
from bench.pacing import SEATS, Delays
from games import rules

MECHANICS = "easy"  # the bots these tests play with: the orders' mechanics, not the bots, are tested


@pytest.fixture(scope="module")
def tiny():
    choose, name = game_calendar.brain(MECHANICS)
    return [
        game_calendar.play(f"calendar-test-{i}", orders=orders, choose=choose, max_rounds=2)
        for i in range(2)
        for orders in (True, False)
    ], name


def test_orders_answer_decisions_and_the_game_waits_less_for_people(tiny):
    runs, _name = tiny
    with_orders = [r for r in runs if r.orders]
    without = [r for r in runs if not r.orders]
    assert all(r.ordered > 0 for r in with_orders) and all(r.ordered == 0 for r in without)
    assert sum(r.waits for r in with_orders) < sum(r.waits for r in without)


def test_the_rows_have_the_issues_names_and_the_goal_is_on_the_figure_with_orders(tiny):
    runs, name = tiny
    with_runs, without_runs = [r for r in runs if r.orders], [r for r in runs if not r.orders]
    summaries = {
        label: game_calendar.summarise(label, without_runs if label == game_calendar.WITHOUT else with_runs)
        for label in game_calendar.CONDITIONS
    }
    rows = {f"{row.section} | {row.figure}": row for row in game_calendar.rows(summaries, name, Delays())}
    with_orders = rows["pace | median days a 4-player game (bots that play to win, standing orders)"]
    without = rows["pace | median days a 4-player game (bots that play to win, no standing orders)"]
    assert with_orders.goal == ("<=", 1.0) and with_orders.baseline == 35.0
    assert "lognormal, median 4 h, sigma 1" in with_orders.note and name in with_orders.note
    assert without.value == summaries[game_calendar.WITHOUT].median_days
    assert "pace | median days a 4-player game (bots that play to win, only the once-a-game orders)" in rows
    waits = rows["pace | human waits per round (standing orders)"]
    assert waits.goal == ("<=", 1.0) and waits.baseline == 14.0
    assert "pace | Triskel emails per seat and clash" in rows


def test_the_calendar_is_reproducible():
    choose, _name = game_calendar.brain(MECHANICS)
    once = game_calendar.play("calendar-again", orders=True, choose=choose, max_rounds=1)
    again = game_calendar.play("calendar-again", orders=True, choose=choose, max_rounds=1)
    assert once == again and once.days > 0


def test_the_stand_in_orders_leave_no_maneuver_to_wait_for(tiny):
    """The simulated people hand their maneuvers to the stand-in bot (docs/standing-orders.md,
    `stand_in`): with orders no clash waits for a person's maneuver; without, some do."""
    runs, _name = tiny
    assert ("stand_in", {"decision": "maneuver"}) in game_calendar.ONCE_A_GAME
    assert sum(r.wait_kinds.get("maneuver", 0) for r in runs if r.orders) == 0
    assert sum(r.wait_kinds.get("maneuver", 0) for r in runs if not r.orders) > 0


def test_a_queued_play_is_chosen_between_turns_from_what_the_seat_sees_then():
    """No hindsight: the play a person queues is chosen when the next player's turn begins, on
    the state of that moment with the turn given to the seat; in the middle of a turn (a window,
    a clash) nothing is chosen yet, and the real game's turn is left untouched."""
    choose, _name = game_calendar.brain(MECHANICS)
    state = rules.fold(rules.start_game(list(SEATS), seed="queue-test", options={"reactions": "holders"}))
    rng = random.Random(1)
    while not (state.top() and state.top()["kind"] == "season" and state.top().get("status") == "choose"):
        seat = rules.pending(state)[0].seat
        for event in rules.decide(state, seat, choose(state, seat, rng), rng=rules.rng_for("q", state.seq)):
            rules.evolve(state, event)
    turn = state.top()["turn"]
    other = next(s for s in SEATS if s != turn)
    queued = game_calendar._queued_play(state, other, choose, random.Random(2))
    assert state.top()["turn"] == turn  # chosen on a copy
    assert queued is not None and queued["type"] in ("play", "pretender", "pass")
    if queued["type"] == "play":
        assert queued["card"] in state.hands[other]
    state.top()["status"] = "acted"
    assert game_calendar._queued_play(state, other, choose, random.Random(2)) is None


def test_before_and_after_differ_only_by_the_triskel_order():
    """The row `Triskel emails per seat and clash` compares two conditions that differ only by the
    Triskel order: "in my clashes only when I am attacked" against "only when it concerns me"."""
    after = dict((k, b) for k, b in game_calendar.ONCE_A_GAME if k != "triskel")
    before = dict((k, b) for k, b in game_calendar.ONCE_A_GAME_BEFORE if k != "triskel")
    assert after == before
    assert ("triskel", {"card": "all", "when": "attacked"}) in game_calendar.ONCE_A_GAME
    assert ("triskel", {"card": "all", "when": "concerned"}) in game_calendar.ONCE_A_GAME_BEFORE


def test_each_seat_queues_its_first_play_when_a_season_begins(monkeypatch):
    """When the Season begins, every simulated person queues the play they will open with, from
    what they see then (the hands are drafted): the four choices are made on one state, before
    any Season turn is played."""
    calls = []
    real = game_calendar._queued_play

    def spy(state, seat, choose, rng):
        calls.append((state.round, state.seq, seat))
        return real(state, seat, choose, rng)

    monkeypatch.setattr(game_calendar, "_queued_play", spy)
    choose, _name = game_calendar.brain(MECHANICS)
    game_calendar.play("calendar-season-start", orders=True, choose=choose, max_rounds=1)
    first = [c for c in calls if c[0] == 1][: len(SEATS)]
    assert {seq for _round, seq, _seat in first} == {first[0][1]}
    assert sorted(seat for _round, _seq, seat in first) == sorted(SEATS)


def test_the_simulated_people_play_as_the_hard_bots():
    assert game_calendar.LEVEL == "hard"
    assert game_calendar.brain()[1] == "games.bots, level hard"
