"""`verify_press`: audit a game's table talk against its hash chain (docs/press.md).

The operator's check, run by `manage.py verify_game` beside the rules' log: every message of the
game, in order of number, must follow the one before it (`prev_hash`, the first one the game's
seed commitment) and hash to its stored `hash` as the game's chain version says (`press.chain`),
so a message edited, removed or slipped in behind the service's back is found. Private messages
are checked with the game's seed (version 1) or their stored salt (version 2), which the service
holds, so the check needs no game to be over.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from games.models import Game
from press.chain import verify_chain
from press.models import PressMessage


@dataclass
class PressReport:
    """The outcome for one game: how many messages were read, one sentence per problem."""

    game_id: int
    messages: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def lines(self) -> list[str]:
        """For the operator, under the game's own report line (English, like every operator output)."""
        verdict = "OK" if self.ok else f"FAILED ({len(self.problems)} problem(s))"
        return [f"  table talk: {verdict} — {self.messages} messages checked"] + [
            f"  - table talk: {problem}" for problem in self.problems
        ]


def verify_press(game: Game) -> PressReport:
    """Check the whole press log of `game` (every message, private ones included): numbers
    1..N without a gap, each `prev_hash` the hash before it, each `hash` what its fields give.
    Never raises for a bad log: everything found is in the report."""
    messages = list(PressMessage.objects.filter(game=game).order_by("number"))
    problems = verify_chain(
        messages, seed=game.seed, seed_commitment=game.seed_commitment, chain_version=game.chain_version
    )
    return PressReport(game_id=game.pk, messages=len(messages), problems=problems)
