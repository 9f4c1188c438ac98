"""Table talk by email, end to end: replies through `manage.py receive_email`, relayed mail
through the outbox, answers that say what was played and what was said."""

from __future__ import annotations

import pytest
from django.core import mail

from games import store
from notifications.models import NewsItem, Outbox
from players.models import Player
from press.models import PressMessage
from press.sealing import open_all
from tests.notifications import mail_clients
from tests.notifications.email_positions import END, game_from
from tests.notifications.test_inbound import feed, prompt_for, send_all

EMAIL = {
    "green": "player1@example.org",
    "blue": "player2@example.org",
    "orange": "player3@example.org",
    "white": "player4@example.org",
}


def words(message: PressMessage) -> str:
    """The words of a stored message, opened with its author's key."""
    return open_all([message])[0].text


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
    answers = [
        m
        for m in mail.outbox
        if address in m.to and m.subject.startswith(("Accepted", "Rejected", "Accepté", "Refusé"))
    ]
    return answers[-1]


@pytest.fixture
def game(db):
    game = game_from(END, seed="talk-by-email")
    send_all()
    return game


def test_a_reply_with_a_move_and_two_messages_does_all_three_and_says_so(game):
    prompt = prompt_for(game, "green")
    mail.outbox.clear()
    words = (
        "Pretender, please!\n\nsay: Good luck to you all.\n\n"
        "tell blue: Leave the Valley to me\nand I leave you the Forest."
    )
    assert feed(mail_clients.gmail(prompt, words)) == f"accepted (game {game.pk}, green)"

    state, _ = store.load(game)
    assert "green" in state.pretenders  # the move was played
    received = talk_mail(game)
    # The public message reached exactly the three other players; the private one blue alone.
    assert sorted(received) == sorted([EMAIL["blue"], EMAIL["orange"], EMAIL["white"]])
    assert [len(received[EMAIL[c]]) for c in ("blue", "orange", "white")] == [2, 1, 1]
    # The subject (shown on lock screens) says who wrote, never what; the body says what.
    private = next(m for m in received[EMAIL["blue"]] if m.subject.startswith("Private message"))
    assert private.subject == f"Private message from green — Inis {game.pk}"
    assert "Leave the Valley to me\nand I leave you the Forest." in private.body
    for colour in ("orange", "white"):
        assert "Leave the Valley" not in "".join(
            m.body + m.subject for m in mail.outbox if EMAIL[colour] in m.to
        )
        assert received[EMAIL[colour]][0].subject == f"Table talk from green — Inis {game.pk}"
        assert "Good luck to you all." in received[EMAIL[colour]][0].body
    # Relayed mail is in the game's thread, and answering it reaches this seat.
    assert private.reply_to and f"<inis-game-{game.pk}-blue@" in private.extra_headers["References"]

    answer = answer_to(EMAIL["green"])
    assert answer.subject.startswith("Accepted: Take a Pretender token")
    assert "I read your reply as: Take a Pretender token." in answer.body
    assert "Your message to everyone at the table was sent. Your message to blue was sent." in answer.body
    assert list(PressMessage.objects.values_list("sender", "recipients")) == [
        ("green", None),
        ("green", ["blue"]),
    ]


def test_a_reply_with_only_talk_plays_nothing_and_is_answered(game):
    prompt = prompt_for(game, "green")
    before = store.head(game)[0]
    mail.outbox.clear()
    assert (
        feed(
            mail_clients.outlook(
                prompt, "dire à blanc : Je te laisse les Collines.", sender="Alice <player1@example.org>"
            )
        )
        == f"accepted (game {game.pk}, green)"
    )
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
    assert (
        feed(mail_clients.apple_mail(relayed, "tell green: Yes.", sender="Bob <player2@example.org>"))
        == f"accepted (game {game.pk}, blue)"
    )
    assert list(talk_mail(game)) == [EMAIL["green"]]
    assert words(PressMessage.objects.get(number=2)) == "Yes."


@pytest.mark.parametrize(
    "words, reason",
    [
        (
            "tell purple: hello",
            "Your message “tell purple: hello” was not sent. There is no “purple” at this table",
        ),
        ("say:", "Your message “say:” was not sent. It is empty."),
        ("say: " + "z" * 2001, "was not sent. It is 2,001 characters long, and the limit is 2,000"),
    ],
)
def test_bad_talk_is_answered_with_its_reason_and_nothing_is_stored_or_sent(game, words, reason):
    prompt = prompt_for(game, "green")
    mail.outbox.clear()
    assert feed(mail_clients.gmail(prompt, words)) == f"rejected (game {game.pk}, green)"
    answer = answer_to(EMAIL["green"])
    assert reason in " ".join(answer.body.split())
    assert not PressMessage.objects.exists() and not talk_mail(game)


def test_a_refused_message_does_not_stop_the_move_beside_it(game):
    prompt = prompt_for(game, "green")
    assert (
        feed(mail_clients.gmail(prompt, "pretender\ntell purple: hi")) == f"accepted (game {game.pk}, green)"
    )
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
        ("orange", "green to everyone: “Hear ye.”")
    ]
    # The message waits on white's page all the same.
    assert words(PressMessage.objects.get()) == "Hear ye."


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


# -- a move and a message in one reply: both are done, or the answer says which was not -------


@pytest.mark.parametrize(
    "language, words, message, line",
    [
        ("en", "say: Good luck to you all.\npretender", "Good luck to you all.", "pretender"),
        (
            "fr",
            "dire : Bonne chance à tous.\nprendre un marqueur Prétendant",
            "Bonne chance à tous.",
            "prendre un marqueur Prétendant",
        ),
    ],
)
def test_a_move_right_under_a_message_is_played_not_sent_as_words(game, language, words, message, line):
    """docs/press.md: "The reply may hold a command too: both are done, and the answer says so."
    A move on the line under a message used to go out as words of the message, unplayed."""
    Player.objects.filter(email=EMAIL["green"]).update(language=language)
    prompt = prompt_for(game, "green")
    mail.outbox.clear()
    assert feed(mail_clients.gmail(prompt, words)) == f"accepted (game {game.pk}, green)"
    assert "green" in store.load(game)[0].pretenders
    assert [m.text for m in open_all(PressMessage.objects.all())] == [message]
    body = " ".join(answer_to(EMAIL["green"]).body.split())
    if language == "en":
        assert "I read your reply as: Take a Pretender token." in body
        assert "Your message to everyone at the table was sent." in body
        assert f"I read the line “{line}”, under your message, as a move" in body
    else:
        assert "Prendre un marqueur Prétendant" in body and "a été envoyé" in body
        assert f"J'ai lu la ligne « {line} », sous votre message, comme un coup" in body


@pytest.mark.parametrize(
    "language, words, subject, opening, reason",
    [
        (
            "en",
            "play druid\nsay: Good luck.",
            "Rejected: not allowed now (your Season turn); sent: your message to everyone",
            "Your move was not played; your message was sent (see below).",
            "Druid is not in your hand.",
        ),
        (
            "fr",
            "jouer druide\ndire : Bonne chance.",
            "Rejected: ",
            "Votre coup n'a pas été joué ; votre message a été envoyé (voir plus bas).",
            "Druide",
        ),
    ],
)
def test_a_refused_move_beside_a_message_is_answered_with_its_reason(
    game, language, words, subject, opening, reason
):
    """The message goes, the move is refused: the answer says both, and why — never "Accepted"
    with the move silently dropped, never "nothing changed" when a message went out."""
    Player.objects.filter(email=EMAIL["green"]).update(language=language)
    prompt = prompt_for(game, "green")
    before = store.head(game)[0]
    mail.outbox.clear()
    assert feed(mail_clients.gmail(prompt, words)) == f"rejected (game {game.pk}, green)"
    assert store.head(game)[0] == before
    assert PressMessage.objects.count() == 1 and len(talk_mail(game)) == 3
    answer = [m for m in mail.outbox if EMAIL["green"] in m.to][-1]
    if language == "en":
        assert answer.subject.startswith(subject)
    else:
        assert answer.subject.startswith("Refusé") and "envoyé : votre message à tous" in answer.subject
    body = " ".join(answer.body.split())
    assert body.startswith(opening) and reason in body
    assert "nothing changed" not in body and "rien n'a changé" not in body
    assert answer.reply_to  # the decision is still open: the answer carries its reply address


def test_two_moves_beside_a_message_are_refused_with_the_reason(game):
    prompt = prompt_for(game, "green")
    feed(mail_clients.gmail(prompt, "pass\npretender\n\nsay: hi"))
    body = " ".join(answer_to(EMAIL["green"]).body.split())
    assert "Your reply holds 2 different decisions" in body and "Your message to everyone" in body
    assert "green" not in store.load(game)[0].pretenders


# -- subjects say who wrote, never what: they show on lock screens ------------------------------


def test_no_subject_of_any_email_carries_the_words_of_table_talk(game):
    """Relayed talk (private and public), a digest holding talk, a prompt that tells the talk
    waiting for a digest, the sender's answer: the words are in the bodies, never a subject."""
    from datetime import timedelta
    from unittest import mock

    from django.utils import timezone

    from games.services import submit_command
    from notifications import digests as clocks

    Player.objects.filter(email=EMAIL["orange"]).update(delivery=Player.Delivery.DIGEST)
    Player.objects.filter(email=EMAIL["blue"]).update(delivery=Player.Delivery.DIGEST)
    secret, public = "Meet me at the Standing Stones", "Fair winds over the Moor"
    feed(mail_clients.gmail(prompt_for(game, "green"), f"tell white: {secret}\n\nsay: {public}"))
    # Blue's next prompt (before its digest) tells the public message; orange's digest tells it.
    submit_command(
        game=game,
        seat=game.seats.get(colour="green"),
        command={"type": "pass"},
        expected_seq=store.head(game)[0],
    )
    send_all()
    # A digest goes from 07:00 (docs/email-commands.md): at noon yesterday, whatever the time now.
    noon = (timezone.now() - timedelta(days=1)).replace(hour=12, minute=0)
    with mock.patch("django.utils.timezone.now", return_value=noon):
        assert clocks.send_digest(Player.objects.get(email=EMAIL["orange"]).pk) >= 1
    send_all()
    bodies = {address: " ".join(m.body for m in mail.outbox if address in m.to) for address in EMAIL.values()}
    assert secret in bodies[EMAIL["white"]] and public in bodies[EMAIL["blue"]]
    assert public in bodies[EMAIL["orange"]]  # in its digest
    for sent in mail.outbox:
        for words in (secret, public, "Standing Stones", "Fair winds"):
            assert words not in sent.subject, (sent.to, sent.subject)
    subjects = {m.subject for m in mail.outbox if EMAIL["white"] in m.to}
    assert f"Private message from green — Inis {game.pk}" in subjects


@pytest.mark.parametrize(
    "language, move, subject, said",
    [
        (
            "en",
            "pass",
            "Rejected: nothing to decide now — Inis",
            "You have nothing to decide now: the game waits for green.",
        ),
        (
            "fr",
            "passer",
            "Refusé : rien à décider maintenant — Inis",
            "Vous n'avez rien à décider maintenant : la partie attend vert.",
        ),
        (
            "fr",
            "1",
            "Refusé : rien à décider maintenant — Inis",
            "Vous n'avez rien à décider maintenant : la partie attend vert.",
        ),
    ],
)
def test_a_move_in_reply_to_the_latest_talk_with_nothing_to_decide_is_not_called_late(
    game, language, move, subject, said
):
    """Blue, who has nothing to decide, replies with a move to the table talk just received: the
    email was the latest, so the answer says there is nothing to decide (the game waits for green),
    never that the reply came too late."""
    Player.objects.filter(email=EMAIL["blue"]).update(language=language)
    prompt = prompt_for(game, "green")
    feed(mail_clients.gmail(prompt, "tell blue: Shall we share the Forest?"))
    relayed = talk_mail(game)[EMAIL["blue"]][-1]
    before = store.head(game)[0]
    mail.outbox.clear()

    assert feed(mail_clients.gmail(relayed, move, sender=EMAIL["blue"])).startswith("rejected")

    assert store.head(game)[0] == before
    answer = answer_to(EMAIL["blue"])
    assert answer.subject.startswith(subject)
    assert said in " ".join(answer.body.split())
    for late in ("too late", "trop tard", "moved on", "a avancé", "earlier email", "plus ancien"):
        assert late not in answer.subject + answer.body


def test_a_french_answer_separates_its_parts_with_a_spaced_semicolon(game):
    """French typography puts a space before a semicolon: a French player who sends two messages
    reads "votre message à tous ; votre message à bleu"."""
    Player.objects.filter(email=EMAIL["green"]).update(language="fr")
    prompt = prompt_for(game, "green")
    mail.outbox.clear()

    feed(mail_clients.gmail_french(prompt, "dire : Bonne chance.\n\ndire à bleu : La Forêt est à toi."))

    answer = answer_to(EMAIL["green"])
    assert answer.subject == f"Accepté : votre message à tous ; votre message à bleu — Inis {game.pk}"


def test_a_french_private_message_says_who_wrote_to_you(game):
    """A French player reads a private message as "vert vous a écrit, à vous seul, …"."""
    Player.objects.filter(email=EMAIL["blue"]).update(language="fr")
    prompt = prompt_for(game, "green")
    feed(mail_clients.gmail(prompt, "tell blue: Shall we share the Forest?"))
    relayed = talk_mail(game)[EMAIL["blue"]][-1]
    assert "vert vous a écrit, à vous seul, dans la partie d'Inis" in " ".join(relayed.body.split())
    assert "<strong>vert</strong> vous a écrit, à vous seul," in relayed.alternatives[0][0]
