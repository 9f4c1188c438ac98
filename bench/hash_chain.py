"""Store row: the append path's hashing, chain version 2 against version 1, in the same run.

`store.chain_rows` (what every append runs before its INSERT) over the events of recorded random
4-player games, in memory (no database: the rows are built, not saved), for a game of chain
version 2 — a private event hashed through its public part (`rules.redact`) and its salted hidden
digest, each computed once — against the same events for a game of version 1 (one salted hash of
the whole event). Goal: version 2 keeps at least 0.8 of version 1's rate. The note gives the
hashing's time per accepted command, to set beside the command path's milliseconds.
"""

from __future__ import annotations

from bench.clock import rate
from bench.table import Row

SECTION = "store"


def rows(*, quick: bool) -> list[Row]:
    """The hash chain row (bench.table.Row), measured v1, v2, v1, v2 (each side the mean)."""
    from games import store
    from games.models import Game
    from games.rules.simulate import play_game

    seconds = 1.0 if quick else 3.0
    events, commands = [], 0

    def count(_state, _events):
        nonlocal commands
        commands += 1

    for n in range(2 if quick else 6):
        _state, played = play_game(4, f"bench-chain-{n}", check=count)
        events += played
    private = sum(event.visibility is not None for event in events)

    def hashing(version: int):
        game = Game(seed="bench-chain-" + "0" * 20, seed_commitment="0" * 64, chain_version=version)

        def work() -> int:
            store.chain_rows(game, events, after_seq=0, prev_hash="0" * 64)
            return len(events)

        return work

    sides = {1: [], 2: []}
    for _turn in range(2):
        for version in (1, 2):
            sides[version].append(rate(hashing(version), seconds=seconds))
    old, new = (sum(sides[v]) / len(sides[v]) for v in (1, 2))
    per_command_ms = len(events) / commands / new * 1000
    return [
        Row(
            SECTION,
            "store.chain_rows, chain version 2",
            new,
            "events/s",
            "the same events, chain version 1",
            old,
            goal=(">=", 0.8),
            note=f"{len(events):,} events, {private:,} private; "
            f"{per_command_ms:.3f} ms of hashing per accepted command "
            f"({len(events) / commands:.1f} events a command)",
        )
    ]
