"""The hash chain over a game's event log: any out-of-band edit of a stored event is detectable.

Each game records the version of its chain (`Game.chain_version`); both versions chain every hash
to the one before, the first to the game's seed commitment (binding the log to the commitment
published when the game was created):

    prev_hash(1) = the game's seed commitment; prev_hash(n) = hash(n - 1).

Version 1 (games created before version 2 existed):

    hash(n) = sha256_hex( prev_hash(n) + canonical_json([seq, type, version, payload, visibility]
                                                        (+ [salt] for a private event)) )

A private event's hash covers its whole payload, which a redacted export does not show: before
the seed is revealed nobody but the service can check that link, so a public event edited and
re-hashed up to the next private event rejoins the chain unnoticed in an export.

Version 2 (every game since): every link can be checked from any export, redacted or not.

    hash(n) = sha256_hex( prev_hash(n) + canonical_json([seq, type, version, public, hidden_digest]) )

    public event:  public = payload, hidden_digest = None       (the very bytes version 1 hashes)
    private event: public = rules.redact(event, None).payload   (what a spectator is shown)
                   hidden_digest = HMAC-SHA256(key=salt, canonical_json([payload, visibility]))

A link hashes the event as it was appended (type, version and payload as stored: a later
upcast never changes a hash). An export carries `public` and `hidden_digest` for each private
event (its "proofs", games.store.exports), so its reader recomputes every hash; once the seed is
revealed, the hidden digests are checked against the full payloads too. The visibility (who may
read the event) is inside the hidden digest, not the public part: it can itself be hidden (who
was asked about a Triskel, docs/rulings.md).

Why the salt: hashes and hidden digests are shown to players (history pages, exports) while the
payloads of private events (a drafted hand) are not. A hand is one of a few hundred thousand
combinations, so an unsalted digest would let a player recover it by trying them all. The salt is
HMAC-SHA256(seed, "inis-event-salt:<seq>"): a seed has 128 random bits (docs/fairness.md) and
HMAC is a pseudo-random function, so a salt cannot be computed, nor guessed, without the seed —
not even from other events' salts, which an export hands to the seats that read those events
whole (they know the payload already; the salt lets them check their own hidden digests). Anybody recomputes
every salt once the seed is revealed at the end of the game, when nothing is hidden any more.

The public part is defined by `rules.redact` (`PUBLIC_FIELDS`, games/rules/views.py): a change to
what a spectator is shown of a private event changes version-2 hashes, so it needs a new chain
version (the version-2 games keep theirs); tests/games/record/test_hashchain.py pins sample hashes.
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass
from typing import Any

from games import rules

# The chain versions this code reads, and the one new games get (`Game.chain_version`).
CHAIN_VERSIONS = (1, 2)
LATEST_CHAIN_VERSION = 2

# Shortest hash prefix accepted as an anchor (48 bits): players keep the short form emails name
# (`verify_game --head`, `python -m games.verify --head`).
MIN_HEAD_DIGITS = 12


def canonical_json(value: Any) -> str:
    """The one serialisation that is hashed: sorted keys, no spaces, UTF-8 text, no NaN.

    Raises TypeError for values JSON cannot carry and ValueError for NaN or infinities.
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def normalise(value: Any) -> Any:
    """`value` as it reads back from a JSON column (tuples become lists, keys become strings)."""
    return json.loads(json.dumps(value, allow_nan=False))


def event_salt(seed: str, seq: int, visibility: list[Any] | None) -> str:
    """The salt of event `seq`: "" for a public event (visibility None), else HMAC-SHA256(seed,
    "inis-event-salt:<seq>") in 64 hex digits (both chain versions; see the module docstring)."""
    if visibility is None:
        return ""
    return hmac.new(seed.encode("utf-8"), f"inis-event-salt:{seq}".encode(), hashlib.sha256).hexdigest()


def event_hash(
    prev_hash: str,
    *,
    seq: int,
    type: str,
    version: int,
    payload: dict[str, Any],
    visibility: list[Any] | None,
    salt: str = "",
) -> str:
    """The 64-hex-digit hash of one event in a version-1 chain, chained to `prev_hash` (see the
    module docstring)."""
    body: list[Any] = [seq, type, version, payload, visibility]
    if salt:
        body.append(salt)
    return hashlib.sha256((prev_hash + canonical_json(body)).encode("utf-8")).hexdigest()


def public_part(*, type: str, version: int, payload: dict[str, Any]) -> dict[str, Any]:
    """What a version-2 link hashes of a private event in place of its payload: the payload a
    spectator is shown (`rules.redact(event, None)`). Raises KeyError for a payload the rules
    cannot redact (an unknown card)."""
    return rules.redact(rules.Event(type, payload, (), version), None).payload


def hidden_digest(salt: str, *, payload: dict[str, Any], visibility: list[Any]) -> str:
    """HMAC-SHA256(key=salt, canonical_json([payload, visibility])) in 64 hex digits: the private
    event's hidden part, which its version-2 link hashes. `salt` is `event_salt`'s."""
    message = canonical_json([payload, visibility]).encode("utf-8")
    return hmac.new(salt.encode("ascii"), message, hashlib.sha256).hexdigest()


@dataclass(frozen=True)
class HiddenPart:
    """A private event as its version-2 link hashes it: `public` (a payload dict), `digest`
    (`hidden_digest`, 64 hex digits) and the `salt` it was made with (secret until the seed is)."""

    public: dict[str, Any]
    digest: str
    salt: str


def hide(
    seed: str, *, seq: int, type: str, version: int, payload: dict[str, Any], visibility: list[Any]
) -> HiddenPart:
    """The public part and hidden digest of private event `seq` (visibility not None), computed
    once: the store, the export and the audit all call this."""
    salt = event_salt(seed, seq, visibility)
    return HiddenPart(
        public=public_part(type=type, version=version, payload=payload),
        digest=hidden_digest(salt, payload=payload, visibility=visibility),
        salt=salt,
    )


def link_hash(
    prev_hash: str, *, seq: int, type: str, version: int, public: dict[str, Any], hidden_digest: str | None
) -> str:
    """The 64-hex-digit hash of one event in a version-2 chain, from what every export shows:
    its public part (the whole payload of a public event) and its hidden digest (None for a
    public event)."""
    body = [seq, type, version, public, hidden_digest]
    return hashlib.sha256((prev_hash + canonical_json(body)).encode("utf-8")).hexdigest()


def chained_hash(
    prev_hash: str,
    *,
    chain_version: int,
    seed: str,
    seq: int,
    type: str,
    version: int,
    payload: dict[str, Any],
    visibility: list[Any] | None,
) -> str:
    """The hash event `seq` has in a chain of `chain_version`, from its full content and the
    game's seed (what the store writes and the audit recomputes). Raises ValueError for a chain
    version this code does not know."""
    if chain_version == 1:
        return event_hash(
            prev_hash,
            seq=seq,
            type=type,
            version=version,
            payload=payload,
            visibility=visibility,
            salt=event_salt(seed, seq, visibility),
        )
    if chain_version != 2:
        raise ValueError(f"unknown chain version {chain_version!r} (this code reads {CHAIN_VERSIONS})")
    if visibility is None:
        return link_hash(prev_hash, seq=seq, type=type, version=version, public=payload, hidden_digest=None)
    hidden = hide(seed, seq=seq, type=type, version=version, payload=payload, visibility=visibility)
    return link_hash(
        prev_hash, seq=seq, type=type, version=version, public=hidden.public, hidden_digest=hidden.digest
    )
