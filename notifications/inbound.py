"""Inbound email: a reply in, commands through `submit_command`, an answer out.

Two doors, one path: anymail's inbound webhooks (the provider's authentication is checked by
anymail's view, which then sends its `inbound` signal; we never read provider JSON) and
`manage.py receive_email < message.eml` (a mail server's pipe). Both store the raw message once
per Message-ID (`receive`), then `process` it:

1. Auto-replies, bounces and mailing-list mail are dropped without an answer (no mail loops).
2. The reply token in the recipient address (`notifications.tokens`), not the From header, says
   which game, seat and decision the reply is for. No token, or a token that does not verify:
   the sender gets a short answer naming no game, and nothing is played.
3. Under the game's row lock: a reply whose decision has moved on is *stale* (nothing played, the
   answer shows the current decision), except a reply holding only standing orders and policies
   (taken from an email not older than the seat's latest prompt, `_latest_prompt_seq`; from an
   older one they are refused: an old or forwarded email must not play the seat through its
   orders), and a take-back ("take back", "undo"), judged on what the replied email showed
   (`_take_back`); otherwise
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
from email.utils import getaddresses, parseaddr

from anymail.inbound import AnymailInboundMessage
from anymail.signals import inbound as anymail_inbound
from celery import shared_task
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import OperationalError, transaction
from django.db.models import Q
from django.dispatch import receiver
from django.utils import timezone, translation
from django.utils.encoding import punycode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import rules, store
from games.models import Game, Seat
from games.play import standing_orders, standins, take_backs
from games.play import tasks as bot_tasks
from games.play.bot_seats import bot_seats_pending
from games.play.commands import submit_command
from games.play.models import SeatClock
from games.play.standing_orders import OrderError
from games.story.descriptions import describe_command
from notifications import acceptances, inbound_hooks, outbox, prompts, wording
from notifications import talk as table_talk
from notifications.command_language import ANY_TIME, found_no_command, move_test, parse_reply
from notifications.models import InboundEmail, Outbox
from notifications.tokens import token_in_address
from players import preferences
from players.models import Player
from players.signed_tokens import BadToken, check_reply_token, read_reply_token

logger = logging.getLogger(__name__)

# Message-IDs we write carry "inis-<game>-<colour>" (prompts) or "inis-game-<game>-<colour>"
# (the thread root): a reply's In-Reply-To / References name the game it answers.
THREAD_ID = re.compile(r"inis-(?:game-)?(\d+)-(?:green|blue|orange|white)\b", re.I)
AUTO_SUBJECT = re.compile(
    r"^\s*(auto(matic)?[ -]?(reply|response)|autoreply|auto:|out of (the )?office|absence|"
    r"r[ée]ponse automatique|abwesenheit|undeliver|delivery status|mail delivery|returned mail)",
    re.I,
)
AUTO_SENDER = re.compile(r"^(mailer-daemon|postmaster|no-?reply|do-?not-?reply|bounces?)([+@.-]|$)", re.I)
BULK_PRECEDENCE = {"bulk", "junk", "list", "auto_reply", "auto-reply"}
# Control characters (but tab and line ends) never belong in a reply, and PostgreSQL text refuses
# NUL: they are dropped before the text is read, echoed or stored.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def clean(text: str) -> str:
    """`text` without control characters (tab and line ends kept)."""
    return CONTROL.sub("", text or "")


def automatic_reason(message: AnymailInboundMessage) -> str | None:
    """Why `message` is an automatic message (an out-of-office, a bounce, list mail), or None for
    a message a person wrote. RFC 3834 (Auto-Submitted), the de-facto X-Autoreply / X-Autorespond
    / Precedence headers, delivery reports, null senders, robot senders and auto-reply subjects."""
    auto = (message.get("Auto-Submitted") or "").strip().lower()
    if auto and auto != "no":
        return f"Auto-Submitted: {auto}"
    for header in ("X-Autoreply", "X-Autorespond", "X-Autorespond-Original", "X-Auto-Reply"):
        if message.get(header) is not None:
            return header
    for header in ("Precedence", "X-Precedence"):
        if (message.get(header) or "").strip().lower() in BULK_PRECEDENCE:
            return f"{header}: {message.get(header)}"
    if message.get("List-Id") or message.get("List-Unsubscribe"):
        return "mailing-list mail"
    if message.get_content_type() == "multipart/report":
        return "a delivery report"
    if (message.get("Return-Path") or "").strip() == "<>":
        return "null sender (a bounce)"
    sender = _from_address(message)
    if AUTO_SENDER.match(sender):
        return f"robot sender {sender}"
    ours = {parseaddr(settings.DEFAULT_FROM_EMAIL)[1].lower(), parseaddr(settings.INBOUND_EMAIL)[1].lower()}
    if sender.lower() in ours or token_in_address(sender) is not None:
        return "our own address (a loop)"
    if AUTO_SUBJECT.match(message.get("Subject") or ""):
        return f"auto-reply subject {message.get('Subject')!r}"
    return None


def _from_address(message) -> str:
    return clean(parseaddr(str(message.get("From") or ""))[1])


def message_key(message: AnymailInboundMessage, raw: bytes) -> str:
    """The message's idempotency key: its Message-ID (without <>), or the sha256 of the raw bytes
    when it has none; hashed when too long for the key columns."""
    mid = clean(str(message.get("Message-ID") or "")).strip().strip("<>").strip()
    key = mid or "sha256:" + hashlib.sha256(raw).hexdigest()
    if len(key) > 200:
        key = "sha256:" + hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()
    return key


def receive(
    raw: bytes, *, source: str, envelope_to: str = "", enqueue: bool = True
) -> tuple[InboundEmail, bool]:
    """Store the raw message `raw` (RFC 822 bytes) once; returns `(row, created)`.

    A second delivery of the same message (same key) returns the first row with created=False
    and changes nothing. With `enqueue`, processing is queued after the commit (the webhook path);
    the pipe path calls `process` itself.
    """
    message = AnymailInboundMessage.parse_raw_mime_bytes(raw)
    key = message_key(message, raw)
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
    receive(
        _raw_bytes(message),
        source=str(esp_name).lower(),
        envelope_to=getattr(message, "envelope_recipient", None) or "",
    )


def _token_of(message, envelope_to: str) -> str | None:
    """The plus part of the first of our reply addresses among the recipients, or None."""
    candidates = [envelope_to]
    for header in ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To", "X-Envelope-To"):
        for value in message.get_all(header) or []:
            candidates += [addr for _name, addr in getaddresses([str(value)])]
    for address in candidates:
        token = token_in_address(address or "")
        if token is not None:
            return token
    return None


def _games_named(message) -> set[int]:
    text = " ".join(str(message.get(h) or "") for h in ("In-Reply-To", "References"))
    return {int(g) for g in THREAD_ID.findall(text)}


def reply_text(message) -> str:
    """The text a person wrote: the text/plain part, or the HTML part when there is none (the
    command language reads HTML); "" when the message has no readable body."""
    try:
        text = message.text
        if not (text and text.strip()):
            text = message.html or ""
    except (LookupError, ValueError, UnicodeError):  # an unknown charset, a garbled body
        return ""
    return clean(text)


# A Message-ID we copy into an answer's headers: one <...> token, no space, CR or LF (an encoded
# word in the header can decode to a line break, and an API mail backend would pass it on).
THREADABLE_MESSAGE_ID = re.compile(r"<[^<>\s]+>")


def _threaded(email: prompts.RenderedEmail, message) -> prompts.RenderedEmail:
    """`email` as an answer to `message`: In-Reply-To its Message-ID, added to References —
    only a Message-ID matching `<[^<>\\s]+>`; for any other, the answer is not threaded."""
    mid = str(message.get("Message-ID") or "").strip()
    if not THREADABLE_MESSAGE_ID.fullmatch(mid):
        return email
    headers = dict(email.headers)
    headers["In-Reply-To"] = mid
    headers["References"] = " ".join(x for x in (headers.get("References"), mid) if x)
    return dataclasses.replace(email, headers=headers)


def _may_answer(address: str, *, seat: Seat | None = None) -> bool:
    """Whether an answer may go to `address`: a deliverable address (a forged From can be any
    text, e.g. 300 characters that fit no mailbox) not already answered too often this hour.

    seat: the seat answered, when the mail carried its valid reply token; its answers that
    carry a reply address are counted per seat (`_recent_answers`). None: an answer to mail
    without a valid reply token, counted among such answers to `address` only, so that
    strangers forging a player's From never spend the answers that player's own replies get
    (EMAIL_ANSWERS_PER_HOUR each)."""
    if not address or len(address) > 254:
        return False
    try:
        validate_email(address)
        # The validator takes any character above U+00A0 as a letter of an international domain,
        # the replacement character of garbled bytes included, which no mail can be sent to.
        punycode(address.rpartition("@")[2])
    except (ValidationError, UnicodeError):
        return False
    return _recent_answers(address, seat).count() < settings.EMAIL_ANSWERS_PER_HOUR


def _recent_answers(address: str, seat: Seat | None):
    """The answers of the last hour that count against the cap (see `_may_answer`). A seat's:
    those that carry a reply address (`Reply-To`), the only ones a mail loop can go round
    through; an answer to a reply that played something has none (`_answer_seat`), and never
    counts."""
    recent = Outbox.objects.filter(
        kind=Outbox.Kind.ANSWER, created_at__gte=timezone.now() - timedelta(hours=1)
    )
    if seat is not None:
        return recent.filter(seat=seat, headers__has_key="Reply-To")
    return recent.filter(seat__isnull=True, to_email__iexact=address)


PAUSED_ABOUT = gettext_noop("answers paused")  # the notice's subject: "Notice: answers paused — Inis <game>"
# The notice's subject as templates/emails/notice.subject.txt writes it (its catalog's sentence).
NOTICE_SUBJECT = "Notice: %(about)s — Inis %(game_id)s"


def _paused_subjects() -> Q:
    """Subjects of the pause notice, in every language (the player may have changed theirs)."""
    found = Q(pk__in=[])
    for code, _name in settings.LANGUAGES:
        with translation.override(code):
            found |= Q(
                subject__startswith=translation.gettext(NOTICE_SUBJECT)
                % {"about": _(PAUSED_ABOUT), "game_id": ""}
            )
    return found


def _first_reply_to_prompt(row: InboundEmail, seat: Seat) -> bool:
    """Whether `row` is the seat's first reply since its latest prompt: the cap never hides the
    answer to that one (a player who got a prompt always learns what became of their reply,
    rejected or too late)."""
    prompted = (
        Outbox.objects.filter(seat=seat, kind=Outbox.Kind.PROMPT)
        .order_by("-created_at")
        .values_list("created_at", flat=True)
        .first()
    )
    earlier = (
        InboundEmail.objects.filter(seat=seat).exclude(pk=row.pk).exclude(status=InboundEmail.Status.RECEIVED)
    )
    if prompted is not None:
        earlier = earlier.filter(received_at__gte=prompted)
    return not earlier.exists()


def _pause_notice(game, seat, state, clock, talk_sent: bool = False) -> prompts.RenderedEmail | None:
    """The one short notice an hour that answers to the seat are paused (its replies are still
    played), or None when one went out within the hour. It says until when, in the player's
    time zone, and carries the reply address of the seat's open decision. talk_sent: the
    reply's move was not played but its table talk was sent (then it does not say "nothing
    changed")."""
    recent = _recent_answers(seat.email, seat)
    if recent.filter(_paused_subjects()).exists():
        return None
    # Answers resume when fewer than the cap remain within the hour, this notice included.
    times = list(recent.order_by("created_at").values_list("created_at", flat=True))
    times.append(timezone.now())
    cap = settings.EMAIL_ANSWERS_PER_HOUR
    until = times[len(times) - cap] + timedelta(hours=1) if len(times) >= cap else timezone.now()
    player = preferences.player_for(seat.email)
    outcome = (
        _("The move in your last reply was not played; its message was sent.")
        if talk_sent
        else _("Your last reply was not played: nothing changed.")
    )
    message = (
        outcome
        + " "
        + _(
            "Your replies are still read and played, but answers to them are paused until {until} (at "
            "most {cap} an hour). Your page, and each new prompt, show where the game is."
        ).format(until=prompts.format_deadline(until, player.time_zone), cap=cap)
    )
    reply_seq = clock.seq if clock is not None and clock.seq is not None else state.seq
    email = prompts.notice_email(
        prompts.Recipient.of(seat, player),
        state,
        message=message,
        decision_seq=reply_seq,
        about=_(PAUSED_ABOUT),
    )
    return dataclasses.replace(email, headers={**email.headers, "Auto-Submitted": "auto-replied"})


def _answer_stranger(row: InboundEmail, message, reason: str) -> str:
    """A short answer to the From address of a message we cannot tie to a seat (names nothing)."""
    address = _from_address(message)
    if not _may_answer(address):
        return " No answer (rate limit or no sender)."
    language = (
        Player.objects.filter(email=address.strip().lower()).values_list("language", flat=True).first()
        or "en"
    )  # the sender's, when the address is a player's
    with translation.override(language):
        subject = " ".join(clean(str(message.get("Subject") or _("your email"))).split())[:150]
        email = _threaded(
            prompts.stranger_email(to_subject=subject, reason=_(reason), language=language), message
        )
    outbox.enqueue(kind=Outbox.Kind.ANSWER, to_email=address, email=email, seq=0)
    return " Answered."


def _send_unseated(message, answer: inbound_hooks.UnseatedAnswer) -> str:
    """Send a higher room's answer (`inbound_hooks`) to the sender, under the cap of answers to
    mail without a seat's token."""
    address = _from_address(message)
    if answer.email is None or not _may_answer(address):
        return " No answer (rate limit or no sender)."
    outbox.enqueue(kind=Outbox.Kind.ANSWER, to_email=address, email=_threaded(answer.email, message), seq=0)
    return " Answered."


def _finish(row: InboundEmail, status: str, detail: str, *, game=None, seat=None) -> str:
    InboundEmail.objects.filter(pk=row.pk).update(
        status=status, detail=clean(detail)[:5000], processed_at=timezone.now(), game=game, seat=seat
    )
    return status


def process(inbound_id: int) -> str:
    """Act on the stored message `inbound_id` once and answer it; returns its final status (an
    `InboundEmail.Status` value). A message already processed is left as it is. See the module
    docstring for the steps. Raises InboundEmail.DoesNotExist for an unknown id; an unexpected
    error marks the message FAILED and is raised again (nothing is played then)."""
    try:
        with transaction.atomic():
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


def _process(row: InboundEmail) -> str:
    S = InboundEmail.Status
    message = AnymailInboundMessage.parse_raw_mime_bytes(bytes(row.raw))
    reason = automatic_reason(message)
    if reason:
        return _finish(row, S.DROPPED, f"Dropped: {reason}.")
    token = _token_of(message, row.envelope_to)
    unseated = inbound_hooks.answer_unseated(token, reply_text(message), _from_address(message))
    if unseated is not None:  # `list`, `join N` (the open tables, docs/email-commands.md)
        return _finish(row, unseated.status, unseated.detail + _send_unseated(message, unseated))
    if token is None:
        note = _answer_stranger(row, message, gettext_noop("it was not sent to a game's reply address."))
        return _finish(row, S.NO_TOKEN, "No reply token." + note)
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
        return _finish(row, S.BAD_TOKEN, f"Invalid reply token: {error}." + note)
    # From here on everything the seat reads is in its player's language, the rules' refusals
    # and the command language's messages included (both follow the active language).
    with translation.override(preferences.player_for(seat.email).language or "en"):
        return _process_for_seat(row, message, ref, seat)


def _process_for_seat(row: InboundEmail, message, ref, seat: Seat) -> str:
    S = InboundEmail.Status
    game = seat.game
    named = _games_named(message)
    if named and game.pk not in named:
        text = _(
            "This email was sent to the reply address of game {game}, but it answers an "
            "email of game {games}. Nothing was played: to play in a game, reply to that "
            "game's own email."
        ).format(game=game.pk, games=", ".join(str(g) for g in sorted(named)))
        return _answer_seat(
            row, message, game, seat, S.REJECTED, "info", text, summary=_("this reply went to another game")
        )
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game.pk)  # before the clock: store's order
        clock, _created = SeatClock.objects.select_for_update().get_or_create(
            seat=seat, defaults={"game": game}
        )
        note = ""
        if clock.stand_in:
            standins.come_back(clock)
            note = _("Welcome back: the bot no longer plays your seat.")
        if game.is_over:
            talk = table_talk.split(reply_text(message))
            closed = _(" Table talk is closed too: your message was not sent.") if talk.talk else ""
            return _answer_seat(
                row,
                message,
                game,
                seat,
                S.STALE,
                "info",
                _("This game is over; nothing more can be played.") + closed,
                note=note,
                summary=_("the game is over"),
            )
        state, head = store.load(game)
        player = preferences.player_for(seat.email)
        # A line under a message's first line that is a move now ends the message: "say: Good
        # luck" then "pretender" is a message and a move (docs/email-commands.md, "Table talk").
        is_move = move_test(state, seat.colour, language=player.language)
        talk = table_talk.split(reply_text(message), is_move=is_move)
        # Table talk first (docs/press.md): sent whatever becomes of a move in the same reply.
        said = table_talk.send(game=game, seat=seat, talk=talk.talk)
        moved = " ".join(
            _("I read the line “{line}”, under your message, as a move, not as words of the message.").format(
                line=line[:80]
            )
            for line in talk.moves_under_talk
        )
        welcome, note = note, " ".join(x for x in (note, said.words, moved) if x)
        unread = ""
        try:
            commands = (
                []
                if talk.talk and talk.commands is None
                else parse_reply(talk.commands, state, seat.colour, language=player.language)
            )
        except rules.CommandError as error:
            if talk.talk and found_no_command(error):
                # Beside table talk, lines that are no command at all ("Hi," a name) are no move.
                commands, unread = [], _(" Nothing else in your reply was read as a move.")
            else:
                # A move misread or refused is answered with its reason, beside talk too.
                commands, error_text = None, str(error)
        if talk.talk and commands == []:
            status = S.ACCEPTED if said.sent else S.REJECTED
            return _answer_seat(
                row,
                message,
                game,
                seat,
                status,
                "accepted" if said.sent else "rejected",
                said.words + unread,
                note=welcome,
                state=state,
                clock=clock,
                summary=said.summary,
            )
        talk_sent = _talk_sent(said)
        policy_only = bool(commands) and all(c["type"] in ANY_TIME for c in commands)
        # A take-back answers no decision: it is judged on what the email showed (`_take_back`).
        taking_back = commands == [{"type": rules.TAKE_BACK}]
        if policy_only and clock.seq != ref.seq and ref.seq < _latest_prompt_seq(seat, clock):
            return _answer_seat(
                row,
                message,
                game,
                seat,
                S.STALE,
                "stale",
                _(
                    "This email is older than your latest prompt: orders can be set or cancelled only by "
                    "replying to your latest email, or on your game page. Nothing was changed."
                ),
                note=note,
                state=state,
                clock=clock,
                talk_sent=bool(talk_sent),
                summary=_with_talk(_("orders from an older email"), talk_sent),
            )
        if clock.seq != ref.seq and not policy_only and not taking_back:
            text = _("Your reply answered an earlier email: the game has moved on since.")
            return _answer_seat(
                row,
                message,
                game,
                seat,
                S.STALE,
                "stale",
                text,
                note=note,
                state=state,
                clock=clock,
                summary=_with_talk(_("too late for that decision"), talk_sent),
            )
        if commands is None:
            return _answer_seat(
                row,
                message,
                game,
                seat,
                S.REJECTED,
                "rejected",
                error_text,
                note=note,
                state=state,
                clock=clock,
                talk_sent=bool(talk_sent),
                summary=_with_talk(_not_understood(state, seat), talk_sent),
            )
        with outbox.holding_prompts(seat.pk):
            if taking_back:
                status = _take_back(row, message, game, seat, clock, state, head, ref.seq, note, talk_sent)
            else:
                status = _submit(
                    row, message, game, seat, clock, state, head, ref.seq, commands, note, talk_sent
                )
        # After the answer (written by _submit): the seat's next prompt, then the bots.
        outbox.release_prompts(seat)
        now_state, _head = store.load(game)
        if bot_seats_pending(game, now_state):
            bot_tasks.enqueue_after_commit(game.pk)
        return status


def _latest_prompt_seq(seat: Seat, clock: SeatClock) -> int:
    """The decision seq of the seat's latest prompt (its open decision's when one is open, else
    that of the last prompt written for it and not skipped; 0 when it never had one). A reply
    address carries the seq of its email: standing orders and policies are taken only from an
    email that is not older than this (docs/security.md, "Reply addresses")."""
    latest = (
        Outbox.objects.filter(seat=seat, kind=Outbox.Kind.PROMPT, decision_seq__isnull=False)
        .exclude(status=Outbox.Status.SKIPPED)
        .order_by("-decision_seq")
        .values_list("decision_seq", flat=True)
        .first()
    )
    return max(latest or 0, clock.seq or 0)


def _talk_sent(said) -> str:
    """The messages of a reply that were sent, in a few words ("your message to everyone"), or
    "" when none was."""
    return said.sent_summary if said.sent else ""


def _with_talk(summary: str, talk_sent: str) -> str:
    """An answer's subject words when the reply's move was not played but its messages were
    sent: both are said, so that "Rejected" never reads as "your message was not sent"."""
    if not talk_sent:
        return summary
    return _("{refused}; sent: {messages}").format(refused=summary, messages=talk_sent)


def _not_understood(state, seat) -> str:
    """The subject's words for a reply that was not understood: what it was to decide."""
    mine = [d for d in rules.pending_for(state, seat.colour) if d.seat == seat.colour]
    if not mine:
        return _("not understood")
    return _("not understood ({decisions})").format(decisions=wording.decisions_title(mine, seat.colour))


# The rules service adds how far the log moved since the prompt, in events ("(The game has moved
# on since your prompt: 12 → 15 events.)", in any language): engine words that a player need not
# read (the answer says the game moved on when it matters).
MOVED_ON = re.compile(r"\s*\([^()]*\d+ → \d+[^()]*\)")


def _submit(row, message, game, seat, clock, state, head, token_seq, commands, note, talk_sent="") -> str:
    S = InboundEmail.Status
    # The decision first: if the rules refuse it, the policies and orders with it are not set.
    ordered = sorted(commands, key=lambda c: c["type"] in ANY_TIME)
    done = []
    for index, command in enumerate(ordered):
        if command["type"] in ("standing_order", "cancel_order"):
            listed_then = _orders_listed(row, message, seat) if command["type"] == "cancel_order" else None
            try:
                done.append(standing_orders.carry_out(game, seat, command, listed_then=listed_then))
            except OrderError as error:
                text = _("I read an order, but could not keep it: {why}").format(why=error)
                if done:
                    text = _("Played: {commands}.").format(commands=_listing(done)) + "\n" + text
                now_state, _head = store.load(game)
                return _answer_seat(
                    row,
                    message,
                    game,
                    seat,
                    S.ACCEPTED if done else S.REJECTED,
                    "rejected",
                    text,
                    note=note,
                    state=now_state,
                    clock=SeatClock.objects.get(pk=clock.pk),
                    talk_sent=bool(talk_sent),
                    summary=_with_talk(_("an order"), talk_sent),
                )
            continue
        policy = command["type"] == "set_policy"
        described = _policy_words(command) if policy else describe_command(state, command)
        result = submit_command(
            game=game,
            seat=seat,
            command=command,
            expected_seq=store.head(game)[0] if policy else token_seq,
            command_id=f"email:{row.message_key}:{index}",
            play_bots=False,
        )
        if not result.accepted:
            text = _("I read “{command}”, but the rules refused it: {why}").format(
                command=described, why=MOVED_ON.sub("", result.message)
            )
            if done:
                text = _("Played: {commands}.").format(commands=_listing(done)) + "\n" + text
            status = S.ACCEPTED if done else S.REJECTED
            now_state, _head = store.load(game)
            return _answer_seat(
                row,
                message,
                game,
                seat,
                status,
                "rejected",
                text,
                note=note,
                state=now_state,
                clock=SeatClock.objects.get(pk=clock.pk),
                talk_sent=bool(talk_sent),
                summary=_with_talk(_("“{command}”").format(command=described), talk_sent),
            )
        done.append(described + (_(" (already received)") if result.duplicate else ""))
    if {c["type"] for c in ordered} - set(ANY_TIME) and any(c["type"] == "standing_order" for c in ordered):
        done += _play_new_orders(game, seat)
    read_as = _("I read your reply as: {commands}.").format(commands=_listing(done))
    return _accepted(row, message, game, seat, read_as=read_as, summary=_listing(done), note=note)


def _listing(parts: list[str]) -> str:
    """What a reply did, one part after another ("Pass; standing order kept: Always refuse
    peace"): each part's own full stop dropped, so that the sentence around it ends with one."""
    return "; ".join(part[:-1] if part.endswith(".") else part for part in parts)


def _play_new_orders(game, seat) -> list[str]:
    """The orders a reply set, played on the decision that the same reply's move opened for the
    seat (an order answers the decisions that arise after it was set: this one arose a moment
    before, from the same reply). As the command path plays orders: the seat's command, keyed
    `order:<colour>:<seq>`. Returns what was played, in words ([] when no order answers)."""
    state, head = store.load(game)
    seat.has_standing_orders = True  # what `ordered_seat` reads (`standing_orders.mark_seats`)
    found = standing_orders.ordered_seat(game, [seat], state)
    if found is None:
        return []
    command = found[1]
    result = submit_command(
        game=game,
        seat=seat,
        command=command,
        expected_seq=head,
        command_id=f"order:{seat.colour}:{head}",
        play_bots=False,
    )
    if not result.accepted:
        return []
    return [_("your new order played: {command}").format(command=describe_command(state, command))]


def _orders_listed(row: InboundEmail, message, seat: Seat) -> dict[int, str] | None:
    """The standing orders as numbered in the email this reply answers (`standing_orders.
    read_listed`: "cancel order 3" means its order 3, however the list changed since), or None
    when that email is not known or listed none: the numbers are then those of the list now.
    The email answered: the one the reply's In-Reply-To names, else the latest sent to the seat
    with the reply address the reply was sent to."""
    sent = Outbox.objects.filter(seat=seat, status=Outbox.Status.SENT).order_by("-id")
    answered = None
    mid = str(message.get("In-Reply-To") or "").strip()
    if THREADABLE_MESSAGE_ID.fullmatch(mid):
        answered = sent.filter(**{"headers__Message-ID": mid}).first()
    token = _token_of(message, row.envelope_to)
    if answered is None and token:
        answered = sent.filter(**{"headers__Reply-To__icontains": token}).first()
    found = standing_orders.read_listed(answered.body_text) if answered is not None else {}
    return found or None


def _accepted(row, message, game, seat, *, read_as: str, summary: str, note: str) -> str:
    """Answer a reply that played (`read_as`: what it was read as, and what it did), with what the
    seat must decide now; held for the seat's next prompt (`_answer_seat`)."""
    now_state, _head = store.load(game)
    return _answer_seat(
        row,
        message,
        game,
        seat,
        InboundEmail.Status.ACCEPTED,
        "accepted",
        read_as + " " + _what_next(now_state, seat.colour),
        note=note,
        state=now_state,
        clock=None,
        summary=summary,
        hold=read_as,
    )


def _take_back(row, message, game, seat, clock, state, head, token_seq, note, talk_sent="") -> str:
    """A reply "take back" (docs/email-commands.md, "Taking back your last move"): the seat's
    last move taken back (`games.play.take_backs`), under the game's row lock.

    The player saw what the reply's email showed, not the log's head now: the log up to the
    token's seq `token_seq`, and the seat's own move made in reply to that email (its
    `client_seq`). So the take-back names the head only when the token is at the head or the
    log's last command is the seat's move answering that very email; a reply to an older email
    is refused, as the web refuses an older page. The refusals are `take_back_refusal`'s (another
    seat acted since, a move made for the seat, the game is over) and the rules' (the move
    revealed something hidden). Accepted: the answer is held for the seat's prompt of the
    decision it makes again (one email, as for a move); refused: the reason, the seat's decision
    as it stands, nothing written. Idempotent by the reply's message key, like every reply."""
    S = InboundEmail.Status
    summary = _("Take back your last move")
    last = take_backs.last_command(game)
    refusal = take_backs.take_back_refusal(state, head, seat, last)
    if refusal is None and token_seq != head and last.client_seq != token_seq:
        refusal = _("Your reply answered an earlier email: the game has moved on since.")
    if refusal is None:
        result = take_backs.take_back(
            game=game, seat=seat, expected_seq=head, command_id=f"email:{row.message_key}:0", play_bots=False
        )
        refusal = None if result.accepted else result.message
    if refusal is not None:
        text = (
            _("I read your reply as: {commands}.").format(commands=summary)
            + " "
            + _("It was not taken back: {why}").format(why=refusal)
            + " "
            + _(
                "A move can be taken back only by the player who made it, while nobody has acted since "
                "and if it revealed nothing hidden."
            )
        )
        return _answer_seat(
            row,
            message,
            game,
            seat,
            S.REJECTED,
            "rejected",
            text,
            note=note,
            state=state,
            clock=clock,
            talk_sent=bool(talk_sent),
            summary=_with_talk(_("“{command}”").format(command=summary), talk_sent),
        )
    read_as = _("I read your reply as: {commands}.").format(commands=summary) + " " + result.message
    return _accepted(row, message, game, seat, read_as=read_as, summary=summary, note=note)


def _policy_words(command: dict) -> str:
    card = command.get("card")
    which = _("every Triskel card") if card == "all" else rules.card_name(card)
    if command.get("policy") == "never":
        return _("standing policy: never ask me about {cards}").format(cards=which)
    return _("standing policy: ask me about {cards}").format(cards=which)


def _what_next(state, colour: str) -> str:
    """What comes next for the seat, true however the other seats and bots move meanwhile: the
    answer is read after them (no "waiting for ..." that could be out of date)."""
    if rules.is_over(state):
        return _("The game is over: the final email follows.")
    if any(d.seat == colour for d in rules.pending_for(state, colour)):
        return _("Your next move is on your page and in your next email.")
    return _("Nothing more is asked of you for now: you will get an email when it is your move.")


def _answer_seat(
    row,
    message,
    game,
    seat,
    status,
    outcome,
    text,
    *,
    note="",
    state=None,
    clock=None,
    summary="",
    talk_sent=False,
    hold: str | None = None,
) -> str:
    """Answer the seat (at its own address, never the From) and record the outcome.

    hold: for a reply that played something, the sentence that says what was read: the
    acceptance is then held for the seat's next prompt, which says it (`notifications.
    acceptances`), and goes alone only when no prompt comes within ACCEPTANCE_GRACE.

    An accepted answer has no reply address: the seat's next prompt, sent right after it, has
    the only one that is valid (one written here could be stale by the time it is read, once the
    bots have moved). Other answers (nothing was played) carry the reply address of the seat's
    open decision, shown again in the answer; with nothing open, one for standing policies.

    A reply that played something (accepted) is always answered, however fast the player
    plays, and so is the first reply since the seat's latest prompt; the others (they changed
    nothing) only while the seat's answers with a reply address stay under
    EMAIL_ANSWERS_PER_HOUR, then one pause notice an hour (`_pause_notice`).

    talk_sent: the reply's move was refused but its table talk was sent (the answer says so,
    never "nothing changed").
    """
    detail = f"{outcome}: {text}"
    changed_nothing = status in (InboundEmail.Status.REJECTED, InboundEmail.Status.STALE)
    if (
        status == InboundEmail.Status.ACCEPTED
        or _may_answer(seat.email, seat=seat)
        or _first_reply_to_prompt(row, seat)
    ):
        if state is None:
            state, _head = store.load(game)
        if clock is None:
            clock = SeatClock.objects.filter(seat=seat).first()
        player = preferences.player_for(seat.email)
        if outcome == "accepted":
            reply_seq, deadline = None, None
        else:
            reply_seq = clock.seq if clock is not None and clock.seq is not None else state.seq
            deadline = clock.deadline if clock is not None else None
        email = prompts.answer_email(
            prompts.Recipient.of(seat, player),
            state,
            outcome=outcome,
            message=text,
            decision_seq=reply_seq,
            note=note,
            deadline=deadline,
            summary=summary,
            talk_sent=talk_sent,
        )
        threaded = _threaded(email, message)
        if hold is not None:
            acceptances.hold(
                game=game,
                seat=seat,
                email=threaded,
                seq=state.seq,
                accepted=acceptances.Accepted(
                    summary=prompts.short(summary),
                    message=hold,
                    note=note,
                    in_reply_to=threaded.headers.get("In-Reply-To", "") if threaded is not email else "",
                    references=threaded.headers.get("References", "") if threaded is not email else "",
                ),
            )
            if rules.is_over(state):
                # No prompt follows: the game-over email this reply's move wrote says it.
                acceptances.fold_into_game_over(seat.pk, seat.email, language=player.language)
                detail += " (said in the game-over email)"
            else:
                detail += " (acceptance held for the next prompt)"
        else:
            outbox.enqueue(
                kind=Outbox.Kind.ANSWER,
                to_email=seat.email,
                email=threaded,
                seq=state.seq,
                game=game,
                seat=seat,
            )
    else:
        detail += " (not answered: rate limit)"
        if changed_nothing:
            if state is None:
                state, _head = store.load(game)
            if clock is None:
                clock = SeatClock.objects.filter(seat=seat).first()
            notice = _pause_notice(game, seat, state, clock, talk_sent)
            if notice is not None:
                outbox.enqueue(
                    kind=Outbox.Kind.ANSWER,
                    to_email=seat.email,
                    email=_threaded(notice, message),
                    seq=state.seq,
                    game=game,
                    seat=seat,
                )
                detail += "; told that answers are paused"
    return _finish(row, status, detail, game=game, seat=seat)


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
