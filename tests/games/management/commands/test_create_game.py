"""manage.py create_game."""

from __future__ import annotations

import json
import re
import secrets
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games import rules, store
from games.models import Event, Game


def run(*args) -> str:
    from io import StringIO

    out = StringIO()
    call_command("create_game", *args, stdout=out)
    return out.getvalue()


def test_players_then_bots_with_a_seed(db):
    out = run(
        "--player",
        "a@example.org",
        "--player",
        "b@example.org",
        "--bot",
        "--bots",
        "1",
        "--seed",
        "cli",
        "--weak-seed",
    )
    game = Game.objects.get()
    assert [(s.colour, s.email, s.is_bot) for s in game.seats.all()] == [
        ("green", "a@example.org", False),
        ("blue", "b@example.org", False),
        ("orange", "", True),
        ("white", "", True),
    ]
    assert game.seed == "cli"
    assert f"Created game {game.pk}" in out and game.seed_commitment in out
    assert f"/games/{game.pk}/seat/{game.seats.get(colour='green').pk}." in out  # a seat link
    assert "cli" not in out.replace(game.seed_commitment, "")  # the seed stays secret


def test_json_output_and_options(db):
    out = json.loads(
        run(
            "--player",
            "a@example.org",
            "--bot",
            "--setup",
            "discovery",
            "--buildings",
            "later_print",
            "--json",
        )
    )
    game = Game.objects.get(pk=out["game"])
    assert game.setup == "discovery"
    # New games ask only the players able to answer a Triskel window, and judge a take-back on
    # what its mover sees (docs/game-options.md).
    assert game.options == {
        "buildings": "later_print",
        "reaction_mode": "holders",
        "reactions": "holders",
        "take_backs": "mover_view",
    }
    assert [s["colour"] for s in out["seats"]] == ["green", "blue"]
    green = game.seats.get(colour="green")
    assert f"/games/{game.pk}/seat/{green.pk}." in out["seats"][0]["url"]  # a seat link
    assert out["seats"][1]["url"].endswith(f"/games/{game.pk}/")  # a bot's: the public page


def test_a_described_position(db, tmp_path):
    position = {
        "territories": {
            "valley": {"cell": [0, 0], "clans": {"green": 2, "blue": 1}},
            "cove": {"cell": [1, 0], "clans": {"blue": 3}},
        },
        "capital": "valley",
        "brenn": "green",
        "hands": {"green": ["act_migration"], "blue": []},
        "round": 1,
        "phase": "season",
        "turn": "green",
    }
    path = tmp_path / "position.json"
    path.write_text(json.dumps(position))
    run("--player", "a@example.org", "--bot", "--position", str(path), "--seed", "pos", "--weak-seed")
    game = Game.objects.get()
    assert game.setup == "position" and game.position == position
    assert Event.objects.filter(game=game, type="PositionDescribed").exists()
    state, _ = store.load(game)
    assert "act_migration" in state.hands["green"]
    assert {d.seat for d in rules.pending(state)} == {"green"}


@pytest.mark.parametrize(
    "args, message",
    [
        (["--player", "a@example.org"], "2 to 4"),
        (["--bots", "5"], "2 to 4"),
        (["--player", "nope", "--bot"], "email"),
        (["--bot", "--bot", "--position", "/nonexistent.json"], "Cannot read"),
    ],
)
def test_bad_arguments_fail_clearly(db, args, message):
    with pytest.raises(CommandError, match=message):
        run(*args)
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "content, message",
    [
        (
            '{"territories": {"valley": {"cell": [0, 0]}}, "capital": "valley", "hands": ["ep_eriu"]}',
            "The position {path}: hands must be an object",
        ),
        (
            '{"territories": {"valley": {"cell": [0, 0]}}, "capital": "valley", "epic_deck": ["ep_nonsense"]}',
            "Unknown card 'ep_nonsense' (epic_deck)",
        ),
        ("[1, 2]", "a described position is a JSON object"),
        ("{", "Cannot read the position"),
        (b"\xff\xfe", "Cannot read the position"),
    ],
)
def test_a_malformed_position_file_is_a_one_line_error(db, tmp_path, content, message):
    """docs/management-commands.md: a failure gives "1 with a one-line `CommandError: ...`", "an
    unreadable position file" and "a configuration the rules refuse (their message...)" among
    them; no traceback, no game."""
    path = tmp_path / "position.json"
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(CommandError) as info:
        run("--player", "a@example.org", "--bot", "--position", str(path))
    assert message.format(path=path) in str(info.value) and "\n" not in str(info.value)
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--setup", "discovery", "--position", "pos.json"], "--setup and --position do not fit together"),
        (["--weak-seed"], "--weak-seed goes with --seed"),
        (["--bots", "-1"], "--bots: -1 bots: give 0 or more"),
    ],
)
def test_arguments_that_do_not_fit_are_refused(db, args, message):
    """docs/management-commands.md, create_game: "`--position FILE.json` starts from a described
    position ... instead of `--setup`"; `--weak-seed` goes with `--seed SEED`; a count of bots
    is never negative."""
    with pytest.raises(CommandError, match=re.escape(message)):
        run("--player", "a@example.org", "--bot", *args)
    assert not Game.objects.exists()


def test_a_short_or_regular_seed_is_refused_without_weak_seed(db):
    """`create_game --seed 4711`: the seed was recovered from the public commitment in under a
    second, and with it the deck order. Refused, no game made."""
    from django.core.management.base import CommandError

    from games.models import Game

    for seed in ("4711", "passwordpasswordpasswordpassword", "1234567890" * 4):
        with pytest.raises(CommandError, match="seed"):
            run("--player", "a@example.org", "--bot", "--seed", seed)
    assert not Game.objects.exists()
    run("--player", "a@example.org", "--bot", "--seed", "9f86d081884c7d659a2feaa0c55ad015")
    assert Game.objects.count() == 1


def test_a_seed_made_as_the_guide_says_is_accepted():
    """docs/fairness.md: "use 32 random characters (`openssl rand -hex 16`)". Such a seed may
    use only 9 of the 16 hex digits (about once in ten thousand draws, as this one from an
    audit): it is accepted, as every random one is; few characters or a pattern still is not."""
    import secrets

    from games.record.seeds import seed_weakness

    assert seed_weakness("11914ad5d41e5a119888118596a6dde8") is None
    assert all(seed_weakness(secrets.token_hex(16)) is None for _draw in range(20_000))
    assert seed_weakness("abcaabcbbacabcabbacbcabacbbaacba") is not None  # 3 characters
    assert seed_weakness("0123456789abcdef" * 2) is not None  # a repeated pattern


def test_its_games_have_rules_keys_and_reaction_mode_as_the_options_page_says(db):
    """docs/game-options.md: a game of create_game has rules keys and one table key,
    `reaction_mode` (the readers default every other table key)."""
    from pathlib import Path

    from games.record.options import RULES_KEYS

    out = json.loads(run("--player", "a@example.org", "--bot", "--reaction-mode", "strict", "--json"))
    options = Game.objects.get(pk=out["game"]).options
    assert {key for key in options if key not in RULES_KEYS} == {"reaction_mode"}
    assert options["reaction_mode"] == "strict"
    page = Path(__file__).resolve().parents[4] / "docs" / "game-options.md"
    assert "`manage.py create_game` have only rules keys and the table key `reaction_mode`" in " ".join(
        page.read_text().split()
    )


@pytest.mark.parametrize("command", ["create_game", "simulate_games"])
def test_the_help_names_every_bot_level(command):
    """`--help` lists the strong bot beside the others (the command accepts it)."""
    from django.core.management import load_command_class

    from games import bots

    help_text = " ".join(
        load_command_class("games", command).create_parser("manage.py", command).format_help().split()
    )
    option = "--bot-level" if command == "create_game" else "--players"
    described = help_text[help_text.rindex(option) :]
    for level in bots.LEVELS:
        assert re.search(rf"\b{level}\b \(|levels: [a-z, ]*\b{level}\b", described), (level, described[:400])


def test_the_help_gives_the_seeds_bounds_and_the_defaults_the_page_gives(db):
    """docs/management-commands.md, create_game: `--seed` is "32 to 128 printable characters ...
    default: 32 random hex digits", `--reaction-mode` defaults to `holders`, and a game without
    `--buildings` has the first print's building rules (docs/game-options.md); `--help` says the
    same, and the command does it."""
    from django.core.management import load_command_class

    parser = load_command_class("games", "create_game").create_parser("manage.py", "create_game")
    help_text = " ".join(parser.format_help().split())
    assert (
        "--seed SEED the secret seed, 32 to 128 random printable characters (default: 32 random hex digits)"
        in (help_text)
    )
    assert "who a Triskel window asks (default: holders;" in help_text
    assert "the building rules, options.buildings (default: first_print)" in help_text
    out = StringIO()
    with pytest.raises(CommandError, match="1 to 128 printable characters"):
        call_command("create_game", "--bot", "--bot", "--seed", "a" * 33 + secrets.token_hex(48), stdout=out)
    call_command("create_game", "--bot", "--bot", "--json", stdout=out)
    game = Game.objects.get(pk=json.loads(out.getvalue())["game"])
    assert game.options["reaction_mode"] == "holders"
    assert "buildings" not in game.options  # the rules' default: the first print's


def test_the_text_output_is_the_documented_lines(db, settings):
    """docs/management-commands.md, create_game, "Output (text)": the game, the seed commitment,
    the public page, then a line per seat: a player's seat link, a bot's level and the public
    page."""
    settings.SITE_URL = "http://127.0.0.1:8000"
    lines = run(
        "--player", "a@example.org", "--bot", "--bot-level", "easy", "--setup", "discovery"
    ).splitlines()
    game = Game.objects.get()
    public = f"http://127.0.0.1:8000/games/{game.pk}/"
    green = game.seats.get(colour="green")
    assert lines[:3] == [
        f"Created game {game.pk} (2 seats, setup discovery).",
        f"Seed commitment: {game.seed_commitment}",
        f"Public page: {public}",
    ]
    assert re.fullmatch(r"[0-9a-f]{64}", game.seed_commitment)
    assert lines[3].startswith(f"green (a@example.org): {public}seat/{green.pk}.") and lines[3].endswith("/")
    assert lines[4:] == [f"blue (easy bot): {public}"]
