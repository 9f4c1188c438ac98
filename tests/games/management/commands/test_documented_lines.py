"""docs/management-commands.md: the output lines it documents, each read from the page itself
(so the page and the test cannot drift) and compared with what the command prints.

- `show_game`: the header `Game 12: in progress, 345 events` (`, winner COLOUR` once over) and
  `Nobody has anything to decide.`;
- `replay_game`: `Event 40 is in the middle of one command's events: ...`, `Nobody had anything
  to decide.` and the `--to` range error;
- `verify_game`: `Game 12: OK — 345 events, 80 commands, 3 snapshots checked`;
- `rebuild_projections`: `Rebuilt every projection: <n> log rows folded.`, `Rebuilt <name>: ...`
  and the unknown name's error naming the projections there are;
- `relay_outbox --once`: prints nothing and returns;
- `receive_email`: `Temporary failure (<kind of error>): ...` and the database outage's warning
  `a piped reply: the database cannot be reached; trying again in 1.0 s`;
- `simulate_games --pace`: `CommandError: This build cannot measure every reaction mode: ...`
  (reachable only in a build whose rules refuse a mode: made so here).
"""

from __future__ import annotations

import io
import logging
import re
import signal
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import OperationalError

from games import store
from games.models import Command, Game, Snapshot
from tests.games.record.test_verify import game_over_by_a_pass

PAGE = Path(__file__).resolve().parents[4] / "docs" / "management-commands.md"
COLOURS = "(?:green|blue|orange|white)"


def page() -> str:
    """The page, its white space made single spaces (a backquoted example may wrap)."""
    return " ".join(PAGE.read_text().split())


def example(marker: str) -> str:
    """The backquoted example of the page that holds `marker`."""
    found = re.search(r"`([^`]*" + re.escape(marker) + r"[^`]*)`", page())
    assert found, f"docs/management-commands.md shows no example holding {marker!r}"
    return found.group(1)


def shape(text: str) -> re.Pattern:
    """`text`, an example of the page, as a pattern: its numbers any number, `<...>`, `...` and
    `…` any text, COLOUR any colour; the rest literally."""
    parts = re.split(r"(<[^>]+>|\d+(?:\.\d+)?|\.\.\.|…|COLOUR)", text)
    pattern = ""
    for index, part in enumerate(parts):
        if index % 2 == 0:
            pattern += re.escape(part)
        elif part == "COLOUR":
            pattern += COLOURS
        elif part[0].isdigit():
            pattern += r"\d+(?:\.\d+)?"
        else:
            pattern += ".+"
    return re.compile(pattern)


def run(name: str, *args: str) -> list[str]:
    out = io.StringIO()
    call_command(name, *args, stdout=out)
    return out.getvalue().splitlines()


@pytest.fixture
def finished_game(db) -> Game:
    return game_over_by_a_pass(seed="documented-lines-seed")


def test_show_game_header_of_a_game_in_progress(make_game, play):
    game = make_game(seed="documented")
    play(game, 5)
    head = store.head(game)[0]
    header = run("show_game", str(game.pk))[0]
    assert shape(example(": in progress, 345 events")).fullmatch(header), header
    assert header == f"Game {game.pk}: in progress, {head} events"


def test_show_game_of_a_finished_game_names_the_winner_and_nobody_to_decide(finished_game):
    lines = run("show_game", str(finished_game.pk))
    head = store.head(finished_game)[0]
    assert shape(
        example(": in progress, 345 events").replace("in progress", "over") + ", winner COLOUR"
    ).fullmatch(lines[0])
    assert "(`, winner COLOUR` when over)" in page()
    assert lines[0] == f"Game {finished_game.pk}: over, {head} events, winner green"
    assert lines[-1] == example("Nobody has anything to decide") == "Nobody has anything to decide."


def test_replay_game_in_the_middle_of_a_command_says_no_decision_was_open(make_game, play):
    game = make_game(seed="documented")
    play(game, 10)
    command = (
        Command.objects.filter(game=game, first_seq__gt=1)
        .extra(where=["last_seq > first_seq"])
        .order_by("first_seq")
        .first()
    )
    assert command is not None, "no command of several events"
    lines = run("replay_game", str(game.pk), "--to", str(command.first_seq))
    documented = example("is in the middle of one command's events")
    assert shape(documented).fullmatch(lines[-1]), lines[-1]
    assert lines[-1] == re.sub(r"^Event \d+", f"Event {command.first_seq}", documented)
    settled = run("replay_game", str(game.pk), "--to", str(command.last_seq))
    assert settled[-1].startswith("Waiting for: ")


def test_replay_game_after_the_last_event_of_a_finished_game_says_nobody_had_anything(finished_game):
    head = store.head(finished_game)[0]
    lines = run("replay_game", str(finished_game.pk), "--to", str(head))
    assert lines[0] == f"Game {finished_game.pk} after event {head} of {head}:"
    assert lines[-1] == example("Nobody had anything to decide") == "Nobody had anything to decide."


@pytest.mark.parametrize("seq", ["-1", "past the end"])
def test_replay_game_outside_the_log_is_the_documented_error(make_game, seq):
    game = make_game(seed="documented")
    head = store.head(game)[0]
    to = str(head + 1) if seq == "past the end" else seq
    with pytest.raises(CommandError) as refused:
        run("replay_game", str(game.pk), "--to", to)
    documented = example("--to must be between 0 and")
    assert documented.startswith("CommandError: ")
    assert shape(documented.removeprefix("CommandError: ")).fullmatch(str(refused.value))
    assert str(refused.value) == f"Game {game.pk} has {head} events: --to must be between 0 and {head}."


def test_verify_game_counts_the_events_commands_and_snapshots_it_checked(
    make_game, play, settings, django_capture_on_commit_callbacks
):
    settings.SNAPSHOT_EVERY = 10
    game = make_game(seed="documented")
    with django_capture_on_commit_callbacks(execute=True):  # a snapshot is saved once committed
        play(game, 25)
    snapshots = Snapshot.objects.filter(game=game).count()
    assert snapshots > 0
    first = run("verify_game", str(game.pk))[0]
    assert shape(example("snapshots checked")).fullmatch(first), first
    events, commands = store.head(game)[0], Command.objects.filter(game=game).count()
    assert (
        first == f"Game {game.pk}: OK — {events} events, {commands} commands, {snapshots} snapshots checked"
    )


def test_rebuild_projections_prints_the_documented_lines(db):
    from community import projections

    every = run("rebuild_projections")
    assert len(every) == 1 and shape(example("Rebuilt every projection:")).fullmatch(every[0]), every
    names = sorted(projections.registered())
    assert "open_tables" in names and "`open_tables`" in page()
    one = run("rebuild_projections", "open_tables")
    assert shape(example("Rebuilt <name>:").replace("<name>", "open_tables")).fullmatch(one[0]), one


def test_rebuild_projections_of_an_unknown_name_names_those_there_are(db):
    from community import projections

    assert "an unknown name is an error naming the projections there are (exit status 1)" in page()
    with pytest.raises(CommandError) as refused:
        run("rebuild_projections", "no_such_table")
    for name in projections.registered():
        assert name in str(refused.value)


def test_relay_outbox_once_prints_nothing_and_returns(db):
    assert "`--once` publishes what is due now and exits. It prints nothing" in page()
    saved = {signum: signal.getsignal(signum) for signum in (signal.SIGTERM, signal.SIGINT)}
    try:
        assert run("relay_outbox", "--once") == []
    finally:
        for signum, handler in saved.items():
            signal.signal(signum, handler)


def test_receive_email_failure_of_ours_is_the_documented_line(monkeypatch):
    from notifications.management.commands import receive_email

    def fails(self, raw, envelope_to):
        raise RuntimeError("an error of ours")

    monkeypatch.setattr(receive_email.Command, "_receive", fails)
    err = io.StringIO()
    with pytest.raises(SystemExit) as exited:
        call_command(
            "receive_email", stdin=io.BytesIO(b"Subject: x\n\nhello\n"), stdout=io.StringIO(), stderr=err
        )
    assert exited.value.code == 75
    documented = example("Temporary failure (<kind of error>)")
    assert err.getvalue() == documented.replace("<kind of error>", "RuntimeError") + "\n"


def test_receive_email_waits_for_the_database_with_the_documented_warning(monkeypatch, caplog):
    """Two failures to reach the database, then the reply goes through: one WARNING each, the
    pauses from half a second doubling, the second the page's example."""
    from notifications import database_outage
    from notifications.management.commands import receive_email

    attempts = []

    def unreachable_twice(self, raw, envelope_to):
        attempts.append(1)
        if len(attempts) <= 2:
            raise OperationalError("connection refused")
        return "no_token"

    class Clock:
        now = 0.0

        def monotonic(self):
            return self.now

        def sleep(self, seconds):
            self.now += seconds

    monkeypatch.setattr(receive_email.Command, "_receive", unreachable_twice)
    monkeypatch.setattr(database_outage, "time", Clock())
    monkeypatch.setattr(database_outage.connections, "close_all", lambda: None)
    out = io.StringIO()
    with caplog.at_level(logging.WARNING, logger="notifications.database_outage"):
        call_command(
            "receive_email", stdin=io.BytesIO(b"Subject: x\n\nhello\n"), stdout=out, stderr=io.StringIO()
        )
    assert out.getvalue() == "no_token\n"
    warnings = [r.getMessage() for r in caplog.records if r.name == "notifications.database_outage"]
    documented = example("trying again in 1.0 s")
    assert "under the logger `notifications.database_outage`" in page()
    assert warnings == [documented.replace("1.0 s", "0.5 s"), documented]


def test_simulate_games_pace_in_a_build_that_refuses_a_mode_says_so(db, monkeypatch):
    """Not reachable in this build (its rules know every mode): the rules made to refuse one."""
    from bench import pacing

    monkeypatch.setitem(pacing.RULES_OPTIONS, "strict", {"reactions": "no-such-mode"})
    with pytest.raises(CommandError) as refused:
        run("simulate_games", "--pace", "--games", "1", "--max-rounds", "1", "--pace-email-games", "0")
    documented = example("This build cannot measure every reaction mode")
    assert shape(documented.removeprefix("CommandError: ")).fullmatch(str(refused.value)), str(refused.value)
