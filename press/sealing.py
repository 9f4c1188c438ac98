"""Sealed table talk: each author's words in a game encrypted under a key of their own, which
erasure destroys (crypto-shredding, docs/privacy.md).

A message is sealed with AES-GCM (`cryptography`'s AEAD) under its author's `TalkKey` for the
game: 32 random bytes, one key per (seat, account), kept in its own table, outside the talk's
log and its hash chain. What is stored and hashed is `sealed`: base64 of a 12-byte random nonce
followed by the ciphertext and its 16-byte tag of the words salt (32 hex digits: 16 random
bytes) and the words, and the words digest (HMAC-SHA256 of the words keyed with that salt,
`press.chain.words_digest`), by which a reader shown the words checks them offline; the
associated data binds the ciphertext to its place
("inis-press:<game id>:<number>"), so a sealed text moved to another message does not open.
Reading opens it in memory (`open_all`); once the key is shredded (`shred_keys`), the words
cannot be read by anybody, the service included, and every hash still checks, since the chain
covers the ciphertext, never the words (games.record.talk_chain).

The keys also say who held a seat when: a seat that changes hands gives its outgoing player a key
if they have none for their time at it (`key_for_outgoing_player`), so that their archive keeps
what they did and read there (`held_at`, docs/press.md, "When a seat changes hands").
"""

from __future__ import annotations

import base64
import os
import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from django.utils import timezone

from games.models import Game, Seat
from games.play.departures import held_since
from players.personal_data import Person
from press.chain import words_digest
from press.models import PressMessage, TalkKey

NONCE_BYTES = 12
# The words salt: 16 random bytes as 32 hex digits, the first characters of the sealed text.
SALT_DIGITS = 32


@dataclass(frozen=True)
class Sealed:
    """A message's words as stored: `sealed` (base64 of nonce + ciphertext + tag) and
    `words_digest` (64 hex digits)."""

    sealed: str
    words_digest: str


def _associated_data(game_id: int, number: int) -> bytes:
    return f"inis-press:{game_id}:{number}".encode("ascii")


def author_key(*, game: Game, seat: Seat) -> TalkKey:
    """The live key of the person now playing `seat` in `game`, made (32 random bytes) on their
    first message. Inside the caller's transaction, which holds the game's row lock."""
    key = (
        TalkKey.objects.filter(game=game, seat=seat, user=seat.user, secret__isnull=False)
        .order_by("pk")
        .first()
    )
    if key is None:
        key = TalkKey.objects.create(
            game=game, seat=seat, user_id=seat.user_id, secret=AESGCM.generate_key(bit_length=256)
        )
    return key


def key_for_outgoing_player(sender, instance: Seat, update_fields=None, **kwargs) -> None:
    """Before a seat changes hands (`games.play.table.seat_replace`; a `pre_save` receiver of
    `Seat`): its outgoing player gets a talk key for it, made now unless they have one made since
    it last changed hands. The keys are the record of who held a seat: the table log says when it
    changed hands, never to whom, and a player who never wrote would otherwise leave no trace of
    their time at it, whose moves and talk their archive keeps (`held_at`,
    `games.play.departures.holdings`). Nothing for a new seat, a save that keeps its player, or a
    player erasing their account (`Seat.left_at`: their keys are destroyed next). In the caller's
    transaction."""
    if instance.pk is None or instance.left_at is not None:
        return
    if update_fields is not None and "user" not in update_fields:
        return
    outgoing = Seat.objects.filter(pk=instance.pk).values_list("user_id", flat=True).first()
    if outgoing is None or outgoing == instance.user_id:
        return
    since = held_since(instance.game_id, instance.colour)
    keys = TalkKey.objects.filter(seat_id=instance.pk, user_id=outgoing, secret__isnull=False)
    if since is None:
        traced = keys.exists()
    else:
        traced = (
            keys.filter(created_at__gt=since).exists()
            or PressMessage.objects.filter(key__in=keys, sent_at__gt=since).exists()
        )
    if not traced:
        TalkKey.objects.create(
            game_id=instance.game_id,
            seat_id=instance.pk,
            user_id=outgoing,
            secret=AESGCM.generate_key(bit_length=256),
        )


def held_at(person: Person) -> list[tuple[int, datetime]]:
    """(seat id, moment) pairs at which `person` held a seat, from their live talk keys (made on
    their first message there, or as they handed it over) and their messages: the talk's traces
    for `games.play.departures.holdings` (registered with `register_traces`)."""
    keys = TalkKey.objects.filter(user_id=person.user_id, secret__isnull=False)
    written = PressMessage.objects.filter(key__in=keys).values_list("key__seat_id", "sent_at")
    return [*keys.values_list("seat_id", "created_at"), *written]


def seal(text: str, *, key: TalkKey, game_id: int, number: int) -> Sealed:
    """`text` sealed under `key` as message `number` of game `game_id`, with a new words salt.
    Raises ValueError for a shredded key."""
    if key.secret is None:
        raise ValueError("this talk key was shredded: nothing can be sealed with it")
    salt = secrets.token_hex(SALT_DIGITS // 2)
    nonce = os.urandom(NONCE_BYTES)
    ciphertext = AESGCM(bytes(key.secret)).encrypt(
        nonce, (salt + text).encode("utf-8"), _associated_data(game_id, number)
    )
    return Sealed(
        sealed=base64.b64encode(nonce + ciphertext).decode("ascii"), words_digest=words_digest(salt, text)
    )


def unseal(sealed: str, *, secret: bytes, game_id: int, number: int) -> tuple[str, str]:
    """(words salt, words) of `sealed` (see `seal`). Raises ValueError when it does not open
    with `secret` at that place (a wrong key, or a text altered or moved)."""
    raw = base64.b64decode(sealed)
    try:
        opened = AESGCM(bytes(secret)).decrypt(
            raw[:NONCE_BYTES], raw[NONCE_BYTES:], _associated_data(game_id, number)
        )
    except InvalidTag:
        raise ValueError(f"message {number} of game {game_id} does not open with its key") from None
    words = opened.decode("utf-8")
    return words[:SALT_DIGITS], words[SALT_DIGITS:]


def open_all(messages: Iterable[PressMessage]) -> list[PressMessage]:
    """`messages` with the words of each sealed one in `text` and their salt in `words_salt`
    (in memory; one query for their keys). A message whose key was shredded gets `text` "" and `erased` True. Returns them as a
    list, in the order given. Raises ValueError for a sealed text that does not open with its
    live key (an edit behind the service's back)."""
    messages = list(messages)
    key_ids = {m.key_id for m in messages if m.sealed and m.key_id is not None}
    by_key = dict(TalkKey.objects.filter(pk__in=key_ids).values_list("pk", "secret")) if key_ids else {}
    for message in messages:
        if not message.sealed:
            continue
        secret = by_key.get(message.key_id) if message.key_id is not None else None
        if secret is None:
            message.text, message.erased = "", True
        else:
            message.words_salt, message.text = unseal(
                message.sealed, secret=bytes(secret), game_id=message.game_id, number=message.number
            )
    return messages


def shred_keys(*, user_id: int) -> int:
    """Destroy every talk key of the account `user_id`: their table talk in every game can no
    longer be read. Returns how many keys were shredded. In the caller's transaction."""
    return TalkKey.objects.filter(user_id=user_id, secret__isnull=False).update(
        secret=None, user=None, shredded_at=timezone.now()
    )


def words_of(*, user_id: int) -> list[str]:
    """The words of every message the account `user_id` wrote and can still be read (sealed under
    their live keys): what erasure must also find in copies (emails, digest lines) before it
    shreds the keys."""
    messages = PressMessage.objects.filter(key__user_id=user_id, key__secret__isnull=False).order_by(
        "game_id", "number"
    )
    return [m.text for m in open_all(messages)]


def remember_words(person: Person) -> None:
    """Erasure's first step (`players.personal_data`): add to `person.words` the words of the
    talk they wrote that can still be read, so that the mail finds their copies; a message of
    several lines also as a digest's or a prompt's line holds it (`selectors.told`)."""
    from press.selectors import told  # the selectors read the talk through here

    words = words_of(user_id=person.user_id)
    person.words.extend(words)
    person.words.extend(told(text) for text in words if told(text) != text)


def shred_person(person: Person) -> None:
    """Erasure's step of the table talk: destroy every talk key of `person` (`shred_keys`)."""
    shred_keys(user_id=person.user_id)
