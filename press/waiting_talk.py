"""Table talk a prompt tells, kept as message numbers and opened when the prompt is written.

A player on the daily digest gets each message as a digest line (`press.relay`); a prompt that
goes out before the digest tells the lines waiting for it and marks them mailed. The prompt is
written at its delivery (`notifications.prompts_at_delivery`), maybe hours later: its row keeps
what it is written from, and that holds the waiting messages' numbers (`waiting_numbers`), never
their words. The words are opened when the prompt is written (`lines_of`), as every reader opens
them (`press.sealing.open_all`): a message whose author was erased meanwhile is no longer there
to be told, and no row waiting for its delivery holds a copy of its words (docs/privacy.md).
"""

from __future__ import annotations

from django.utils import translation

from games.models import Seat
from games.play.departures import current_holding
from notifications.models import NewsItem
from players.models import Player
from press.models import PressMessage
from press.relay import line_for
from press.sealing import open_all
from press.selectors import may_read, named_holdings, named_parties, told

# Stands for a message's words while finding how a talk line quotes them in a language.
_WORDS = "\x00"


def _quoted(message: PressMessage, colour: str) -> str:
    """How a talk line of `message` for `colour` ends, in the active language: its words in
    their quotes, after the colon ("“<words>”", French "« <words> »"), as `relay.line_for` writes
    them. Found by writing a line of stand-in words, so that the line's sender part, which
    names players by the names of the day, does not matter. The words as the line holds them
    (`selectors.told`)."""
    words = message.text
    message.text = _WORDS
    try:
        before, after = line_for(message, colour).rsplit(_WORDS, 1)
    finally:
        message.text = words
    return before[-2:] + told(words) + after


def _readable(seat: Seat, messages) -> list[PressMessage]:
    """`messages` (opened) that the seat's player now may read, from another seat, whose words
    are still there."""
    holding = current_holding(seat)
    return [
        m
        for m in messages
        if m.sender != seat.colour
        and not m.erased
        and may_read(m, seat.colour, game=seat.game, holding=holding)
    ]


def waiting_numbers(seat: Seat, player: Player) -> list[int]:
    """The numbers of the table-talk messages whose lines wait for the seat's digest (unmailed
    `NewsItem`s that are talk), oldest line first, one per line: only the talk its player now
    may read (a line written for the player before them, the seat having changed hands since,
    is not theirs). A line is known by its message's log length and quoted words, not by its
    names, which may have changed since it was written. No query for a player without a digest
    (the usual case): only digests hold talk back."""
    if player.delivery != Player.Delivery.DIGEST:
        return []
    waiting = list(NewsItem.objects.filter(seat=seat, mailed_at__isnull=True).order_by("seq", "id"))
    if not waiting:
        return []
    found: dict[int, list[tuple[str, int]]] = {}  # {log length: [(quoted words, number)]}
    with translation.override(player.language):  # as `relay` wrote the lines
        candidates = PressMessage.objects.filter(game_id=seat.game_id, at_seq__gte=waiting[0].seq)
        for m in _readable(seat, open_all(candidates.order_by("number"))):
            found.setdefault(m.at_seq, []).append((_quoted(m, seat.colour), m.number))
    numbers = []
    for item in waiting:
        # The longest quote first: "“Yes”" must not take the line of "“Oh yes”".
        matching = [q for q in found.get(item.seq, ()) if item.text.endswith(q[0])]
        if matching:
            _quote, number = max(matching, key=lambda q: len(q[0]))
            if number not in numbers:
                numbers.append(number)
    return numbers


def lines_of(seat: Seat, player: Player, numbers: list[int]) -> list[str]:
    """The talk lines of messages `numbers` of the seat's game for its player, in `numbers`'
    order and the player's language, their parties named as the caller's
    `rules.players_named` names them (`relay.line_for`) but a seat that changed hands since the
    message, said by its colour alone (`press.selectors.named_parties`), read now: a message
    whose words were erased since (its author's key destroyed), or that the seat's player may no
    longer read (the seat changed hands), is left out. One query for the messages, one for their
    keys and one for the seats' hand-overs; none for no numbers."""
    if not numbers:
        return []
    messages = open_all(PressMessage.objects.filter(game_id=seat.game_id, number__in=numbers))
    by_number = {m.number: m for m in _readable(seat, messages)}
    # Written now: a seat that changed hands since a message is named by its colour alone there.
    held = named_holdings(seat.game) if by_number else {}
    with translation.override(player.language):
        return [
            line_for(by_number[n], seat.colour, named=named_parties(by_number[n], held))
            for n in numbers
            if n in by_number
        ]


def waiting_lines(seat: Seat, player: Player) -> list[str]:
    """The seat's talk lines waiting for its digest, written now (`waiting_numbers`,
    `lines_of`): for an email written at once (the game's end)."""
    return lines_of(seat, player, waiting_numbers(seat, player))
