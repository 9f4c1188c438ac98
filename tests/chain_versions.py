"""Records as older code wrote them, and forgeries of exports, for the tests of the hash chains.

`as_version_1(game)` rewrites a game's event log and table talk as chain version 1 wrote them
(and records the version), which is what a game created before version 2 holds; `forge_seats`
is the forgery of the trust issue: GameStarted's seats reversed in an export, and the chain
re-hashed from there, as far as the forger can (`to_the_end`) or up to the first link it cannot
compute, where the chain rejoins the original one.
"""

from __future__ import annotations

import copy
from contextlib import contextmanager

from django.db import connection

from games.models import Event, Game
from games.record.hashchain import chained_hash, event_hash, link_hash
from games.record.talk_chain import hashed_words, words_digest
from press.chain import hidden_message_hash, message_hash, press_salt
from press.models import PressMessage

APPEND_ONLY_TABLES = ("games_event", "press_pressmessage")


@contextmanager
def unprotected_tables():
    """Within: the append-only tables accept UPDATE (PostgreSQL's triggers are disabled), to
    write a record as older code wrote it."""
    postgres = connection.vendor == "postgresql"
    if postgres:
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
            for table in APPEND_ONLY_TABLES:
                cursor.execute(f"ALTER TABLE {table} DISABLE TRIGGER USER")
    try:
        yield
    finally:
        if postgres:
            with connection.cursor() as cursor:
                for table in APPEND_ONLY_TABLES:
                    cursor.execute(f"ALTER TABLE {table} ENABLE TRIGGER USER")


def as_version_1(game: Game) -> Game:
    """Rewrite `game`'s hashes as chain version 1 made them (events, then table talk: private
    messages salted from the seed, no stored salt) and record version 1; returns the game
    reloaded."""
    with unprotected_tables():
        prev = game.seed_commitment
        for row in Event.objects.filter(game=game).order_by("seq"):
            digest = chained_hash(
                prev,
                chain_version=1,
                seed=game.seed,
                seq=row.seq,
                type=row.type,
                version=row.version,
                payload=row.payload,
                visibility=row.visibility,
            )
            Event.objects.filter(pk=row.pk).update(prev_hash=prev, hash=digest)
            prev = digest
        prev = game.seed_commitment
        for message in PressMessage.objects.filter(game=game).order_by("number"):
            digest = message_hash(
                prev,
                number=message.number,
                at_seq=message.at_seq,
                sender=message.sender,
                recipients=message.recipients,
                text=hashed_words(message.text, message.sealed, message.words_digest),
                sent_at=message.sent_at,
                salt=press_salt(game.seed, message.number, message.recipients),
            )
            PressMessage.objects.filter(pk=message.pk).update(prev_hash=prev, hash=digest, salt="")
            prev = digest
        Game.objects.filter(pk=game.pk).update(chain_version=1)
    game.refresh_from_db()
    return game


def forge_seats(export: dict, *, to_the_end: bool = False) -> dict:
    """A copy of `export` with GameStarted's seats reversed and the hashes recomputed from there
    with what the export shows (each entry's payload, or its proof's public part and hidden
    digest). The forger stops at the first link it cannot compute — a private event of a
    version-1 chain without its salt — and leaves that event's hash as it was, so that the rest
    of the chain is the original one; with `to_the_end`, a version-2 chain is re-hashed whole."""
    forged = copy.deepcopy(export)
    version = forged["game"].get("chain_version", 1)
    proofs = {p["seq"]: p for p in (forged.get("proofs") or {}).get("events", [])}
    events = forged["events"]
    start = next(e for e in events if e["type"] == "GameStarted")
    start["payload"]["seats"] = list(reversed(start["payload"]["seats"]))
    prev = start["prev_hash"]
    for entry in events[start["seq"] - 1 :]:
        entry["prev_hash"] = prev
        proof = proofs.get(entry["seq"])
        if version >= 2 and proof is not None and "hidden_digest" in proof:
            digest = link_hash(
                prev,
                seq=entry["seq"],
                type=entry["type"],
                version=entry["version"],
                public=proof["public"],
                hidden_digest=proof["hidden_digest"],
            )
            if not to_the_end:
                return forged  # a forger who believes a private link cannot be checked stops here
        elif entry["redacted"] or entry["visibility"] is not None:
            if not (proof and proof.get("salt")):
                return forged  # cannot be recomputed: keep its hash, the chain rejoins
            digest = event_hash(
                prev,
                seq=entry["seq"],
                type=entry["type"],
                version=entry["version"],
                payload=entry["payload"],
                visibility=entry["visibility"],
                salt=proof["salt"],
            )
        else:
            digest = link_hash(
                prev,
                seq=entry["seq"],
                type=entry["type"],
                version=entry["version"],
                public=entry["payload"],
                hidden_digest=None,
            )
        entry["hash"] = prev = digest
    return forged


def _forged_words(entry: dict) -> str | dict[str, str]:
    """What the chain hashes for `entry`'s words as shown, the words digest recomputed with the
    salt the export gives the reader (a forger who edited the words)."""
    if not entry.get("sealed"):
        return entry["text"]
    entry["words_digest"] = words_digest(entry["words_salt"], entry["text"])
    return hashed_words(entry["text"], entry["sealed"], entry["words_digest"])


def rehash_talk(export: dict, *, after: int) -> dict:
    """A copy of `export` whose table talk is re-hashed from message `after` + 1 on, with what
    the export shows (version 2: every link), as a forger who edited message `after` + 1 would."""
    forged = copy.deepcopy(export)
    proofs = forged["proofs"]
    digests = {p["number"]: p.get("hidden_digest") for p in proofs["press"] + proofs["press_hidden"]}
    entries = sorted(forged["press"] + proofs["press_hidden"], key=lambda e: e["number"])
    prev = next((e["hash"] for e in entries if e["number"] == after), forged["game"]["seed_commitment"])
    for entry in entries:
        if entry["number"] <= after:
            continue
        entry["prev_hash"] = prev
        if digests.get(entry["number"]):
            entry["hash"] = hidden_message_hash(
                prev, number=entry["number"], hidden_digest=digests[entry["number"]]
            )
        else:
            entry["hash"] = message_hash(
                prev,
                number=entry["number"],
                at_seq=entry["at_seq"],
                sender=entry["sender"],
                recipients=entry["recipients"],
                text=_forged_words(entry),
                sent_at=entry["sent_at"],
            )
        prev = entry["hash"]
    return forged
