"""A prompt tells each thing once (issue 40, "The story a player reads"): at the end of the
Season every Action card left in hand is discarded face down (rulebook, "End of the Season"),
one card at a time; the other players read one line per player ("Bob (blue) discarded 3 Action
cards"), not the same line once per card, and the player reads which of their own cards went."""

from __future__ import annotations

from games import store
from games.services import submit_command
from players.models import Player
from tests.notifications.email_positions import game_from
from tests.notifications.test_inbound import prompt_for, send_all

# Round 1's Season, green to play: green and blue hold Action cards, orange and white none (their
# passes are played for them), and nobody meets a victory condition.
SEASON_END = {
    "territories": {
        "valley": {"cell": [0, 0], "clans": {"green": 2, "blue": 1}},
        "cove": {"cell": [1, 0], "clans": {"green": 1, "orange": 1}},
        "plains": {"cell": [1, -1], "clans": {"blue": 1, "white": 1}},
        "meadows": {"cell": [0, 1], "clans": {"orange": 2, "white": 1}},
    },
    "capital": "valley",
    "brenn": "blue",
    "flock": "clockwise",
    "hands": {"green": ["act_bard", "act_druid"], "blue": ["act_geis", "act_warlord", "act_festival"]},
    "round": 1,
    "phase": "season",
    "turn": "green",
    "opened": True,
    "passes": 0,
}


def _both_pass(game) -> None:
    for colour in ("green", "blue"):
        _state, seq = store.load(game)
        seat = game.seats.get(colour=colour)
        assert submit_command(game=game, seat=seat, command={"type": "pass"}, expected_seq=seq).accepted
        send_all()


def _happened(body: str) -> list[str]:
    told = body.split("What happened since your last move:\n", 1)[1].split("\n>>", 1)[0]
    return [line for line in told.splitlines() if line.startswith("- ")]


def test_the_end_of_the_season_tells_each_players_discards_in_one_line(db):
    Player.objects.create(email="player1@example.org", display_name="Ann")
    Player.objects.create(email="player2@example.org", display_name="Bob")
    game = game_from(SEASON_END, seed="season-end-lines")
    send_all()
    _both_pass(game)

    green = _happened(prompt_for(game, "green").body)  # the draft of round 2
    assert "- Bob (blue) discarded 3 Action cards (end of the Season)." in green, green
    assert (
        "- You discarded Bard (end of the Season)." in green
        and "- You discarded Druid (end of the Season)." in green
    )
    assert len(green) == len(set(green)), green

    blue = _happened(prompt_for(game, "blue").body)
    assert "- Ann (green) discarded 2 Action cards (end of the Season)." in blue, blue
    assert len(blue) == len(set(blue)), blue


def test_a_french_prompt_says_the_count_too(db):
    Player.objects.create(email="player2@example.org", language="fr")
    game = game_from(SEASON_END, seed="season-end-lines-fr")
    send_all()
    _both_pass(game)
    body = prompt_for(game, "blue").body
    assert body.count("Vert a défaussé 2 cartes Action (") == 1, body
    assert "Vert a défaussé une carte Action" not in body, body
