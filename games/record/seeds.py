"""Whether a chosen secret seed is strong enough to be committed to in public.

A game publishes sha256(seed) when it starts (`games.models.seed_commitment`) and reveals the
seed when it ends. The commitment hides the seed only if the seed cannot be guessed: a short or
patterned seed ("4711") is found from the commitment by trying candidates, in well under a
second, and with it every deck order of the game. The default seed (32 random hex digits,
`games.services.create_game`) is always strong; a seed an operator chooses must be too.

The test is a floor against mistakes, not a measure of entropy: at least MIN_LENGTH characters,
MIN_DISTINCT different ones, and no long repetition (zlib cannot shrink it below
MIN_COMPRESSED bytes). 32 random hex digits or URL-safe characters always pass: 32 hex digits
drawn at random use fewer than 6 of the 16 about once in billions of seeds (fewer than 10: once
in ten thousand, which an operator following `openssl rand -hex 16` would meet), and none
compresses below 34 bytes.
"""

from __future__ import annotations

import zlib

MIN_LENGTH = 32
MIN_DISTINCT = 6
MIN_COMPRESSED = 30


def seed_weakness(seed: str) -> str | None:
    """Why `seed` is too weak to publish a commitment to (a sentence for the operator), or None
    when it passes (docs/fairness.md)."""
    if len(seed) < MIN_LENGTH:
        return (
            f"A chosen seed needs at least {MIN_LENGTH} characters: a shorter one is found "
            "from the public commitment by trying candidates, and with it every deck order."
        )
    if len(set(seed)) < MIN_DISTINCT or len(zlib.compress(seed.encode("utf-8"), 9)) < MIN_COMPRESSED:
        return (
            "That seed is too regular (few different characters, or a repeated pattern): it "
            "could be guessed from the public commitment. Leave the seed out for a random "
            "one, or use 32 random characters (e.g. `openssl rand -hex 16`)."
        )
    return None
