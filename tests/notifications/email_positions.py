"""Described positions (docs/positions.md) for the email tests, and a game made from one.

- END: round 3, green's Season turn; green is present in 6 territories (a victory condition), so
  "pretender" then four passes in a row end the Season and the Assembly elects green. Blue holds
  the Bard (a Triskel card too), so Triskel windows ask blue along the way. About 14 decisions.
- MIGRATION: green's Season turn holding Migration and Geis, 2 clans in the Valley next to the
  Cove and the Plains: "play migration from valley" fits several moves (ambiguous).
- ASSEMBLY: round 2 about to begin: every seat drafts at once (simultaneous decisions).
- CLASH: MIGRATION with a Citadel in the Cove, where green's MIGRATE_TO_COVE starts a clash.
"""

from __future__ import annotations

from games.services import SeatSpec, create_game

END = {
    "territories": {
        "valley": {"cell": [0, 0], "clans": {"green": 2, "blue": 1}},
        "cove": {"cell": [1, 0], "clans": {"green": 1, "orange": 1}},
        "plains": {"cell": [1, -1], "clans": {"green": 1, "white": 1}},
        "moor": {"cell": [0, -1], "clans": {"green": 1}},
        "forest": {"cell": [-1, 0], "clans": {"green": 1, "blue": 1}},
        "hills": {"cell": [-1, 1], "clans": {"green": 1}},
        "meadows": {"cell": [0, 1], "clans": {"orange": 2, "white": 1}},
    },
    "capital": "valley",
    "brenn": "blue",
    "flock": "clockwise",
    # Orange and white hold nothing: their passes are forced (played for them, not asked). A card
    # that can do nothing may still be played for no effect (docs/rulings.md), so it would ask.
    "hands": {"green": [], "blue": ["act_bard"], "orange": [], "white": []},
    "round": 3,
    "phase": "season",
    "turn": "green",
    "opened": True,
    "passes": 0,
}

MIGRATION = {
    "territories": {
        "valley": {"cell": [0, 0], "clans": {"green": 2}},
        "cove": {"cell": [1, 0], "clans": {"blue": 1}},
        "plains": {"cell": [0, 1], "clans": {"orange": 1}},
        "moor": {"cell": [-1, 0], "clans": {"white": 2}},
    },
    "capital": "moor",
    "brenn": "green",
    "flock": "clockwise",
    "hands": {"green": ["act_migration", "act_geis"], "blue": ["act_bard"], "orange": [], "white": []},
    "round": 1,
    "phase": "season",
    "turn": "green",
    "opened": True,
    "passes": 0,
}

ASSEMBLY = {
    "territories": {
        "valley": {"cell": [0, 0], "clans": {"green": 2, "blue": 1}},
        "cove": {"cell": [1, 0], "clans": {"orange": 2}},
        "plains": {"cell": [0, 1], "clans": {"white": 2}},
    },
    "capital": "valley",
    "brenn": "green",
    "flock": "clockwise",
    "hands": {},
    "round": 2,
    "phase": "assembly",
}

EMAILS = [f"player{i}@example.org" for i in range(1, 5)]


def game_from(position: dict, *, seed: str = "email-tests", players: int = 4, bots: int = 0, **kwargs):
    """A game of `players` email seats (player1@example.org...) then `bots` bot seats, started
    from `position`; bots are not played unless `play_bots=True` is given."""
    seats = [SeatSpec(email=e) for e in EMAILS[:players]] + [SeatSpec(is_bot=True)] * bots
    kwargs.setdefault("play_bots", False)
    return create_game(seats=seats, seed=seed, setup=position, **kwargs)


# MIGRATION with a Citadel in the Cove and blue's hand empty: green's Migration of 1 clan to the
# Cove starts a clash where blue may shelter its clan, then green maneuvers alone exposed.
CLASH = {
    **MIGRATION,
    "territories": {
        **MIGRATION["territories"],
        "cove": {"cell": [1, 0], "clans": {"blue": 1}, "citadels": 1},
    },
    "hands": {"green": ["act_migration", "act_geis"], "blue": [], "orange": [], "white": []},
}
MIGRATE_TO_COVE = {"type": "play", "card": "act_migration", "from": "valley", "moves": {"cove": 1}}
