"""Table talk by email: each message goes to the seats that may read it, as their players chose.

A message reaches every player seat that may read it (`press.selectors.may_read`) but its
sender's and those whose player blocked its sender (`press.muting`), in the transaction that
stored it:

- a player who turned news off (the one-click unsubscribe, `Player.news`) gets no email: the
  message waits on their game page;
- a player who takes a daily digest (`Player.Delivery.DIGEST`) gets it as a line of the digest
  (a `NewsItem`), or of their next prompt if that comes first (`press.waiting_talk`);
- everybody else gets it at once, in an email of its own (`Outbox.Kind.PRESS`), in the game's
  thread, whose Reply-To is the seat's reply address (so "say: ..." answers it).

Bot seats get nothing. Nothing here reads another seat's hand: an email holds the message, its
sender and the game's links for the recipient's own seat. Each reader gets it in their own
language (`Player.language`): the email, and the digest line as it is stored. Its author and
whom it was written to are named as the table names them (`press.addressees`: "Ann (blue)",
"you"), by the seats' names when it is written, in the reader's language.
"""

from __future__ import annotations

from collections.abc import Collection

from django.utils import translation
from django.utils.translation import gettext as _

from games.models import Game, Seat
from games.play.models import SeatClock
from games.rules import players_named
from games.store.selectors import FINGERPRINT_DIGITS
from notifications import outbox, prompts
from notifications.models import NewsItem, Outbox
from players import preferences
from players.display_names import seat_names_in
from players.models import Player
from press.addressees import addressee_list, party_words
from press.models import PressMessage
from press.muting import mutes
from press.selectors import may_read, told


def line_for(message: PressMessage, colour: str, *, named: Collection[str] | None = None) -> str:
    """One line telling `colour` the message, in the active language, its parties named as the
    caller's `rules.players_named` names them (`press.addressees`): "Ann (blue) to everyone:
    “...”", "Ann (blue) to you and Bob (red): “...”"; their colours alone without names
    ("blue to you: “...”"; French: "Ann (bleu) à tous : « ... »"). named: the colours whose
    seat's name names who held it when the message was written (`press.addressees.party_words`):
    None, all of them, for a line written as the message is relayed; a line written later, when
    a seat may have changed hands since, passes `press.selectors.named_parties`."""
    sender = party_words(message.sender, reader=colour, named=named)
    if message.recipients is None:
        said = _("{sender} to everyone").format(sender=sender)
    else:
        who = addressee_list(message.recipients, colour, named=named)
        said = _("{sender} to {who}").format(sender=sender, who=who)
    return _words_after(said, message.text)


def _words_after(said: str, text: str) -> str:
    """ "<said>: “<text>”" in the active language (French: "<said> : « <text> »"), the words
    `told`."""
    return _("{said}: “{text}”").format(said=said, text=told(text))


def press_email(
    recipient: prompts.Recipient, message: PressMessage, *, reply_seq: int, names: dict[str, str]
) -> prompts.RenderedEmail:
    """The email relaying `message` to `recipient` (who may read it). reply_seq: the seq its
    Reply-To carries (the seat's open decision, else the log's length); names: {colour: name}
    of the game's seats in the recipient's language (`players.display_names.seat_names`). Written
    in the recipient's language, its author and the others it was written to named as the table
    names them ("Ann (blue)", `press.addressees`). Its subject says who wrote and whether
    privately, never what: a subject shows on lock screens and in notifications ("Private
    message from Ann (green) — Inis 12"). Its body names the table talk's fingerprint at this
    message (the first FINGERPRINT_DIGITS hex digits of its hash), which `python -m
    games.verify --talk` checks an export still holds."""
    others = [c for c in (message.recipients or []) if c != recipient.colour]
    with translation.override(recipient.language), players_named(names):
        context = {
            "r": recipient,
            "game_id": recipient.game_id,
            "colour": recipient.colour,
            # The colour stays for "tell <colour>:", the words a reply is read by.
            "sender": message.sender,
            "author": party_words(message.sender, reader=recipient.colour),
            "private": message.recipients is not None,
            "others": addressee_list(others, recipient.colour),
            "text": message.text,
            "seat_url": prompts.seat_url(recipient.game_id, recipient.seat_id, recipient.seat_token),
            "history_url": prompts.seat_url(
                recipient.game_id, recipient.seat_id, recipient.seat_token, history=True
            ),
            "links": prompts.player_urls(recipient.player_id),
            "fingerprint": prompts.fingerprint(recipient),
            # The table talk's own fingerprint at this message (its hash, short as the log's).
            "talk_fingerprint": message.hash[:FINGERPRINT_DIGITS],
        }
        return prompts.render_email(
            "press", context, headers=prompts.mail_headers(recipient, reply_seq=reply_seq)
        )


def relay(message: PressMessage, *, game: Game) -> int:
    """Relay `message` (just stored) to its readers (see the module docstring), in the caller's
    transaction; returns how many emails were written (digest lines not counted)."""
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    sender = next((s for s in seats if s.colour == message.sender), None)
    readers = []
    for seat in seats:
        if seat.is_bot or not seat.email or seat.colour == message.sender:
            continue
        # Written now: whoever holds the seat now is who it was written to.
        if not may_read(message, seat.colour, game=game, holding=None) or mutes(seat, sender):
            continue
        player = preferences.player_for(seat.email)
        if player.news:
            readers.append((seat, player))
    # The seats' names in each reader's language, in one query: a bot's name is a word of it.
    names = seat_names_in(seats, {player.language for _seat, player in readers}) if readers else {}
    written = 0
    for seat, player in readers:
        if player.delivery == Player.Delivery.DIGEST:
            with translation.override(player.language), players_named(names[player.language]):
                text = line_for(message, seat.colour)
            NewsItem.objects.create(game=game, seat=seat, seq=message.at_seq, text=text)
            continue
        clock = SeatClock.objects.filter(seat=seat).values_list("seq", flat=True).first()
        reply_seq = clock if clock is not None else message.at_seq
        email = press_email(
            prompts.Recipient.of(seat, player), message, reply_seq=reply_seq, names=names[player.language]
        )
        outbox.enqueue(
            kind=Outbox.Kind.PRESS, to_email=seat.email, email=email, seq=message.at_seq, game=game, seat=seat
        )
        written += 1
    return written
