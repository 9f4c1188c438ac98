"""The hash chain over a game's table talk: any out-of-band edit of a stored message is detectable.

Part of a game's record (its export carries the table talk), so it sits in the pure record room:
the offline verifier (`python -m games.verify`) checks an export's table talk with it, and the
press app (`press.chain`, its documented name) writes and checks the stored talk with it. The chain's version is the game's (`Game.chain_version`, games.record.hashchain):

    prev_hash(1) = the game's seed commitment; prev_hash(n) = hash(n - 1).

    message to the whole table (both versions):
        hash(n) = sha256_hex( prev_hash(n) + canonical_json(["press", number, at_seq, sender,
                                                              None, text, sent_at]) )
    private message, version 1:
        hash(n) = sha256_hex( prev_hash(n) + canonical_json(["press", number, at_seq, sender,
                                                              recipients, text, sent_at, salt]) )
        salt = HMAC-SHA256(seed, "inis-press-salt:<number>")
    private message, version 2:
        hash(n) = sha256_hex( prev_hash(n) + canonical_json(["press", number, hidden_digest]) )
        hidden_digest = HMAC-SHA256(key=salt, canonical_json([at_seq, sender, recipients, text,
                                                              sent_at]))
        salt = 32 random bytes (64 hex digits), stored with the message (`PressMessage.salt`)

A sealed message (every message written since talk is sealed, docs/privacy.md) hashes, in place
of its text, the object {"sealed": base64 of its AES-GCM nonce and ciphertext, "words": its
words digest} (`hashed_words`), in both versions and in the hidden digest:

    words digest = HMAC-SHA256(key=words_salt, text)
    words_salt = 16 random bytes (32 hex digits), sealed with the words (never stored in clear)

The chain covers the ciphertext and the digest, never the words, so destroying the author's key
(erasure) changes no hashed byte, and an export that no longer shows the words still verifies.
A reader shown the words gets their `words_salt` too, and checks the words against the digest
offline; once the key is destroyed nobody can learn the salt, so nobody can test a guess of the
words against the digest. An object is never a text, so a sealed message and a plain one never
hash alike.

The serialisation is the event log's (`games.record.hashchain.canonical_json`); "press" in the body keeps
a message's hash from ever equalling an event's. `sent_at` is ISO 8601 in UTC with microseconds.

Why the salt: every reader of the table talk sees the hash of the message before the one they read
(its prev_hash), private ones included, and a short private message ("yes", "I attack green")
could be found from its hash by trying likely words. In version 1 the salt comes from the seed,
which is revealed at the end of the game: from then on, a private message that stays private (the
host's option `press_public_after_end` off) can be guessed from its hash. In version 2 the salt is
random and given only to those who may read the message (its sender and recipients, in their
export; everybody once the host made the talk public after the end): nobody else can ever test a
guess, nor compute the salt. And a version-2 private message hashes only its number and hidden
digest, so an export lists the links of the messages its reader may not read
(`press_hidden`: number, prev_hash, hash, hidden_digest — not who talked, to whom, when or what)
and every link of the table talk can be checked by anybody.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from games.record.hashchain import canonical_json

Words = str | dict[str, str]


def hashed_words(text: str, sealed: str = "", words: str = "") -> Words:
    """What the chain hashes for a message's words: `text` for a message written before talk
    was sealed (`sealed` ""), else {"sealed": sealed, "words": words} (`words`: its
    `words_digest`)."""
    return {"sealed": sealed, "words": words} if sealed else text


def words_digest(words_salt: str, text: str) -> str:
    """A sealed message's words digest (64 hex digits): HMAC-SHA256 of `text` keyed with its
    `words_salt` (32 hex digits, sealed with the words)."""
    return hmac.new(words_salt.encode("ascii"), text.encode("utf-8"), hashlib.sha256).hexdigest()


def _stored_words(message: Any) -> Words:
    return hashed_words(message.text, getattr(message, "sealed", ""), getattr(message, "words_digest", ""))


def press_salt(seed: str, number: int, recipients: list[Any] | None) -> str:
    """The version-1 salt of message `number`: "" for a message to the whole table (recipients
    None), else a keyed hash of the game's secret seed (64 hex digits)."""
    if recipients is None:
        return ""
    return hmac.new(seed.encode("utf-8"), f"inis-press-salt:{number}".encode(), hashlib.sha256).hexdigest()


def new_salt() -> str:
    """A version-2 private message's salt: 32 random bytes (`secrets`), 64 hex digits."""
    return secrets.token_hex(32)


def timestamp(moment: datetime) -> str:
    """`moment` as the chain hashes it: ISO 8601, UTC, microseconds ("2026-05-01T10:00:00.000000+00:00")."""
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def message_hash(
    prev_hash: str,
    *,
    number: int,
    at_seq: int,
    sender: str,
    recipients: list[Any] | None,
    text: Words,
    sent_at: datetime | str,
    salt: str = "",
) -> str:
    """The 64-hex-digit hash of a message to the whole table (any version; no salt), or of a
    private message of version 1 (with `press_salt`), chained to `prev_hash` (see the module
    docstring). `text`: `hashed_words`. `sent_at`: a datetime or `timestamp`'s text. Raises TypeError / ValueError for
    values JSON cannot carry."""
    body: list[Any] = ["press", number, at_seq, sender, recipients, text, _text(sent_at)]
    if salt:
        body.append(salt)
    return hashlib.sha256((prev_hash + canonical_json(body)).encode("utf-8")).hexdigest()


def hidden_digest(
    salt: str, *, at_seq: int, sender: str, recipients: list[Any], text: Words, sent_at: datetime | str
) -> str:
    """A version-2 private message's hidden digest (64 hex digits): HMAC-SHA256 keyed with its
    `salt` (`new_salt`) of everything about it but its number (`text`: `hashed_words`)."""
    message = canonical_json([at_seq, sender, recipients, text, _text(sent_at)]).encode("utf-8")
    return hmac.new(salt.encode("ascii"), message, hashlib.sha256).hexdigest()


def hidden_message_hash(prev_hash: str, *, number: int, hidden_digest: str) -> str:
    """The 64-hex-digit hash of a version-2 private message, from what every reader is shown."""
    return hashlib.sha256(
        (prev_hash + canonical_json(["press", number, hidden_digest])).encode("utf-8")
    ).hexdigest()


def message_digest(message: Any, *, chain_version: int) -> str | None:
    """The hidden digest of `message` (a `press.models.PressMessage`, its `salt` loaded) in a
    version-2 chain; None for a message to the whole table or a version-1 chain."""
    if chain_version < 2 or message.recipients is None:
        return None
    return hidden_digest(
        message.salt,
        at_seq=message.at_seq,
        sender=message.sender,
        recipients=message.recipients,
        text=_stored_words(message),
        sent_at=message.sent_at,
    )


def stored_hash(message: Any, *, seed: str, chain_version: int | None = None) -> str:
    """The hash a stored `press.models.PressMessage` should have, from its own prev_hash, in a
    chain of `chain_version` (None: its game's, `message.game.chain_version`)."""
    if chain_version is None:
        chain_version = message.game.chain_version
    digest = message_digest(message, chain_version=chain_version)
    if digest is not None:
        return hidden_message_hash(message.prev_hash, number=message.number, hidden_digest=digest)
    return message_hash(
        message.prev_hash,
        number=message.number,
        at_seq=message.at_seq,
        sender=message.sender,
        recipients=message.recipients,
        text=_stored_words(message),
        sent_at=message.sent_at,
        salt=press_salt(seed, message.number, message.recipients) if chain_version < 2 else "",
    )


def verify_chain(
    messages: Iterable[Any], *, seed: str, seed_commitment: str, chain_version: int | None = None
) -> list[str]:
    """Problems found in a game's whole table talk `messages` (`PressMessage`s in order of
    number) in a chain of `chain_version` (None: their game's), as sentences for the operator;
    [] when every message is where the chain says and none was edited."""
    problems: list[str] = []
    expected_prev = seed_commitment
    for expected_number, message in enumerate(messages, start=1):
        if message.number != expected_number:
            problems.append(f"message {expected_number} is missing (found {message.number})")
            break
        if message.prev_hash != expected_prev:
            problems.append(f"message {message.number} does not follow the one before it")
        if stored_hash(message, seed=seed, chain_version=chain_version) != message.hash:
            problems.append(f"message {message.number} was changed after it was written")
        expected_prev = message.hash
    return problems


def _text(sent_at: datetime | str) -> str:
    return sent_at if isinstance(sent_at, str) else timestamp(sent_at)


@dataclass
class TalkCheck:
    """What an export's table talk proved (`check_export`): `links` (messages in the chain, as
    far as the export shows), `checked` (links recomputed), `unchecked` (links that could not
    be: a version-1 private message without its salt, or one the reader may not read),
    `unconfirmed` (private messages shown whole whose words could not be checked against their
    hidden digest: no salt), `erased` (sealed messages whose words are gone: their author's key
    was destroyed; their links still check), `head` and `head_number` (the last hash reached and its message;
    the seed commitment and 0 for no message), and one sentence per problem."""

    links: int = 0
    checked: int = 0
    unchecked: int = 0
    unconfirmed: int = 0
    erased: int = 0
    head: str = ""
    head_number: int = 0
    problems: list[str] = field(default_factory=list)


def check_export(
    entries: list[dict[str, Any]],
    proofs: list[dict[str, Any]],
    hidden: list[dict[str, Any]],
    *,
    seed_commitment: str,
    chain_version: int,
    seed: str | None,
) -> TalkCheck:
    """Check the table talk of an export (its "press" list, and its "proofs"' "press" and
    "press_hidden" lists: games.store.exports) with no database: numbers without a gap (version 2:
    readable and hidden links together), each prev_hash the hash before it, each hash
    recomputed from what the entry shows and its proof, each private message's words against
    its hidden digest when its salt is there (`seed`: the revealed seed, which gives version-1
    salts). Never raises for a bad record: problems are
    sentences of the result; raises KeyError / TypeError for entries without the fields."""
    check = TalkCheck(head=seed_commitment)
    by_number = {proof["number"]: proof for proof in proofs}
    problems = check.problems
    merged = sorted(
        [(entry["number"], False, entry) for entry in entries]
        + [(entry["number"], True, entry) for entry in hidden],
        key=lambda item: item[0],
    )
    prev_hash: str | None = seed_commitment
    expected = 1
    for number, is_hidden, entry in merged:
        if number < expected:
            problems.append(f"message {number} is listed twice")
            continue
        if number > expected:
            missing = number - expected
            if chain_version >= 2:
                problems.append(f"message {expected} is missing (found {number})")
            else:  # a message the reader may not read: version 1 cannot prove that link
                check.unchecked += missing
            check.links += missing
            prev_hash = None
        check.links += 1
        if prev_hash is not None and entry["prev_hash"] != prev_hash:
            problems.append(f"message {number} does not follow the one before it")
        computed = _entry_hash(entry, by_number.get(number, {}), is_hidden, chain_version, seed, check)
        if computed is None:
            check.unchecked += 1
        else:
            check.checked += 1
            if computed != entry["hash"]:
                problems.append(
                    f"message {number} does not match its hash: it was changed after it was written"
                )
        prev_hash, expected = entry["hash"], number + 1
        check.head, check.head_number = entry["hash"], number
    return check


def _entry_words(entry: dict[str, Any], check: TalkCheck) -> Words:
    """What the chain hashes for `entry`'s words; for a sealed message, its words are checked
    against its words digest when shown (a problem when they differ), or counted erased."""
    sealed = entry.get("sealed") or ""
    if not sealed:
        return str(entry["text"])
    digest = str(entry.get("words_digest") or "")
    if entry.get("text") is None or not entry.get("words_salt"):
        check.erased += 1
    elif words_digest(entry["words_salt"], entry["text"]) != digest:
        check.problems.append(
            f"message {entry['number']} does not match its hash: its words are not the ones sealed"
        )
    return hashed_words("", sealed, digest)


def _entry_hash(
    entry: dict[str, Any],
    proof: dict[str, Any],
    is_hidden: bool,
    chain_version: int,
    seed: str | None,
    check: TalkCheck,
) -> str | None:
    """The hash `entry` should have, from what it shows and its proof; None when that cannot be
    computed."""
    if is_hidden:
        return hidden_message_hash(
            entry["prev_hash"], number=entry["number"], hidden_digest=entry["hidden_digest"]
        )
    fields: dict[str, Any] = {k: entry[k] for k in ("at_seq", "sender", "recipients", "sent_at")}
    fields["text"] = _entry_words(entry, check)
    if entry["recipients"] is None:
        return message_hash(entry["prev_hash"], number=entry["number"], **fields)
    if chain_version < 2:
        salt = (
            press_salt(seed, entry["number"], entry["recipients"]) if seed is not None else proof.get("salt")
        )
        if not salt:
            return None
        return message_hash(entry["prev_hash"], number=entry["number"], salt=salt, **fields)
    digest = proof.get("hidden_digest")
    if not isinstance(digest, str):
        check.problems.append(f"message {entry['number']} is private but carries no hidden digest")
        return None
    if proof.get("salt"):
        if hidden_digest(proof["salt"], **fields) != digest:
            check.problems.append(f"message {entry['number']}: its words do not match its hidden digest")
    else:
        check.unconfirmed += 1
    return hidden_message_hash(entry["prev_hash"], number=entry["number"], hidden_digest=digest)
