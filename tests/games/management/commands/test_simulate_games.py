"""manage.py simulate_games: bot games through the database, each verifiable afterwards."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.models import Game
from games.store.verification import verify_game


@pytest.mark.slow  # whole games
def test_three_four_player_games_complete_and_verify(db):
    out = StringIO()
    call_command("simulate_games", "--games", "3", "--players", "4", "--seed", "sim", stdout=out)
    text = out.getvalue()
    summary = re.search(
        r"3 games of 4 players: (\d+) ended with a winner, (\d+) unfinished; "
        r"mean ([\d.]+) events",
        text,
    )
    assert summary, text
    games = list(Game.objects.all())
    assert len(games) == 3
    assert int(summary.group(1)) == sum(1 for g in games if g.winner)
    assert int(summary.group(1)) >= 1, text
    for game in games:
        report = verify_game(game)
        assert report.ok, report.lines()
        assert report.commands > 0


def test_levels_seat_by_seat_report_wins_by_kind_rounds_and_cpu_as_json(db):
    """--players easy,random: the seats turn each game; the JSON summary counts the wins by kind
    of bot and gives the rounds and the CPU seconds of a decision per level (issue 28)."""
    import json

    out = StringIO()
    call_command(
        "simulate_games",
        "--games",
        "2",
        "--players",
        "easy,random",
        "--seed",
        "levels",
        "--max-commands",
        "60",
        "--json",
        stdout=out,
    )
    summary = json.loads(out.getvalue())
    assert summary["players"] == ["easy", "random"] and summary["games"] == 2
    assert set(summary["wins"]) == {"easy", "random"}
    assert sum(summary["wins"].values()) == summary["won"]
    assert summary["rounds"]["median"] >= 1
    cpu = summary["cpu_seconds_a_decision"]
    assert set(cpu) == {"easy", "random"} and all(
        c["decisions"] > 0 and c["median"] >= 0 for c in cpu.values()
    )
    seats = [[s.bot_level for s in game.seats.all()] for game in Game.objects.order_by("pk")]
    assert seats == [["easy", "random"], ["random", "easy"]]


def test_an_unknown_level_is_refused_with_the_levels(db):
    with pytest.raises(CommandError, match="random, easy, hard"):
        call_command("simulate_games", "--players", "hard,genius", stdout=StringIO(), stderr=StringIO())


def test_the_caps_stop_a_game_unfinished(db):
    out = StringIO()
    call_command(
        "simulate_games", "--games", "1", "--players", "2", "--max-commands", "5", "--verify", stdout=out
    )
    assert "1 unfinished" in out.getvalue() and "verified" in out.getvalue()
    assert not Game.objects.get().winner


def test_pace_reports_each_reaction_mode_and_judges_the_default_one(transactional_db):
    """--pace prints, per reaction mode, prompts and decline-only prompts per seat and round, the
    calendar days, and emails through the service; the default mode asks no seat to only decline."""
    out = StringIO()
    call_command(
        "simulate_games",
        "--pace",
        "--games",
        "1",
        "--max-rounds",
        "1",
        "--seed",
        "pace-cmd",
        "--pace-email-games",
        "1",
        "--pace-email-rounds",
        "1",
        stdout=out,
    )
    text = out.getvalue()
    prompts = {
        m.group(1): m.groups()
        for m in re.finditer(
            r"^\| (holders|strict|quick)(?: \(default\))? \| 1 \(\d\) \| [\d.]+ \| ([\d.]+) \| ([\d.]+) \| "
            r"([\d.]+) \| ([\d.]+) \| ([\d,]+) s .*\| (met|MISSED|) \|$",
            text,
            re.M,
        )
    }
    assert set(prompts) == {"holders", "strict", "quick"}, text
    for _mode, all_, decline_only, single, real, _seconds, _goal in prompts.values():
        assert float(decline_only) <= float(single) <= float(all_)
        assert float(single) + float(real) == pytest.approx(float(all_), abs=0.011)
    assert prompts["holders"][2] == "0.00" and prompts["holders"][6] == "met"
    assert float(prompts["strict"][2]) > 0 and prompts["strict"][6] == ""
    days = re.findall(
        r"^\| (holders|strict|quick) \| 1 \(\d\) \| ([\d.]+) \| ([\d.]+) \| ([\d.]+) \|$", text, re.M
    )
    assert [d[0] for d in days] == ["holders", "strict", "quick"] and all(float(d[1]) > 0 for d in days)
    emails = re.findall(
        r"^\| (holders|strict|quick) \| 1 × 1 \| ([\d.]+) \| .*prompt [\d.]+.* \| ([\d.]+) \|", text, re.M
    )
    assert [e[0] for e in emails] == ["holders", "strict", "quick"], text
    # Three email games, nothing delivered outside the process, no simulated game of the usual kind.
    assert Game.objects.count() == 3
    assert "1 games of 4 players per mode, seed pace-cmd" in text


def test_pace_heads_its_first_table_with_the_players_it_played():
    """--pace --players 2 plays 2-player games: the heading says so (it said 4-player)."""
    out = StringIO()
    call_command(
        "simulate_games",
        "--pace",
        "--games",
        "1",
        "--players",
        "2",
        "--max-rounds",
        "1",
        "--pace-email-games",
        "0",
        stdout=out,
    )
    text = out.getvalue()
    heading = text.splitlines()[0]
    assert heading == "Per person's seat and per round (rules alone, random 2-player games):", heading
    assert "4-player" not in text and "1 games of 2 players per mode" in text


@pytest.mark.parametrize(
    "arguments, named",
    [
        (["--pace", "--players", "hard,random"], "--players with bot levels"),
        (["--pace", "--json"], "--json"),
        (["--pace", "--verify", "--setup", "discovery"], "--verify, --setup"),
        (["--pace", "--max-commands", "5"], "--max-commands"),
        (["--pace-email-games", "1"], "--pace-email-games"),
        (["--answer-sigma", "0.5"], "--answer-sigma"),
        # Given with the value it would take anyway, an option of the other mode is still refused.
        (["--pace", "--setup", "random"], "--setup"),
        (["--pace", "--max-commands", "20000"], "--max-commands"),
        (["--pace-email-games", "2"], "--pace-email-games"),
        (["--answer-sigma", "1.0", "--answer-median-hours", "4"], "--answer-median-hours, --answer-sigma"),
    ],
)
def test_options_the_chosen_mode_would_ignore_are_refused(db, arguments, named):
    """docs/management-commands.md: arguments that do not fit together exit 1 with one line.
    The synopsis of --pace takes only a count of players, and the options of --pace go with it
    alone: given to the other mode they would be dropped without a word."""
    with pytest.raises(CommandError, match=re.escape(named)):
        call_command("simulate_games", *arguments, stdout=StringIO())
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "arguments, message",
    [
        (["--max-rounds", "0"], "--max-rounds must be at least 1."),
        (["--max-commands", "-5"], "--max-commands must be at least 1."),
        (["--pace", "--pace-email-games", "-1"], "--pace-email-games must be 0 (no email game) or more."),
        (["--pace", "--pace-email-rounds", "0"], "--pace-email-rounds must be at least 1."),
        (["--pace", "--answer-median-hours", "0"], "--answer-median-hours must be more than 0."),
        (["--pace", "--answer-sigma", "-0.5"], "--answer-sigma must be 0 or more."),
    ],
)
def test_a_count_no_game_could_be_played_with_is_refused(db, arguments, message):
    """docs/management-commands.md: a bad argument exits 1 with one line saying what is allowed;
    before, `--max-commands -5` played every game for 0 commands and reported them unfinished."""
    with pytest.raises(CommandError, match=re.escape(message)):
        call_command("simulate_games", *arguments, stdout=StringIO())
    assert not Game.objects.exists()


def test_the_text_report_has_the_documented_lines(db):
    """docs/management-commands.md, simulate_games: one line per game (`game 7: winner orange
    (hard) after round 6, 3066 events, 451 commands, 12.3 s[, verified]`, `unfinished` for a game
    stopped), then the summary, the wins by kind of bot, the rounds and the CPU a decision per
    level."""
    out = StringIO()
    call_command(
        "simulate_games",
        *("--games", "2", "--players", "easy,random", "--seed", "lines", "--max-commands", "30", "--verify"),
        stdout=out,
    )
    lines = out.getvalue().splitlines()
    games = list(Game.objects.order_by("pk"))
    assert len(games) == 2 and len(lines) == 2 + 3 + 2, lines
    for line, game in zip(lines, games, strict=False):
        played = re.fullmatch(
            r"game (\d+): unfinished after round (\d+), (\d+) events, 30 commands, [\d.]+ s, verified", line
        )
        assert played and int(played.group(1)) == game.pk, line
        assert int(played.group(3)) == game.events.count()
    assert re.fullmatch(
        r"2 games of 2 players: 0 ended with a winner, 2 unfinished; mean [\d.]+ events, mean 30\.0 commands, [\d.]+ s",
        lines[2],
    ), lines[2]
    assert lines[3] == "wins by kind of bot (easy, random, seats turned each game): easy 0, random 0"
    assert re.fullmatch(r"rounds: mean [\d.]+, median \d+(\.5)?", lines[4]), lines[4]
    for line, level in zip(lines[5:], ["easy", "random"], strict=True):
        decisions = re.fullmatch(
            rf"CPU a decision \({level}\): median [\d.]+ ms, p99 [\d.]+ ms, max [\d.]+ ms over (\d+) decisions",
            line,
        )
        assert decisions and int(decisions.group(1)) > 0, line
    # Without --games, one game (the page's "N games (default 1)").
    call_command("simulate_games", "--players", "2", "--max-commands", "5", stdout=StringIO())
    assert Game.objects.count() == 3
