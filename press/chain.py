"""The hash chain over a game's table talk: any out-of-band edit of a stored message is detectable.

    hash(n) = sha256_hex( prev_hash(n) + canonical_json(["press", number, at_seq, sender,
                                                          recipients, text, sent_at]
                                                         (+ [salt] for a private message)) )
    prev_hash(1) = the game's seed commitment; prev_hash(n) = hash(n - 1).

The serialisation is the event log's (`games.record.hashchain.canonical_json`); "press" in the body keeps
a message's hash from ever equalling an event's. `sent_at` is ISO 8601 in UTC with microseconds.

Why private messages carry a salt (as private events do, `games.record.hashchain`): every reader of the
table talk sees the hash of the message before the one they read (its prev_hash), private ones
included, and a short private message ("yes", "I attack green") could be found from its hash by
trying likely words. The salt is HMAC-SHA256(seed, "inis-press-salt:<number>"): secret while the
seed is, recomputable by anybody once the seed is revealed at the end of the game. Public messages
have no salt: anybody can check them at any time.
"""
from __future__ import annotations

import hashlib
import hmac
from datetime import datetime, timezone

from games.record.hashchain import canonical_json


def press_salt(seed: str, number: int, recipients: list | None) -> str:
    """The salt of message `number`: "" for a message to the whole table (recipients None),
    else a keyed hash of the game's secret seed (64 hex digits)."""
    if recipients is None:
        return ""
    return hmac.new(seed.encode("utf-8"), f"inis-press-salt:{number}".encode(), hashlib.sha256).hexdigest()


def timestamp(moment: datetime) -> str:
    """`moment` as the chain hashes it: ISO 8601, UTC, microseconds ("2026-05-01T10:00:00.000000+00:00")."""
    return moment.astimezone(timezone.utc).isoformat(timespec="microseconds")


def message_hash(prev_hash: str, *, number: int, at_seq: int, sender: str, recipients: list | None,
                 text: str, sent_at: datetime, salt: str = "") -> str:
    """The 64-hex-digit hash of one message, chained to `prev_hash` (see the module docstring).
    Raises TypeError / ValueError for values JSON cannot carry."""
    body: list = ["press", number, at_seq, sender, recipients, text, timestamp(sent_at)]
    if salt:
        body.append(salt)
    return hashlib.sha256((prev_hash + canonical_json(body)).encode("utf-8")).hexdigest()


def stored_hash(message, *, seed: str) -> str:
    """The hash a stored `press.models.PressMessage` should have, from its own prev_hash."""
    return message_hash(message.prev_hash, number=message.number, at_seq=message.at_seq,
                        sender=message.sender, recipients=message.recipients, text=message.text,
                        sent_at=message.sent_at,
                        salt=press_salt(seed, message.number, message.recipients))


def verify_chain(messages, *, seed: str, seed_commitment: str) -> list[str]:
    """Problems found in a game's whole table talk `messages` (in order of number), as sentences
    for the operator; [] when every message is where the chain says and none was edited."""
    problems: list[str] = []
    expected_prev = seed_commitment
    for expected_number, message in enumerate(messages, start=1):
        if message.number != expected_number:
            problems.append(f"message {expected_number} is missing (found {message.number})")
            break
        if message.prev_hash != expected_prev:
            problems.append(f"message {message.number} does not follow the one before it")
        if stored_hash(message, seed=seed) != message.hash:
            problems.append(f"message {message.number} was changed after it was written")
        expected_prev = message.hash
    return problems
