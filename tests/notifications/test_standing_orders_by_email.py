"""Standing orders by email (docs/email-commands.md, "Standing orders"): set, listed, cancelled,
in English and in French, with a clear answer for an order that cannot be read."""

import io

from django.core import mail
from django.core.management import call_command
from django.urls import reverse
from django.utils import timezone

from games import rules, store
from games.models import Command, StandingOrder
from games.play import table
from games.play.standing_orders import answer_at_deadline, set_order
from games.services import SeatSpec, create_game, submit_command
from notifications.prompts import Recipient, prompt_email
from players.models import Player
from players.preferences import player_for
from tests.notifications import mail_clients
from tests.notifications.email_positions import ASSEMBLY, MIGRATION, game_from
from tests.notifications.test_inbound import feed, last_to, prompt_for, send_all


def _prompt(seat, state) -> str:
    """The text of the seat's prompt for `state`, as the mail writes it."""
    recipient = Recipient.of(seat, player_for(seat.email))
    return prompt_email(recipient, state, happened=[], deadline=None, decision_seq=state.seq).text


def test_a_draft_pick_and_orders_in_one_reply_in_english(db):
    game = game_from(ASSEMBLY, seed="email-tests")
    prompt = prompt_for(game, "orange")
    # Orange's draft cards: Emissaries, Festival, Geis, Warlord.
    reply = "keep warlord\norder: peace refuse\norder: attack discard geis, festival\norder: geis only when it concerns me"

    status = feed(mail_clients.outlook(prompt, reply, sender="player3@example.org"))

    assert status.startswith("accepted")
    orange = game.seats.get(colour="orange")
    assert {(o.kind, o.key) for o in StandingOrder.objects.filter(seat=orange)} == {
        ("peace", ""),
        ("attack", ""),
        ("triskel", "act_geis"),
    }
    assert {"type": "draft", "keep": ["act_warlord"]} in Command.objects.filter(game=game).values_list(
        "body", flat=True
    )
    answer = last_to("player3@example.org").body
    assert "standing order kept: Always refuse peace; " in answer
    assert "standing order kept: When attacked, discard the first I hold of: Geis, Festival; " in answer


def test_orders_in_french_and_their_cancellation(db):
    game = game_from(ASSEMBLY, seed="email-orders-fr")
    prompt = prompt_for(game, "orange")
    feed(
        mail_clients.gmail_french(
            prompt, "ordre : paix accepter\nordre : citadelle non", sender="player3@example.org"
        )
    )
    orange = game.seats.get(colour="orange")
    assert StandingOrder.objects.filter(seat=orange).count() == 2

    feed(mail_clients.gmail_french(prompt, "annuler ordre paix", sender="player3@example.org"))

    assert list(StandingOrder.objects.filter(seat=orange).values_list("kind", flat=True)) == ["citadel"]


def test_an_order_that_cannot_be_read_is_answered_and_nothing_is_stored(db):
    game = game_from(ASSEMBLY, seed="email-orders-bad")
    prompt = prompt_for(game, "orange")

    status = feed(mail_clients.outlook(prompt, "order: sing loudly", sender="player3@example.org"))

    assert status.startswith("rejected")
    assert not StandingOrder.objects.exists()
    answer = last_to("player3@example.org").body
    assert "I did not understand the order" in answer and "order: peace refuse" in answer


def test_every_prompt_lists_the_seats_orders_and_how_to_cancel_them_and_the_deadline_says_which_answers(db):
    """Orange keeps a card and sets a draft ranking and a peace order: its next prompt lists both,
    numbered, with the cancel line; the other seats' prompts say nothing of them."""
    game = game_from(ASSEMBLY, seed="email-tests")
    prompt = prompt_for(game, "orange")
    feed(
        mail_clients.outlook(
            prompt, "order: peace refuse\norder: draft geis; ask warlord", sender="player3@example.org"
        )
    )
    orange = game.seats.get(colour="orange")
    state, _seq = store.load(game)
    body = _prompt(orange, state)
    assert (
        "Your standing orders (only you see them):\norder 1: Always refuse peace.\norder 2: Draft by my ranking (Geis); ask me when a pack holds Warlord."
        in body
    )
    assert "cancel order" in body
    recipient = Recipient.of(orange, player_for(orange.email))
    with_deadline = prompt_email(
        recipient, state, happened=[], deadline=timezone.now(), decision_seq=state.seq
    ).text
    assert "your standing order answers if it fits (Draft by my ranking (Geis)" in with_deadline
    for other in game.seats.exclude(colour="orange"):
        text = _prompt(other, state)
        assert "Your standing orders" not in text and "Always refuse peace" not in text


def test_an_order_set_while_its_decision_is_open_waits_for_the_deadline(db):
    """docs/standing-orders.md: "An order answers the seat's decisions that arise after it was
    set, and the open decision whose deadline passes." Every seat drafts at once at the Assembly;
    orange, asked for its pick, sends only a draft ranking. Green's pick must not make the
    ranking answer orange's open pick at once (it used to, on the next command of anybody):
    orange may still pick by hand, and only at the deadline does the ranking pick for it."""
    game = game_from(ASSEMBLY, seed="email-tests")
    ranking = ", ".join(info.name for card, info in rules.CARDS.items() if info.type == "action")
    status = feed(
        mail_clients.outlook(
            prompt_for(game, "orange"), f"order: draft {ranking}", sender="player3@example.org"
        )
    )
    assert status.startswith("accepted")
    orange, green = game.seats.get(colour="orange"), game.seats.get(colour="green")
    state, seq = store.load(game)
    submit_command(game=game, seat=green, command=rules.legal_commands(state, "green")[0], expected_seq=seq)

    assert not Command.objects.filter(seat=orange).exists()
    state, _seq = store.load(game)
    assert "orange" in {d.seat for d in rules.pending(state)}
    # At its deadline, the order answers the pick it was set during.
    assert answer_at_deadline(game, orange, state)["type"] == "draft"


def test_a_draft_ranking_set_by_email_picks_the_next_pack_and_is_cancelled_by_email(db):
    """Orange keeps Warlord and ranks the Action cards by email; the next pack that reaches it is
    kept by the ranking, unasked; "cancel order draft" then cancels it."""
    game = game_from(ASSEMBLY, seed="email-tests")
    # Every Action card, by its English name: the ranking covers any pack.
    ranking = ", ".join(info.name for card, info in rules.CARDS.items() if info.type == "action")
    feed(
        mail_clients.outlook(
            prompt_for(game, "orange"), f"keep warlord\norder: draft {ranking}", sender="player3@example.org"
        )
    )
    orange = game.seats.get(colour="orange")
    seats = {s.colour: s for s in game.seats.all()}
    for _turn in range(12):
        if Command.objects.filter(seat=orange, command_id__startswith="order:").exists():
            break
        state, seq = store.load(game)
        colour = next(d.seat for d in rules.pending(state) if d.seat != "orange")
        submit_command(
            game=game, seat=seats[colour], command=rules.legal_commands(state, colour)[0], expected_seq=seq
        )
    picked = Command.objects.get(seat=orange, command_id__startswith="order:")
    assert picked.body["type"] == "draft"

    send_all()
    # The ranking answered orange's newer decision (its prompt was never sent): the first prompt,
    # orange's last email with a reply address, is older than that decision and cancels nothing;
    # the answer saying so carries a reply address of now (docs/email-commands.md).
    first = prompt_for(game, "orange")
    assert feed(mail_clients.outlook(first, "cancel order draft", sender="player3@example.org")).startswith(
        "stale"
    )
    assert StandingOrder.objects.filter(seat=orange).exists()
    refused = last_to("player3@example.org")
    feed(mail_clients.outlook(refused, "cancel order draft", sender="player3@example.org"))

    assert not StandingOrder.objects.filter(seat=orange).exists()
    assert "standing order cancelled: Draft by my ranking" in last_to("player3@example.org").body


def test_stand_in_orders_by_email_in_english_and_french_and_a_vague_one_refused(db):
    """ "Let the bot make my maneuvers" and "…answer my Triskel after my own plays", by email in
    both languages (both are always understood); a French player reads in French what was kept;
    "ordre : robot" alone says what the bot may decide, and stores nothing."""
    Player.objects.create(email="player3@example.org", language="fr")
    game = game_from(ASSEMBLY, seed="email-orders-bot")
    prompt = prompt_for(game, "orange")
    orange = game.seats.get(colour="orange")

    status = feed(mail_clients.gmail_french(prompt, "ordre : robot", sender="player3@example.org"))
    assert status.startswith("rejected") and not StandingOrder.objects.exists()
    assert "« ordre : robot manœuvres »" in last_to("player3@example.org").body

    feed(mail_clients.outlook(prompt, "order: bot maneuvers", sender="player3@example.org"))
    assert "Laisser le robot faire mes manœuvres dans les conflits." in last_to("player3@example.org").body
    feed(
        mail_clients.gmail_french(
            prompt, "ordre : robot triskel après mes coups", sender="player3@example.org"
        )
    )
    assert (
        "Laisser le robot répondre avec mes cartes Triskel après mes propres coups."
        in last_to("player3@example.org").body
    )
    assert {(o.kind, o.key) for o in StandingOrder.objects.filter(seat=orange)} == {
        ("stand_in", "maneuver"),
        ("stand_in", "own_triskel"),
    }

    feed(mail_clients.gmail_french(prompt, "annuler ordre robot", sender="player3@example.org"))
    assert not StandingOrder.objects.filter(seat=orange).exists()


def _refusal(answer: str) -> str:
    """The line of an answer that says why an order was not kept."""
    return next(line for line in answer.splitlines() if "could not keep it" in line)


def test_queuing_a_card_not_in_the_hand_is_refused_naming_the_cards_of_the_hand_only(db):
    """Green holds Citadel, Migration and Geis (Triskel only); blue holds the Bard. "order: next
    turn play warlord valley" is refused, naming Citadel (the one card green may queue): never
    Migration, which no order can queue, nor the Bard of blue's hand; nothing is stored. A French
    player reads it in French."""
    hands = {**MIGRATION["hands"], "green": ["act_citadel", "act_migration", "act_geis"]}
    game = game_from({**MIGRATION, "hands": hands}, seed="email-orders-queue")
    prompt = prompt_for(game, "green")

    status = feed(
        mail_clients.outlook(prompt, "order: next turn play warlord valley", sender="player1@example.org")
    )

    assert status.startswith("rejected")
    assert not StandingOrder.objects.exists()
    answer = last_to("player1@example.org").body
    assert _refusal(answer) == (
        "I read an order, but could not keep it: "
        "Warlord is not in your hand: you may queue Citadel, a pass or a Pretender token."
    )
    assert "Bard" not in answer

    Player.objects.update_or_create(email="player1@example.org", defaults={"language": "fr"})
    feed(mail_clients.gmail_french(prompt, "ordre : prochain tour jouer barde", sender="player1@example.org"))
    answer = last_to("player1@example.org").body
    assert (
        "Barde n'est pas dans votre main : vous pouvez prévoir Citadelle, de passer ou de prendre un marqueur Prétendant."
        in answer
    )
    assert not StandingOrder.objects.exists()

    feed(mail_clients.outlook(prompt, "order: next turn pass", sender="player1@example.org"))
    assert list(StandingOrder.objects.values_list("kind", flat=True)) == ["queue_play"]


def test_a_hand_of_cards_no_order_can_queue_is_offered_only_a_pass_or_a_pretender(db):
    """Green holds Migration (its play takes clans from several places: no order can queue it)
    and Geis (Triskel only): the refusal of a queued Warlord offers no card, never Migration,
    which the next answer would refuse."""
    game = game_from(MIGRATION, seed="email-orders-queue-none")
    prompt = prompt_for(game, "green")

    feed(mail_clients.outlook(prompt, "order: next turn play warlord valley", sender="player1@example.org"))

    assert _refusal(last_to("player1@example.org").body) == (
        "I read an order, but could not keep it: "
        "Warlord is not in your hand, and you hold no card to queue: queue a pass or a Pretender token."
    )
    assert not StandingOrder.objects.exists()


def _until_orange_decides_again(game) -> None:
    """Play the other seats' first legal commands until orange has a decision again."""
    seats = {s.colour: s for s in game.seats.all()}
    for _turn in range(12):
        state, seq = store.load(game)
        if any(d.seat == "orange" for d in rules.pending(state)):
            return
        colour = next(d.seat for d in rules.pending(state) if d.seat is not None)
        command = dict(rules.legal_commands(state, colour)[0])
        submit_command(game=game, seat=seats[colour], command=command, expected_seq=seq)
    raise AssertionError("orange was not asked again")


def test_orders_by_email_are_taken_only_from_the_latest_prompt_or_a_later_email(db):
    """Whoever holds an old or forwarded email of the seat must not set its orders: a reply to
    orange's first prompt, once a newer prompt was sent, sets no order nor policy and is told
    why; a reply to the newest prompt, or to the answer that came after it, sets them."""
    game = game_from(ASSEMBLY, seed="email-tests")
    first = prompt_for(game, "orange")
    assert feed(mail_clients.outlook(first, "keep warlord", sender="player3@example.org")).startswith(
        "accepted"
    )
    _until_orange_decides_again(game)
    latest = prompt_for(game, "orange")
    assert latest.extra_headers["Message-ID"] != first.extra_headers["Message-ID"]

    old = mail_clients.outlook(
        first,
        "order: peace accept\norder: pass until it concerns me\nnever ask geis",
        sender="player3@example.org",
    )
    status = feed(old)

    assert status.startswith("stale")
    orange = game.seats.get(colour="orange")
    assert not StandingOrder.objects.filter(seat=orange).exists()
    assert not [c for c in Command.objects.filter(seat=orange) if c.body["type"] == "set_policy"]
    answer = last_to("player3@example.org")
    assert "This email is older than your latest prompt" in " ".join(answer.body.split())

    # The answer came after the latest prompt: replying to it sets the order.
    assert feed(mail_clients.outlook(answer, "order: peace accept", sender="player3@example.org")).startswith(
        "accepted"
    )
    assert list(StandingOrder.objects.filter(seat=orange).values_list("kind", flat=True)) == ["peace"]
    feed(mail_clients.outlook(latest, "order: citadel yes", sender="player3@example.org"))
    assert {o.kind for o in StandingOrder.objects.filter(seat=orange)} == {"peace", "citadel"}


def test_a_replaced_seat_starts_with_no_orders_nor_policies_of_the_previous_player(db, client):
    """Orders belong to a person at a seat. Orange keeps a card and leaves a draft ranking, a peace
    order and "never ask geis" by email; the host gives the seat to somebody else: the ranking
    does not draft for the newcomer (asked by email, with no order listed), the newcomer's page
    shows none of them, and Geis is asked about again."""
    game = game_from(ASSEMBLY, seed="email-tests")
    ranking = ", ".join(info.name for card, info in rules.CARDS.items() if info.type == "action")
    reply = f"keep warlord\norder: draft {ranking}\norder: peace refuse\nnever ask geis"
    assert feed(
        mail_clients.outlook(prompt_for(game, "orange"), reply, sender="player3@example.org")
    ).startswith("accepted")
    assert StandingOrder.objects.filter(seat__colour="orange").count() == 2

    table.seat_replace(game=game, colour="orange", email="newcomer@example.org")
    _until_orange_decides_again(game)

    orange = game.seats.get(colour="orange")
    assert not StandingOrder.objects.filter(seat=orange).exists()
    assert not Command.objects.filter(seat=orange, command_id__startswith="order:").exists()
    state, _seq = store.load(game)
    assert "never" not in state.policies.get("orange", {}).values()
    prompt = prompt_for(game, "orange")
    assert prompt.to == ["newcomer@example.org"]
    assert "Your standing orders" not in prompt.body and "Always refuse peace" not in prompt.body
    client.force_login(orange.user)
    page = client.get(reverse("games:detail", args=[game.pk])).content.decode()
    assert "Always refuse peace" not in page and "Draft by my ranking" not in page


def test_order_numbers_refer_to_the_list_of_the_email_answered(db):
    """A French player's email lists four orders. "annuler ordre paix" (its order 1) renumbers the
    list; "annuler ordre 3" in a second reply to the same email still cancels that email's order
    3 (the attack order), not the fourth; "annuler ordre 1" then is refused: that order is gone,
    and the answer lists the orders now. Nothing else changes."""
    Player.objects.create(email="player3@example.org", language="fr")
    game = game_from(ASSEMBLY, seed="email-orders-numbers")
    orange = game.seats.get(colour="orange")
    for body in (
        {"kind": "peace", "agree": False},
        {"kind": "citadel", "shelter": True},
        {"kind": "attack", "answer": "remove"},
        {"kind": "withdraw", "to": ["cove"]},
    ):
        set_order(game, orange, body)
    feed(mail_clients.gmail_french(prompt_for(game, "orange"), "chanter fort", sender="player3@example.org"))
    listing = last_to("player3@example.org")
    assert "ordre 3 : Attaqué, perdre un clan." in listing.body

    feed(mail_clients.gmail_french(listing, "annuler ordre paix", sender="player3@example.org"))
    feed(mail_clients.gmail_french(listing, "annuler ordre 3", sender="player3@example.org"))

    assert sorted(StandingOrder.objects.filter(seat=orange).values_list("kind", flat=True)) == [
        "citadel",
        "withdraw",
    ]
    status = feed(mail_clients.gmail_french(listing, "annuler ordre 1", sender="player3@example.org"))
    assert status.startswith("rejected")
    answer = " ".join(last_to("player3@example.org").body.split())
    assert "L'ordre 1 du message auquel vous avez répondu (Toujours refuser la paix.)" in answer
    assert StandingOrder.objects.filter(seat=orange).count() == 2


def test_an_order_sent_with_a_move_answers_the_decision_that_move_opens_and_reads_cleanly(
    db, django_capture_on_commit_callbacks
):
    """Against three bots, the next pack is already waiting when the player keeps a card: the
    draft ranking sent with that pick keeps from it at once (not from the pack after), and the
    one email that answers says so in plain sentences (no ".." nor ".;")."""
    with django_capture_on_commit_callbacks(execute=True):
        game = create_game(
            seats=[SeatSpec(email="solo@example.org")] + [SeatSpec(is_bot=True)] * 3,
            seed="one",
            setup=ASSEMBLY,
        )
    green = game.seats.get(colour="green")
    ranking = ", ".join(info.name for card, info in rules.CARDS.items() if info.type == "action")
    prompt = [m for m in mail.outbox if "solo@example.org" in m.to][-1]
    raw = mail_clients.gmail(
        prompt, f"1\norder: draft {ranking}\norder: peace refuse", sender="solo@example.org"
    )
    before = len(mail.outbox)

    with django_capture_on_commit_callbacks(execute=True):
        call_command("receive_email", stdin=io.BytesIO(raw), stdout=io.StringIO())

    picked = Command.objects.filter(seat=green, command_id__startswith="order:").order_by("first_seq").first()
    assert picked is not None and picked.body["type"] == "draft" and len(picked.body["keep"]) == 2
    answer = [m for m in mail.outbox[before:] if "solo@example.org" in m.to][0]
    text = " ".join(answer.body.split())
    assert "your new order played: Keep " in text
    assert ".." not in text and ".;" not in text and ".;" not in answer.subject
    assert (
        "standing order kept: Always refuse peace; " in text
        or "standing order kept: Always refuse peace." in text
    )


def test_a_french_ranking_never_reads_one_word_as_two_cards(db):
    """In French "artisans" is a word of Artisans et Paysans and of Maître Artisan (the English
    "craftsmen" and "craftsman" differ): "demander artisans" marked both cards "ask me", so a
    pack the ranking covered, holding Maître Artisan, was emailed. Such a word is refused, naming
    both cards, and nothing is stored; the whole name is read as that card alone."""
    Player.objects.create(email="player3@example.org", language="fr")
    game = game_from(ASSEMBLY, seed="email-orders-artisans")
    prompt = prompt_for(game, "orange")
    orange = game.seats.get(colour="orange")
    ranking = "ordre : draft chef de guerre, geis, émissaires, festivités ; demander artisans"

    status = feed(mail_clients.gmail_french(prompt, ranking, sender="player3@example.org"))

    assert status.startswith("rejected") and not StandingOrder.objects.filter(seat=orange).exists()
    answer = " ".join(last_to("player3@example.org").body.split())
    assert "« artisans » nomme plusieurs cartes (Artisans et Paysans, Maître Artisan)" in answer

    feed(mail_clients.gmail_french(prompt, ranking + " et paysans", sender="player3@example.org"))
    order = StandingOrder.objects.get(seat=orange)
    assert order.body["ask"] == ["act_craftsmen_peasants"]


def test_cancelling_an_order_that_is_not_there_says_so_in_plain_sentences(db):
    """Orange has one order ("Always refuse peace.") and writes "cancel order 7": the answer says
    no order was cancelled, then lists the orders, each line without its own full stop, so the
    sentence ends with one; the same in French (replying to the English email, whose numbers a
    French reader's reply cannot match: "no such order")."""
    game = game_from(ASSEMBLY, seed="email-orders-cancel-none")
    orange = game.seats.get(colour="orange")
    set_order(game, orange, {"kind": "peace", "agree": False})
    prompt = prompt_for(game, "orange")

    assert feed(mail_clients.gmail(prompt, "cancel order 7", sender="player3@example.org")).startswith(
        "rejected"
    )

    answer = last_to("player3@example.org")
    assert answer.subject.startswith("Rejected: cancelling an order")
    assert (
        "I cancelled no order. The email you answered lists no order 7; your orders now: "
        "order 1: Always refuse peace.\n" in answer.body
    )
    Player.objects.update_or_create(email="player3@example.org", defaults={"language": "fr"})
    feed(mail_clients.gmail_french(prompt, "annuler ordre 7", sender="player3@example.org"))
    answer = last_to("player3@example.org")
    assert answer.subject.startswith("Refusé : annulation d'un ordre")
    assert (
        "Je n'ai annulé aucun ordre. Vous n'avez pas cet ordre ; vos ordres : "
        "ordre 1 : Toujours refuser la paix.\n" in answer.body
    )
    assert StandingOrder.objects.filter(seat=orange).count() == 1


def test_a_french_queued_play_of_a_card_no_order_can_hold_is_refused_as_an_order(db):
    """Green (French) writes "ordre : prochain tour jouer migration vallée": the order was read,
    and Migration cannot be queued. The subject says an order was refused (not "not understood"),
    the sentence does not guess the card's gender, and the Pretender is a marker, as everywhere."""
    Player.objects.create(email="player1@example.org", language="fr")
    game = game_from(MIGRATION, seed="email-orders-queue-fr")
    prompt = prompt_for(game, "green")

    status = feed(
        mail_clients.gmail_french(
            prompt, "ordre : prochain tour jouer migration vallée", sender="player1@example.org"
        )
    )

    assert status.startswith("rejected")
    answer = last_to("player1@example.org")
    assert answer.subject.startswith("Refusé : un ordre — Inis")
    body = " ".join(answer.body.split())
    assert "La carte Migration ne peut pas être prévue, ni par email ni sur la page de la partie" in body
    assert "Jouez cette carte à votre tour ; vous pouvez prévoir" in body
    assert "une passe ou un marqueur Prétendant." in body
    assert "jeton" not in body
    assert not StandingOrder.objects.exists()
