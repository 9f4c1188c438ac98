"""Inbound email, the play: a reply's commands submitted, its orders kept, its take-back judged
(`notifications.inbound`), each answered through `notifications.inbound_answers`.

All of it runs under the game's row lock, with the seat's next prompt held
(`outbox.holding_prompts`) so that the answer is written first.
"""

from __future__ import annotations

import dataclasses
import re

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games import rules, store
from games.models import Seat
from games.play import standing_orders, take_backs
from games.play.commands import submit_command
from games.play.models import SeatClock
from games.play.standing_orders import OrderError
from games.story.descriptions import describe_command
from notifications.command_language import ANY_TIME
from notifications.inbound_answers import (
    THREADABLE_MESSAGE_ID,
    Reply,
    accepted,
    answer_seat,
    token_of,
    with_talk,
)
from notifications.mail_headers import header
from notifications.models import InboundEmail, Outbox

# The rules service adds how far the log moved since the prompt, in events ("(The game has moved
# on since your prompt: 12 → 15 events.)", in any language): engine words that a player need not
# read (the answer says the game moved on when it matters).
MOVED_ON = re.compile(r"\s*\([^()]*\d+ → \d+[^()]*\)")
ORDER_TYPES = ("standing_order", "cancel_order")


def submit(reply: Reply, commands: list[dict]) -> str:
    """Play the reply's `commands` (parsed, in the reply's order) for its seat and answer it;
    returns the message's status. The decision first: if the rules refuse it, the policies and
    orders with it are not set. Each command is keyed `email:<message key>:<index>`, so the same
    message delivered twice acts once. What was played before a refusal stays played (the
    answer says so)."""
    ordered = sorted(commands, key=lambda c: c["type"] in ANY_TIME)
    # The decision, first when there is one: its command id names the move in the acceptance
    # (a take-back of it drops that acceptance, `acceptances.fold_into`).
    move = f"email:{reply.row.message_key}:0" if ordered and ordered[0]["type"] not in ANY_TIME else ""
    done: list[str] = []
    for index, command in enumerate(ordered):
        if command["type"] in ORDER_TYPES:
            refused = _keep_order(reply, command, done)
        else:
            refused = _submit_one(reply, index, command, done)
        if refused is not None:
            return refused
    if {c["type"] for c in ordered} - set(ANY_TIME) and any(c["type"] == "standing_order" for c in ordered):
        done += _play_new_orders(reply.game, reply.seat)
    read_as = _("I read your reply as: {commands}.").format(commands=_listing(done))
    return accepted(reply, read_as=read_as, summary=_listing(done), move=move)


def _keep_order(reply: Reply, command: dict, done: list[str]) -> str | None:
    """Set or cancel a standing order (`standing_orders.carry_out`), its words added to `done`;
    None, or the answered status when the order could not be kept."""
    listed_then = _orders_listed(reply) if command["type"] == "cancel_order" else None
    try:
        done.append(standing_orders.carry_out(reply.game, reply.seat, command, listed_then=listed_then))
    except OrderError as error:
        if command["type"] == "cancel_order":
            text = _("I cancelled no order. {why}").format(why=error)
            return _refused(reply, done, text, _("cancelling an order"))
        text = _("I read an order, but could not keep it: {why}").format(why=error)
        return _refused(reply, done, text, _("an order"))
    return None


def _submit_one(reply: Reply, index: int, command: dict, done: list[str]) -> str | None:
    """Submit one command of the reply (a move against the token's seq, a policy against the
    head), its words added to `done`; None, or the answered status when the rules refused it."""
    policy = command["type"] == "set_policy"
    described = (
        _policy_words(command) if policy else describe_command(reply.state, command, reply.seat.colour)
    )
    result = submit_command(
        game=reply.game,
        seat=reply.seat,
        command=command,
        expected_seq=store.head(reply.game)[0] if policy else reply.token_seq,
        command_id=f"email:{reply.row.message_key}:{index}",
        play_bots=False,
        by_holder=True,
    )
    if not result.accepted:
        text = _("I read “{command}”, but the rules refused it: {why}").format(
            command=described, why=MOVED_ON.sub("", result.message)
        )
        return _refused(reply, done, text, _("“{command}”").format(command=described))
    done.append(described + (_(" (already received)") if result.duplicate else ""))
    return None


def _refused(reply: Reply, done: list[str], text: str, summary: str) -> str:
    """Answer a reply one of whose commands was refused (`text` says why), after what was played
    before it (`done`): accepted when something was played, else rejected; returns the status."""
    if done:
        text = _("Played: {commands}.").format(commands=_listing(done)) + "\n" + text
    now_state, _head = store.load(reply.game)
    assert reply.clock is not None  # read under the row lock before any command is submitted
    return answer_seat(
        dataclasses.replace(reply, state=now_state, clock=SeatClock.objects.get(pk=reply.clock.pk)),
        InboundEmail.Status.ACCEPTED if done else InboundEmail.Status.REJECTED,
        "rejected",
        text,
        talk_sent=bool(reply.talk_sent),
        summary=with_talk(summary, reply.talk_sent),
    )


def _listing(parts: list[str]) -> str:
    """What a reply did, one part after another ("Pass; standing order kept: Always refuse
    peace"): each part's own full stop dropped, so that the sentence around it ends with one."""
    separator = pgettext("between the parts of a list", "; ")  # French: " ; "
    return separator.join(part[:-1] if part.endswith(".") else part for part in parts)


def _play_new_orders(game, seat) -> list[str]:
    """The orders a reply set, played on the decision that the same reply's move opened for the
    seat (an order answers the decisions that arise after it was set: this one arose a moment
    before, from the same reply). As the command path plays orders: the seat's command, keyed
    `order:<colour>:<seq>`. Returns what was played, in words ([] when no order answers)."""
    state, head = store.load(game)
    seat.has_standing_orders = True  # what `ordered_seat` reads (`standing_orders.mark_seats`)
    found = standing_orders.ordered_seat(game, [seat], state, set_since_opening=True)
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
    return [
        _("your new order played: {command}").format(command=describe_command(state, command, seat.colour))
    ]


def _orders_listed(reply: Reply) -> dict[int, str] | None:
    """The standing orders as numbered in the email this reply answers (`standing_orders.
    read_listed`: "cancel order 3" means its order 3, however the list changed since), or None
    when that email is not known or listed none: the numbers are then those of the list now.
    The email answered: the one the reply's In-Reply-To names, else the latest sent to the seat
    with the reply address the reply was sent to."""
    seat: Seat = reply.seat
    sent = Outbox.objects.filter(seat=seat, status=Outbox.Status.SENT).order_by("-id")
    answered = None
    mid = header(reply.message, "In-Reply-To").strip()
    if THREADABLE_MESSAGE_ID.fullmatch(mid):
        answered = sent.filter(**{"headers__Message-ID": mid}).first()
    token = token_of(reply.message, reply.row.envelope_to)
    if answered is None and token:
        answered = sent.filter(**{"headers__Reply-To__icontains": token}).first()
    found = standing_orders.read_listed(answered.body_text) if answered is not None else {}
    return found or None


def take_back(reply: Reply) -> str:
    """A reply "take back" (docs/email-commands.md, "Taking back your last move"): the seat's
    last move taken back (`games.play.take_backs`), under the game's row lock; returns the
    message's status.

    The player saw what the reply's email showed, not the log's head now: the log up to the
    token's seq `reply.token_seq`, and the seat's own move made in reply to that email (its
    `client_seq`). So the take-back names the head only when the email showed the move to take
    back (`take_backs.move_to_take_back`: the log's last command but for standing Triskel
    policies, which are no move, whoever set them; `take_backs.saw_the_move`) or that move
    answered that very email; a reply to an older email is refused, as the web refuses an older
    page. The refusals are `take_back_refusal`'s (another seat acted since, a move made for the
    seat, the game is over) and the rules' (the move revealed something hidden). Accepted: the answer is held for the seat's prompt of the
    decision it makes again (one email, as for a move); refused: the reason, the seat's decision
    as it stands, nothing written. Idempotent by the reply's message key, like every reply."""
    summary = _("Take back your last move")
    game, seat, head = reply.game, reply.seat, reply.head
    move = take_backs.move_to_take_back(game, head)
    refusal = take_backs.take_back_refusal(reply.state, seat, move)
    # `take_back_refusal` refuses when there is no move: `move` is one past it.
    if (
        refusal is None
        and move is not None
        and not take_backs.saw_the_move(move, reply.token_seq, head)
        and move.client_seq != reply.token_seq
    ):
        refusal = _("Your reply answered an earlier email: the game has moved on since.")
    if refusal is None:
        result = take_backs.take_back(
            game=game,
            seat=seat,
            expected_seq=head,
            command_id=f"email:{reply.row.message_key}:0",
            play_bots=False,
        )
        refusal = None if result.accepted else result.message
    if refusal is not None:
        return _take_back_refused(reply, summary, refusal)
    read_as = _("I read your reply as: {commands}.").format(commands=summary) + " " + result.message
    assert move is not None  # `take_back_refusal` refuses when there is none
    return accepted(reply, read_as=read_as, summary=summary, undid=move.command_id or "")


def _take_back_refused(reply: Reply, summary: str, refusal: str) -> str:
    """Answer a take-back that was refused (`refusal` says why), with when one is allowed."""
    text = (
        _("I read your reply as: {commands}.").format(commands=summary)
        + " "
        + _("It was not taken back: {why}").format(why=_after_colon(refusal))
        + " "
        + _(
            "A move can be taken back only by the player who made it, while nobody has acted since "
            "and if it revealed nothing hidden."
        )
    )
    return answer_seat(
        reply,
        InboundEmail.Status.REJECTED,
        "rejected",
        text,
        talk_sent=bool(reply.talk_sent),
        summary=with_talk(_("“{command}”").format(command=summary), reply.talk_sent),
    )


def _after_colon(sentence: str) -> str:
    """A sentence of its own ("You have made no move to take back.") after a colon: as written
    in English, as docs/email-commands.md quotes it; lower-case in French, after « : » (each
    starts with an ordinary word, "Vous", "Votre", never a name)."""
    if translation.get_language() == "fr":
        return sentence[:1].lower() + sentence[1:]
    return sentence


def _policy_words(command: dict) -> str:
    """A standing policy command (`set_policy`) in words, as the answer lists it."""
    card = str(command.get("card"))
    which = _("every Triskel card") if card == "all" else rules.card_name(card)
    if command.get("policy") == "never":
        return _("standing policy: never ask me about {cards}").format(cards=which)
    return _("standing policy: ask me about {cards}").format(cards=which)
