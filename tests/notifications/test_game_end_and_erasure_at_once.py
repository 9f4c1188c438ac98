"""The reply that ends a game being processed while somebody who plays elsewhere erases their
account (real PostgreSQL, one connection per thread). docs/privacy.md, "Asking for it": an
erasure and an email being processed happen one after the other; the erasure empties every
stored email holding the person's traces ("keep only their Message-ID and status") and rewrites
the emails still to be sent to others that hold them.

The reply that ends the game writes the game-over emails under its stored email's lock, and
says in each the acceptances held for its seat (their outbox rows, locked then). An erasure
whose person's name such a held acceptance holds rewrites that row, and empties the reply
(which names them too). The erasure empties the stored emails before it changes the outbox
rows, as the reply locks them: in the other order, the erasure holding the acceptance and
waiting for the reply, the reply holding itself and waiting for the acceptance, would wait for
each other (a deadlock, which PostgreSQL breaks by failing one of them)."""

from __future__ import annotations

import io

import pytest
from django.core.management import call_command

from games import rules, store
from notifications import inbound, tasks
from notifications.models import InboundEmail, Outbox
from players.accounts import user_for_email
from players.erasure import is_erased
from players.preferences import set_display_name
from tests.notifications import mail_clients
from tests.notifications.email_positions import EMAILS, END, game_from
from tests.notifications.test_email_game import current_prompt, words_for
from tests.notifications.test_reply_and_erasure_at_once import processed_while_erased

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

SEATS = ["green", "blue", "orange", "white"]


def deliver() -> None:
    """Deliver every pending row (in tests the on-commit enqueue does not fire); the replies come
    faster than ACCEPTANCE_GRACE, so no held acceptance is released."""
    tasks.deliver_pending.apply(kwargs={"older_than_seconds": -1})


def play_by_email(game, *, replies: int | None = None, postscript: str = "") -> int:
    """Every seat of `game` (email_positions.END) replies by email to its prompt, one reply at a
    time, until the game is over or `replies` replies were processed; the last one stored but
    not processed, with `postscript` after its words, is returned: its stored email's id. With
    replies None, plays to the end and returns how many replies it took."""
    count = 0
    while True:
        state, _seq = store.load(game)
        pending = rules.pending(state)
        if not pending:
            return count
        decision = pending[0]
        colour = decision.seat
        assert colour is not None  # END asks no decision of the table as a whole
        words = words_for(colour, decision.kind, state, count)
        last = replies is not None and count == replies - 1
        raw = mail_clients.gmail(
            current_prompt(game, colour),
            words + (postscript if last else ""),
            sender=EMAILS[SEATS.index(colour)],
        )
        if last:
            row, _created = inbound.receive(raw, source="test", enqueue=False)
            return row.pk
        call_command("receive_email", stdin=io.BytesIO(raw), stdout=io.StringIO())
        deliver()
        count += 1
        assert count <= 40, "the game should have ended by now"


def test_the_reply_that_ends_a_game_as_someone_it_names_erases_their_account_is_done_whole_before(
    monkeypatch,
):
    """Don plays elsewhere; the last reply of a game says "Don taught me this ending", and the
    acceptance held for blue's last reply starts "Done." (a name is a trace wherever it stands,
    docs/privacy.md). Don erases his account as that reply is processed: the game ends, then
    the erasure empties the reply."""
    rehearsal = game_from(END, seed="emails-per-decision")
    deliver()
    needed = play_by_email(rehearsal)
    game = game_from(END, seed="emails-per-decision")
    deliver()
    last = play_by_email(game, replies=needed, postscript="\n\nsay: Don taught me this ending.")
    held = Outbox.objects.filter(game=game, kind=Outbox.Kind.ANSWER, status=Outbox.Status.HELD)
    assert any("Don" in row.body_text for row in held), [row.body_text for row in held]
    don = user_for_email("don@example.org")
    set_display_name(don.email, "Don")

    status, errors = processed_while_erased(monkeypatch, last, don.pk)

    assert errors == []
    # The reply ended the game whole, then the erasure went through and emptied it.
    assert status == InboundEmail.Status.ACCEPTED
    assert rules.is_over(store.load(game)[0])
    assert is_erased(don.pk)
    stored = InboundEmail.objects.get(pk=last)
    assert (bytes(stored.raw), stored.from_email, stored.status) == (b"", "", InboundEmail.Status.ACCEPTED)
