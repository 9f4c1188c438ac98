"""Inbound email, the answer: what a reply to a seat is answered, and when (`notifications.inbound`).

`Reply` holds what every step of a reply's path reads (the stored message, its game and seat, the
seat's clock and the game's state when known, the note that opens the answer); `answer_seat`
answers the seat at its own address under the cap of answers (EMAIL_ANSWERS_PER_HOUR), or holds
the acceptance of a reply that played for the seat's next prompt (`notifications.acceptances`).
"""

from __future__ import annotations

import dataclasses
import re
from datetime import timedelta
from email.utils import getaddresses
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db.models import Q
from django.utils import timezone, translation
from django.utils.encoding import punycode
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import rules, store
from games.models import Game, Seat
from games.play.models import SeatClock
from notifications import acceptances, outbox, prompts, wording
from notifications.mail_headers import header as mail_header
from notifications.mail_headers import header_values
from notifications.models import InboundEmail, Outbox
from notifications.tokens import token_in_address
from players import preferences
from players.email_addresses import canonical_address, mailbox_key

# Control characters (but tab and line ends) never belong in a reply, and PostgreSQL text refuses
# NUL: they are dropped before the text is read, echoed or stored.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# A Message-ID we copy into an answer's headers: one <...> token, no space, CR or LF (an encoded
# word in the header can decode to a line break, and an API mail backend would pass it on).
THREADABLE_MESSAGE_ID = re.compile(r"<[^<>\s]+>")
PAUSED_ABOUT = gettext_noop("answers paused")  # the notice's subject: "Notice: answers paused — Inis <game>"
# The notice's subject as templates/emails/notice.subject.txt writes it (its catalog's sentence).
NOTICE_SUBJECT = "Notice: %(about)s — Inis %(game_id)s"


@dataclasses.dataclass(frozen=True)
class Reply:
    """A reply tied to a seat by its token, as each step of its path reads it.

    row: the stored message; message: it parsed (an `AnymailInboundMessage`); game, seat: those
    its token names; clock, state, head: the seat's clock, the game's state and log head as read
    under the game's row lock (None / 0 before, or when an answer reads them afresh); token_seq:
    the decision seq its reply address carries; note: what opens the answer ("Welcome back",
    the table talk sent); talk_sent: the table talk sent, in a few words ("" when none was).
    """

    row: InboundEmail
    message: Any
    game: Game
    seat: Seat
    clock: SeatClock | None = None
    state: Any = None
    head: int = 0
    token_seq: int = 0
    note: str = ""
    talk_sent: str = ""


def clean(text: str) -> str:
    """`text` without control characters (tab and line ends kept)."""
    return CONTROL.sub("", text or "")


def token_of(message, envelope_to: str) -> str | None:
    """The plus part of the first of our reply addresses among the recipients, or None."""
    candidates = [envelope_to]
    for header in ("To", "Cc", "Delivered-To", "X-Original-To", "Envelope-To", "X-Envelope-To"):
        for value in header_values(message, header):
            candidates += [addr for _name, addr in getaddresses([value])]
    for address in candidates:
        token = token_in_address(address or "")
        if token is not None:
            return token
    return None


def threaded(email: prompts.RenderedEmail, message) -> prompts.RenderedEmail:
    """`email` as an answer to `message`: In-Reply-To its Message-ID, added to References —
    only a Message-ID matching `<[^<>\\s]+>`; for any other, the answer is not threaded."""
    mid = mail_header(message, "Message-ID").strip()
    if not THREADABLE_MESSAGE_ID.fullmatch(mid):
        return email
    headers = dict(email.headers)
    headers["In-Reply-To"] = mid
    headers["References"] = " ".join(x for x in (headers.get("References"), mid) if x)
    return dataclasses.replace(email, headers=headers)


def may_answer(address: str, *, seat: Seat | None = None) -> bool:
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
    if seat is None:
        return _answers_to_the_mailbox(address) < settings.EMAIL_ANSWERS_PER_HOUR
    return _recent_answers(address, seat).count() < settings.EMAIL_ANSWERS_PER_HOUR


def _recent_answers(address: str, seat: Seat):
    """The answers of the last hour to the seat `seat` that count against the cap (see
    `may_answer`): those that carry a reply address (`Reply-To`), the only ones a mail loop can
    go round through; an answer to a reply that played something has none (`answer_seat`), and
    never counts."""
    recent = Outbox.objects.filter(
        kind=Outbox.Kind.ANSWER, created_at__gte=timezone.now() - timedelta(hours=1)
    )
    return recent.filter(seat=seat, headers__has_key="Reply-To")


def _answers_to_the_mailbox(address: str) -> int:
    """How many answers to mail without a seat's token went this last hour to the mailbox
    `address` reaches, however each was spelled (`players.email_addresses.mailbox_key`: case,
    a `+tag`, a full-width letter of the domain): otherwise a forger would get the cap again
    with each spelling, all delivered to one inbox (docs/security.md). One query, of the
    answers to the same domain."""
    key = mailbox_key(address)
    domain = canonical_address(address).rpartition("@")[2]
    recent = Outbox.objects.filter(
        kind=Outbox.Kind.ANSWER, seat__isnull=True, created_at__gte=timezone.now() - timedelta(hours=1)
    )
    # Written in their canonical form (`canonical_address`), whose domain is the key's.
    spelled = recent.filter(to_email__iendswith=f"@{domain}").values_list("to_email", flat=True)
    return sum(1 for sent_to in spelled if mailbox_key(sent_to) == key)


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


def _pause_notice(reply: Reply, talk_sent: bool = False) -> prompts.RenderedEmail | None:
    """The one short notice an hour that answers to the seat are paused (its replies are still
    played), or None when one went out within the hour. It says until when, in the player's
    time zone, and carries the reply address of the seat's open decision (`reply`'s state and
    clock, read). talk_sent: the reply's move was not played but its table talk was sent (then
    it does not say "nothing changed")."""
    seat, state, clock = reply.seat, reply.state, reply.clock
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


def finish(row: InboundEmail, status: str, detail: str, *, game=None, seat=None) -> str:
    """Record what became of the stored message `row` (`status`, an `InboundEmail.Status` value,
    and `detail`, for the admin); returns `status`."""
    InboundEmail.objects.filter(pk=row.pk).update(
        status=status, detail=clean(detail)[:5000], processed_at=timezone.now(), game=game, seat=seat
    )
    return status


def answer_seat(
    reply: Reply,
    status: str,
    outcome: str,
    text: str,
    *,
    summary: str = "",
    talk_sent: bool = False,
    hold: Held | None = None,
) -> str:
    """Answer the seat (at its own address, never the From) and record the outcome `status`;
    returns it. outcome: "accepted", "rejected", "stale" or "info" (how the answer reads);
    text: what it says; summary: its subject's words.

    hold: for a reply that played something, what its acceptance says (`Held`): the
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
    seat = reply.seat
    if (
        status == InboundEmail.Status.ACCEPTED
        or may_answer(seat.email, seat=seat)
        or _first_reply_to_prompt(reply.row, seat)
    ):
        answer = _Answer(outcome=outcome, text=text, summary=summary, talk_sent=talk_sent, hold=hold)
        detail += _send_answer(_read_state(reply), answer)
    else:
        detail += " (not answered: rate limit)"
        if status in (InboundEmail.Status.REJECTED, InboundEmail.Status.STALE):
            detail += _send_pause_notice(_read_state(reply), talk_sent)
    return finish(reply.row, status, detail, game=reply.game, seat=seat)


@dataclasses.dataclass(frozen=True)
class Held:
    """The acceptance of a reply that played, held for the seat's next prompt: `read_as`, the
    sentence that says what was read; `move` / `undid`, the command id of the move the reply
    played, of the move its take-back took back ("" for none: `acceptances.Accepted`);
    `decision_open`, the reply played no move and the seat's decision is still open: the
    acceptance that goes alone does not open "Done." (nothing was done with the decision)."""

    read_as: str
    move: str = ""
    undid: str = ""
    decision_open: bool = False


@dataclasses.dataclass(frozen=True)
class _Answer:
    """What `answer_seat` says (its arguments of the same names)."""

    outcome: str
    text: str
    summary: str
    talk_sent: bool
    hold: Held | None


def _read_state(reply: Reply) -> Reply:
    """`reply` with the game's state and the seat's clock, read now when it holds none."""
    state = reply.state if reply.state is not None else store.load(reply.game)[0]
    clock = reply.clock if reply.clock is not None else SeatClock.objects.filter(seat=reply.seat).first()
    return dataclasses.replace(reply, state=state, clock=clock)


def _send_answer(reply: Reply, answer: _Answer) -> str:
    """Write `answer` to the seat (or hold it, `answer.hold`); returns the words added to the
    message's detail."""
    seat, state, clock = reply.seat, reply.state, reply.clock
    player = preferences.player_for(seat.email)
    if answer.outcome == "accepted":
        reply_seq, deadline = None, None
    else:
        reply_seq = clock.seq if clock is not None and clock.seq is not None else state.seq
        deadline = clock.deadline if clock is not None else None
    email = prompts.answer_email(
        prompts.Recipient.of(seat, player),
        state,
        outcome=answer.outcome,
        message=answer.text,
        decision_seq=reply_seq,
        note=reply.note,
        deadline=deadline,
        summary=answer.summary,
        talk_sent=answer.talk_sent,
        decision_open=answer.hold is not None and answer.hold.decision_open,
    )
    if answer.hold is not None:
        return _hold_acceptance(reply, email, answer, player.language)
    answering = threaded(email, reply.message)
    outbox.enqueue(
        kind=Outbox.Kind.ANSWER,
        to_email=seat.email,
        email=answering,
        seq=state.seq,
        game=reply.game,
        seat=seat,
    )
    return ""


def _hold_acceptance(reply: Reply, email: prompts.RenderedEmail, answer: _Answer, language: str) -> str:
    """Hold the acceptance `email` for the seat's next prompt, or fold it into the game-over
    email when the reply's move ended the game; returns the words added to the detail."""
    seat, state, held = reply.seat, reply.state, answer.hold
    assert held is not None  # only an answer to hold comes here
    answering = threaded(email, reply.message)
    is_threaded = answering is not email
    acceptances.hold(
        game=reply.game,
        seat=seat,
        email=answering,
        seq=state.seq,
        accepted=acceptances.Accepted(
            summary=prompts.short(answer.summary),
            message=held.read_as,
            note=reply.note,
            in_reply_to=answering.headers.get("In-Reply-To", "") if is_threaded else "",
            references=answering.headers.get("References", "") if is_threaded else "",
            move=held.move,
            undid=held.undid,
        ),
    )
    if rules.is_over(state):
        # No prompt follows: the game-over email this reply's move wrote says it.
        acceptances.fold_into_game_over(seat.pk, seat.email, language=language)
        return " (said in the game-over email)"
    return " (acceptance held for the next prompt)"


def _send_pause_notice(reply: Reply, talk_sent: bool) -> str:
    """Send the seat the notice that answers are paused, once an hour; returns the words added to
    the detail."""
    notice = _pause_notice(reply, talk_sent)
    if notice is None:
        return ""
    outbox.enqueue(
        kind=Outbox.Kind.ANSWER,
        to_email=reply.seat.email,
        email=threaded(notice, reply.message),
        seq=reply.state.seq,
        game=reply.game,
        seat=reply.seat,
    )
    return "; told that answers are paused"


def accepted(reply: Reply, *, read_as: str, summary: str, move: str = "", undid: str = "") -> str:
    """Answer a reply that played (`read_as`: what it was read as, and what it did), with what the
    seat must decide now; held for the seat's next prompt (`answer_seat`). move: the command id
    of the move it played ("" for a reply of policies and orders only); undid: for a take-back,
    that of the move taken back.

    A reply that played no move leaves the seat's open decision as it was: no prompt follows
    to carry the acceptance, which goes alone after the grace. It says that the decision is
    still open and how to make it (the prompt the player holds is still the valid one), not
    "Done." nor "your next move is in your next email" (docs/email-commands.md, "Replies and
    their answers")."""
    now_state, _head = store.load(reply.game)
    colour = reply.seat.colour
    decision_open = (
        not move and not undid and any(d.seat == colour for d in rules.pending_for(now_state, colour))
    )
    then = (
        _("Your decision is still open: reply to your latest prompt to make it, or decide on your page.")
        if decision_open
        else what_next(now_state, colour)
    )
    return answer_seat(
        dataclasses.replace(reply, state=now_state, clock=None),
        InboundEmail.Status.ACCEPTED,
        "accepted",
        read_as + " " + then,
        summary=summary,
        hold=Held(read_as, move=move, undid=undid, decision_open=decision_open),
    )


def what_next(state, colour: str) -> str:
    """What comes next for the seat, true however the other seats and bots move meanwhile: the
    answer is read after them (no "waiting for ..." that could be out of date)."""
    if rules.is_over(state):
        return _("The game is over: the final email follows.")
    if any(d.seat == colour for d in rules.pending_for(state, colour)):
        return _("Your next move is on your page and in your next email.")
    return _("Nothing more is asked of you for now: you will get an email when it is your move.")


def talk_sent_words(said) -> str:
    """The messages of a reply that were sent, in a few words ("your message to everyone"), or
    "" when none was."""
    return said.sent_summary if said.sent else ""


def with_talk(summary: str, talk_sent: str) -> str:
    """An answer's subject words when the reply's move was not played but its messages were
    sent: both are said, so that "Rejected" never reads as "your message was not sent"."""
    if not talk_sent:
        return summary
    return _("{refused}; sent: {messages}").format(refused=summary, messages=talk_sent)


def not_understood(state, seat, *, refused_by_rules: bool = False) -> str:
    """The subject's words for a reply that was not understood, with what it was to decide
    ("not understood (your Season turn)"); with `refused_by_rules`, for one understood but that
    the rules do not allow ("not allowed now (your Season turn)", docs/email-commands.md)."""
    mine = [d for d in rules.pending_for(state, seat.colour) if d.seat == seat.colour]
    if not mine:
        return _("not allowed now") if refused_by_rules else _("not understood")
    decisions = wording.decisions_title(mine, seat.colour)
    if refused_by_rules:
        return _("not allowed now ({decisions})").format(decisions=decisions)
    return _("not understood ({decisions})").format(decisions=decisions)
