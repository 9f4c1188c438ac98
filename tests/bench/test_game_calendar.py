"""The calendar rows (bench/game_calendar.py) on a tiny configuration: standing orders answer
some decisions at once and so cut the human waits, the rows carry the issue's names, and the
simulation is reproducible. No timing is asserted: the figures are for `python -m bench`."""

from __future__ import annotations

import pytest

from bench import game_calendar
from bench.pacing import Delays


@pytest.fixture(scope="module")
def tiny():
    choose, name = game_calendar.brain()
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
    summaries = {
        game_calendar.WITH: game_calendar.summarise(game_calendar.WITH, [r for r in runs if r.orders]),
        game_calendar.WITHOUT: game_calendar.summarise(
            game_calendar.WITHOUT, [r for r in runs if not r.orders]
        ),
    }
    rows = {f"{row.section} | {row.figure}": row for row in game_calendar.rows(summaries, name, Delays())}
    with_orders = rows["pace | median days a 4-player game (bots that play to win, standing orders)"]
    without = rows["pace | median days a 4-player game (bots that play to win, no standing orders)"]
    assert with_orders.goal == ("<=", 1.0) and with_orders.baseline == 35.0
    assert "lognormal, median 4 h, sigma 1" in with_orders.note and name in with_orders.note
    assert without.value == summaries[game_calendar.WITHOUT].median_days
    assert "pace | human waits per round (standing orders)" in rows


def test_the_calendar_is_reproducible():
    choose, _name = game_calendar.brain()
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
