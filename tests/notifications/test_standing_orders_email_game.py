"""Standing orders set, triggered and cancelled by email, through a real Celery worker on the real
Redis broker and PostgreSQL (docs/standing-orders.md, docs/email-commands.md), in English and in
French.

Green and blue share the Valley (a Citadel there), blue alone holds the Cove. Blue's first reply
passes and sets its orders: Geis only when it concerns it, shelter in a Citadel, refuse peace,
lose a clan when attacked, withdraw to the Cove. Green's New Clans and Citadel go to the Plains:
blue's Geis order declines them unasked. Blue passes again with "pass until it concerns me": it
passes unasked once, then green's Warlord in the Valley concerns it (asked about Geis, and the
order turns itself off). In the clash blue's orders shelter a clan, refuse peace, lose a clan and
withdraw to the Cove, each unasked (the rulebook, "Clash": Citadels, Peace, Attack, Withdraw).
Blue then plays a Sanctuary in the Valley and queues its Festival there for its next turn, which
is played unasked, and at last cancels all its orders. Green's emails never mention them.
"""

from __future__ import annotations

import pytest
from django.core import mail
from django.test import Client

from games import rules, store
from games.models import Command, SeatClock, StandingOrder
from games.store.verification import verify_game
from notifications.tokens import token_in_address
from players.preferences import player_for
from players.signed_tokens import read_reply_token
from tests.faults.processes import wait_until
from tests.notifications import mail_clients
from tests.notifications.email_positions import EMAILS, game_from
from tests.notifications.test_email_game import deliver_reply, quiet, worker_thread
from tests.notifications.test_webhooks import BASIC_AUTH, SIGNING_KEY

pytestmark = [
    pytest.mark.slow,
    pytest.mark.redis,
    pytest.mark.postgres,
    pytest.mark.django_db(transaction=True),
]

POSITION = {
    "territories": {
        "valley": {"cell": [0, 0], "clans": {"green": 3, "blue": 3}, "citadels": 1},
        "cove": {"cell": [1, 0], "clans": {"blue": 2}},
        "plains": {"cell": [0, 1], "clans": {"green": 1}},
    },
    "capital": "plains",
    "brenn": "green",
    "turn": "blue",
    "opened": True,
    "phase": "season",
    "round": 1,
    "hands": {
        "green": ["act_new_clans", "act_citadel", "act_warlord"],
        # Migration stays in blue's hand to the end: with Geis alone blue's last turn would leave it
        # only the pass, which the service plays later, unasked (docs/rulings.md, "Forced moves").
        "blue": ["act_geis", "act_sanctuary", "act_festival", "act_migration"],
    },
}
# Blue's replies, in order, per language: each to the prompt of its next decision.
BLUE = {
    "en": [
        "pass\norder: geis only when it concerns me\norder: citadel yes\norder: peace refuse\n"
        "order: attack remove\norder: withdraw cove",
        "pass\norder: pass until it concerns me",
        "decline",
        "order: next turn play festival valley\nplay sanctuary valley",
        "cancel all orders\npass",
    ],
    "fr": [
        "passer\nordre : geis seulement si ça me concerne\nordre : citadelle oui\nordre : paix refuser\n"
        "ordre : attaque perdre\nordre : repli anse",
        "passer\nordre : passer jusqu'à ce que ça me concerne",
        "pas de réaction",
        "ordre : prochain tour jouer festival vallée\njouer sanctuaire vallée",
        "annuler tous les ordres\npasser",
    ],
}
KEPT = {"en": "standing order kept", "fr": "ordre permanent retenu"}
# What green plays, first legal first.
GREEN = [
    {"type": "play", "card": "act_new_clans", "territories": ["plains", "plains"]},
    {"type": "play", "card": "act_citadel", "territory": "plains"},
    {"type": "play", "card": "act_warlord", "territory": "valley"},
    {"type": "no_citadel"},
    {"type": "propose_peace"},
    {"type": "attack", "target": "blue"},
    {"type": "end_clash"},
    {"type": "decline"},
    {"type": "pass"},
]


def current_prompt(game, colour: str):
    """The email delivered to `colour` for its open decision, in whatever language (by the seq its
    reply address carries)."""
    clock = SeatClock.objects.get(seat__game=game, seat__colour=colour)
    address = EMAILS[0 if colour == "green" else 1]
    for message in reversed(mail.outbox):
        token = token_in_address(message.reply_to[0]) if message.reply_to and address in message.to else None
        if token and read_reply_token(token).seq == clock.seq:
            return message
    raise AssertionError(f"no prompt for {colour}'s decision at #{clock.seq} arrived")


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_seat_sets_triggers_and_cancels_each_kind_of_order_by_email(settings, language):
    settings.EMAIL_BACKEND = "anymail.backends.test.EmailBackend"
    settings.ANYMAIL = {"WEBHOOK_SECRET": ":".join(BASIC_AUTH), "MAILGUN_WEBHOOK_SIGNING_KEY": SIGNING_KEY}
    client = Client()
    replies, blue_replies, proposed = 0, list(BLUE[language]), False
    with worker_thread():
        # One seed for both languages: the same cards are drawn (an Epic Tale with a Triskel would
        # ask blue one more question).
        game = game_from(POSITION, seed="orders-by-email-en", players=2)
        blue = game.seats.get(colour="blue")
        if language == "fr":
            player = player_for(blue.email)
            player.language = "fr"
            player.save()
        while blue_replies:
            wait_until(quiet, timeout=30, what="the worker to deliver and process everything")
            state, _seq = store.load(game)
            decision = rules.pending(state)[0]
            prompt = current_prompt(game, decision.seat)
            if decision.seat == "blue":
                words = blue_replies.pop(0)
            else:
                legal = rules.legal_commands(state, "green")
                wanted = [c for c in GREEN if c in legal and not (proposed and c["type"] == "propose_peace")]
                command = wanted[0] if wanted else legal[0]
                proposed = proposed or command["type"] == "propose_peace"
                words = str(legal.index(command) + 1)
            sender = EMAILS[0 if decision.seat == "green" else 1]
            deliver_reply(
                client, ("postmark", "pipe")[replies % 2], mail_clients.gmail(prompt, words, sender=sender)
            )
            replies += 1
            assert replies <= 30, "blue's replies should all have been read by now"
        wait_until(quiet, timeout=30, what="the worker to process the last reply")

    played = [
        c.body
        for c in Command.objects.filter(game=game, seat=blue, command_id__startswith="order:").order_by(
            "first_seq"
        )
    ]
    assert played == [
        {"type": "decline"},  # Geis, New Clans in the Plains: not blue's
        {"type": "decline"},  # Geis, a Citadel in the Plains
        {"type": "pass"},  # pass until it concerns me
        {"type": "citadel"},
        {"type": "peace_vote", "agree": False},
        {"type": "attack_response", "choice": "remove"},
        {"type": "withdraw", "moves": {"cove": 1}},
        {"type": "play", "card": "act_festival", "territory": "valley"},
    ], played
    assert not StandingOrder.objects.filter(seat=blue).exists()  # cancelled, or spent
    to_blue = "\n".join(m.body for m in mail.outbox if EMAILS[1] in m.to)
    assert KEPT[language] in to_blue
    to_green = "\n".join(m.body for m in mail.outbox if EMAILS[0] in m.to)
    assert "standing order kept" not in to_green and "Your standing orders" not in to_green
    assert "Always refuse peace" not in to_green
    assert verify_game(game).ok
