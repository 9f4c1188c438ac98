"""Who wrote a message of table talk and whom to, in words, as one reader reads them (in the
active language): every place that tells talk to a player names its parties here (the relayed
email and its subject, the digest line, the answer to its author, the game page's panel and its
form).

A party is named as the table names its seat everywhere else: `games.story.names.player_name`
inside `rules.players_named` with the seats' names (`players.display_names.seat_names`): "Ann
(blue)", a player who erased their account "Player 2 (left, blue)", its colour alone for a player who
chose no name; the reader's own seat is "you". The caller sets the names
(`rules.players_named(seat_names(seats))`, in the reader's language: a bot's name is a word); a
colour that is not in `named` is said by its colour alone, neither named nor "you": the seat's
name is its player's now, and a message written before the seat changed hands was not theirs
(docs/press.md, "When a seat changes hands"; `press.selectors.TalkLine.named`).
"""

from __future__ import annotations

from collections.abc import Collection

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.rules import colour_name
from games.story.names import player_name
from press.models import PressMessage


def party_words(
    colour: str, *, reader: str | None = None, named: Collection[str] | None = None, capital: bool = False
) -> str:
    """A colour of a message (its author, or one it was written to) as `reader` (a colour; None: a
    spectator) reads it: "you" for the reader's own seat, else the seat's name with its colour
    ("Ann (blue)", inside `rules.players_named`), else its colour ("blue"). named: the colours
    whose seat's name names who held it when the message was written (None: all, as for a
    message being relayed as it is written); another is said by its colour alone. `capital`:
    "You" at the start of a line (a name has its own case; a colour stays as talk lines always
    wrote it, "blue to everyone")."""
    if named is not None and colour not in named:
        return colour_name(colour)
    if colour == reader:
        you = pgettext("addressee", "you")
        return you[:1].upper() + you[1:] if capital else you
    return player_name(colour)


def addressee_list(recipients, reader: str | None = None, *, named: Collection[str] | None = None) -> str:
    """The parties a private message was written to (`recipients`, colours) as words, each as
    `party_words` says it: "Bob (blue)", "you", "you and Bob (blue)" (French: "vous et Bob
    (bleu)")."""
    words = [party_words(c, reader=reader, named=named) for c in recipients]
    text = words[0] if words else ""
    for word in words[1:]:
        text = _("{first} and {second}").format(first=text, second=word)
    return text


def addressee_words(message: PressMessage) -> str:
    """ "everyone at the table" or whom the message was written to (`addressee_list`), for the
    answer to its author, in the active language."""
    return _("everyone at the table") if message.recipients is None else addressee_list(message.recipients)
