"""One email per decision: the acceptance of a reply and the seat's next prompt are one email
("Accepted: … — Your move: …", in the reply's thread); a seat left with nothing to decide gets
one short acceptance once ACCEPTANCE_GRACE has passed, unless its player turned acceptances
off: then the next prompt says it. In English and in French."""

from __future__ import annotations

import email
import html
import io

import pytest
from django.core import mail
from django.core.management import call_command

from games import rules, store
from games.play.models import SeatClock
from games.services import SeatSpec, create_game, submit_command
from notifications import tasks, tokens
from notifications.models import Outbox
from notifications.prompts import player_urls
from players import signed_tokens
from players.accounts import user_for_email
from players.models import Player
from tests.notifications import mail_clients
from tests.notifications.email_positions import ASSEMBLY, END, game_from
from tests.notifications.grace import after_the_grace
from tests.notifications.test_inbound import feed, prompt_for

WORDS = {
    "en": {"accepted": "Accepted: ", "your_move": " — Your move: ", "read_as": "I read your reply as: "},
    "fr": {
        "accepted": "Accepté : ",
        "your_move": " — Votre coup : ",
        "read_as": "J'ai lu votre réponse ainsi : ",
    },
}


def to(address: str) -> list:
    return [m for m in mail.outbox if address in m.to]


def message_id(raw: bytes) -> str:
    return email.message_from_bytes(raw)["Message-ID"]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_reply_and_the_seats_next_prompt_are_one_email(db, django_capture_on_commit_callbacks, language):
    """Against three bots the seat's next decision follows its reply at once: each reply is
    answered by one email, its next prompt, which says what was accepted, answers the reply in
    its thread and carries the reply address of the decision now open."""
    Player.objects.create(email="solo@example.org", language=language)
    words = WORDS[language]
    with django_capture_on_commit_callbacks(execute=True):
        game = create_game(
            seats=[SeatSpec(email="solo@example.org")] + [SeatSpec(is_bot=True)] * 3, seed="one"
        )
    for _turn in range(3):
        prompt = to("solo@example.org")[-1]
        before = len(to("solo@example.org"))
        raw = mail_clients.gmail(prompt, "1", sender="solo@example.org")
        with django_capture_on_commit_callbacks(execute=True):
            call_command("receive_email", stdin=io.BytesIO(raw), stdout=io.StringIO())
        after = to("solo@example.org")[before:]
        assert len(after) == 1, [m.subject for m in after]
        (answer,) = after
        assert answer.subject.startswith(words["accepted"]) and words["your_move"] in answer.subject
        assert words["read_as"] in answer.body
        assert answer.extra_headers["In-Reply-To"] == message_id(raw)
        clock = SeatClock.objects.get(seat__game=game, seat__colour="green")
        assert signed_tokens.read_reply_token(tokens.token_in_address(answer.reply_to[0])).seq == clock.seq
    assert not Outbox.objects.filter(game=game, kind=Outbox.Kind.ANSWER, status=Outbox.Status.SENT).exists()
    assert Outbox.objects.filter(game=game, kind=Outbox.Kind.ANSWER, status=Outbox.Status.FOLDED).count() == 3


def test_a_seat_with_nothing_more_to_decide_gets_one_short_acceptance_after_the_grace(db):
    game = game_from(END, seed="one-short")
    prompt = prompt_for(game, "green")
    before = len(to("player1@example.org"))

    raw = mail_clients.gmail(prompt, "Pretender")
    call_command("receive_email", stdin=io.BytesIO(raw), stdout=io.StringIO())
    # Within the grace nothing goes: a prompt may still come and carry it.
    tasks.deliver_pending.apply(kwargs={"older_than_seconds": -1})
    assert to("player1@example.org")[before:] == []

    after_the_grace()
    (answer,) = to("player1@example.org")[before:]
    assert answer.subject == f"Accepted: Take a Pretender token — Inis {game.pk}"
    assert "Nothing more is asked of you for now" in answer.body
    assert not answer.reply_to  # the next prompt carries the only valid reply address
    assert answer.extra_headers["In-Reply-To"] == message_id(raw)
    after_the_grace()
    assert len(to("player1@example.org")[before:]) == 1  # sent once


@pytest.mark.parametrize("language", ["en", "fr"])
def test_with_acceptances_off_the_next_prompt_says_what_was_accepted(db, language):
    """A player who turned acceptances off gets no email for a reply that leaves them nothing to
    decide, however long; their next prompt (the next draft pick, once the others picked) opens
    with it."""
    Player.objects.create(email="player1@example.org", language=language, acceptances=False)
    words = WORDS[language]
    game = game_from(ASSEMBLY, seed="one-off")
    prompt = prompt_for(game, "green")
    before = len(to("player1@example.org"))

    feed(mail_clients.gmail(prompt, "1"))
    after_the_grace()
    assert to("player1@example.org")[before:] == []

    for colour in ("blue", "orange", "white"):  # the others pick on the web
        state, seq = store.load(game)
        seat = game.seats.get(colour=colour)
        command = next(
            c for c in rules.legal_commands(state, colour) if c["type"] not in ("moor", "set_policy")
        )
        assert submit_command(game=game, seat=seat, command=command, expected_seq=seq).accepted
    after_the_grace()
    (next_prompt,) = to("player1@example.org")[before:]
    assert next_prompt.subject.startswith(words["accepted"]) and words["your_move"] in next_prompt.subject
    assert words["read_as"] in next_prompt.body.split("\n\n")[1]  # said at the top
    assert Outbox.objects.filter(game=game, kind=Outbox.Kind.ANSWER, status=Outbox.Status.FOLDED).count() == 1


def test_the_preferences_page_turns_acceptances_off(client, db):
    player = Player.objects.create(email="pref@example.org")
    client.force_login(user_for_email(player.email))  # the email's link alone cannot
    url = player_urls(player.pk)["preferences"]
    page = client.get(url).content.decode()
    assert "Send me a short acceptance when my reply leaves me nothing more to decide" in page
    response = client.post(url, {"delivery": "prompt", "news": "on", "time_zone": "UTC", "language": "en"})
    assert response.status_code == 302
    player.refresh_from_db()
    assert player.acceptances is False


@pytest.mark.parametrize("language", ["en", "fr"])
def test_one_acceptance_opens_the_prompt_in_the_docs_words(db, django_capture_on_commit_callbacks, language):
    """docs/email-commands.md, "Replies and their answers": the prompt that answers a reply
    opens, under its first line (the game, the colour, the move), with `Accepted: I read your
    reply as: <what was played>.`: one line, not a list of one."""
    Player.objects.create(email="solo@example.org", language=language)
    words = WORDS[language]
    with django_capture_on_commit_callbacks(execute=True):
        create_game(seats=[SeatSpec(email="solo@example.org")] + [SeatSpec(is_bot=True)] * 3, seed="one-line")
    prompt = to("solo@example.org")[-1]
    before = len(to("solo@example.org"))
    raw = mail_clients.gmail(prompt, "1", sender="solo@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        call_command("receive_email", stdin=io.BytesIO(raw), stdout=io.StringIO())

    (answer,) = to("solo@example.org")[before:]
    accepted = answer.body.split("\n\n")[1]
    assert accepted.startswith(words["accepted"] + words["read_as"]) and accepted.endswith(".")
    assert "\n" not in accepted
    said = f"<strong>{words['accepted'].strip()}</strong> {html.escape(words['read_as'])}"
    assert said in answer.alternatives[0][0]


@pytest.mark.parametrize("language", ["en", "fr"])
def test_a_policy_beside_an_open_decision_is_accepted_without_saying_done(db, language):
    """docs/email-commands.md, "Replies and their answers": the short `Done.` email is for a seat
    left with nothing to decide. A reply holding only a standing policy, while the seat's
    decision is still open (no prompt follows to carry it), is accepted after the grace by an
    email that says the decision is still open and how to make it; no reply address either:
    the prompt the player holds is still the valid one."""
    Player.objects.create(email="player1@example.org", language=language)
    game = game_from(END, seed=f"one-open-{language}")
    prompt = prompt_for(game, "green")
    before = len(to("player1@example.org"))

    reply = mail_clients.gmail_french if language == "fr" else mail_clients.gmail
    assert feed(reply(prompt, "never ask geis" if language == "en" else "ne plus demander geis")).startswith(
        "accepted"
    )

    (answer,) = to("player1@example.org")[before:]
    assert not answer.reply_to
    first = " ".join(answer.body.split("\n\n")[0].split())
    if language == "en":
        assert answer.subject == f"Accepted: standing policy: never ask me about Geis — Inis {game.pk}"
        assert first == (
            "I read your reply as: standing policy: never ask me about Geis. Your decision is still open: "
            "reply to your latest prompt to make it, or decide on your page."
        )
    else:
        assert first == (
            "J'ai lu votre réponse ainsi : consigne permanente : ne plus me demander pour Geis. "
            "Votre décision reste à prendre : répondez à votre dernier message de jeu, ou décidez sur "
            "votre page."
        )
    assert "Done." not in answer.body and "C'est fait." not in answer.body
