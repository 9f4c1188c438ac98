"""Proofs anyone can check: every link of a version-2 record is recomputed from any export, a
forged game in progress fails, a cut tail fails `--head`, the fingerprint reached is printed, and
a version-1 game in progress is never called OK (games/verify.py, docs/management-commands.md)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from games import store
from games.models import Command, Event
from games.services import SeatSpec, create_game, submit_command
from games.store.exports import export_game
from games.store.verification import verify_game
from games.verify import EXIT_FAILED, EXIT_NOT_FULLY_CHECKED, EXIT_OK, verify_export
from notifications import outbox
from notifications.models import Outbox
from press.models import PressMessage
from press.services import press_send
from tests.chain_versions import as_version_1, forge_seats, rehash_talk, unprotected_tables

ROOT = Path(__file__).resolve().parents[3]
FINGERPRINT = re.compile(r"Fingerprint of (?:the|this) game(?: so far)?: ([0-9a-f]{12})\.")


def run_verifier(tmp_path, export, *args) -> subprocess.CompletedProcess:
    """`python -m games.verify EXPORT.json ARGS` as a player runs it: no Django settings, and a
    check that it never imported Django."""
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    code = (
        "import runpy, sys\nsys.argv = ['games.verify', *sys.argv[1:]]\n"
        "try:\n    runpy.run_module('games.verify', run_name='__main__')\n"
        "except SystemExit as end:\n"
        "    assert 'django' not in sys.modules, 'the verifier imported Django'\n    raise\n"
    )
    return subprocess.run(
        [sys.executable, "-c", code, str(path), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )


def exported(game, colour=None) -> dict:
    return json.loads(json.dumps(export_game(game=game, colour=colour)))


@pytest.fixture
def game_in_progress(make_game, play):
    """A 4-player game 40 commands in: hands dealt and drafted, private events everywhere."""
    game = make_game(seed="a-seed-nobody-shows-3c81f0")
    play(game, 40)
    assert not game.is_over and game.chain_version == 2
    return game


@pytest.fixture
def talk_game(make_game):
    """A game whose table talk holds a message to all, a private one (blue to white), and one
    to all again."""
    game = make_game(seed="talk-proofs")
    seats = {seat.colour: seat for seat in game.seats.all()}
    press_send(game=game, seat=seats["green"], to=None, text="Good luck, all.")
    press_send(game=game, seat=seats["blue"], to="white", text="yes")
    press_send(game=game, seat=seats["white"], to=None, text="And to you.")
    return game


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


def finished(game):
    green = game.seats.get(colour="green")
    result = submit_command(game=game, seat=green, command={"type": "pass"}, expected_seq=store.head(game)[0])
    assert result.accepted, result.message
    game.refresh_from_db()
    assert game.is_over
    return game


@pytest.mark.parametrize("viewer", [None, "blue"])
def test_a_forged_game_in_progress_fails(game_in_progress, tmp_path, viewer):
    """The trust issue's forgery: GameStarted's seats reversed and the chain re-hashed up to the
    first private event, whose hash a redacted export used to leave uncheckable, so the chain
    rejoined and the verifier said "OK: 234 events". Its link is now recomputed from its public
    part and hidden digest."""
    export = exported(game_in_progress, viewer)
    assert any(e["redacted"] for e in export["events"])
    assert verify_export(export).ok
    forged = forge_seats(export)
    assert forged["events"][0]["payload"]["seats"] != export["events"][0]["payload"]["seats"]
    assert forged["events"][-1]["hash"] == export["events"][-1]["hash"], "the forgery rejoins the chain"
    done = run_verifier(tmp_path, forged)
    assert done.returncode == EXIT_FAILED, done.stdout + done.stderr
    assert done.stdout.startswith("FAILED (1 problem(s)):")
    assert "  - chain: event #2 (TileStackFormed) does not match its hash" in done.stdout
    assert "OK" not in done.stdout


def test_a_forgery_rehashed_to_the_end_ends_at_another_fingerprint(game_in_progress, tmp_path):
    """Whoever holds an export can recompute a whole chain; it then ends elsewhere than the hash
    the players were shown, which `--head` (or reading the printed fingerprint) catches."""
    export = exported(game_in_progress)
    kept = export["events"][-1]["hash"]
    forged = forge_seats(export, to_the_end=True)
    alone = run_verifier(tmp_path, forged)
    assert alone.returncode == EXIT_OK and f"Fingerprint of the event log: {kept}" not in alone.stdout
    anchored = run_verifier(tmp_path, forged, "--head", kept[:12])
    assert anchored.returncode == EXIT_FAILED
    assert f"  - head: no event of the event log has the fingerprint {kept[:12]}" in anchored.stdout


def test_a_cut_tail_fails_with_the_head_kept_and_the_fingerprint_is_printed(game_in_progress, tmp_path):
    export = exported(game_in_progress, "green")
    head = export["events"][-1]["hash"]
    done = run_verifier(tmp_path, export, "--head", head[:12])
    assert done.returncode == EXIT_OK, done.stdout
    assert done.stdout.startswith("OK: ")
    assert (
        f"Fingerprint of the event log: {head} (event #{len(export['events'])})." in done.stdout.splitlines()
    )
    assert "Fingerprint of the table talk: none (no message)." in done.stdout.splitlines()

    last = max(export["commands"], key=lambda c: c["first_seq"])
    cut = {
        **export,
        "events": export["events"][: last["first_seq"] - 1],
        "commands": [c for c in export["commands"] if c is not last],
    }
    assert run_verifier(tmp_path, cut).returncode == EXIT_OK, "without an anchor a cut tail checks"
    done = run_verifier(tmp_path, cut, "--head", head)
    assert done.returncode == EXIT_FAILED
    assert f"has the fingerprint {head}: the log was cut short or rewritten up to" in done.stdout
    garbled = run_verifier(tmp_path, export, "--head", "3f9a")
    assert garbled.returncode == EXIT_FAILED and "is not a hash (at least 12 hex digits)" in garbled.stdout


def test_the_fingerprint_of_any_email_checks_and_the_report_names_its_event(game_in_progress, tmp_path):
    """Every email says of its fingerprint "Keep it: anyone can check later that the game's record
    still contains it": the first email of the game, many moves ago, checks against today's export
    with `--head`, and the report says which event it was."""
    first = next(
        row
        for row in map(outbox.written, Outbox.objects.filter(game=game_in_progress).order_by("pk"))
        if FINGERPRINT.search(row.body_text)
    )
    kept = FINGERPRINT.search(first.body_text).group(1)
    export = exported(game_in_progress, "green")
    seq = next(e["seq"] for e in export["events"] if e["hash"].startswith(kept))
    assert seq < len(export["events"]), "an earlier event than the last"
    done = run_verifier(tmp_path, export, "--head", kept)
    assert done.returncode == EXIT_OK, done.stdout
    assert (
        f"The fingerprint {kept} is that of event #{seq}: the event log holds it, unchanged up to that event."
        in done.stdout.splitlines()
    )
    forged = forge_seats(export, to_the_end=True)  # GameStarted changed: every hash after it too
    done = run_verifier(tmp_path, forged, "--head", kept)
    assert done.returncode == EXIT_FAILED
    assert f"  - head: no event of the event log has the fingerprint {kept}" in done.stdout


def test_a_seat_shown_more_of_a_described_position_checks_every_link(db, clash_position, tmp_path):
    """In a described position a seat sees its own hand where the others see a count: its export
    still checks, and a hand changed in it does not."""
    game = create_game(
        seats=[SeatSpec(email="g@example.org"), SeatSpec(email="b@example.org")],
        seed="described",
        setup=clash_position,
        play_bots=False,
    )
    for viewer in (None, "green", "blue"):
        assert verify_export(exported(game, viewer)).ok, viewer
    export = exported(game, "green")
    described = next(e for e in export["events"] if e["type"] == "PositionDescribed")
    assert (
        described["redacted"] and described["payload"]["hands"]["green"] == clash_position["hands"]["green"]
    )
    described["payload"]["hands"]["green"] = ["act_migration", "act_bard"]
    check = verify_export(export)
    assert (
        not check.ok
        and "does not match its hash: it shows what its public part does not" in check.problems[0]
    )


def test_an_edited_message_fails_and_every_link_of_the_talk_is_checked(talk_game, tmp_path):
    export = exported(talk_game)  # a spectator: message 2 is private, only its link is shown
    assert [m["number"] for m in export["press"]] == [1, 3]
    assert [link["number"] for link in export["proofs"]["press_hidden"]] == [2]
    # The link only: not who wrote it, to whom, when or what, nor its salt.
    assert set(export["proofs"]["press_hidden"][0]) == {"number", "prev_hash", "hash", "hidden_digest"}
    assert PressMessage.objects.get(game=talk_game, number=2).salt not in json.dumps(export)
    done = run_verifier(tmp_path, export)
    assert done.returncode == EXIT_OK, done.stdout
    assert "Table talk: all 3 links checked." in done.stdout.splitlines()
    talk_head = export["press"][-1]["hash"]
    assert f"Fingerprint of the table talk: {talk_head} (message #3)." in done.stdout.splitlines()

    edited = json.loads(json.dumps(export))
    edited["press"][0]["text"] = "Good luck to all but blue."
    done = run_verifier(tmp_path, edited)
    assert done.returncode == EXIT_FAILED
    assert "  - table talk: message 1 does not match its hash" in done.stdout

    # Re-hashed up to the private message, whose link the forger keeps: it no longer follows.
    rejoined = rehash_talk(edited, after=0)
    rejoined["press"][1] = export["press"][1]
    rejoined["proofs"]["press_hidden"][0]["hash"] = export["proofs"]["press_hidden"][0]["hash"]
    check = verify_export(rejoined)
    assert (
        "table talk: message 2 does not match its hash: it was changed after it was written" in check.problems
    )


def _talk_fingerprints(game, colour: str) -> list[str]:
    """The table talk's fingerprints the emails relaying talk to `colour` named, in order."""
    bodies = Outbox.objects.filter(game=game, seat__colour=colour, kind=Outbox.Kind.PRESS).order_by("id")
    found = [
        re.findall(r"Fingerprint of the table talk at this message: ([0-9a-f]+)\.", b.body_text)
        for b in bodies
    ]
    assert all(len(one) == 1 for one in found), found
    return [one[0] for one in found]


def test_talk_rehashed_to_its_end_or_cut_short_fails_against_a_fingerprint_an_email_named(
    talk_game, tmp_path
):
    """Whoever holds an export can re-hash the whole table talk after an edit, or drop its last
    messages; the talk then checks by itself and ends at a fingerprint nobody was shown. Each
    email relaying a message names the talk's fingerprint at that message (its hash), which
    `--talk` checks the export still holds."""
    export = exported(talk_game)
    kept = _talk_fingerprints(talk_game, "white")  # messages 1 (to all) and 2 (blue to white)
    assert kept == [m["hash"][:12] for m in export["press"][:1]] + [
        export["proofs"]["press_hidden"][0]["hash"][:12]
    ]
    for fingerprint in kept:
        assert run_verifier(tmp_path, export, "--talk", fingerprint).returncode == EXIT_OK

    edited = json.loads(json.dumps(export))
    edited["press"][0]["text"] = "Good luck to all but blue."
    forged = rehash_talk(edited, after=0)
    assert run_verifier(tmp_path, forged).returncode == EXIT_OK, "re-hashed to its end, the talk checks"
    done = run_verifier(tmp_path, forged, "--talk", kept[-1])
    assert done.returncode == EXIT_FAILED
    assert f"  - talk: no message of the table talk has the fingerprint {kept[-1]}" in done.stdout

    cut = json.loads(json.dumps(export))
    cut["press"] = cut["press"][:1]
    cut["proofs"]["press_hidden"] = []
    assert run_verifier(tmp_path, cut).returncode == EXIT_OK, "a cut tail checks by itself"
    assert run_verifier(tmp_path, cut, "--talk", kept[-1]).returncode == EXIT_FAILED
    garbled = run_verifier(tmp_path, export, "--talk", "3f9a")
    assert garbled.returncode == EXIT_FAILED and "is not a hash (at least 12 hex digits)" in garbled.stdout


def test_a_seat_checks_the_private_messages_it_reads(talk_game):
    export = exported(talk_game, "white")
    assert [m["number"] for m in export["press"]] == [1, 2, 3]
    assert [p["number"] for p in export["proofs"]["press"]] == [2]
    assert verify_export(export).ok
    export["press"][1]["text"] = "no"
    check = verify_export(export)
    # Sealed words are checked against their words digest (docs/privacy.md).
    assert (
        "table talk: message 2 does not match its hash: its words are not the ones sealed" in check.problems
    )


def test_a_version_1_game_in_progress_is_never_called_ok(game_in_progress, tmp_path):
    game = as_version_1(game_in_progress)
    assert verify_game(game).ok, "the audit holds the seed: a version-1 log checks whole"
    for viewer in (None, "blue"):
        export = exported(game, viewer)
        assert export["game"]["chain_version"] == 1 and not export["proofs"]["press_hidden"]
        done = run_verifier(tmp_path, export)
        assert done.returncode == EXIT_NOT_FULLY_CHECKED, done.stdout + done.stderr
        assert "OK" not in done.stdout
        assert done.stdout.startswith("NOT FULLY CHECKED: ")
        check = verify_export(export)
        assert check.links_unchecked > 0 and check.links_checked + check.links_unchecked == len(
            export["events"]
        )
        assert (
            f"Event log (chain version 1): {check.links_checked} of {len(export['events'])} links checked; "
            f"{check.links_unchecked} could not be"
        ) in done.stdout
        # The old forgery is not caught there (its links cannot be checked), but not called OK either.
        forged = run_verifier(tmp_path, forge_seats(export))
        assert forged.returncode == EXIT_NOT_FULLY_CHECKED and "OK" not in forged.stdout
    # A seat is given the salts of the events it sees whole: it checks more links than a spectator.
    assert verify_export(exported(game, "blue")).links_checked > verify_export(exported(game)).links_checked


def test_a_version_1_finished_game_still_verifies(db, tmp_path):
    game = create_game(
        seats=[SeatSpec(email="g@example.org"), SeatSpec(email="b@example.org")],
        seed="old-evidence",
        setup=ENDGAME,
        play_bots=False,
    )
    press_send(game=game, seat=game.seats.get(colour="blue"), to=None, text="Well played.")
    game = as_version_1(finished(game))
    assert game.chain_version == 1 and verify_game(game).ok
    export = exported(game)
    assert export["complete"] and export["game"]["chain_version"] == 1
    done = run_verifier(tmp_path, export, "--head", export["events"][-1]["hash"])
    assert done.returncode == EXIT_OK, done.stdout + done.stderr
    assert done.stdout.startswith("OK:") and "the whole record" in done.stdout
    assert "Table talk: all 1 links checked." in done.stdout


def test_a_version_1_table_talk_with_private_messages_is_not_fully_checked(talk_game):
    game = as_version_1(talk_game)
    spectator = verify_export(exported(game))
    assert spectator.exit_status == EXIT_NOT_FULLY_CHECKED
    assert (spectator.talk.checked, spectator.talk.unchecked) == (2, 1)
    white = verify_export(exported(game, "white")).talk
    assert (white.checked, white.unchecked) == (3, 0), "white reads message 2 and is given its salt"


def test_verify_game_and_the_offline_verifier_agree(game_in_progress):
    """The same forgery made in the database — seats reversed, hashes recomputed up to the first
    private event — fails both checks, at the same link."""
    assert verify_game(game_in_progress).ok and verify_export(exported(game_in_progress)).ok
    first, second = Event.objects.filter(game=game_in_progress, seq__in=(1, 2)).order_by("seq")
    assert first.type == "GameStarted" and second.visibility is not None
    forged = exported(game_in_progress)
    forged = forge_seats(forged)
    with unprotected_tables():
        Event.objects.filter(pk=first.pk).update(
            payload=forged["events"][0]["payload"], hash=forged["events"][0]["hash"]
        )
        Event.objects.filter(pk=second.pk).update(prev_hash=forged["events"][0]["hash"])
    report = verify_game(game_in_progress)
    offline = verify_export(exported(game_in_progress))
    assert (
        "chain: event #2 (TileStackFormed) does not match its hash: it was changed after it was appended"
        in report.problems
    )
    assert offline.problems == ["chain: event #2 (TileStackFormed) does not match its hash"]
    assert not report.ok and not offline.ok


def test_a_seats_export_holds_no_salt_of_what_it_may_not_see(game_in_progress):
    """Salts go only with events a seat is shown whole; every other salt (and the seed) is
    nowhere in its export, and a spectator's export holds none."""
    from games.record.hashchain import event_salt

    rows = list(Event.objects.filter(game=game_in_progress).exclude(visibility=None).order_by("seq"))
    game = game_in_progress
    spectator = json.dumps(exported(game))
    assert game.seed not in spectator and '"salt"' not in spectator
    for colour in ("green", "blue", "orange", "white"):
        export = exported(game, colour)
        text = json.dumps(export)
        assert game.seed not in text
        whole = {e["seq"] for e in export["events"] if not e["redacted"] and e["visibility"] is not None}
        assert whole, colour
        salted = {p["seq"] for p in export["proofs"]["events"] if "salt" in p}
        assert salted == whole
        for row in rows:
            if row.seq not in whole:
                assert event_salt(game.seed, row.seq, row.visibility) not in text


def test_a_finished_game_checks_every_hidden_digest(db, tmp_path):
    game = finished(
        create_game(
            seats=[SeatSpec(email="g@example.org"), SeatSpec(email="b@example.org")],
            seed="new-evidence",
            setup=ENDGAME,
            play_bots=False,
        )
    )
    export = exported(game)
    assert export["proofs"]["events"] and not any("salt" in p for p in export["proofs"]["events"])
    assert verify_export(export).ok
    # A hidden digest that does not cover the payload (the service lied about a hidden part).
    proof = export["proofs"]["events"][0]
    proof["hidden_digest"] = "0" * 64
    check = verify_export(export)
    assert f"chain: event #{proof['seq']}" in check.problems[0]


def test_the_documented_command_lines_run(game_in_progress, talk_game, tmp_path):
    """docs/management-commands.md: `python -m games.verify EXPORT.json`, with `--head HASH`,
    with `--talk HASH`, and from standard input."""
    export = exported(talk_game, "blue")
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    head = export["events"][-1]["hash"][:12]
    for args, stdin in (
        (["export.json"], None),
        (["export.json", "--head", head], None),
        (["export.json", "--talk", export["press"][-1]["hash"][:12]], None),
        (["-"], path.read_text()),
    ):
        done = subprocess.run(
            [sys.executable, "-m", "games.verify", *args],
            cwd=tmp_path,
            input=stdin,
            capture_output=True,
            text=True,
            timeout=120,
            env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
        )
        assert done.returncode == 0, done.stdout + done.stderr
    assert Command.objects.filter(game=talk_game).count() == 0


def test_an_event_shown_upcast_still_links_as_it_was_appended(game_in_progress, monkeypatch):
    """A later release that changes a private event's shape (an upcaster) shows it at the new
    version; its link still checks, hashed as stored, and what is shown of it is counted as
    not checked rather than called OK."""
    from games.rules import events as rule_events

    monkeypatch.setitem(
        rule_events.UPCASTERS, ("ActionCardsDealt", 1), lambda payload: {**payload, "v2": True}
    )
    monkeypatch.setitem(rule_events.CURRENT_VERSIONS, "ActionCardsDealt", 2)
    export = exported(game_in_progress, "blue")
    dealt = [e for e in export["events"] if e["type"] == "ActionCardsDealt"]
    # Shown whole, an event is shown as stored; redacted, as the rules read it now.
    assert {(e["redacted"], e["version"]) for e in dealt} == {(False, 1), (True, 2)}
    proofs = {p["seq"]: p for p in export["proofs"]["events"]}
    assert {proofs[e["seq"]].get("version") for e in dealt if e["redacted"]} == {1}
    check = verify_export(export)
    assert not check.problems and check.links_unchecked == 0
    assert (
        check.unconfirmed == sum(e["redacted"] for e in dealt) and check.exit_status == EXIT_NOT_FULLY_CHECKED
    )


def test_the_host_s_acts_in_an_export_are_not_checked_as_the_table_log_guide_says(game_in_progress, tmp_path):
    """docs/table-log.md: the host's acts are append-only in the database but not hash-chained,
    so an export's "table_events" are not evidence: edited, the export still checks OK. The guide
    must say so rather than promise them the rules log's guarantees."""
    from games.play import table

    table.deadline_extend(game=game_in_progress, colour=None, hours=12)
    export = exported(game_in_progress)
    export["table_events"][0]["payload"]["hours"] = 96
    assert run_verifier(tmp_path, export).returncode == EXIT_OK
    guide = " ".join((ROOT / "docs" / "table-log.md").read_text().split())
    assert "the same guarantees" not in guide
    assert (
        "It is **not hash-chained**" in guide
        and "neither `verify_game` nor `python -m games.verify` checks it" in guide
    )
