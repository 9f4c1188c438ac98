"""Inbound email: a reply in, commands through `submit_command`, an answer out.

Two doors, one path: anymail's inbound webhooks (the provider's authentication is checked by
anymail's view, which then sends its `inbound` signal; we never read provider JSON) and
`manage.py receive_email < message.eml` (a mail server's pipe). Both store the raw message once
per Message-ID (`receive`; mail without a valid reply address of ours under the caps a day of
`notifications.inbound_cap`, beyond which it is not stored), then `process` it:

1. Auto-replies, bounces and mailing-list mail are dropped without an answer (no mail loops).
2. The reply token in the recipient address (`notifications.tokens`), not the From header, says
   which game, seat and decision the reply is for. No token, or a token that does not verify:
   the sender gets a short answer naming no game, and nothing is played.
3. Under the game's row lock: a reply whose seat changed hands since its token was checked (an
   erasure, a host's hand-over) is answered as one whose token no longer verifies, nothing
   played; a reply whose decision has moved on is *stale* (nothing played, the
   answer shows the current decision), except a reply holding only standing orders and policies
   (taken from an email not older than the seat's latest prompt, `_latest_prompt_seq`; from an
   older one they are refused: an old or forwarded email must not play the seat through its
   orders), and a take-back ("take back", "undo"), judged on what the replied email showed
   (`inbound_orders.take_back`); otherwise
   the text (quoted history, signatures and HTML handled by `command_language.parse_reply`) is
   read into commands and submitted with the Message-ID as the idempotency key, so the same
   message delivered twice acts once.
4. Every reply that carries a valid token is answered, to the seat's own address: accepted (what
   was understood, what happens next), rejected (why, what is allowed now, nothing changed) or
   stale, in the player's language (`Player.language`: the whole reply is processed in it, so
   the rules' refusals and the command language's messages come out in it too). A reply that
   played something is always answered, and so is the first reply to each prompt. Only
   answers that carry a reply address (to replies that changed nothing, and the pause notice)
   count against EMAIL_ANSWERS_PER_HOUR per seat: a mail loop with an auto-responder that
   slips through can only go round through them. Answers to mail without a valid token are
   limited to as many per address, counted apart (so that forged mail "from" a player never
   spends that player's answers).
5. One email per decision: the acceptance of a reply that played something is held
   (`notifications.acceptances`): the seat's next prompt opens with it ("Accepted: … — Your
   move: …", in the reply's thread), or, when none comes within ACCEPTANCE_GRACE seconds (the
   seat has nothing more to decide now), the sweep sends it as a short email of its own, unless
   the player turned acceptances off. Rejections and stale replies are answered at once. The
   reply's commands are submitted without starting the bots; the seat's next prompt is written
   then but held (`outbox.holding_prompts`); after the acceptance is written, the held prompt is
   released and the bots are started, all after the commit and in that order (in-process tasks
   run in that order; a worker receives them in that order). An acceptance carries no reply
   address (the next prompt has the only valid one) and says nothing that the bots' next moves
   could make false ("waiting for ...").
"""

from __future__ import annotations

import dataclasses
import hashlib
import logging
import re
from datetime import timedelta
from email.utils import parseaddr
from typing import Any

from anymail.inbound import AnymailInboundMessage
from anymail.signals import inbound as anymail_inbound
from celery import shared_task
from django.conf import settings
from django.db import OperationalError, transaction
from django.dispatch import receiver
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import rules, store
from games.models import Game, Seat
from games.play import standins
from games.play import tasks as bot_tasks
from games.play.bot_seats import bot_seats_pending
from games.play.models import SeatClock
from notifications import inbound_cap, inbound_hooks, inbound_orders, outbox, prompts
from notifications import talk as table_talk
from notifications.command_language import (
    ANY_TIME,
    found_no_command,
    move_test,
    parse_reply,
    read_order_line,
    reply_lines,
)
from notifications.flowed_text import unflowed
from notifications.inbound_answers import (
    Reply,
    answer_seat,
    clean,
    finish,
    may_answer,
    not_understood,
    talk_sent_words,
    threaded,
    token_of,
    with_talk,
)
from notifications.mail_headers import UNREADABLE, has_header, header
from notifications.models import InboundEmail, Outbox
from notifications.tokens import token_in_address
from players import preferences
from players.display_names import game_seat_names
from players.email_addresses import canonical_address
from players.models import Player
from players.signed_tokens import BadToken, check_reply_token, read_reply_token

__all__ = [
    "automatic_reason",
    "clean",
    "message_key",
    "on_anymail_inbound",
    "process",
    "process_inbound_task",
    "receive",
    "reply_text",
    "stale_inbound_ids",
]

logger = logging.getLogger(__name__)

# Message-IDs we write carry "inis-<game>-<colour>" (prompts) or "inis-game-<game>-<colour>"
# (the thread root): a reply's In-Reply-To / References name the game it answers.
THREAD_ID = re.compile(r"inis-(?:game-)?(\d+)-(?:green|blue|orange|white)\b", re.I)
AUTO_SUBJECT = re.compile(
    r"^\s*(auto(matic)?[ -]?(reply|response)|autoreply|auto:|out of (the )?office|absence|"
    r"absent du bureau|absent\b|r[ée]ponse automatique|abwesenheit|undeliver|delivery status|"
    r"mail delivery|returned mail)",
    re.I,
)
AUTO_SENDER = re.compile(r"^(mailer-daemon|postmaster|no-?reply|do-?not-?reply|bounces?)([+@.-]|$)", re.I)
# The prefixes mail clients put before a reply's subject: "Re:", "RE :", "Réf. :", "Re[2]:".
REPLY_PREFIXES = re.compile(r"^(?:\s*(?:re|réf|ref)\.?\s*(?:\[\d+\])?\s*:\s*)+", re.IGNORECASE)
BULK_PRECEDENCE = {"bulk", "junk", "list", "auto_reply", "auto-reply"}


def automatic_reason(message: AnymailInboundMessage) -> str | None:
    """Why `message` is an automatic message (an out-of-office, a bounce, list mail), or None for
    a message a person wrote. RFC 3834 (Auto-Submitted), the de-facto X-Autoreply / X-Autorespond
    / Precedence headers, delivery reports, null senders, robot senders and auto-reply subjects."""
    auto = header(message, "Auto-Submitted").strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    for name in ("X-Autoreply", "X-Autorespond", "X-Autorespond-Original", "X-Auto-Reply"):
        if has_header(message, name):
            return name
    for name in ("Precedence", "X-Precedence"):
        if header(message, name).strip().lower() in BULK_PRECEDENCE:
            return f"{name}: {header(message, name)}"
    if has_header(message, "List-Id") or has_header(message, "List-Unsubscribe"):
        return "mailing-list mail"
    if message.get_content_type() == "multipart/report":
        return "a delivery report"
    if header(message, "Return-Path").strip() == "<>":
        return "null sender (a bounce)"
    sender = _from_address(message)
    if AUTO_SENDER.match(sender):
        return f"robot sender {sender}"
    ours = {parseaddr(a or "")[1].lower() for a in (settings.DEFAULT_FROM_EMAIL, settings.INBOUND_EMAIL)}
    if sender.lower() in ours or token_in_address(sender) is not None:
        return "our own address (a loop)"
    # "[Out of Office] Re: …", "Re: Automatic reply: …": the words may follow a reply's prefix.
    if AUTO_SUBJECT.match(REPLY_PREFIXES.sub("", header(message, "Subject")).lstrip(" [(")):
        return f"auto-reply subject {header(message, 'Subject')!r}"
    return None


def _from_address(message) -> str:
    return clean(parseaddr(header(message, "From"))[1])


def message_key(message: AnymailInboundMessage, raw: bytes) -> str:
    """The message's idempotency key: its Message-ID (without <>), or the sha256 of the raw bytes
    when it has none; hashed when too long for the key columns."""
    mid = clean(header(message, "Message-ID")).strip().strip("<>").strip()
    key = mid or "sha256:" + hashlib.sha256(raw).hexdigest()
    if len(key) > 200:
        key = "sha256:" + hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()
    return key


def receive(
    raw: bytes, *, source: str, envelope_to: str = "", enqueue: bool = True
) -> tuple[InboundEmail, bool]:
    """Store the raw message `raw` (RFC 822 bytes) once; returns `(row, created)`.

    A second delivery of the same message (same key) returns the first row with created=False
    and changes nothing. Its attachments are not stored (`_drop_attachments`): a move is read
    from the text, and a phone photo would only fill the table. With `enqueue`, processing is queued after the commit (the webhook path);
    the pipe path calls `process` itself. Raises `inbound_cap.NotStored`, nothing stored, when
    the message carries no valid reply address of ours and its sender, or strangers together,
    sent more today than the caps allow (`notifications.inbound_cap`).
    """
    message = AnymailInboundMessage.parse_raw_mime_bytes(raw)
    key = message_key(message, raw)
    if _drop_attachments(message):
        raw = _raw_bytes(message)
    stored = InboundEmail.objects.filter(message_key=key).first()
    if stored is not None:  # a provider's second delivery: counted once, when it was stored
        return stored, False
    inbound_cap.check(token=token_of(message, envelope_to), sender=_from_address(message), size=len(raw))
    with transaction.atomic():
        row, created = InboundEmail.objects.get_or_create(
            message_key=key,
            defaults={
                "source": clean(source)[:32],
                "raw": raw,
                "envelope_to": clean(envelope_to)[:255],
                "from_email": _from_address(message)[:255],
            },
        )
        if created and enqueue:
            row_id = row.pk
            # robust: the sweep processes rows whose task was lost (broker down).
            transaction.on_commit(lambda: process_inbound_task.delay(row_id), robust=True)
    return row, created


def _drop_attachments(message) -> bool:
    """Empty, in place, every part of `message` that is not text or structure (an attachment,
    an inline picture), keeping its headers (its name and type); True if there was one."""
    dropped = False
    for part in message.walk():
        if part.is_multipart():
            continue
        is_text = part.get_content_maintype() == "text" and part.get_content_disposition() != "attachment"
        if not is_text and part.get_payload():
            part.set_payload("")
            dropped = True
    return dropped


def _raw_bytes(message) -> bytes:
    try:
        return message.as_bytes()
    except Exception:  # a malformed message that the email package cannot write back exactly
        return message.as_string().encode("utf-8", "replace")


@receiver(anymail_inbound, dispatch_uid="notifications.anymail_inbound")
def on_anymail_inbound(sender, event, esp_name, **kwargs) -> None:
    """anymail's inbound signal (sent after its webhook view authenticated the provider): store
    the message and queue its processing."""
    message = event.message
    if getattr(message, "envelope_sender", None) == "" and not has_header(message, "Return-Path"):
        # The provider took the envelope's null sender out of the message (Postmark's
        # ReturnPath): put it back, so that the bounce is known as one (`automatic_reason`).
        message["Return-Path"] = "<>"
    try:
        receive(
            _raw_bytes(message),
            source=str(esp_name).lower(),
            envelope_to=getattr(message, "envelope_recipient", None) or "",
        )
    except inbound_cap.NotStored:
        return  # logged; the provider is answered 200, so that it does not post it again


def _games_named(message) -> set[int]:
    text = " ".join(header(message, h) for h in ("In-Reply-To", "References"))
    return {int(g) for g in THREAD_ID.findall(text)}


def reply_text(message) -> str:
    """The text a person wrote: the text/plain part (its `format=flowed` wrapping undone,
    `flowed_text`), or the HTML part when there is none (the command language reads HTML); ""
    when the message has no readable body."""
    try:
        text = message.text
        text = _unwrapped(message, text) if text and text.strip() else message.html or ""
    except (LookupError, ValueError, UnicodeError):  # an unknown charset, a garbled body
        return ""
    return clean(text)


def _unwrapped(message, text: str) -> str:
    """`text`, the message's text/plain body, as typed: joined back when its part is sent
    `format=flowed` (RFC 3676), else as it is."""
    part = next((p for p in message.walk() if p.get_content_type() == "text/plain"), None)
    if part is None:
        return text
    try:
        flowed = str(part.get_param("format", "")).lower() == "flowed"
        delsp = str(part.get_param("delsp", "")).lower() == "yes"
    except UNREADABLE:  # a Content-Type no parser reads: the text as it came
        return text
    return unflowed(text, delsp=delsp) if flowed else text


def _answer_stranger(row: InboundEmail, message, reason: str) -> str:
    """A short answer to the From address of a message we cannot tie to a seat (names nothing)."""
    address = canonical_address(_from_address(message))  # the form the cap counts (`may_answer`)
    if not may_answer(address):
        return " No answer (rate limit or no sender)."
    language = (
        Player.objects.filter(email=address.strip().lower()).values_list("language", flat=True).first()
        or "en"
    )  # the sender's, when the address is a player's
    with translation.override(language):
        subject = " ".join(clean(header(message, "Subject")).split())
        # The answer adds its own "Re:": the ones the subject has already go ("Re: Re: ..." not).
        subject = REPLY_PREFIXES.sub("", subject)[:150] or _("your email")
        email = threaded(
            prompts.stranger_email(to_subject=subject, reason=_(reason), language=language), message
        )
    outbox.enqueue(kind=Outbox.Kind.ANSWER, to_email=address, email=email, seq=0)
    return " Answered."


def _send_unseated(message, answer: inbound_hooks.UnseatedAnswer) -> str:
    """Send a higher room's answer (`inbound_hooks`) to the sender, under the cap of answers to
    mail without a seat's token."""
    # Counted against the mailbox the answer reaches, the account's own when it goes there.
    to = answer.to or canonical_address(_from_address(message))
    if answer.email is None or not may_answer(to):
        return " No answer (rate limit or no sender)."
    outbox.enqueue(kind=Outbox.Kind.ANSWER, to_email=to, email=threaded(answer.email, message), seq=0)
    return " Answered."


def process(inbound_id: int) -> str:
    """Act on the stored message `inbound_id` once and answer it; returns its final status (an
    `InboundEmail.Status` value). A message already processed is left as it is. See the module
    docstring for the steps. Raises InboundEmail.DoesNotExist for an unknown id; an unexpected
    error marks the message FAILED and is raised again (nothing is played then).

    What the message names is locked before the message's row, in the service's lock order (an
    account, the games, the tables, the gathering's log, the stored emails, then the outbox rows
    and news lines: `inbound_hooks`): the game its reply address names, then what a higher
    room's command locks (`inbound_hooks.take_locks_first`: the table of `join N` / `leave N`, a
    rematch's table, the gathering's log). An erasure locks the person's account, the games of
    their seats and their tables, then empties their stored emails, this one among them, and
    only then changes the outbox rows and news lines holding their traces
    (`notifications.erasure`); in the other order, a message holding its row and waiting for a
    game, a table or an outbox row (an acceptance its game-over email says), and an erasure
    holding that and waiting for the row, would wait for each other."""
    try:
        named = _named(inbound_id)
        with transaction.atomic():
            if named is not None:
                if named.game_id is not None:
                    Game.objects.select_for_update().filter(pk=named.game_id).first()
                inbound_hooks.take_locks_first(named.token, named.text, named.sender)
            row = InboundEmail.objects.select_for_update().get(pk=inbound_id)
            if row.status != InboundEmail.Status.RECEIVED:
                return row.status
            return _process(row)
    except (InboundEmail.DoesNotExist, OperationalError, store.ConcurrencyConflict):
        raise  # unknown id; or worth another try (the task retries, the sweep too)
    except Exception as failure:
        # The transaction rolled back (nothing played, nothing answered); record the failure so
        # that the sweep does not retry for ever a message that breaks the code.
        InboundEmail.objects.filter(pk=inbound_id, status=InboundEmail.Status.RECEIVED).update(
            status=InboundEmail.Status.FAILED, detail=clean(repr(failure))[:2000], processed_at=timezone.now()
        )
        logger.error("inbound %s could not be processed: %r", inbound_id, failure)
        raise


@dataclasses.dataclass(frozen=True)
class _Named:
    """What a stored message names, read without its row's lock, only to take the locks of what
    it names first (`process` reads the row again under them): the game its reply address
    names (its token read, not checked; None: no seat's token, or a damaged one), the token,
    the text its sender wrote and the sender's address."""

    game_id: int | None
    token: str | None
    text: str
    sender: str


def _named(inbound_id: int) -> _Named | None:
    """What the stored message `inbound_id` names (`_Named`), or None for a message already
    processed or emptied. Raises InboundEmail.DoesNotExist for an unknown id."""
    row = InboundEmail.objects.only("status", "raw", "envelope_to").get(pk=inbound_id)
    if row.status != InboundEmail.Status.RECEIVED or not row.raw:
        return None
    message = AnymailInboundMessage.parse_raw_mime_bytes(bytes(row.raw))
    token = token_of(message, row.envelope_to)
    try:
        game_id = read_reply_token(token).game_id if token is not None else None
    except BadToken:
        game_id = None
    return _Named(game_id, token, reply_text(message), _from_address(message))


def _process(row: InboundEmail) -> str:
    S = InboundEmail.Status
    message = AnymailInboundMessage.parse_raw_mime_bytes(bytes(row.raw))
    reason = automatic_reason(message)
    if reason:
        return finish(row, S.DROPPED, f"Dropped: {reason}.")
    token = token_of(message, row.envelope_to)
    unseated = inbound_hooks.answer_unseated(token, reply_text(message), _from_address(message))
    if unseated is not None:  # `list`, `join N` (the open tables, docs/email-commands.md)
        return finish(row, unseated.status, unseated.detail + _send_unseated(message, unseated))
    if token is None:
        note = _answer_stranger(row, message, gettext_noop("it was not sent to a game's reply address."))
        return finish(row, S.NO_TOKEN, "No reply token." + note)
    try:
        ref = read_reply_token(token)
        seat = Seat.objects.select_related("game").filter(pk=ref.seat_id, game_id=ref.game_id).first()
        if seat is None or seat.is_bot:
            raise BadToken("forged", "no player seat of that game has this id")
        check_reply_token(token, seat.token)
    except BadToken as error:
        note = _answer_stranger(
            row,
            message,
            gettext_noop("its reply address is not valid (it may have been changed or copied wrongly)."),
        )
        return finish(row, S.BAD_TOKEN, f"Invalid reply token: {error}." + note)
    # From here on everything the seat reads is in its player's language, the rules' refusals
    # and the command language's messages included (both follow the active language), and
    # names the players as its prompts do ("Bob (blue)"), a bot's name in that language.
    language = preferences.player_for(seat.email).language or "en"
    with translation.override(language), rules.players_named(game_seat_names(seat.game_id)):
        return _process_for_seat(row, message, ref, seat)


def _process_for_seat(row: InboundEmail, message, ref, seat: Seat) -> str:
    """Act on a reply whose token names `seat` (`ref`: the token read) and answer it; returns the
    message's status. A reply that answers another game's email is refused at once; the rest is
    done under the game's row lock (`_under_lock`)."""
    game = seat.game
    named = _games_named(message)
    if named and game.pk not in named:
        text = _(
            "This email was sent to the reply address of game {game}, but it answers an "
            "email of game {games}. Nothing was played: to play in a game, reply to that "
            "game's own email."
        ).format(game=game.pk, games=", ".join(str(g) for g in sorted(named)))
        return answer_seat(
            Reply(row, message, game, seat),
            InboundEmail.Status.REJECTED,
            "info",
            text,
            summary=_("this reply went to another game"),
        )
    with transaction.atomic():
        return _under_lock(row, message, ref, seat)


@dataclasses.dataclass(frozen=True)
class _Reading:
    """A reply's text as read for its seat: `talk`, whether it holds table talk; `said`, that talk
    as sent (`notifications.talk.send`); `moved`, the words saying which lines under the talk
    were read as a move; `commands`, the commands read ([] for none, None when they were
    refused, `error_text` saying why; `order_refused` when an order line could not be kept);
    `unread`, the words saying nothing else was read as a move; `not_allowed` when the commands
    were understood but the rules refused them (`IllegalCommand`), not misread."""

    talk: bool
    said: Any
    moved: str
    commands: list[dict] | None
    error_text: str = ""
    unread: str = ""
    order_refused: bool = False
    not_allowed: bool = False


def _under_lock(row: InboundEmail, message, ref, seat: Seat) -> str:
    """`_process_for_seat`'s work under the game's row lock, then the seat's clock's (the store's
    order): a seat that changed hands since its token was checked refused (`_seat_changed_hands`),
    the seat taken back from its stand-in, the game over answered (but a take-back,
    refused by `inbound_orders.take_back` with its own reason), the reply's table talk sent,
    then its commands judged (`_refusal`) and played (`_play`)."""
    game = Game.objects.select_for_update().get(pk=seat.game.pk)  # before the clock: store's order
    now = Seat.objects.filter(pk=seat.pk).first()
    if now is None or not store.same_holder(seat, now):
        return _seat_changed_hands(row, message)
    clock, _created = SeatClock.objects.select_for_update().get_or_create(seat=seat, defaults={"game": game})
    welcome = ""
    if clock.stand_in:
        standins.come_back(clock)
        welcome = _("Welcome back: the bot no longer plays your seat.")
    state, head = store.load(game)
    if game.is_over and not _reads_as_take_back(message, seat, state):
        return _answer_game_over(Reply(row, message, game, seat, note=welcome))
    reading = _read(message, game, seat, state)
    reply = Reply(
        row,
        message,
        game,
        seat,
        clock,
        state,
        head,
        ref.seq,
        note=" ".join(x for x in (welcome, reading.said.words, reading.moved) if x),
        talk_sent=talk_sent_words(reading.said),
    )
    if reading.talk and reading.commands == []:
        status = InboundEmail.Status.ACCEPTED if reading.said.sent else InboundEmail.Status.REJECTED
        return answer_seat(
            dataclasses.replace(reply, note=welcome),
            status,
            "accepted" if reading.said.sent else "rejected",
            reading.said.words + reading.unread,
            summary=reading.said.summary,
        )
    refused = _refusal(reply, reading)
    if refused is not None:
        return refused
    assert reading.commands is not None  # `_refusal` answered a reply whose commands were refused
    return _play(reply, reading.commands)


def _seat_changed_hands(row: InboundEmail, message) -> str:
    """Answer a reply whose seat changed hands (its player erased their account, or the host gave
    it away) between the check of its token and the game's row lock: as a reply arriving just
    after (its reply address no longer acts, docs/privacy.md), nothing is played, no table talk
    is sent, and the sender is told why in a short answer naming no game (the seat's decision
    and hand are its new holder's now)."""
    note = _answer_stranger(
        row,
        message,
        gettext_noop(
            "the seat it answers is no longer yours (it changed hands just before your email "
            "arrived), and nothing was played."
        ),
    )
    return finish(
        row, InboundEmail.Status.BAD_TOKEN, "The seat changed hands before the reply was read." + note
    )


def _reads_as_take_back(message, seat: Seat, state) -> bool:
    """Whether the reply reads as a take-back alone ("take back", "undo"), whatever the state.
    Once the game is over, such a reply is refused as a take-back ("The game is over: no move
    can be taken back.", docs/email-commands.md "Taking back your last move"), whichever email
    it answers, the game-over email too; any other reply is answered that the game is over."""
    talk = table_talk.split(reply_text(message))
    if talk.talk or talk.commands is None:
        return False
    try:
        commands = parse_reply(talk.commands, state, seat.colour)
    except rules.CommandError:
        return False
    return commands == [{"type": rules.TAKE_BACK}]


def _answer_game_over(reply: Reply) -> str:
    """Answer a reply to a game that is over: nothing played, its table talk not sent."""
    talk = table_talk.split(reply_text(reply.message))
    closed = _(" Table talk is closed too: your message was not sent.") if talk.talk else ""
    return answer_seat(
        reply,
        InboundEmail.Status.STALE,
        "info",
        _("This game is over; nothing more can be played.") + closed,
        summary=_("the game is over"),
    )


def _read(message, game, seat: Seat, state) -> _Reading:
    """Read the reply's text for `seat` in `state` and send its table talk (docs/press.md: sent
    whatever becomes of a move in the same reply)."""
    player = preferences.player_for(seat.email)
    # A line under a message's first line that is a move now ends the message: "say: Good
    # luck" then "pretender" is a message and a move (docs/email-commands.md, "Table talk").
    is_move = move_test(state, seat.colour, language=player.language)
    talk = table_talk.split(reply_text(message), is_move=is_move)
    said = table_talk.send(game=game, seat=seat, talk=talk.talk)
    moved = " ".join(
        _("I read the line “{line}”, under your message, as a move, not as words of the message.").format(
            line=line[:80]
        )
        for line in talk.moves_under_talk
    )
    reading = _Reading(talk=bool(talk.talk), said=said, moved=moved, commands=[])
    try:
        if talk.talk and talk.commands is None:
            return reading
        commands = parse_reply(talk.commands, state, seat.colour, language=player.language)
        return dataclasses.replace(reading, commands=commands)
    except rules.CommandError as error:
        if talk.talk and found_no_command(error):
            # Beside table talk, lines that are no command at all ("Hi," a name) are no move.
            return dataclasses.replace(reading, unread=_(" Nothing else in your reply was read as a move."))
        # A move misread or refused is answered with its reason, beside talk too.
        order = _refused_order_line(talk.commands or "", player.language)
        return dataclasses.replace(
            reading,
            commands=None,
            error_text=str(error),
            order_refused=order,
            not_allowed=isinstance(error, rules.IllegalCommand),
        )


def _refused_order_line(text: str, language: str) -> bool:
    """Whether a line of `text` is a standing order (or its cancellation) that cannot be read:
    the answer's subject then says an order was refused, not that the reply was not understood."""
    for line in reply_lines(text):
        try:
            read_order_line(line, language)
        except rules.CommandError:
            return True
    return False


def _refusal(reply: Reply, reading: _Reading) -> str | None:
    """Answer a reply that plays nothing: orders from an email older than the seat's latest
    prompt, a move answering a decision that has moved on, commands that were refused. Returns
    the status answered, or None when the reply is to be played."""
    S = InboundEmail.Status
    commands, clock = reading.commands, reply.clock
    assert clock is not None
    policy_only = bool(commands) and all(c["type"] in ANY_TIME for c in commands or [])
    # A take-back answers no decision: it is judged on what the email showed (`take_back`).
    taking_back = commands == [{"type": rules.TAKE_BACK}]
    talk_sent = reply.talk_sent
    if policy_only and clock.seq != reply.token_seq and reply.token_seq < _latest_prompt_seq(clock):
        text = _(
            "This email is older than your latest prompt: orders can be set or cancelled only by "
            "replying to your latest email, or on your game page. Nothing was changed."
        )
        summary = with_talk(_("orders from an older email"), talk_sent)
        # "info": this sentence alone (docs/email-commands.md); the reply answered no decision,
        # so the "too late for that decision" opening of a stale answer would be wrong.
        return answer_seat(reply, S.STALE, "info", text, talk_sent=bool(talk_sent), summary=summary)
    # A seat with nothing to decide has no decision seq: an email written since the latest
    # event (table talk, an answer) carries the log's length. A move in reply to it is not
    # late: it is refused with the reason, nothing to decide (`commands is None` below).
    latest_with_nothing_open = clock.seq is None and reply.token_seq >= reply.head
    if clock.seq != reply.token_seq and not (policy_only or taking_back or latest_with_nothing_open):
        # The answer opens with "the game has moved on" (templates/emails/answer.txt): once.
        text = _("Your reply answered an earlier email.")
        summary = with_talk(_("too late for that decision"), talk_sent)
        return answer_seat(reply, S.STALE, "stale", text, summary=summary)
    if commands is None:
        if reading.order_refused:
            refused = _("an order")
        elif clock.seq is None:  # with no decision open, what matters is that nothing is asked
            refused = _("nothing to decide now")
        else:
            refused = not_understood(reply.state, reply.seat, refused_by_rules=reading.not_allowed)
        summary = with_talk(refused, talk_sent)
        return answer_seat(
            reply, S.REJECTED, "rejected", reading.error_text, talk_sent=bool(talk_sent), summary=summary
        )
    return None


def _play(reply: Reply, commands: list[dict]) -> str:
    """Play the reply's commands (or its take-back) with the seat's next prompt held, so that the
    answer is written first; then release that prompt and start the bots (after the commit)."""
    with outbox.holding_prompts(reply.seat.pk):
        if commands == [{"type": rules.TAKE_BACK}]:
            status = inbound_orders.take_back(reply)
        else:
            status = inbound_orders.submit(reply, commands)
    # After the answer (written by `submit`): the seat's next prompt, then the bots.
    outbox.release_prompts(reply.seat)
    now_state, _head = store.load(reply.game)
    if bot_seats_pending(reply.game, now_state):
        bot_tasks.enqueue_after_commit(reply.game.pk)
    return status


def _latest_prompt_seq(clock: SeatClock) -> int:
    """The decision seq of the seat's latest prompt: its open decision's when one is open, else
    that of the last prompt written for it (`clock.last_prompt_seq`, kept with every prompt
    written), whatever became of that prompt: one dropped unsent because its decision was
    answered first, on the page or from a push, counts too; 0 when it never had one. A reply
    address carries the seq of its email: standing orders and policies are taken only from an
    email that is not older than this (docs/security.md, "Reply addresses"), so that the last
    email that did go out does not stay "the latest" for a player who plays on the page."""
    return max(clock.seq or 0, clock.last_prompt_seq or 0)


def stale_inbound_ids(*, older_than_seconds: int) -> list[int]:
    """Inbound emails received but not processed after `older_than_seconds` (their task was lost)."""
    cutoff = timezone.now() - timedelta(seconds=older_than_seconds)
    return list(
        InboundEmail.objects.filter(status=InboundEmail.Status.RECEIVED, received_at__lt=cutoff).values_list(
            "pk", flat=True
        )
    )


# Errors worth another try a little later: a lost race with a concurrent command, a database blip.
TRANSIENT = (store.ConcurrencyConflict, OperationalError)


@shared_task(
    name="notifications.tasks.process_inbound",
    autoretry_for=TRANSIENT,
    retry_backoff=True,
    retry_backoff_max=60,
    max_retries=5,
)
def process_inbound_task(inbound_id: int) -> str:
    """Act on a received email and answer it (`process`)."""
    return process(inbound_id)
