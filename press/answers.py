"""Table talk found in an email reply: sent through `press_send`, and told back in the answer.

`notifications.inbound` calls `press_from_reply` with the messages `press.reply.split_talk` found,
inside its transaction (the game's row is locked), before it reads the reply's commands: a message
is sent whatever becomes of a move in the same reply, and the answer says both.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.models import Game, Seat
from games.rules import players_named
from players.display_names import seat_names
from press.addressees import addressee_list, addressee_words
from press.reply import Talk
from press.services import PressRefused, press_send


@dataclass(frozen=True)
class Said:
    """What became of a reply's messages: `sent` how many were sent; `words` sentences for the
    answer ("" when the reply held none); `summary` a few words for its subject;
    `sent_summary` the same for the sent messages alone ("your message to everyone"). All in the
    language active when they were made (the reply's answer is made in its player's)."""

    sent: int
    words: str
    summary: str
    sent_summary: str = ""


def press_from_reply(*, game: Game, seat: Seat, talk: tuple[Talk, ...]) -> Said:
    """Send each message of `talk` from `seat`; a refused one is named with its reason (nothing
    of it stored), the others still go. Never raises PressRefused."""
    if not talk:
        return Said(0, "", "")
    # Whom each was written to, named as the table names them ("Bob (blue)", `press.addressees`).
    with players_named(seat_names(game.seats.all())):
        return _send_each(game=game, seat=seat, talk=talk)


def _send_each(*, game: Game, seat: Seat, talk: tuple[Talk, ...]) -> Said:
    sent, sentences, summaries, sent_summaries = 0, [], [], []
    for item in talk:
        try:
            message = press_send(game=game, seat=seat, to=item.to, text=item.text)
        except PressRefused as refused:
            opening = item.opening if len(item.opening) <= 60 else item.opening[:57] + "..."
            sentences.append(
                _("Your message “{opening}” was not sent. {reason}").format(opening=opening, reason=refused)
            )
            summaries.append(_("message not sent"))
        else:
            sent += 1
            sentences.append(_("Your message to {who} was sent.").format(who=addressee_words(message)))
            summaries.append(
                _("your message to everyone")
                if message.recipients is None
                else _("your message to {who}").format(who=addressee_list(message.recipients))
            )
            sent_summaries.append(summaries[-1])
    return Said(
        sent,
        " ".join(sentences),
        # French puts a space before a semicolon (" ; ").
        pgettext("between the parts of a list", "; ").join(dict.fromkeys(summaries)),
        pgettext("between the parts of a list", "; ").join(dict.fromkeys(sent_summaries)),
    )
