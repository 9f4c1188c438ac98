"""Table talk by email, end to end: replies through `manage.py receive_email`, relayed mail
through the outbox, answers that say what was played and what was said."""
from __future__ import annotations

import pytest
from django.core import mail

from games import store
from notifications.models import NewsItem, Outbox
from players.models import Player
from press.models import PressMessage
from tests.notifications import mail_clients
from tests.notifications.email_positions import END, game_from
from tests.notifications.test_inbound import feed, prompt_for, send_all

EMAIL = {"green": "player1@example.org", "blue": "player2@example.org",
         "orange": "player3@example.org", "white": "player4@example.org"}


def talk_mail(game) -> dict[str, list]:
    """The relayed talk each address received: {email: [message, ...]}."""
    rows = Outbox.objects.filter(game=game, kind=Outbox.Kind.PRESS, status=Outbox.Status.SENT)
    ids = {row.headers["Message-ID"] for row in rows}
    received: dict[str, list] = {}
    for message in mail.outbox:
        if message.extra_headers.get("Message-ID") in ids:
            received.setdefault(message.to[0], []).append(message)
    return received


def answer_to(address):
    answers = [m for m in mail.outbox if address in m.to and m.subject.startswith(("Accepted", "Rejected"))]
    return answers[-1]


@pytest.fixture
def game(db):
    game = game_from(END, seed="talk-by-email")
    send_all()
    return game


def test_a_reply_with_a_move_and_two_messages_does_all_three_and_says_so(game):
    prompt = prompt_for(game, "green")
    mail.outbox.clear()
    words = ("Pretender, please!\n\nsay: Good luck to you all.\n\n"
             "tell blue: Leave the Valley to me\nand I leave you the Forest.")
    assert feed(mail_clients.gmail(prompt, words)) == f"accepted (game {game.pk}, green)"

    state, _ = store.load(game)
    assert "green" in state.pretenders  # the move was played
    received = talk_mail(game)
    # The public message reached exactly the three other players; the private one blue alone.
    assert sorted(received) == sorted([EMAIL["blue"], EMAIL["orange"], EMAIL["white"]])
    assert [len(received[EMAIL[c]]) for c in ("blue", "orange", "white")] == [2, 1, 1]
    private = next(m for m in received[EMAIL["blue"]] if m.subject.startswith("Private word"))
    assert private.subject == f"Private word from green: Leave the Valley to me and I leave you the Forest. — Inis {game.pk}"
    assert "Leave the Valley to me\nand I leave you the Forest." in private.body
    for colour in ("orange", "white"):
        assert "Leave the Valley" not in "".join(m.body + m.subject for m in mail.outbox if EMAIL[colour] in m.to)
        assert received[EMAIL[colour]][0].subject == f"Table talk from green: Good luck to you all. — Inis {game.pk}"
    # Relayed mail is in the game's thread, and answering it reaches this seat.
    assert private.reply_to and f"<inis-game-{game.pk}-blue@" in private.extra_headers["References"]

    answer = answer_to(EMAIL["green"])
    assert answer.subject.startswith(f"Accepted: Take a Pretender token")
    assert "I read your reply as: Take a Pretender token." in answer.body
    assert "Your message to everyone at the table was sent. Your message to blue was sent." in answer.body
    assert list(PressMessage.objects.values_list("sender", "recipients")) == [("green", None), ("green", ["blue"])]


def test_a_reply_with_only_talk_plays_nothing_and_is_answered(game):
    prompt = prompt_for(game, "green")
    before = store.head(game)[0]
    mail.outbox.clear()
    assert feed(mail_clients.outlook(prompt, "dire à blanc : Je te laisse les Collines.",
                                     sender="Alice <player1@example.org>")) == f"accepted (game {game.pk}, green)"
    assert store.head(game)[0] == before
    assert list(talk_mail(game)) == [EMAIL["white"]]
    answer = answer_to(EMAIL["green"])
    assert answer.subject == f"Accepted: your message to white — Inis {game.pk}"
    assert "Your message to white was sent." in answer.body


def test_a_reply_to_a_relayed_message_is_talk_back(game):
    prompt = prompt_for(game, "green")
    feed(mail_clients.gmail(prompt, "tell blue: Shall we share the Forest?"))
    relayed = talk_mail(game)[EMAIL["blue"]][0]
    mail.outbox.clear()
    assert feed(mail_clients.apple_mail(relayed, "tell green: Yes.", sender="Bob <player2@example.org>")) \
        == f"accepted (game {game.pk}, blue)"
    assert list(talk_mail(game)) == [EMAIL["green"]]
    assert PressMessage.objects.get(number=2).text == "Yes."


@pytest.mark.parametrize("words, reason", [
    ("tell purple: hello", "Your message “tell purple: hello” was not sent. There is no “purple” at this table"),
    ("say:", "Your message “say:” was not sent. It is empty."),
    ("say: " + "z" * 2001, "was not sent. It is 2,001 characters long, and the limit is 2,000"),
])
def test_bad_talk_is_answered_with_its_reason_and_nothing_is_stored_or_sent(game, words, reason):
    prompt = prompt_for(game, "green")
    mail.outbox.clear()
    assert feed(mail_clients.gmail(prompt, words)) == f"rejected (game {game.pk}, green)"
    answer = answer_to(EMAIL["green"])
    assert reason in " ".join(answer.body.split())
    assert not PressMessage.objects.exists() and not talk_mail(game)


def test_a_refused_message_does_not_stop_the_move_beside_it(game):
    prompt = prompt_for(game, "green")
    assert feed(mail_clients.gmail(prompt, "pretender\ntell purple: hi")) == f"accepted (game {game.pk}, green)"
    assert "green" in store.load(game)[0].pretenders
    body = " ".join(answer_to(EMAIL["green"]).body.split())
    assert "Take a Pretender token" in body and "Your message “tell purple: hi” was not sent." in body


def test_a_player_who_takes_a_digest_gets_talk_in_it_and_one_without_news_gets_no_mail(game):
    Player.objects.filter(email=EMAIL["orange"]).update(delivery=Player.Delivery.DIGEST)
    Player.objects.filter(email=EMAIL["white"]).update(news=False)
    prompt = prompt_for(game, "green")
    feed(mail_clients.gmail(prompt, "say: Hear ye."))
    assert list(talk_mail(game)) == [EMAIL["blue"]]
    assert list(NewsItem.objects.filter(mailed_at__isnull=True).values_list("seat__colour", "text")) == [
        ("orange", "green to everyone: “Hear ye.”")]
    # The message waits on white's page all the same.
    assert PressMessage.objects.get().text == "Hear ye."


def test_talk_waiting_for_a_digest_is_told_in_a_prompt_that_comes_first(game):
    """The prompt marks every waiting news line as told: it tells the talk among them."""
    from games.services import submit_command

    Player.objects.filter(email=EMAIL["blue"]).update(delivery=Player.Delivery.DIGEST)
    feed(mail_clients.gmail(prompt_for(game, "green"), "say: Hear ye."))
    assert EMAIL["blue"] not in talk_mail(game)
    green = game.seats.get(colour="green")
    submit_command(game=game, seat=green, command={"type": "pretender"}, expected_seq=store.head(game)[0])
    send_all()
    prompt = prompt_for(game, "blue")
    assert "green to everyone: “Hear ye.”" in prompt.body
    assert not NewsItem.objects.filter(seat__colour="blue", mailed_at__isnull=True).exists()
