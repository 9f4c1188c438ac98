"""The hash chain over a game's event log: any out-of-band edit of a stored event is detectable.

    hash(n) = sha256_hex( prev_hash(n) + canonical_json([seq, type, version, payload, visibility]
                                                        (+ [salt] for a private event)) )
    prev_hash(1) = the game's seed commitment; prev_hash(n) = hash(n - 1).

Starting the chain from the seed commitment binds the log to the commitment published when the
game was created.

Why private events carry a salt: hashes are shown to players (history pages, exports) while the
payloads of private events (a drafted hand) are not. A hand is one of a few hundred thousand
combinations, so an unsalted hash would let a player recover it by trying them all. The salt is
HMAC-SHA256(seed, "inis-event-salt:<seq>"): secret while the seed is, and recomputable by anybody
once the seed is revealed at the end of the game, when the whole chain becomes checkable. Public
events have no salt, so their hashes can be checked at any time.
"""
from __future__ import annotations

import hashlib
import hmac
import json
from typing import Any


def canonical_json(value: Any) -> str:
    """The one serialisation that is hashed: sorted keys, no spaces, UTF-8 text, no NaN.

    Raises TypeError for values JSON cannot carry and ValueError for NaN or infinities.
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def normalise(value: Any) -> Any:
    """`value` as it reads back from a JSON column (tuples become lists, keys become strings)."""
    return json.loads(json.dumps(value, allow_nan=False))


def event_salt(seed: str, seq: int, visibility: list | None) -> str:
    """The salt of event `seq`: "" for a public event (visibility None), else a keyed hash."""
    if visibility is None:
        return ""
    return hmac.new(seed.encode("utf-8"), f"inis-event-salt:{seq}".encode(), hashlib.sha256).hexdigest()


def event_hash(
    prev_hash: str,
    *,
    seq: int,
    type: str,
    version: int,
    payload: dict,
    visibility: list | None,
    salt: str = "",
) -> str:
    """The 64-hex-digit hash of one event, chained to `prev_hash` (see the module docstring)."""
    body: list[Any] = [seq, type, version, payload, visibility]
    if salt:
        body.append(salt)
    return hashlib.sha256((prev_hash + canonical_json(body)).encode("utf-8")).hexdigest()
