"""Reads of a game's table talk, as one seat may see them: the only door out of the press log.

A message to the whole table is public (every seat, and anybody who may see the game). A private
message is read by its sender and its recipients only — on pages, in emails, in the JSON export and
in `show_game --as` — and by everybody once the game is over only when the host's table option
`press_public_after_end` is true (docs/game-options.md, docs/press.md).

Its sender and recipients are persons, not colours: a seat that changed hands (docs/press.md,
"When a seat changes hands") gives its new player the private talk written since, to them or by
them, never what was said to or by the player before; that player keeps it in their archive. Who
held a seat when is `games.play.departures.holdings`; a reader here is a colour and that
holding (by default the seat's player now).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.core.cache import caches
from django.db.models import F, Max

from games.models import Game, Seat
from games.play.departures import Holding, current_holding, hand_overs, holdings
from players.personal_data import Person
from press.chain import message_digest, press_salt, timestamp
from press.models import PressMessage
from press.sealing import open_all


def public_after_end(game: Game) -> bool:
    """Whether the game's private messages become public once it is over (table option
    `press_public_after_end`, default False)."""
    return bool((game.options or {}).get("press_public_after_end", False))


def author_id(message: PressMessage) -> int | None:
    """The account that wrote `message` (its talk key's), None when unknown: talk written before
    sealing, a seat without an account, an author erased."""
    if hasattr(message, "author_user_id"):  # read with the message (`_messages`)
        return message.author_user_id
    return message.key.user_id if message.key is not None else None


def wrote(message: PressMessage, colour: str | None, holding: Holding) -> bool:
    """Whether the person holding `colour` (`holding`) wrote `message`: its author's account when
    known, else its colour within their time at the seat."""
    if colour is None or message.sender != colour:
        return False
    author = author_id(message)
    if author is not None and holding.user_id is not None:
        return author == holding.user_id
    return holding.covers(message.sent_at)


def may_read(message: PressMessage, colour: str | None, *, game: Game, holding: Holding | None) -> bool:
    """Whether the person holding `colour` (None: a spectator) may read `message` of `game` (see
    the module docstring). holding: when they held the seat (`games.play.departures.Holding`);
    None for a message being relayed as it is written, which the seat's player now reads.

    A private message to or from `colour` is theirs when it was written within their time at the
    seat, or by them. One they handed over (`holding.until` set) keeps what they read while
    there: the public talk until then, not the private talk the game's end made public."""
    if holding is None:
        holding = Holding.all_along()
    if colour is not None and wrote(message, colour, holding):
        return True
    party = colour is not None and (colour == message.sender or colour in (message.recipients or ()))
    if colour is not None and holding.until is not None:
        if message.recipients is None:
            return message.sent_at <= holding.until
        return party and holding.covers(message.sent_at)
    if message.recipients is None or (party and holding.covers(message.sent_at)):
        return True
    return game.is_over and public_after_end(game)


def _seat(game: Game, colour: str) -> Seat | None:
    # From `game.seats.all()`: no query when the seats were read with the game (its page).
    return next((s for s in game.seats.all() if s.colour == colour), None)


def reader(game: Game, colour: str | None) -> Holding:
    """The holding of the player now at `colour` in `game` (`departures.current_holding`; for
    None, a spectator, or a colour not at the table: the whole game, which reads only public
    talk). One query for a colour."""
    seat = _seat(game, colour) if colour is not None else None
    return current_holding(seat) if seat is not None else Holding.all_along()


def named_holdings(game: Game) -> dict[str, Holding]:
    """{colour: when the person its seat's name names held it} for the seats of `game` (its
    name: `players.display_names.seat_names`): its player now, since the seat last changed
    hands (`departures.current_holding`); for a seat whose player erased their account ("Player
    N (left)"), that player's last time at it, up to their leaving. A bot's seat names nobody who
    talked (a bot writes and reads no talk): it is left out. One query (the table log)."""
    cuts = hand_overs(game.pk)
    held = {}
    for seat in game.seats.all():
        at = cuts.get(seat.colour, [])
        if seat.left_at is not None:
            # The last hand-over is their leaving (`PlayerLeft`); their time began at the one before.
            until = at[-1] if at else seat.left_at
            held[seat.colour] = Holding(spans=((at[-2] if len(at) > 1 else None, until),))
        elif not seat.is_bot:
            held[seat.colour] = Holding(spans=((at[-1] if at else None, None),), user_id=seat.user_id)
    return held


def named_parties(message: PressMessage, held: dict[str, Holding]) -> frozenset[str]:
    """The colours of `message` (its sender, its recipients) whose seat's name names who held it
    when the message was written (`held`: `named_holdings`): its author by `wrote`, a recipient
    by the time. The others are said by their colour alone (`press.addressees.party_words`)."""
    parties = set()
    if message.sender in held and wrote(message, message.sender, held[message.sender]):
        parties.add(message.sender)
    parties.update(c for c in message.recipients or () if c in held and held[c].covers(message.sent_at))
    return frozenset(parties)


def _messages(game: Game):
    return (
        PressMessage.objects.filter(game=game).annotate(author_user_id=F("key__user_id")).order_by("number")
    )


def messages_for(*, game: Game, colour: str | None, holding: Holding | None = None) -> list[PressMessage]:
    """The messages of `game` that the person holding `colour` (None: a spectator) may read,
    oldest first, their words opened (`press.sealing.open_all`: `erased` for an author's shredded
    key). holding: when they held the seat; None: the seat's player now (`reader`)."""
    holding = holding or reader(game, colour)
    return open_all(m for m in _messages(game) if may_read(m, colour, game=game, holding=holding))


@dataclass(frozen=True)
class TalkLine:
    """A message as a page shows it to one reader: `sender` and `to` are colours, `to` None for
    the whole table; `mine`: the reader wrote it; `to_me`: it was written to the reader alone
    (or with others, privately); `erased`: its author erased their account, so its words are
    gone (`text` is ""); `named`: its colours whose seat's name (a player's, "Player N (left)")
    names who held it when it was written (`named_parties`): the page names those, and says the
    others by their colour alone."""

    number: int
    at_seq: int
    sender: str
    to: tuple | None
    text: str
    sent_at: datetime
    mine: bool
    to_me: bool
    erased: bool = False
    named: frozenset = frozenset()

    @property
    def private(self) -> bool:
        return self.to is not None


def talk_for(*, game: Game, colour: str | None, holding: Holding | None = None) -> list[TalkLine]:
    """`messages_for` as lines for a page (oldest first); `mine`: the person holding `colour`
    wrote it (`wrote`: an earlier player's message at the seat is not theirs). One query more
    for the seats' holders (`named_holdings`) when there are lines."""
    holding = holding or reader(game, colour)
    messages = messages_for(game=game, colour=colour, holding=holding)
    held = named_holdings(game) if messages else {}
    return [
        TalkLine(
            number=m.number,
            at_seq=m.at_seq,
            sender=m.sender,
            to=tuple(m.recipients) if m.recipients is not None else None,
            text=m.text,
            sent_at=m.sent_at,
            mine=wrote(m, colour, holding),
            to_me=colour is not None and colour in (m.recipients or ()),
            erased=m.erased,
            named=named_parties(m, held),
        )
        for m in messages
    ]


# How long this process keeps the lines a game page showed one reader, in seconds. The key names
# the game's last message, so a kept list is never out of date: the time only bounds the memory.
PAGE_LINES_SECONDS = 3600


def talk_for_page(*, game: Game, colour: str | None) -> list[TalkLine]:
    """`talk_for` for the game page. When `game` was read for its page (`web.live.game_for_page`
    sets `page_talk_number`, the number of its last message): no query for a game without
    messages, and the lines of `colour` (None: a spectator) kept in this process's "pages" cache
    under the game, its last message's number, the reader's colour, its player's account and
    the table log's length (`page_table_seq`: a seat that changes hands is a table event, and
    its new player reads other lines), whether private messages are public yet and the site's
    latest erasure (`page_erasures`: an erased author's words are gone), so that a
    first view after a move (the talk has not changed) reads none. The log is append-only: those
    name exactly what the lines hold, and one reader's lines are never kept under another's key.
    Never kept with the speed layers off (settings.SPEED_LAYERS)."""
    number = getattr(game, "page_talk_number", None)
    if number is None:
        return talk_for(game=game, colour=colour)
    if not number:
        return []
    seat = _seat(game, colour) if colour is not None else None
    parts = [str(game.pk), game.seed_commitment, str(number), colour or "-"]
    parts += [str(seat.user_id if seat is not None else "-"), str(getattr(game, "page_table_seq", "-"))]
    parts.append("public" if game.is_over and public_after_end(game) else "-")
    parts.append(str(getattr(game, "page_erasures", "-")))  # an erased author's words go at once
    key = "talk-lines:" + hashlib.sha256("|".join(parts).encode()).hexdigest()[:40]
    if not settings.SPEED_LAYERS:
        return talk_for(game=game, colour=colour)
    lines = caches["pages"].get(key)
    if lines is None:
        lines = talk_for(game=game, colour=colour)
        caches["pages"].set(key, lines, PAGE_LINES_SECONDS)
    return lines


def export_entries(*, game: Game, colour: str | None) -> list[dict]:
    """The "press" list of the game's JSON export for `colour` (None: a spectator):
    [{"number", "at_seq", "sender", "recipients" (None: the whole table), "text" (None once its
    author's key was shredded), "sealed" (base64 of the sealed words, which the chain hashes;
    None for talk written before sealing), "words_digest" and "words_salt" (by which the words
    are checked against the digest; None when not sealed, the salt None once erased), "sent_at" (ISO 8601, UTC, as hashed), "prev_hash",
    "hash"}], only the messages the player now at `colour` may read (`messages_for`). Each
    entry's hash can be checked from its own fields and, for a private one, its proof
    (`export_proofs`; `press.chain`); a gap in the numbers is a message the reader may not see
    (version 2: its link is in `hidden_links`)."""
    return [
        {
            "number": m.number,
            "at_seq": m.at_seq,
            "sender": m.sender,
            "recipients": m.recipients,
            "text": None if m.erased else m.text,
            "sealed": m.sealed or None,
            "words_digest": m.words_digest or None,
            "words_salt": m.words_salt or None,
            "sent_at": timestamp(m.sent_at),
            "prev_hash": m.prev_hash,
            "hash": m.hash,
        }
        for m in messages_for(game=game, colour=colour)
    ]


def last_numbers(game_ids, *, whole_table_only: bool = False) -> dict[int, int]:
    """{game id: the number of its last message} for the games `game_ids` that have one (with
    `whole_table_only`, of its last message to the whole table: what anybody may read), in one
    query. For the followers' digests (`watching`), which tell what was said since."""
    messages = PressMessage.objects.filter(game_id__in=game_ids)
    if whole_table_only:
        messages = messages.filter(recipients__isnull=True)
    return dict(messages.values("game_id").annotate(m=Max("number")).values_list("game_id", "m"))


def last_number(game: Game) -> int:
    """The number of the game's last message (0 for none): where a new follower's news starts."""
    return PressMessage.objects.filter(game=game).aggregate(m=Max("number"))["m"] or 0


def whole_table_after(*, game: Game, number: int) -> list[PressMessage]:
    """The game's messages to the whole table after message `number`, oldest first: what a
    follower may read (a private message never reaches a follower)."""
    return open_all(
        PressMessage.objects.filter(game=game, number__gt=number, recipients__isnull=True).order_by("number")
    )


def export_proofs(*, game: Game, colour: str | None) -> list[dict]:
    """The export's "proofs" → "press" for `colour`: for each private message it may read,
    {"number", "salt"} — its version-2 random salt, or while the game is in progress its
    version-1 salt (afterwards the revealed seed gives it) — and, in version 2, its
    "hidden_digest". Given only to who may read the message, who knows its words already; with
    them its hash can be checked before the seed is revealed (`press.chain`)."""
    version = game.chain_version
    proofs = []
    for m in messages_for(game=game, colour=colour):
        if m.recipients is None:
            continue
        if version >= 2:
            proofs.append(
                {
                    "number": m.number,
                    "salt": m.salt,
                    "hidden_digest": message_digest(m, chain_version=version),
                }
            )
        elif not game.is_over:
            proofs.append({"number": m.number, "salt": press_salt(game.seed, m.number, m.recipients)})
    return proofs


def hidden_links(*, game: Game, colour: str | None) -> list[dict]:
    """The export's "proofs" → "press_hidden" for `colour`: the links of the messages it may not
    read, [{"number", "prev_hash", "hash", "hidden_digest"}] — what a version-2 private
    message's hash is made of, and nothing about who wrote it, to whom, when or what
    (`press.chain`). [] for a version-1 chain, whose private links cannot be checked without
    the message."""
    if game.chain_version < 2:
        return []
    holding = reader(game, colour)
    return [
        {
            "number": m.number,
            "prev_hash": m.prev_hash,
            "hash": m.hash,
            "hidden_digest": message_digest(m, chain_version=game.chain_version),
        }
        for m in _messages(game)
        if not may_read(m, colour, game=game, holding=holding)
    ]


def collect_talk(person: Person) -> dict[str, object]:
    """`person`'s part of their archive: "talk.json", per seat they held (`departures.holdings`),
    the table talk they sent and read there: what they wrote, whenever; at a seat they handed
    over, the public talk until then and the private talk of their time at it, never what was
    said to or by the player before or after them (docs/press.md, "When a seat changes hands").
    Opened with the authors' keys: an erased author's words are gone. "sent_by_you": they wrote it."""
    return {
        "talk.json": [
            {
                "game": seat.game_id,
                "colour": seat.colour,
                "messages": [
                    {
                        "number": line.number,
                        "from": line.sender,
                        "to": list(line.to) if line.to is not None else "everyone",
                        "sent_at": line.sent_at.isoformat(),
                        "text": None if line.erased else line.text,
                        "sent_by_you": line.mine,
                    }
                    for line in talk_for(game=seat.game, colour=seat.colour, holding=holding)
                ],
            }
            for seat, holding in holdings(person)
        ]
    }


# What starts each line of a message's words after its first, in a line telling it (a digest's,
# a prompt's, a follower's digest's): a message of several lines never starts a line of its own
# there, so it cannot forge one ("…”", then "- Bob (blue) to everyone: “I give up.”").
CONTINUED = "    "


def told(text: str) -> str:
    """The words `text` as a line telling them holds them: each line after the first indented
    (`CONTINUED`). A message of one line is as written."""
    return text.replace("\n", "\n" + CONTINUED)
