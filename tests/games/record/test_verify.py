"""The log as evidence: a finished game's export checks with no database, and a head hash a
player kept proves that the log was not cut short afterwards (docs/fairness.md)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client
from django.urls import reverse

from games import store
from games.models import Command, Event
from games.record import options
from games.services import SeatSpec, create_game, submit_command, take_back
from games.store.exports import export_game
from games.store.verification import verify_game
from games.verify import verify_export
from notifications import outbox
from notifications.models import Outbox

ROOT = Path(__file__).resolve().parents[3]
FINGERPRINT = re.compile(r"Fingerprint of (?:the|this) game(?: so far)?: ([0-9a-f]{12})\.")

# Green is a Pretender present in 6 territories: when the Season ends (green passes, holding New
# Clans, so that its pass is its choice and not a forced move played when the game is created;
# then blue, who holds no card, passes at once), the Assembly elects green High King.
ENDGAME = {
    "territories": {
        "valley": {"cell": [0, 0], "clans": {"green": 2, "blue": 1}},
        "cove": {"cell": [1, 0], "clans": {"green": 1}},
        "plains": {"cell": [0, 1], "clans": {"green": 1}},
        "forest": {"cell": [-1, 1], "clans": {"green": 1}},
        "hills": {"cell": [-1, 0], "clans": {"green": 1}},
        "moor": {"cell": [0, -1], "clans": {"green": 1, "blue": 2}},
        "mountains": {"cell": [1, -1], "clans": {"blue": 1}},
    },
    "capital": "valley",
    "brenn": "green",
    "turn": "green",
    "opened": True,
    "phase": "season",
    "round": 2,
    "pretenders": ["green"],
    "hands": {"green": ["act_new_clans"], "blue": []},
}


def game_over_by_a_pass(*, seed: str):
    """A 2-player game of people at ENDGAME, then green's pass: green is the High King."""
    game = create_game(
        seats=[SeatSpec(email="g@example.org"), SeatSpec(email="b@example.org")],
        seed=seed,
        setup=ENDGAME,
        play_bots=False,
    )
    green = game.seats.get(colour="green")
    result = submit_command(game=game, seat=green, command={"type": "pass"}, expected_seq=store.head(game)[0])
    assert result.accepted, result.message
    game.refresh_from_db()
    assert game.is_over and game.winner == "green"
    return game


@pytest.fixture
def finished_game(db):
    return game_over_by_a_pass(seed="evidence-seed")


def _run_verifier(tmp_path, export) -> subprocess.CompletedProcess:
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    # The verifier must work where only games.rules is installed: no Django settings, and a
    # check that it never imported Django.
    code = (
        "import runpy, sys\nsys.argv = ['games.verify', sys.argv[1]]\n"
        "try:\n    runpy.run_module('games.verify', run_name='__main__')\n"
        "except SystemExit as end:\n"
        "    assert 'django' not in sys.modules, 'the verifier imported Django'\n    raise\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code, str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )


def test_a_finished_games_export_checks_without_a_database(finished_game, tmp_path):
    export = json.loads(json.dumps(export_game(game=finished_game)))
    assert export["complete"] and export["commands"]
    done = _run_verifier(tmp_path, export)
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("OK:") and "the whole record" in done.stdout


def test_a_changed_export_fails(finished_game, tmp_path):
    """A record edited after the fact: green's pass made into a different command, or an event
    of the set-up changed; each is caught."""
    export = json.loads(json.dumps(export_game(game=finished_game)))
    forged = json.loads(json.dumps(export))
    forged["commands"][0]["command"] = {"type": "take_pretender"}
    assert not verify_export(forged).ok
    edited = json.loads(json.dumps(export))
    edited["events"][1]["payload"] = {**edited["events"][1]["payload"], "forged": True}
    done = _run_verifier(tmp_path, edited)
    assert done.returncode == 1 and "does not match its hash" in done.stdout


def test_an_unfinished_games_export_checks_its_public_part(db, clash_position, tmp_path):
    game = create_game(
        seats=[SeatSpec(email="g@example.org"), SeatSpec(email="b@example.org")],
        seed="in-progress",
        setup=clash_position,
        play_bots=False,
    )
    check = verify_export(json.loads(json.dumps(export_game(game=game, colour="blue"))))
    assert check.ok and not check.complete
    assert "the public part only" in check.lines()[0]


@pytest.mark.postgres
def test_a_kept_head_hash_catches_a_log_cut_short(db, clash_position, play, unprotected_log, capsys):
    """Deleting the last command and its events leaves a chain that checks from end to end, so
    verify_game alone says OK; the head hash the last email named is then missing from it."""
    game = create_game(
        seats=[SeatSpec(email="g@example.org"), SeatSpec(email="b@example.org")],
        seed="cut-short",
        setup=clash_position,
        play_bots=False,
    )
    assert play(game, 6, seed="cut") >= 3
    kept = Event.objects.filter(game=game).order_by("-seq").first().hash[:16]
    call_command("verify_game", str(game.pk), "--head", kept)
    assert "OK" in capsys.readouterr().out
    record = Command.objects.filter(game=game).order_by("-first_seq").first()
    with unprotected_log(), connection.cursor() as cursor:
        cursor.execute("ALTER TABLE games_command DISABLE TRIGGER USER")
        try:
            Event.objects.filter(game=game, seq__gte=record.first_seq).delete()
            Command.objects.filter(pk=record.pk).delete()
        finally:
            cursor.execute("ALTER TABLE games_command ENABLE TRIGGER USER")
    game.snapshots.all().delete()
    assert verify_game(game).ok, "the cut log checks on its own: the anchor is what catches it"
    report = verify_game(game, head=kept)
    assert any("has been cut" in line for line in report.problems)
    with pytest.raises(CommandError):
        call_command("verify_game", str(game.pk), "--head", kept)


# ENDGAME with the Druid and Geis in green's hand and two cards in the discard pile: green plays the
# Druid, whose next choice lists the face-down discard pile (rulebook: players look at it "only
# when a card effect allows it, such as the "Druid" Action card"), and tries to take it back.
DRUID_ENDGAME = {
    **ENDGAME,
    "hands": {"green": ["act_druid", "act_geis"], "blue": []},
    "action_discard": ["act_bard", "act_conquest"],
}


def _green_plays_the_druid(seed):
    game = create_game(
        seats=[SeatSpec(email="g@example.org"), SeatSpec(email="b@example.org")],
        seed=seed,
        setup=DRUID_ENDGAME,
        play_bots=False,
    )
    green = game.seats.get(colour="green")
    druid = {"type": "play", "card": "act_druid"}
    played = submit_command(game=game, seat=green, command=druid, expected_seq=store.head(game)[0])
    assert played.accepted, played.message
    return game, green


def test_an_old_games_take_back_of_the_druid_still_verifies(db, monkeypatch, tmp_path):
    """docs/rulings.md, "Taking back a move": a game started before take-backs were judged on
    what the mover sees keeps the rule it started with. Such a game (created without the rules
    option `take_backs`) took the Druid back, then ended; the audit and the offline verifier
    decide that take-back again under the game's rule and find the whole record sound."""
    monkeypatch.setattr(options, "NEW_GAME_RULES", {})  # the create path before the option
    game, green = _green_plays_the_druid("old-druid")
    assert "take_backs" not in game.options
    taken = take_back(game=game, seat=green, expected_seq=store.head(game)[0])
    assert taken.accepted, taken.message
    passed = submit_command(game=game, seat=green, command={"type": "pass"}, expected_seq=taken.seq)
    assert passed.accepted, passed.message
    game.refresh_from_db()
    assert game.is_over and game.winner == "green"

    assert verify_game(game).ok, verify_game(game).lines()
    done = _run_verifier(tmp_path, json.loads(json.dumps(export_game(game=game))))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the whole record" in done.stdout


def test_a_new_games_take_back_of_the_druid_is_refused(db):
    """The same play in a game created now: green has seen the discard pile, so the play stands,
    and green is told why; nothing is written."""
    game, green = _green_plays_the_druid("new-druid")
    assert game.options["take_backs"] == "mover_view"
    seq = store.head(game)[0]
    taken = take_back(game=game, seat=green, expected_seq=seq)
    assert not taken.accepted
    assert taken.message == "That move showed you cards that were hidden from you: it cannot be taken back."
    assert store.head(game)[0] == seq


def test_a_take_back_past_another_seats_policy_verifies_both_ways(db, tmp_path):
    """docs/rulings.md, "Taking back a move": a standing Triskel policy is no move, and stays
    through the take-back. Green plays New Clans, blue sets "never ask" for Geis, green takes
    New Clans back, then passes, blue passes too and the Assembly elects green: the audit and
    the offline verifier decide the take-back again against New Clans, past blue's policy, and
    find the whole record sound."""
    game = create_game(
        seats=[SeatSpec(email="g@example.org"), SeatSpec(email="b@example.org")],
        seed="policy-past",
        setup={**ENDGAME, "hands": {"green": ["act_new_clans"], "blue": ["act_bard"]}},
        options={"reaction_mode": "quick"},
        play_bots=False,
    )
    green, blue = game.seats.get(colour="green"), game.seats.get(colour="blue")
    new_clans = {"type": "play", "card": "act_new_clans", "territories": ["valley", "valley"]}
    never = {"type": "set_policy", "card": "act_geis", "policy": "never"}
    for seat, command in ((green, new_clans), (blue, never)):
        done = submit_command(game=game, seat=seat, command=command, expected_seq=store.head(game)[0])
        assert done.accepted, done.message
    taken = take_back(game=game, seat=green, expected_seq=store.head(game)[0])
    assert taken.accepted, taken.message
    assert store.load(game)[0].policies["blue"]["act_geis"] == "never"
    for seat in (green, blue):
        passed = submit_command(
            game=game, seat=seat, command={"type": "pass"}, expected_seq=store.head(game)[0]
        )
        assert passed.accepted, passed.message
    game.refresh_from_db()
    assert game.is_over and game.winner == "green"

    assert verify_game(game).ok, verify_game(game).lines()
    done = _run_verifier(tmp_path, json.loads(json.dumps(export_game(game=game))))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "the whole record" in done.stdout


def test_the_modules_it_needs_are_the_ones_the_commands_page_names():
    """docs/management-commands.md: `python -m games.verify` needs only `games.rules` and the
    record's pure modules it names (whoever holds an export installs those)."""
    import re

    done = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys, games.verify\n"
            "print(' '.join(sorted(m for m in sys.modules if m.split('.')[0] in ('games', 'press', 'django'))))",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )
    assert done.returncode == 0, done.stderr
    needed = {m for m in done.stdout.split() if m not in ("games", "games.record", "games.verify")}
    needed = {m for m in needed if not m.startswith("games.rules")}
    page = " ".join((ROOT / "docs" / "management-commands.md").read_text().split())
    named = page[page.index("Needs no database and no Django") :].split("so anyone holding", 1)[0]
    assert needed == set(re.findall(r"`([\w.]+)`", named)) - {"games.rules"}


def _fairness_guide() -> str:
    return (ROOT / "docs" / "fairness.md").read_text()


def test_a_player_checks_a_game_as_the_fairness_guide_says(make_game, play, tmp_path):
    """docs/fairness.md, "Checking a game yourself", done as a player does it, 40 moves into a
    game: green downloads the log from the game page's link, then runs the guide's command as
    written, in the folder of the project's source, with the fingerprint of its first email of
    the game; the report says OK and names the event, in the guide's words."""
    game = make_game(seed="checked-by-a-player")
    play(game, 40)
    guide = _fairness_guide()
    section = guide[guide.index("## Checking a game yourself") :]
    green = game.seats.get(colour="green")
    client = Client()
    client.force_login(green.user)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    href = re.search(r'<a href="([^"]+)">Download the log \(JSON\)</a>', page).group(1)
    download = client.get(href)
    name = re.search(r'filename="([^"]+)"', download["Content-Disposition"]).group(1)
    assert name == f"inis-game-{game.pk}-green.json" and "`inis-game-12-blue.json` for blue" in section
    (tmp_path / "Downloads").mkdir()
    (tmp_path / "Downloads" / name).write_bytes(download.content)
    first = next(
        row
        for row in map(outbox.written, Outbox.objects.filter(seat=green).order_by("pk"))
        if FINGERPRINT.search(row.body_text)
    )
    kept = FINGERPRINT.search(first.body_text).group(1)
    seq = next(e.seq for e in Event.objects.filter(game=game, hash__startswith=kept))
    assert seq < Event.objects.filter(game=game).count(), "an older fingerprint than the last"

    command = re.search(r"```sh\n(.*?)```", section, re.S).group(1).strip()
    command = command.replace("inis-game-12-blue.json", name).replace("3f9a0c1d2e4b", kept)

    def run_the_guides_command() -> subprocess.CompletedProcess:
        """The guide's command, run as a player runs it: a shell in the project's source."""
        return subprocess.run(
            ["bash", "-c", command],
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=120,
            env={"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)},
        )

    done = run_the_guides_command()
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.startswith("OK: ")
    words = " ".join(section.split())  # the guide's sentences, whatever their line breaks
    quoted = re.search(r'\("(The fingerprint 3f9a0c1d2e4b is that of event #87: [^"]+)"\)', words).group(1)
    assert quoted.replace("3f9a0c1d2e4b", kept).replace("#87", f"#{seq}") in done.stdout.splitlines()

    cut = json.loads(download.content)
    cut["events"] = cut["events"][: seq - 1]
    (tmp_path / "Downloads" / name).write_text(json.dumps(cut))
    done = run_the_guides_command()
    assert done.returncode == 1 and done.stdout.startswith("FAILED")
    failed = re.search(
        r'fails \("(no event of the event log has the fingerprint 3f9a0c1d2e4b)"\)', words
    ).group(1)
    assert failed.replace("3f9a0c1d2e4b", kept) in done.stdout
