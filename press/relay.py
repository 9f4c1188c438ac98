"""Table talk by email: each message goes to the seats that may read it, as their players chose.

A message reaches every player seat that may read it (`press.selectors.may_read`) but its
sender's and those whose player blocked its sender (`press.muting`), in the transaction that
stored it:

- a player who turned news off (the one-click unsubscribe, `Player.news`) gets no email: the
  message waits on their game page;
- a player who takes a daily digest (`Player.Delivery.DIGEST`) gets it as a line of the digest
  (a `NewsItem`), or of their next prompt if that comes first (`waiting_lines`);
- everybody else gets it at once, in an email of its own (`Outbox.Kind.PRESS`), in the game's
  thread, whose Reply-To is the seat's reply address (so "say: ..." answers it).

Bot seats get nothing. Nothing here reads another seat's hand: an email holds the message, its
sender and the game's links for the recipient's own seat. Each reader gets it in their own
language (`Player.language`): the email, and the digest line as it is stored.
"""

from __future__ import annotations

from django.utils import translation
from django.utils.translation import gettext as _

from games.models import Game, Seat
from games.play.departures import current_holding
from games.play.models import SeatClock
from games.rules import colour_name
from games.store.selectors import FINGERPRINT_DIGITS
from notifications import outbox, prompts
from notifications.models import NewsItem, Outbox
from players import preferences
from players.models import Player
from press.addressees import addressee_list
from press.models import PressMessage
from press.muting import mutes
from press.sealing import open_all
from press.selectors import may_read


def line_for(message: PressMessage, colour: str) -> str:
    """One line telling `colour` the message, in the active language: "blue to everyone: “...”" /
    "blue to you: “...”" (French: "bleu à tous : « ... »")."""
    if message.recipients is None:
        return _("{sender} to everyone: “{text}”").format(
            sender=colour_name(message.sender), text=message.text
        )
    return _("{sender} to {who}: “{text}”").format(
        sender=colour_name(message.sender), who=addressee_list(message.recipients, colour), text=message.text
    )


def press_email(
    recipient: prompts.Recipient, message: PressMessage, *, reply_seq: int
) -> prompts.RenderedEmail:
    """The email relaying `message` to `recipient` (who may read it). reply_seq: the seq its
    Reply-To carries (the seat's open decision, else the log's length). Written in the
    recipient's language. Its subject says who wrote and whether privately, never what: a
    subject shows on lock screens and in notifications ("Private message from green — Inis
    12"). Its body names the table talk's fingerprint at this message (the first
    FINGERPRINT_DIGITS hex digits of its hash), which `python -m games.verify --talk` checks
    an export still holds."""
    context = {
        "r": recipient,
        "game_id": recipient.game_id,
        "colour": recipient.colour,
        "sender": message.sender,
        "private": message.recipients is not None,
        "others": [c for c in (message.recipients or []) if c != recipient.colour],
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
    with translation.override(recipient.language):
        return prompts.render_email(
            "press", context, headers=prompts.mail_headers(recipient, reply_seq=reply_seq)
        )


def relay(message: PressMessage, *, game: Game) -> int:
    """Relay `message` (just stored) to its readers (see the module docstring), in the caller's
    transaction; returns how many emails were written (digest lines not counted)."""
    written = 0
    seats = list(Seat.objects.filter(game=game).order_by("position"))
    sender = next((s for s in seats if s.colour == message.sender), None)
    for seat in seats:
        if seat.is_bot or not seat.email or seat.colour == message.sender:
            continue
        # Written now: whoever holds the seat now is who it was written to.
        if not may_read(message, seat.colour, game=game, holding=None) or mutes(seat, sender):
            continue
        player = preferences.player_for(seat.email)
        if not player.news:
            continue
        if player.delivery == Player.Delivery.DIGEST:
            with translation.override(player.language):
                text = line_for(message, seat.colour)
            NewsItem.objects.create(game=game, seat=seat, seq=message.at_seq, text=text)
            continue
        clock = SeatClock.objects.filter(seat=seat).values_list("seq", flat=True).first()
        reply_seq = clock if clock is not None else message.at_seq
        email = press_email(prompts.Recipient.of(seat, player), message, reply_seq=reply_seq)
        outbox.enqueue(
            kind=Outbox.Kind.PRESS, to_email=seat.email, email=email, seq=message.at_seq, game=game, seat=seat
        )
        written += 1
    return written


def waiting_lines(seat: Seat, player: Player) -> list[str]:
    """The seat's table-talk lines still waiting for its digest (unmailed `NewsItem`s that are
    talk), oldest first: a prompt that goes out before the digest tells them, since it marks
    every waiting line mailed. Only the talk its player now may read: a line written for the
    player before them (the seat changed hands since) is not theirs. No query for a player
    without a digest (the usual case): only digests hold talk back."""
    if player.delivery != Player.Delivery.DIGEST:
        return []
    waiting = list(NewsItem.objects.filter(seat=seat, mailed_at__isnull=True).order_by("seq", "id"))
    if not waiting:
        return []
    holding = current_holding(seat)
    with translation.override(player.language):  # as `relay` wrote them
        talk = {
            line_for(m, seat.colour)
            for m in open_all(PressMessage.objects.filter(game_id=seat.game_id, at_seq__gte=waiting[0].seq))
            if m.sender != seat.colour
            and not m.erased
            and may_read(m, seat.colour, game=seat.game, holding=holding)
        }
    return [item.text for item in waiting if item.text in talk]
