"""docs/scaling.md, "How many games one machine serves", reads its game length from the calendar
"(bench/RESULTS.md, `pace` rows)": the figures it cites are those rows' (rounded), so that a new
calendar run that changes them fails here until the page's arithmetic follows."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def pace_figure(what: str) -> float:
    """The result of the `pace` row of bench/RESULTS.md named `what`, e.g. "20.6" of 20.6 days."""
    for line in (ROOT / "bench" / "RESULTS.md").read_text().splitlines():
        cells = [cell.strip() for cell in line.split("|")]
        if cells[1:3] == ["pace", what]:
            return float(cells[3].split()[0].replace(",", ""))
    raise AssertionError(f"bench/RESULTS.md has no pace row {what!r}")


def test_the_length_of_a_game_is_the_calendars():
    text = " ".join((ROOT / "docs" / "scaling.md").read_text().split())
    with_orders = pace_figure("median days a 4-player game (bots that play to win, standing orders)")
    without = pace_figure("median days a 4-player game (bots that play to win, no standing orders)")
    rounds = pace_figure("median rounds a game (standing orders)")
    said = re.search(
        r"a 4-player game lasts about (\d+) days with standing orders \((\d+) without\) and holds about "
        r"(\d+) decisions a round over about (\d+) rounds, so about (\d+) answers a game",
        text,
    )
    assert said, "docs/scaling.md no longer says how long a game lasts in the words this test reads"
    days, days_without, decisions, page_rounds, answers = (int(n) for n in said.groups())
    assert (days, days_without, page_rounds) == (round(with_orders), round(without), round(rounds))
    assert answers == decisions * page_rounds
    per_day = re.search(r"That is about \*\*(\d+) accepted commands a game a day\*\*", text)
    assert per_day and abs(int(per_day.group(1)) - answers / days) <= 2.5, (per_day, answers / days)
