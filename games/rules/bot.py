"""The random-legal-move bot: any seat the service plays for (demo games, absent players)."""

from __future__ import annotations

import random

from .command_types import Command
from .engine import legal_commands
from .state import GameState


def bot_command(state: GameState, seat: str, rng: random.Random) -> Command:
    """A random legal command for `seat`, lightly steered so that games end.

    It takes a Pretender token whenever it may, rarely proposes peace, and answers Triskel
    windows with a card one time in four. Raises LookupError when `seat` has nothing to decide.
    """
    options = legal_commands(state, seat)
    if not options:
        raise LookupError(f"{seat} has nothing to decide")
    kinds = {o["type"] for o in options}
    if "pretender" in kinds:
        return {"type": "pretender"}
    if "decline" in kinds and len(options) > 1:
        return rng.choice(options[1:]) if rng.random() < 0.25 else {"type": "decline"}
    if "propose_peace" in kinds and rng.random() < 0.9:
        options = [o for o in options if o["type"] != "propose_peace"]
    if "play" in kinds and "pass" in kinds and rng.random() < 0.7:
        options = [o for o in options if o["type"] == "play"]
    # Choose a kind first, so a card with thousands of ways to split clans is not favoured.
    kind = rng.choice(sorted({(o["type"], o.get("card", "")) for o in options}))
    return rng.choice([o for o in options if (o["type"], o.get("card", "")) == kind])
