"""Standing orders and "never ask" policies by email are taken only from a reply to the seat's
latest prompt or a later email (docs/email-commands.md, "Replies and their answers";
docs/security.md): whoever holds an old or forwarded email of the seat must not play it through
orders, and is answered, at the seat's own address, with the documented sentence alone."""

from __future__ import annotations

from games import rules, store
from games.models import Command, StandingOrder
from games.play.models import SeatClock
from games.services import submit_command
from notifications.models import Outbox
from players.models import Player
from tests.notifications import mail_clients
from tests.notifications.email_positions import ASSEMBLY, game_from
from tests.notifications.test_inbound import feed, last_to, prompt_for, send_all
from tests.notifications.test_standing_orders_by_email import _until_orange_decides_again

ORANGE = "player3@example.org"
STRANGER = "someone-forwarded@elsewhere.example"
OLDER = (
    "This email is older than your latest prompt: orders can be set or cancelled only by replying "
    "to your latest email, or on your game page. Nothing was changed."
)


def _policies(seat) -> list[dict]:
    return [c.body for c in Command.objects.filter(seat=seat) if c.body["type"] == "set_policy"]


def test_an_old_email_sets_no_order_once_the_newer_decision_was_answered_on_the_page(db, mailoutbox):
    """Orange answers its first prompt by email; its next decision is answered on the game page
    before that decision's email leaves (so the email is dropped unsent), and orange then waits
    on nothing. A reply to the first email, from another address, still sets nothing: the
    decision answered on the page is orange's latest prompt."""
    game = game_from(ASSEMBLY, seed="email-tests")
    orange = game.seats.get(colour="orange")
    first = prompt_for(game, "orange")
    assert feed(mail_clients.outlook(first, "keep warlord", sender=ORANGE)).startswith("accepted")
    _until_orange_decides_again(game)
    state, seq = store.load(game)
    command = rules.legal_commands(state, "orange")[0]
    assert submit_command(game=game, seat=orange, command=command, expected_seq=seq).accepted
    send_all()
    emailed = Outbox.objects.filter(seat=orange, kind=Outbox.Kind.PROMPT, channel=Outbox.Channel.EMAIL)
    assert sorted(emailed.values_list("status", flat=True)) == [Outbox.Status.SENT, Outbox.Status.SKIPPED]
    assert SeatClock.objects.get(seat=orange).seq is None  # orange waits on nothing
    mailoutbox.clear()

    old = mail_clients.outlook(first, "order: bot maneuvers\norder: peace accept\nnever ask", sender=STRANGER)
    status = feed(old)

    assert status.startswith("stale")
    assert not StandingOrder.objects.filter(seat=orange).exists()
    assert _policies(orange) == []
    assert not [m for m in mailoutbox if STRANGER in m.to]
    answer = last_to(ORANGE)
    assert answer.subject == f"Rejected: orders from an older email — Inis {game.pk}"
    assert " ".join(answer.body.split()).startswith(OLDER)


def test_the_answer_to_orders_from_an_older_email_says_only_why_in_english_and_french(db):
    """The reply answered no decision: the answer is the documented sentence, not "Your reply
    came too late for that decision" before it."""
    game = game_from(ASSEMBLY, seed="email-tests")
    first = prompt_for(game, "orange")
    feed(mail_clients.outlook(first, "keep warlord", sender=ORANGE))
    _until_orange_decides_again(game)
    prompt_for(game, "orange")  # the newer prompt went out

    assert feed(mail_clients.outlook(first, "order: peace accept", sender=ORANGE)).startswith("stale")
    answer = last_to(ORANGE)
    assert answer.subject == f"Rejected: orders from an older email — Inis {game.pk}"
    assert " ".join(answer.body.split()).startswith(OLDER)
    assert "too late" not in answer.body

    Player.objects.filter(email=ORANGE).update(language="fr")
    assert feed(mail_clients.outlook(first, "ordre : paix accepter", sender=ORANGE)).startswith("stale")
    answer = last_to(ORANGE)
    assert answer.subject == f"Refusé : des ordres depuis un message plus ancien — Inis {game.pk}"
    assert " ".join(answer.body.split()).startswith(
        "Ce message est plus ancien que votre dernier message de jeu : les ordres ne se donnent ou "
        "ne s'annulent qu'en répondant à votre dernier message de la partie, ou sur votre page de "
        "la partie. Rien n'a changé."
    )
    assert "trop tard" not in answer.body
    assert not StandingOrder.objects.filter(seat__colour="orange", seat__game=game).exists()
