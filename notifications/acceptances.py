"""Acceptances: one email per decision.

A reply by email that plays something is accepted, and the player must learn it. When the
seat's next decision is its own, that is one email, its next prompt, opening with what was
accepted ("Accepted: … — Your move: …"); when it has nothing more to decide, one short
"Accepted" email. So an acceptance is written, in the reply's transaction, as an ANSWER row
HELD (not scheduled), with its words in `Outbox.acceptance`:

- the delivery of the seat's next prompt (or the game-over email) takes every acceptance held
  for the seat (`fold_into`): they are marked FOLDED and said at the top of that email, which
  answers the reply in its thread (In-Reply-To the reply's Message-ID); a move taken back by a
  later reply is not said (the prompt asks that decision again), and the take-back is said first;
- the sweep sends the ones still held ACCEPTANCE_GRACE seconds after they were written
  (`release_due`), as short emails of their own, to a player who takes acceptances
  (`Player.acceptances`, the default); a player who turned them off reads them only in the next
  prompt. A reply that ends the game is said at the top of the seat's game-over email, which
  its own command wrote (`fold_into_game_over`).

The two steps race only on the row's status: each changes HELD rows under their row lock, so an
acceptance is sent alone or folded, never both nor neither.
"""

from __future__ import annotations

import dataclasses
from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation

from notifications.models import Outbox
from notifications.prompts import RenderedEmail
from players import preferences


@dataclasses.dataclass(frozen=True)
class Accepted:
    """What one accepted reply played, for the top of the next prompt: summary (the subject's
    words, "Season: play Bard"), message (the sentence, "I read your reply as: …"), note (a line
    more, e.g. "welcome back"; "" for none), in_reply_to / references (the reply's threading
    headers; "" when the reply's Message-ID could not be threaded); move: the command id of the
    move the reply played ("" for none: policies, orders); undid: for a take-back, the command id
    of the move it took back."""

    summary: str
    message: str
    note: str = ""
    in_reply_to: str = ""
    references: str = ""
    move: str = ""
    undid: str = ""

    @classmethod
    def of(cls, words: dict) -> Accepted:
        """From the JSON kept in `Outbox.acceptance`."""
        return cls(**{f.name: words.get(f.name, "") for f in dataclasses.fields(cls)})


def hold(*, game, seat, email: RenderedEmail, seq: int, accepted: Accepted) -> Outbox:
    """Write the acceptance of a reply of `seat`: the short email `email` (already threaded to
    the reply) as an ANSWER row HELD, not scheduled, with `accepted` for the next prompt. Runs
    in the reply's transaction."""
    row = Outbox(
        game=game,
        seat=seat,
        kind=Outbox.Kind.ANSWER,
        seq=seq,
        to_email=seat.email,
        subject=email.subject,
        body_text=email.text,
        body_html=email.html,
        headers=email.headers,
        status=Outbox.Status.HELD,
        acceptance=dataclasses.asdict(accepted),
    )
    row.save()
    return row


def fold_into(seat_id: int | None, to_email: str) -> list[Accepted]:
    """Mark FOLDED the acceptances held for the seat `seat_id` at the address `to_email` (a seat
    given to another player meanwhile: the acceptances of the first go to the first) and
    return their words for the seat's next email to say ([] when none is held): its prompt (at
    the prompt's delivery) or the game-over email (when it is written). Runs in that
    transaction: if it rolls back, they are held again. (The prompt of a decision that follows
    the reply at once is written in the reply's transaction, before its acceptance: all the
    seat's held acceptances are taken, not only rows older than the prompt.)

    Oldest first, but for take-backs (`_said`): the acceptance of a move that a take-back held
    with it took back is left out (folded, never said: "Accepted: Take a Pretender token" above
    a prompt that asks that turn again would be untrue), and the take-back comes first, as
    docs/email-commands.md words its answer ("Accepted: Take back your last move — Your move:
    …")."""
    if seat_id is None:
        return []
    held = list(
        Outbox.objects.select_for_update()
        .filter(
            seat_id=seat_id, to_email__iexact=to_email, kind=Outbox.Kind.ANSWER, status=Outbox.Status.HELD
        )
        .order_by("pk")
    )
    if not held:
        return []
    Outbox.objects.filter(pk__in=[row.pk for row in held]).update(status=Outbox.Status.FOLDED)
    return _said([Accepted.of(row.acceptance or {}) for row in held])


def _said(accepted: list[Accepted]) -> list[Accepted]:
    """What of `accepted` (held, oldest first) the seat's next email says: without the moves
    that were taken back since, the take-backs first."""
    undone = {a.undid for a in accepted if a.undid}
    kept = [a for a in accepted if not (a.move and a.move in undone)]
    return [a for a in kept if a.undid] + [a for a in kept if not a.undid]


def fold_into_game_over(seat_id: int, to_email: str, *, language: str) -> bool:
    """Say the acceptances held for the seat at the top of its game-over email, already written
    by the command that ended the game (a reply's own move: no prompt follows it), and mark
    them FOLDED; the email then answers the last reply in its thread. False (nothing changed)
    when the seat has no game-over email waiting or no acceptance held. language: the player's,
    for the words "Accepted:"."""
    over = (
        Outbox.objects.select_for_update()
        .filter(
            seat_id=seat_id,
            to_email__iexact=to_email,
            kind=Outbox.Kind.GAME_OVER,
            status=Outbox.Status.PENDING,
        )
        .order_by("-pk")
        .first()
    )
    if over is None:
        return False
    accepted = fold_into(seat_id, to_email)
    if not accepted:
        return False
    with translation.override(language or "en"):
        text = render_to_string("emails/_accepted.txt", {"accepted": accepted})
        html = render_to_string("emails/_accepted.html", {"accepted": accepted})
    over.body_text = text + over.body_text
    at = over.body_html.find("<body>")
    if at >= 0:
        at += len("<body>")
        over.body_html = over.body_html[:at] + "\n" + html + over.body_html[at:]
    answered = next((a for a in reversed(accepted) if a.in_reply_to), None)
    if answered is not None:
        over.headers = {
            **over.headers,
            "In-Reply-To": answered.in_reply_to,
            "References": answered.references,
        }
    over.save(update_fields=["body_text", "body_html", "headers"])
    return True


def release_due(*, now=None, grace_seconds: int | None = None) -> list[int]:
    """Mark PENDING and queued the acceptances held longer than `grace_seconds`
    (ACCEPTANCE_GRACE by default) whose player takes acceptances, and return their ids, oldest
    first, for the caller to deliver (`outbox.schedule`, which the relay makes a no-op: the
    sweep); those of a player who does not stay held for the next prompt."""
    now = now or timezone.now()
    grace = settings.ACCEPTANCE_GRACE if grace_seconds is None else grace_seconds
    released = []
    with transaction.atomic():
        due = Outbox.objects.select_for_update(skip_locked=True).filter(
            kind=Outbox.Kind.ANSWER, status=Outbox.Status.HELD, created_at__lte=now - timedelta(seconds=grace)
        )
        wanted: dict[str, bool] = {}
        for row in due.order_by("pk"):
            address = row.to_email
            if address not in wanted:
                wanted[address] = preferences.player_for(address).acceptances
            if wanted[address]:
                released.append(row.pk)
        if released:
            # Queued now: the relay publishes them (without a broker, the caller's `schedule`).
            Outbox.objects.filter(pk__in=released).update(status=Outbox.Status.PENDING, queued_at=now)
    return released
