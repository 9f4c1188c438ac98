"""games.story.descriptions: a fault in the wording of a command never blocks the command."""

from __future__ import annotations

from games import rules, store
from games.services import submit_command
from games.story import descriptions


def test_the_rules_description_is_used(make_game):
    game = make_game()
    state, _ = store.load(game)
    colour = rules.pending(state)[0].seat
    command = rules.legal_commands(state, colour)[0]
    assert descriptions.describe_command(state, command) == rules.describe_command(state, command)


def test_a_failing_description_falls_back_to_json_and_the_command_is_accepted(make_game, monkeypatch, caplog):
    game = make_game()
    state, seq = store.load(game)
    colour = rules.pending(state)[0].seat
    command = rules.legal_commands(state, colour)[0]

    def broken(state, command):
        raise KeyError("territory")

    monkeypatch.setattr(rules, "describe_command", broken)
    result = submit_command(game=game, seat=game.seats.get(colour=colour), command=command, expected_seq=seq)
    assert result.accepted
    assert '"type":"' in result.message
    assert "describe_command failed" in caplog.text
