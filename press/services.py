"""Writes of table talk: a player sends a message to the whole table or to one player.

`press_send` is the one door in, for every channel (an email reply, the game page's form): it
checks the message, seals it under its author's key (`press.sealing`), appends it to the game's
press log (hash-chained over the sealed text, `press.chain`) under the game's row lock, and relays it to its recipients (`press.relay`), all in one transaction. A
refused message is answered with a `PressRefused` whose text a player can act on, and nothing is
stored nor sent (docs/press.md).
"""

from __future__ import annotations

import re
import time

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.formats import number_format
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games import store
from games.models import Game, Seat
from games.rules import colour_name
from notifications.command_language.words import SEAT_WORDS, fold
from press.chain import new_salt, stored_hash
from press.models import PressMessage
from press.relay import relay
from press.sealing import author_key, seal

# The longest message, in characters (docs/press.md): a long letter, not a book.
MAX_CHARS = 2000
# Messages one seat may send in a clock hour (docs/press.md); settings.PRESS_MESSAGES_PER_HOUR
# overrides it.
DEFAULT_PER_HOUR = 30
# Words that name the whole table after "tell" / "dire à".
EVERYONE_WORDS = frozenset({"all", "everyone", "everybody", "table", "tous", "toutes", "tout", "monde"})
# Control characters (but tab and line ends) are dropped: no mail or page shows them, and
# PostgreSQL text refuses NUL.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


class PressRefused(ValueError):
    """A message that cannot be sent; str() is the reason, a sentence for the player who wrote
    it (the caller says that nothing was sent), in the language active when it was raised."""


def per_hour() -> int:
    """Messages a seat may send per clock hour."""
    return int(getattr(settings, "PRESS_MESSAGES_PER_HOUR", DEFAULT_PER_HOUR))


def _rate_key(seat: Seat) -> str:
    return f"press:sent:{seat.pk}:{int(time.time() // 3600)}"


def recipient_colour(game: Game, sender: Seat, to: str | None) -> str | None:
    """The colour `to` names (a colour in English or French, any case; None or a word for the
    whole table gives None). Raises PressRefused for a word that is no colour at this table, the
    sender's own colour, or a bot's seat (a bot reads no table talk)."""
    if to is None or fold(to).strip() in EVERYONE_WORDS:
        return None
    colour = SEAT_WORDS.get(fold(to).strip())
    at_table = [s.colour for s in game.seats.all()]
    if colour is None or colour not in at_table:
        others = ", ".join(colour_name(c) for c in at_table if c != sender.colour)
        raise PressRefused(
            _("There is no “{word}” at this table: you may write to {others}, or to everyone.").format(
                word=to[:30], others=others
            )
        )
    if colour == sender.colour:
        raise PressRefused(
            _("That message was written to yourself: write to another colour, or to everyone.")
        )
    if any(s.colour == colour and s.is_bot for s in game.seats.all()):
        raise PressRefused(
            _(
                "{colour} is played by a bot, which reads no table talk: write to a player, or to everyone."
            ).format(colour=colour_name(colour))
        )
    return colour


def clean_text(text: str) -> str:
    """The text as stored: control characters dropped, line ends made "\\n", blank lines around
    it removed. Raises PressRefused when nothing is left or it is longer than MAX_CHARS."""
    text = CONTROL.sub("", (text or "").replace("\r\n", "\n").replace("\r", "\n")).strip()
    if not text:
        raise PressRefused(_("It is empty."))
    if len(text) > MAX_CHARS:
        raise PressRefused(
            _(
                "It is {length} characters long, and the limit is {limit}: shorten it, or send it in parts."
            ).format(
                length=number_format(len(text), force_grouping=True),
                limit=number_format(MAX_CHARS, force_grouping=True),
            )
        )
    return text


def _still_theirs(seat: Seat) -> Seat:
    """`seat` read again under the game's lock (the caller read it before): the same player's
    seat still, or PressRefused. An erasure or a hand-over that committed meanwhile (docs/
    privacy.md: a post "finds the seat left after") gives the seat to the bot or another person;
    talk posted then would be a bot's, under a key nobody could shred."""
    now = Seat.objects.select_for_update().get(pk=seat.pk)
    if now.is_bot or now.left_at is not None or (now.user_id, now.email) != (seat.user_id, seat.email):
        raise PressRefused(_("You do not have a seat at this table, so you cannot talk at it."))
    return now


def press_send(*, game: Game, seat: Seat, to: str | None, text: str) -> PressMessage:
    """Send `text` from `seat` to the colour `to` (None: the whole table) in `game`: append it to
    the press log and relay it (emails, digests: `press.relay.relay`); returns the new message.

    Locks the game's row (SELECT ... FOR UPDATE, the store's lock order: the game first) so that
    numbers and the chain stay in order; runs in the caller's transaction or its own.
    Raises PressRefused (nothing stored, nothing sent) when: the seat is not a player's seat of
    this game (read again under the lock: an erasure or a hand-over may have committed since the
    caller read it); the game is over; `to` is no other colour at this table; the text is empty or
    longer than MAX_CHARS; the seat sent `per_hour()` messages this hour already.
    """
    if seat.game_id != game.pk or seat.is_bot:
        raise PressRefused(_("You do not have a seat at this table, so you cannot talk at it."))
    text = clean_text(text)
    to_colour = recipient_colour(game, seat, to)
    limit = per_hour()
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)
        if game.is_over:
            raise PressRefused(_("This game is over: table talk is closed."))
        seat = _still_theirs(seat)
        if (cache.get(_rate_key(seat)) or 0) >= limit:
            raise PressRefused(
                ngettext(
                    "You have sent {limit} message this hour, the most a player may: try again in the "
                    "next hour.",
                    "You have sent {limit} messages this hour, the most a player may: try again in the "
                    "next hour.",
                    limit,
                ).format(limit=limit)
            )
        at_seq, _head_hash = store.head(game)
        last = PressMessage.objects.filter(game=game).aggregate(n=Max("number"))["n"] or 0
        previous = (
            PressMessage.objects.filter(game=game, number=last).values_list("hash", flat=True).first()
            if last
            else game.seed_commitment
        )
        recipients = None if to_colour is None else [to_colour]
        sent_at = timezone.now()
        number = last + 1
        key = author_key(game=game, seat=seat)
        sealed = seal(text, key=key, game_id=game.pk, number=number)
        message = PressMessage(
            game=game,
            number=number,
            at_seq=at_seq,
            sender=seat.colour,
            recipients=recipients,
            text="",
            sealed=sealed.sealed,
            words_digest=sealed.words_digest,
            key=key,
            sent_at=sent_at,
            prev_hash=previous,
            salt=new_salt() if recipients is not None and game.chain_version >= 2 else "",
        )
        message.hash = stored_hash(message, seed=game.seed, chain_version=game.chain_version)
        message.save(force_insert=True)
        message.text = text  # the words, in memory only, for the relay and the caller
        relay(message, game=game)
    if cache.add(_rate_key(seat), 1, timeout=3700) is False:
        try:
            cache.incr(_rate_key(seat))
        except ValueError:  # the count expired in between
            cache.add(_rate_key(seat), 1, timeout=3700)
    return message
