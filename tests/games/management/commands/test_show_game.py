"""manage.py show_game, replay_game and export_game: reading a game from the command line."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games import rules, store
from games.models import Command
from games.play.standing_orders import set_order
from tests.games.record.test_verify import ENDGAME


def run(name, *args) -> str:
    out = StringIO()
    call_command(name, *args, stdout=out)
    return out.getvalue()


def test_show_game_as_a_seat_lists_its_numbered_commands(make_game):
    game = make_game(seed="show")
    state, seq = store.load(game)
    colour = rules.pending(state)[0].seat
    out = run("show_game", str(game.pk), "--as", colour)
    assert f"{seq} events" in out
    assert rules.render_board(state, colour) in out
    commands = rules.legal_commands(state, colour)
    assert f"{len(commands):4}. {rules.describe_command(state, commands[-1])}" in out


def test_show_game_as_a_spectator_names_who_must_decide(make_game):
    game = make_game(seed="show")
    state, _ = store.load(game)
    out = run("show_game", str(game.pk))
    assert rules.render_board(state, None) in out
    assert "Waiting for: " + ", ".join(f"{d.seat} ({d.kind})" for d in rules.pending(state)) in out
    assert "Legal commands" not in out


def test_replay_game_shows_the_board_after_seq(make_game, play):
    game = make_game(seed="replay")
    play(game, 10)
    state, _ = store.load(game, until=15)
    out = run("replay_game", str(game.pk), "--to", "15", "--as", "blue")
    assert "after event 15" in out
    assert rules.render_board(state, "blue") in out
    settled = Command.objects.filter(game=game).order_by("first_seq")[2].last_seq
    out = run("replay_game", str(game.pk), "--to", str(settled))
    state, _ = store.load(game, until=settled)
    assert "Waiting for: " + ", ".join(f"{d.seat} ({d.kind})" for d in rules.pending(state)) in out
    with pytest.raises(CommandError, match="between 0 and"):
        run("replay_game", str(game.pk), "--to", "100000")


def test_replay_game_before_the_set_up_says_nobody_holds_the_brenn_yet(make_game):
    game = make_game(seed="replay")
    out = run("replay_game", str(game.pk), "--to", "0")
    assert "Setup, before round 1. Brenn: none yet. Flock of Crows: clockwise." in out, out
    assert "Brenn: ." not in out
    out = run("replay_game", str(game.pk), "--to", "1")  # within the set-up's events: the seats sat
    assert "Brenn: none yet." in out and "green: 12 clans in reserve" in out, out


def test_export_game_prints_the_export_for_the_seat(make_game, play, tmp_path):
    game = make_game(seed="export")
    play(game, 30)
    data = json.loads(run("export_game", str(game.pk), "--as", "green"))
    assert data["viewer"] == "green" and data["game"]["seed"] is None
    assert len(data["events"]) == store.head(game)[0]
    run("export_game", str(game.pk), "--output", str(tmp_path / "x.json"))
    assert json.loads((tmp_path / "x.json").read_text())["viewer"] is None


@pytest.mark.parametrize("name", ["show_game", "export_game", "verify_game"])
def test_an_unknown_game_is_a_clear_error(db, name):
    with pytest.raises(CommandError, match="no game 424242"):
        run(name, "424242")


def test_a_colour_nobody_plays_is_a_clear_error(make_game):
    game = make_game(n_players=2)
    with pytest.raises(CommandError, match="Nobody plays white"):
        run("show_game", str(game.pk), "--as", "white")


def test_show_game_lists_a_seats_standing_orders_only_as_that_seat(make_game):
    game = make_game(seed="show-orders")
    blue = game.seats.get(colour="blue")
    set_order(game, blue, {"kind": "peace", "agree": False})
    assert "1. Always refuse peace." in run("show_game", str(game.pk), "--as", "blue")
    for others in (("--as", "green"), ()):
        out = run("show_game", str(game.pk), *others)
        assert "Always refuse peace" not in out and "Standing orders" not in out


def test_show_game_says_a_message_was_erased_as_the_game_page_does(make_game):
    """A message whose author erased their account has no words left: show_game says so, as the
    game page does, rather than printing an empty message."""
    from players.erasure import erase_account
    from press.services import press_send

    game = make_game(seed="show-erased")
    green = game.seats.get(colour="green")
    press_send(game=game, seat=green, to=None, text="Good luck, everyone.")
    erase_account(green.user_id)
    out = run("show_game", str(game.pk))
    told = next(line for line in out.splitlines() if line.startswith("  #") and " to everyone" in line)
    assert told.endswith("to everyone: (erased: its author left and took their words with them)")


def test_show_game_shows_the_table_talk_each_seat_may_read(make_game):
    """docs/management-commands.md, show_game: "the table talk that seat may read (without `--as`:
    the messages to the whole table only), under `Table talk:`, one a line: `  #<log length when
    sent> <sender> to <everyone | colour alone>: <text>`"."""
    from press.services import press_send

    game = make_game(seed="show-talk")
    _, seq = store.load(game)
    green = game.seats.get(colour="green")
    press_send(game=game, seat=green, to=None, text="Good luck, everyone.")
    press_send(game=game, seat=green, to="blue", text="Shall we leave each other alone?")
    to_all = f"  #{seq} green to everyone: Good luck, everyone."
    to_blue = f"  #{seq} green to blue alone: Shall we leave each other alone?"

    def talk(*others) -> list[str]:
        lines = run("show_game", str(game.pk), *others).splitlines()
        start = lines.index("Table talk:") + 1
        return lines[start : lines.index("", start)]

    assert talk() == [to_all]
    assert talk("--as", "green") == talk("--as", "blue") == [to_all, to_blue]
    assert talk("--as", "orange") == talk("--as", "white") == [to_all]


# Green, a Pretender present in 6 territories, passes; blue, holding nothing, passes at once: the
# Assembly elects green High King. Green is chieftain of the Cove and keeps its Advantage card.
OVER = {**ENDGAME, "hands": {"green": ["act_new_clans", "adv_cove"], "blue": []}}


@pytest.fixture
def over_game(make_game):
    from games.services import submit_command

    game = make_game(n_players=2, seed="show-over", setup=OVER)
    green = game.seats.get(colour="green")
    before = store.head(game)[0]
    result = submit_command(game=game, seat=green, command={"type": "pass"}, expected_seq=before)
    assert result.accepted, result.message
    game.refresh_from_db()
    assert game.is_over and game.winner == "green"
    return game, before


def test_show_game_shows_every_hand_once_the_game_is_over(over_game):
    """docs/management-commands.md, common conventions: "once the game is over everything is
    shown, the seed included" — every hand, as the game page shows them."""
    game, _before = over_game
    cove = rules.card_name("adv_cove")
    out = run("show_game", str(game.pk))
    assert f"Seed: {game.seed}" in out
    assert f"Hand of green: {cove}" in out and "Hand of blue: empty" in out
    out = run("show_game", str(game.pk), "--as", "blue")
    assert f"Hand of green: {cove}" in out and "Hand of blue" not in out  # blue's own: "Your hand"


def test_replay_game_shows_every_hand_at_any_point_once_the_game_is_over(over_game):
    """The same convention for a point before the end: the record is public once it is over."""
    game, before = over_game
    out = run("replay_game", str(game.pk), "--to", str(before))
    names = ", ".join(rules.card_name(c) for c in ("act_new_clans", "adv_cove"))
    assert f"Hand of green: {names}" in out and "Hand of blue: empty" in out


def test_a_game_in_progress_shows_no_other_hand(make_game):
    game = make_game(seed="show")
    assert "Hand of" not in run("show_game", str(game.pk), "--as", "green")


def test_export_game_to_a_file_it_cannot_write_is_one_line_error(make_game, tmp_path):
    """docs/management-commands.md: a failure is "1 with a one-line `CommandError: ...`"; export
    to a missing folder: `CommandError: Cannot write FILE: <reason>.`"""
    game = make_game(seed="export")
    path = tmp_path / "missing" / "x.json"
    with pytest.raises(CommandError, match=f"^Cannot write {path}: No such file or directory.$"):
        run("export_game", str(game.pk), "--output", str(path))


def test_a_finished_games_hands_in_the_middle_of_a_draft_hold_the_draft_cards():
    """`replay_game --to` a point of the draft of a finished game: each "Hand of" line lists what
    the board above counts in that hand, the cards it kept, holds or picks from in the draft
    (docs/rules-api.md, `view_for`'s `draft`) with the rest, never "empty" beside a count."""
    import random
    from types import SimpleNamespace

    from games.management.boards import board_text

    state = rules.fold(rules.start_game(["green", "blue", "orange"], seed="draft-hands"))
    rng = random.Random(1)
    while not any(d.kind == "draft" for d in rules.pending(state)) or not any(
        (rules.view_for(state, s).get("draft") or {}).get("held") for s in state.seats
    ):
        decision = rules.pending(state)[0]
        command = rng.choice(rules.legal_commands(state, decision.seat))
        for event in rules.decide(state, decision.seat, command, rng=rules.rng_for("draft-hands", state.seq)):
            rules.evolve(state, event)
    text = board_text(SimpleNamespace(is_over=True), state, None)
    for seat in state.seats:
        draft = rules.view_for(state, seat)["draft"]
        in_draft = [*draft["kept"], *draft["held"], *(draft["choices"] or [])]
        line = next(line for line in text.splitlines() if line.startswith(f"Hand of {seat}: "))
        assert in_draft and all(rules.card_name(card) in line for card in in_draft), (line, draft)
