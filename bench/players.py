"""Games for the benchmarks: created through the service, played by a bot that never ends them.

`rules.bot_command` steers games to an end (it takes every Pretender token), which caps a log at
about 12,000 events; the benchmarks need games that go on (50,000 events, a steady stream of
commands), so `endless_command` is the same random choice without the Pretender token. Every
command it gives is one of `rules.legal_commands`, so the logs it makes are valid and verify.
"""

from __future__ import annotations

import random

from games import rules

EMAILS = [f"bench{i}@example.org" for i in range(1, 5)]


def endless_command(state, seat: str, rng: random.Random) -> dict:
    """A random legal command for `seat`, never the Pretender token (so nobody ever wins).

    Chooses a (type, card) kind first, then a command of that kind, as `rules.bot_command` does.
    Raises LookupError when `seat` has nothing to decide.
    """
    options = [o for o in rules.legal_commands(state, seat) if o["type"] != "pretender"]
    if not options:
        raise LookupError(f"{seat} has nothing to decide")
    kind = rng.choice(sorted({(o["type"], o.get("card", "")) for o in options}))
    return rng.choice([o for o in options if (o["type"], o.get("card", "")) == kind])


def next_move(state, rng: random.Random) -> tuple[str, dict]:
    """(seat, command): a seat that must decide now, chosen at random, and its command."""
    seat = rng.choice(sorted({d.seat for d in rules.pending(state)}))
    return seat, endless_command(state, seat, rng)


def new_game(seed: str, *, players: int = 4):
    """A game of `players` player seats (emails, so each command writes prompt emails as in
    production), created through `services.create_game`."""
    from games.services import SeatSpec, create_game

    return create_game(seats=[SeatSpec(email=e) for e in EMAILS[:players]], seed=seed)
