"""The bench's sparring partner decides on its seat's view only; the arena rates the levels and
writes the file the lobby reads (issue 39; bench/bots.py, bench/sparring.py)."""

from __future__ import annotations

import json
import random

import pytest

from bench import bots as bench_bots
from bench.sparring import sparring_command
from games import rules
from games.bots.ratings import STRONG_CPU_KEY, level_ratings, strong_cpu_p99
from tests.bots.test_information_sets import positions, redeal_hidden_from, twin_positions


def test_the_sparring_partner_plays_legal_commands_from_its_seats_view_only():
    """Another deal of what the seat cannot see (other hands, decks, a pack not picked up,
    another seat's secret) gives the same command for the same generator, and it is legal."""
    shuffle = random.Random(7)
    compared = 0
    for state, seat in positions("sparring-view", 4, every=9)[:25]:
        mine = sparring_command(state, seat, random.Random(state.seq))
        assert mine in rules.legal_commands(state, seat)
        other = redeal_hidden_from(state, seat, shuffle)
        assert sparring_command(other, seat, random.Random(state.seq)) == mine
        compared += 1
    for twins in twin_positions(limit=3).values():
        for state, twin, seat in twins:
            assert sparring_command(twin, seat, random.Random(1)) == sparring_command(
                state, seat, random.Random(1)
            )
            compared += 1
    assert compared > 20


def test_the_arena_rates_every_level_and_the_lobby_reads_its_file(tmp_path, db):
    """Two games of the cheap levels: every level is rated on the players' scale (the winner
    above its start), and the file written names each with its figure."""
    levels = ("random", "easy", bench_bots.SPARRING)
    result = bench_bots.arena(2, levels=levels)
    assert set(result["ratings"]) == set(levels)
    assert all(rating.games == 2 for rating in result["ratings"].values())
    assert sum(result["wins"].values()) <= 2
    path = bench_bots.write_ratings(result, 2, tmp_path / "ratings.json")
    figures = level_ratings(path)
    assert figures == {level: round(r.ordinal) for level, r in result["ratings"].items()}
    rows = bench_bots.arena_rows(result, 2)
    assert [row.figure for row in rows] == [f"arena: {level} bot's rating" for level in levels]


def test_a_match_of_the_strong_bot_records_its_cpu_at_its_budget_and_the_arena_keeps_it(tmp_path, db):
    """`python -m bench.bots strong,... --write` records the strong bot's CPU time a decision
    at its budget in the ratings file, where the stand-in's choice of level reads it; the
    arena, rewriting the file, keeps it."""
    times = [0.001] * 90 + [1.9] * 9 + [2.3]
    part = {"think_times": {"strong": times}, "budget": 2.0, "levels": "strong,hard,hard,hard", "games": 4}
    path = tmp_path / "ratings.json"
    bench_bots.record_strong_cpu(part, path)
    assert strong_cpu_p99(json.loads(path.read_text()), 2.0) == 2.3
    # Said as the match's one command, not as the parts it was merged from.
    assert json.loads(path.read_text())[STRONG_CPU_KEY]["2"]["command"] == (
        "python -m bench.bots strong,hard,hard,hard --games 4 --budget 2"
    )
    levels = ("random", "easy")
    bench_bots.write_ratings(bench_bots.arena(1, levels=levels), 1, path)
    data = json.loads(path.read_text())
    assert strong_cpu_p99(data, 2.0) == 2.3 and set(data["levels"]) == set(levels)
    assert strong_cpu_p99(data, 0.5) is None


def test_a_wilson_interval_brackets_the_share():
    """13 of 52 games: the issue's 15-38%."""
    assert bench_bots.wilson(13, 52) == "15-38%"


def test_parts_of_a_match_merge_only_when_the_same_code_played_them(tmp_path):
    """A match split over sessions: a part played after the rules or a bot changed is refused,
    with the fingerprints named, and the merged rows say the code that played them."""
    tree = tmp_path / "tree"
    for name in ("games/rules/engine.py", "games/bots/strong.py", "bench/sparring.py"):
        (tree / name).parent.mkdir(parents=True, exist_ok=True)
        (tree / name).write_text("x = 1\n")
    before = bench_bots.code_fingerprint(tree)
    assert bench_bots.code_fingerprint(tree) == before
    catalogue = tree / "games/rules/locale/fr/LC_MESSAGES/django.mo"
    catalogue.parent.mkdir(parents=True)
    catalogue.write_bytes(b"compiled")  # built by compilemessages in one checkout, not another
    assert bench_bots.code_fingerprint(tree) == before
    (tree / "games/bots/strong.py").write_text("x = 2\n")
    after = bench_bots.code_fingerprint(tree)
    assert after != before

    def part(name: str, code: str) -> str:
        saved = {
            "wins": {"strong": 1}, "rounds": [7], "think_times": {"strong": [0.1]},
            "levels": "strong,hard,hard,hard", "games": 1, "first": [0], "budget": 2.0,
            "loads": ["0.1 at start, 0.2 at end"], "cpu": 10.0, "peak_mb": 30.0, "nice": 19, "code": code,
        }  # fmt: skip
        (tmp_path / name).write_text(json.dumps(saved))
        return str(tmp_path / name)

    same = bench_bots.merged([part("a.json", before), part("b.json", before)], "strong,hard,hard,hard", 2.0)
    assert same["games"] == 2 and same["code"] == before
    notes = [row.note for row in bench_bots.match_rows(("strong", "hard", "hard", "hard"), same)]
    assert all(f"code {before}" in note for note in notes)
    with pytest.raises(SystemExit, match=f"different code.*{after}"):
        bench_bots.merged([part("a.json", before), part("c.json", after)], "strong,hard,hard,hard", 2.0)


def test_a_lighter_match_does_not_lower_the_strong_bots_recorded_cpu(tmp_path):
    """The stand-in's budget must hold the most demanding opponents measured: a match against
    the sparring partner, where the strong bot thinks less, keeps the figure measured against
    hard bots; the match recorded, measured again, replaces it."""
    path = tmp_path / "ratings.json"

    def record(levels: str, slowest: float) -> float | None:
        part = {
            "think_times": {"strong": [0.01] * 99 + [slowest]},
            "budget": 0.5,
            "levels": levels,
            "games": 4,
        }
        bench_bots.record_strong_cpu(part, path)
        return strong_cpu_p99(json.loads(path.read_text()), 0.5)

    assert record("strong,hard,hard,hard", 1.4) == 1.4
    assert record("strong,sparring,sparring,sparring", 0.9) == 1.4
    assert record("strong,sparring,sparring,sparring", 1.6) == 1.6
    assert record("strong,hard,hard,hard", 1.2) == 1.6
    assert record("strong,sparring,sparring,sparring", 1.3) == 1.3


def test_the_match_says_how_often_the_strong_bots_search_changed_the_hard_bots_choice():
    """The strong bot in a match decides as `games.bots.choose` does, and each decision it
    searched says whether the search changed the hard bot's choice and how many deals it played;
    the match's rows give the share."""
    from games import bots
    from games.bots.hard import DEALS
    from tests.bots.test_strong_bot import searched_positions

    budget = bots.Budget(seconds=float("inf"), iterations=2 * DEALS)
    searches: list = []
    for n, (state, seat) in enumerate(searched_positions("bench-searches", every=9)[:3]):
        chosen = bots.choose(state, seat, "strong", random.Random(n), budget)
        assert bench_bots.decide(state, seat, "strong", random.Random(n), budget, searches) == chosen
    assert searches and all(DEALS <= deals <= 2 * DEALS for _changed, deals in searches)
    part = {
        "wins": {"strong": 1}, "rounds": [7], "think_times": {"strong": [0.1]}, "searches": [[True, 8], [False, 4]],
        "levels": "strong,hard,hard,hard", "games": 1, "first": [0], "budget": 2.0, "loads": ["0.1"],
        "cpu": 1.0, "peak_mb": 30.0,
    }  # fmt: skip
    row = next(
        r for r in bench_bots.match_rows(("strong", "hard", "hard", "hard"), part) if "changed" in r.figure
    )
    assert row.value == 50.0 and "1 of 2" in row.note and "median 6" in row.note


def test_a_saved_part_says_its_code_and_merges_back_into_the_match(tmp_path, capsys):
    """`--save` keeps a part (its times to the microsecond, the code that played it), and
    `--merge` of the saved part gives the match's rows again."""
    path = tmp_path / "part.json"
    assert bench_bots.main(["easy,random", "--games", "2", "--save", str(path)]) == 0
    saved = json.loads(path.read_text())
    assert saved["code"] == bench_bots.code_fingerprint() and saved["games"] == 2
    assert all(t == round(t, 6) for times in saved["think_times"].values() for t in times)
    played = capsys.readouterr().out
    assert bench_bots.main(["easy,random", "--merge", str(path)]) == 0
    merged = capsys.readouterr().out
    share = next(line for line in played.splitlines() if "easy vs 1 random" in line)
    assert share.split("|")[3] in merged


def test_the_strong_search_diagnostic_compares_each_search_with_a_long_one():
    """`python -m bench.strong_search`: on each searched decision, whether the strong bot's race,
    the same search with no candidate dropped, and the hard bot send the long search's command;
    the rows give the first two against the hard bot's share."""
    from bench import strong_search

    found = strong_search.agreement(positions=2, deals=6, truth=8)
    assert found.positions == 2 and all(0 <= n <= 2 for n in (found.race, found.plain, found.hard))
    rows = strong_search.rows(found, 6, 8)
    assert [row.value for row in rows] == [50.0 * found.race, 50.0 * found.plain]
    assert all(row.baseline == 50.0 * found.hard and "8 deals" in row.note for row in rows)
