"""Starting tiles with their Sanctuary (docs/rulings.md, "Starting tiles with a Sanctuary"): a game
created now deals Stone Circle's Sanctuary at the set-up; a game created before keeps the set-up it
was dealt (rules revision 1, docs/game-options.md), and its audit still passes."""

from __future__ import annotations

import pytest

from games import rules, store
from games.models import Game
from games.store.verification import verify_game
from tests.migrating import migrate_to, migrate_to_latest

FOUR = ["green", "blue", "orange", "white"]


def seed_drawing(tile: str) -> str:
    """A seed whose random 4-player set-up draws `tile` among the starting tiles."""
    for n in range(200):
        seed = f"start-{tile}-{n}"
        events = rules.start_game(FOUR, seed=seed)
        if any(e.type == "TerritoryPlaced" and e.payload["territory"] == tile for e in events):
            return seed
    raise AssertionError(f"no seed of 200 draws {tile} at the start")


@pytest.mark.django_db
def test_a_game_created_now_has_the_sanctuary_and_verifies(make_game, play):
    """Stone Circle: "Enters play with 1 Sanctuary", also as a starting tile."""
    game = make_game(seed=seed_drawing("stone_circle"))
    state, _seq = store.load(game)
    assert state.territories["stone_circle"]["sanctuaries"] == 1
    assert "rules_revision" not in game.options
    play(game, 20)
    assert verify_game(game).ok


@pytest.mark.django_db
def test_a_game_dealt_before_keeps_its_set_up_and_verifies(make_game, play):
    game = make_game(seed=seed_drawing("stone_circle"), options={"rules_revision": 1})
    state, _seq = store.load(game)
    assert state.territories["stone_circle"]["sanctuaries"] == 0
    play(game, 20)
    assert verify_game(game).ok, verify_game(game).problems
    # Without the key its set-up would be dealt otherwise, and the audit would say so.
    Game.objects.filter(pk=game.pk).update(
        options={k: v for k, v in game.options.items() if k != "rules_revision"}
    )
    game.refresh_from_db()
    problems = verify_game(game).problems
    assert any(p.startswith("set-up") for p in problems), problems


@pytest.mark.django_db(transaction=True)
def test_the_migration_marks_every_game_created_before():
    old = migrate_to([("games", "0015_seat_bot_level_strong")])
    OldGame = old.get_model("games", "Game")
    before = OldGame.objects.create(
        seed="s",
        seed_commitment="c",
        player_count=2,
        options={"buildings": "first_print", "take_backs": "mover_view"},
    )
    migrate_to_latest()
    assert Game.objects.get(pk=before.pk).options == {
        "buildings": "first_print",
        "take_backs": "mover_view",
        "rules_revision": 1,
    }
