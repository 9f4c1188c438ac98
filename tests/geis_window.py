"""A Triskel window only one player is asked about: green plays New Clans and one opponent holds
Geis ("Triskel, when an opponent plays an Action card (after they have fully declared it)"). In
reaction mode "holders" (docs/rulings.md) only the Geis holder is asked, so two games that differ
only in who holds it must look the same to everybody else: the position the hidden-reactions
tests share."""

from __future__ import annotations

from collections.abc import Iterable

from games import store
from games.models import Game
from games.services import SeatSpec, create_game, submit_command

OPPONENTS = ("blue", "orange", "white")
# Action cards that answer nothing green does here (no Geis among them).
FILLERS = ("act_bard", "act_druid", "act_migration", "act_warlord", "act_sanctuary", "act_exploration")


def geis_position(geis_holder: str, fillers: Iterable[str] = FILLERS) -> dict:
    """A Season position, green to play: green holds New Clans, `geis_holder` Geis and each other
    opponent one of `fillers` (in the order of OPPONENTS)."""
    hands = {seat: [card] for seat, card in zip(OPPONENTS, fillers)}
    hands[geis_holder] = ["act_geis"]
    hands["green"] = ["act_new_clans"]
    return {
        "territories": {
            "moor": {"cell": [0, 0], "clans": {"green": 2, "blue": 1}},
            "plains": {"cell": [1, 0], "clans": {"blue": 2}},
            "valley": {"cell": [0, 1], "clans": {"orange": 1}},
            "cove": {"cell": [-1, 1], "clans": {"white": 1}},
        },
        "capital": "plains",
        "brenn": "green",
        "flock": "clockwise",
        "turn": "green",
        "opened": True,
        "phase": "season",
        "round": 1,
        "hands": hands,
    }


def game_at_geis_position(
    geis_holder: str, *, seed: str, email: str, fillers: Iterable[str] = FILLERS
) -> Game:
    """A game of four people at `geis_position`, green to play. `email` is a format with
    `{colour}` (each game needs its own people when the database is kept between games)."""
    return create_game(
        seats=[SeatSpec(email=email.format(colour=colour)) for colour in ("green", *OPPONENTS)],
        seed=seed,
        setup=geis_position(geis_holder, fillers),
        options={"reaction_mode": "holders"},
        play_bots=False,
    )


def play_new_clans(game: Game) -> None:
    """Green plays New Clans, two clans to the Moor: the Triskel window then waits on the Geis
    holder alone."""
    _, seq = store.load(game)
    result = submit_command(
        game=game,
        seat=game.seats.get(colour="green"),
        expected_seq=seq,
        command={"type": "play", "card": "act_new_clans", "territories": ["moor", "moor"]},
    )
    assert result.accepted, result.message
