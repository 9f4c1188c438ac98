"""The emails a seat receives over a short game played by email: every kind counted (prompts,
answers, news, reminders, notices, press, digests, game over), at most one per real decision
of the seat plus one; the acceptance of each reply rides in the seat's next email. The bench's
row `pace | emails of every kind per seat and round / (real decisions + 1)` measures the same
over longer games through the real worker (bench/mail.py)."""

from __future__ import annotations

import io

from django.core import mail
from django.core.management import call_command

from games import rules, store
from notifications import tasks
from notifications.models import Outbox
from tests.notifications import mail_clients
from tests.notifications.email_positions import EMAILS, END, game_from
from tests.notifications.grace import after_the_grace
from tests.notifications.test_email_game import current_prompt, words_for

SEATS = ["green", "blue", "orange", "white"]
AT_ANY_TIME = ("moor", "set_policy")


def deliver() -> None:
    """Deliver every pending row (in tests the on-commit enqueue does not fire); the replies come
    faster than ACCEPTANCE_GRACE, so no held acceptance is released."""
    tasks.deliver_pending.apply(kwargs={"older_than_seconds": -1})


def test_a_short_game_by_email_sends_each_seat_one_email_per_decision(db):
    """email_positions.END: the last Season of a game (round 3), every seat replying by email
    to its prompt, one reply at a time, until green is elected at the Assembly."""
    game = game_from(END, seed="emails-per-decision")
    deliver()
    real = dict.fromkeys(SEATS, 0)
    asked: dict[str, list] = {}
    replies = 0
    while True:
        state, _seq = store.load(game)
        mine = {}
        for decision in rules.pending(state):
            mine.setdefault(decision.seat, []).append(decision)
        for colour, decisions in mine.items():
            options = [c for c in rules.legal_commands(state, colour) if c["type"] not in AT_ANY_TIME]
            if decisions != asked.get(colour) and len(options) > 1:
                real[colour] += 1
        asked = mine
        if not mine:
            break
        decision = rules.pending(state)[0]
        address = EMAILS[SEATS.index(decision.seat)]
        prompt = current_prompt(game, decision.seat)
        raw = mail_clients.gmail(
            prompt, words_for(decision.seat, decision.kind, state, replies), sender=address
        )
        call_command("receive_email", stdin=io.BytesIO(raw), stdout=io.StringIO())
        deliver()
        replies += 1
        assert replies <= 40, "the game should have ended by now"
    after_the_grace()

    assert rules.is_over(store.load(game)[0])
    for colour, address in zip(SEATS, EMAILS):
        received = [m for m in mail.outbox if m.to == [address]]
        # One round: every email of every kind, against the seat's real decisions + 1.
        assert len(received) <= real[colour] + 1, (colour, real[colour], [m.subject for m in received])
    # Each reply was accepted once, in the seat's next email (the reply that ended the game: in
    # its game-over email); no acceptance went alone.
    assert sum(m.body.count("I read your reply as: ") for m in mail.outbox) == replies
    assert not Outbox.objects.filter(game=game, kind=Outbox.Kind.ANSWER, status=Outbox.Status.SENT).exists()
    over = next(m for m in mail.outbox if m.to == [EMAILS[0]] and m.subject.startswith("Game over: "))
    assert "is over: you are the High King.\n\nAccepted: I read your reply as: " in over.body
