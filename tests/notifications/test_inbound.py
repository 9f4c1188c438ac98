"""Replies by email through `manage.py receive_email`: every reply gets the right answer, and the
game's log changes only when a command was accepted.

Replies are raw RFC 822 messages built like those of common mail clients (mail_clients.py).
"""

from __future__ import annotations

import io
import re

import pytest
from django.core import mail
from django.core.management import call_command

from games import store
from games.models import Command, Event
from games.play.models import SeatClock
from games.services import submit_command
from notifications.models import InboundEmail, Outbox
from tests.notifications import mail_clients
from tests.notifications.email_positions import ASSEMBLY, END, MIGRATION, game_from
from tests.notifications.grace import after_the_grace


def send_all() -> None:
    """Deliver every pending outbox row (in tests the on-commit enqueue does not fire), after
    ACCEPTANCE_GRACE: an acceptance no prompt carried goes alone."""
    after_the_grace()


def feed(raw: bytes) -> str:
    """Pipe `raw` to `manage.py receive_email`; deliver what it wrote; return its output line."""
    out = io.StringIO()
    call_command("receive_email", stdin=io.BytesIO(raw), stdout=out)
    send_all()
    return out.getvalue().strip()


def last_to(address: str):
    """The last email sent to `address`."""
    sent = [m for m in mail.outbox if address in m.to]
    assert sent, f"nothing was sent to {address}"
    return sent[-1]


def prompt_for(game, colour: str):
    send_all()
    seat = game.seats.get(colour=colour)
    row = (
        Outbox.objects.filter(seat=seat, kind=Outbox.Kind.PROMPT, status=Outbox.Status.SENT)
        .order_by("-id")
        .first()
    )
    assert row is not None, f"no prompt was sent to {colour}"
    return next(m for m in mail.outbox if m.extra_headers.get("Message-ID") == row.headers["Message-ID"])


def log_length(game) -> int:
    return Event.objects.filter(game=game).count()


@pytest.fixture
def end_game(db):
    game = game_from(END, seed="inbound-end")
    send_all()
    return game


def test_a_reply_from_gmail_is_played_and_answered(end_game):
    prompt = prompt_for(end_game, "green")
    before = log_length(end_game)

    assert (
        feed(mail_clients.gmail(prompt, "Pretender, please!\n\nAlice"))
        == f"accepted (game {end_game.pk}, green)"
    )

    state, _ = store.load(end_game)
    assert "green" in state.pretenders and log_length(end_game) > before
    answer = last_to("player1@example.org")
    assert answer.subject == f"Accepted: Take a Pretender token — Inis {end_game.pk}"
    assert answer.body.startswith("Done. I read your reply as: Take a Pretender token.")
    # Nothing that the next moves could make false, and no reply address that could be stale.
    assert "Nothing more is asked of you for now" in answer.body and "waiting" not in answer.body
    assert not answer.reply_to
    # Threaded under the reply, with the thread root kept.
    assert answer.extra_headers["In-Reply-To"].endswith("@mail.example.org>")
    assert f"<inis-game-{end_game.pk}-green@" in answer.extra_headers["References"]


@pytest.mark.parametrize("client", ["outlook", "apple_mail", "html_only"])
def test_replies_from_other_clients_are_read_the_same(end_game, client):
    prompt = prompt_for(end_game, "green")

    status = feed(mail_clients.CLIENTS[client](prompt, "2"))

    assert status.startswith("accepted")
    state, _ = store.load(end_game)
    assert "green" in state.pretenders  # option 2 of the prompt: "Take a Pretender token"


def test_the_token_not_the_from_header_says_who_acts(end_game):
    prompt = prompt_for(end_game, "green")

    status = feed(mail_clients.gmail(prompt, "pass", sender="Someone Else <other@example.net>"))

    assert status == f"accepted (game {end_game.pk}, green)"
    assert Command.objects.get(game=end_game).seat.colour == "green"
    # The answer goes to the seat's own address, never to the From.
    assert not [m for m in mail.outbox if "other@example.net" in m.to]
    assert last_to("player1@example.org").body.startswith("Done.")


def test_the_same_message_twice_acts_once_and_is_answered_once(end_game):
    prompt = prompt_for(end_game, "green")
    raw = mail_clients.gmail(prompt, "pretender", message_id="<twice@mail.example.org>")

    assert feed(raw).startswith("accepted")
    answers = Outbox.objects.filter(kind=Outbox.Kind.ANSWER).count()
    assert feed(raw) == "duplicate: message already received (accepted)"

    assert Command.objects.filter(game=end_game).count() == 1
    assert Outbox.objects.filter(kind=Outbox.Kind.ANSWER).count() == answers


def test_a_forged_from_without_a_token_is_answered_and_changes_nothing(end_game):
    before = log_length(end_game)
    raw = mail_clients.plain(
        sender="player1@example.org",
        to="Inis <inis@localhost>",
        subject=f"Inis game {end_game.pk}: you play green",
        words="pretender",
    )

    assert feed(raw) == "no_token"

    assert log_length(end_game) == before
    answer = last_to("player1@example.org")
    assert "not sent to a game's reply address" in answer.body
    assert answer.extra_headers["Auto-Submitted"] == "auto-replied"
    assert "green" not in answer.body and str(end_game.pk) not in answer.body.split("\n")[0]


def test_a_tampered_token_is_refused(end_game):
    prompt = prompt_for(end_game, "green")
    reply_to = prompt.reply_to[0]
    local, domain = reply_to.split("@")
    for forged in (
        re.sub(r"\.(\d+)\.([0-9a-f]{24})$", lambda m: f".{int(m.group(1)) + 1}.{m.group(2)}", local),  # seq
        local[:-1] + ("0" if local[-1] != "0" else "1"),  # signature
        local.rsplit(".", 1)[0],  # signature cut off
    ):
        status = feed(mail_clients.gmail(prompt, "pretender", to=f"{forged}@{domain}"))
        assert status == "bad_token", forged
    assert log_length(end_game) == Event.objects.filter(game=end_game).count()
    assert Command.objects.filter(game=end_game).count() == 0
    assert "reply address is not valid" in last_to("player1@example.org").body


def test_a_token_for_another_game_is_refused(db):
    game_a = game_from(END, seed="game-a")
    game_b = game_from(END, seed="game-b")
    prompt_a = prompt_for(game_a, "green")
    prompt_b = prompt_for(game_b, "green")
    counts = (log_length(game_a), log_length(game_b))

    # Answering game A's email, but to game B's reply address (pasted from the other thread).
    status = feed(mail_clients.gmail(prompt_a, "pretender", to=prompt_b.reply_to[0]))

    assert status == f"rejected (game {game_b.pk}, green)"
    assert (log_length(game_a), log_length(game_b)) == counts
    assert f"answers an email of game {game_a.pk}" in last_to("player1@example.org").body

    # A token naming a seat of game A under game B's id does not verify either.
    seat_a = game_a.seats.get(colour="green")
    local, domain = prompt_a.reply_to[0].split("@")
    _base, token = local.split("+")
    _game, _seat, seq, sig = token.split(".")
    mixed = f"inis+{game_b.pk}.{seat_a.pk}.{seq}.{sig}@{domain}"
    assert feed(mail_clients.gmail(prompt_a, "pretender", to=mixed)) == "bad_token"
    assert (log_length(game_a), log_length(game_b)) == counts


def test_an_illegal_command_is_rejected_with_the_reason_and_what_is_allowed(end_game):
    prompt = prompt_for(end_game, "green")
    before = log_length(end_game)

    assert feed(mail_clients.gmail(prompt, "attack blue")).startswith("rejected")

    assert log_length(end_game) == before
    answer = last_to("player1@example.org").body
    assert "Your reply was not played: nothing changed." in answer
    assert "I understood “attack blue”, but that is not allowed now." in answer
    assert "1. Pass" in answer and "2. Take a Pretender token" in answer
    # docs/email-commands.md: "Not allowed now", not "Not understood": the subject says so too.
    subject = last_to("player1@example.org").subject
    assert subject == f"Rejected: not allowed now (your Season turn) — Inis {end_game.pk}"


def test_a_reply_not_understood_says_so_in_its_subject(end_game):
    assert feed(mail_clients.gmail(prompt_for(end_game, "green"), "xqzv blorf")).startswith("rejected")
    subject = last_to("player1@example.org").subject
    assert subject == f"Rejected: not understood (your Season turn) — Inis {end_game.pk}"


def test_an_ambiguous_command_lists_the_options_it_fits(db):
    game = game_from(MIGRATION, seed="ambiguous")
    before = log_length(game)

    assert feed(mail_clients.apple_mail(prompt_for(game, "green"), "play migration from valley")).startswith(
        "rejected"
    )

    assert log_length(game) == before
    answer = last_to("player1@example.org").body
    assert "fits several of the commands allowed now" in answer
    assert "1. Play Migration from the Valley: 1 clan to the Cove" in answer


@pytest.mark.parametrize(
    "words, expected",
    [
        ("xqzv blorf", "I did not understand “xqzv”"),
        ("", "I found no command in your reply."),
        ("\u00ff\u00fe\x00\x01 \ufffd\ufffd", "I did not understand"),
    ],
)
def test_a_garbled_or_empty_reply_gets_the_syntax(end_game, words, expected):
    before = log_length(end_game)

    assert feed(mail_clients.gmail(prompt_for(end_game, "green"), words)).startswith("rejected")

    assert log_length(end_game) == before
    answer = last_to("player1@example.org").body
    assert expected in answer
    # Green holds no card: the syntax names only what green may do (no "play <card>").
    assert 'Your turn: "pass" or "pretender".' in answer and "play <card>" not in answer


def test_a_message_whose_body_cannot_be_decoded_is_answered(end_game):
    prompt = prompt_for(end_game, "green")
    raw = mail_clients.gmail(prompt, "pass").replace(b'charset="utf-8"', b'charset="x-no-such-charset"')

    assert feed(raw).startswith("rejected")
    assert "I found no command in your reply." in last_to("player1@example.org").body


def test_a_closing_line_under_the_move_is_no_part_of_it(end_game):
    """docs/email-commands.md: greeting, thanks and closing lines are ignored beside a command."""
    prompt = prompt_for(end_game, "green")

    status = feed(mail_clients.gmail(prompt, "Pretender\n\nThanks a lot!\nHave a nice day,\nAlice"))

    assert status == f"accepted (game {end_game.pk}, green)"
    assert "green" in store.load(end_game)[0].pretenders
    answer = last_to("player1@example.org").body
    assert answer.startswith("Done. I read your reply as: Take a Pretender token.")


def test_an_html_only_reply_is_read(end_game):
    assert feed(mail_clients.html_only(prompt_for(end_game, "green"), "Pretender")).startswith("accepted")
    assert "green" in store.load(end_game)[0].pretenders


@pytest.mark.parametrize(
    "headers, subject",
    [
        ({"Auto-Submitted": "auto-replied"}, "Re: Inis"),
        ({"X-Autoreply": "yes"}, "Re: Inis"),
        ({"Precedence": "bulk"}, "Re: Inis"),
        ({}, "Out of Office: back on Monday"),
        ({}, "Automatic reply: Inis game"),
        # After a reply's prefix, in brackets, in French (docs/email-commands.md, "Not read").
        ({}, "[Out of Office] Re: Your move"),
        ({}, "Re: Out of Office: back on Monday"),
        ({}, "Absent du bureau : Re: Votre coup"),
        ({}, "RE : Réponse automatique : Inis"),
    ],
)
def test_auto_replies_are_dropped_without_an_answer(end_game, headers, subject):
    prompt = prompt_for(end_game, "green")
    sent = len(mail.outbox)
    raw = mail_clients.plain(
        sender="player1@example.org",
        to=prompt.reply_to[0],
        subject=subject,
        words="I am away until Monday. Pass the salt.",
        headers=headers,
    )

    assert feed(raw) == "dropped"

    assert len(mail.outbox) == sent and Command.objects.filter(game=end_game).count() == 0


def test_a_stale_reply_is_answered_with_the_current_decision(end_game):
    old_prompt = prompt_for(end_game, "green")
    state, seq = store.load(end_game)
    green = end_game.seats.get(colour="green")
    submit_command(game=end_game, seat=green, command={"type": "pretender"}, expected_seq=seq)  # on the web
    before = log_length(end_game)

    assert feed(mail_clients.gmail(old_prompt, "pass")).startswith("stale")

    assert log_length(end_game) == before
    answer = last_to("player1@example.org").body
    assert "Your reply came too late for that decision" in answer
    assert "You have nothing to decide now (the game waits for blue)." in answer
    assert (
        last_to("player1@example.org").subject == f"Rejected: too late for that decision — Inis {end_game.pk}"
    )
    assert "event" not in answer.split("--")[0]


def test_a_draft_pick_and_a_standing_policy_in_one_reply(db):
    game = game_from(ASSEMBLY, seed="email-tests")
    prompt = prompt_for(game, "orange")
    # Orange's draft cards are its own: Emissaries, Festival, Geis, Warlord (see the position).
    assert "Geis (Action, Triskel)" in prompt.body

    status = feed(mail_clients.outlook(prompt, "keep warlord\nnever ask geis", sender="player3@example.org"))

    assert status.startswith("accepted")
    bodies = list(Command.objects.filter(game=game).values_list("body", flat=True))
    assert {"type": "draft", "keep": ["act_warlord"]} in bodies
    assert {"type": "set_policy", "card": "act_geis", "policy": "never"} in bodies
    answer = last_to("player3@example.org").body
    assert "Keep Warlord; standing policy: never ask me about Geis." in answer


def test_answers_to_one_address_are_rate_limited(end_game, settings):
    settings.EMAIL_ANSWERS_PER_HOUR = 3
    prompt = prompt_for(end_game, "green")
    answers_before = Outbox.objects.filter(kind=Outbox.Kind.ANSWER).count()

    for i in range(6):
        assert feed(mail_clients.gmail(prompt, f"nonsense {i}")).startswith("rejected")

    # 3 answers, then one notice that answers are paused (test_answer_cap.py), then nothing.
    assert Outbox.objects.filter(kind=Outbox.Kind.ANSWER).count() - answers_before == 4
    assert InboundEmail.objects.filter(detail__contains="not answered: rate limit").count() == 3


def test_a_reply_brings_a_stood_in_player_back(end_game):
    prompt = prompt_for(end_game, "green")
    SeatClock.objects.filter(seat__colour="green", seat__game=end_game).update(stand_in=True, missed_in_row=3)

    feed(mail_clients.gmail(prompt, "pretender"))

    clock = SeatClock.objects.get(seat__colour="green", seat__game=end_game)
    assert (clock.stand_in, clock.missed_in_row) == (False, 0)
    assert "Welcome back: the bot no longer plays your seat." in last_to("player1@example.org").body


def test_the_pipe_command_refuses_an_empty_input(db):
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="No message on standard input"):
        call_command("receive_email", stdin=io.BytesIO(b""))


@pytest.mark.parametrize(
    "subject, answered",
    [
        ("Re: Your move — Inis 3", "Re: Your move — Inis 3"),
        ("RE: RE: Your move — Inis 3", "Re: Your move — Inis 3"),
        ("Réf. : Votre coup — Inis 3", "Re: Votre coup — Inis 3"),
        ("Hello", "Re: Hello"),
    ],
)
def test_mail_without_a_reply_address_is_answered_re_once_in_whole_sentences(db, subject, answered):
    """A reply sent to the plain address (its subject already "Re: …") is answered with one "Re:",
    and its sentences are not broken in the middle."""
    raw = mail_clients.plain(sender="someone@example.org", to="inis@localhost", subject=subject, words="pass")
    feed(raw)
    answer = last_to("someone@example.org")
    assert answer.subject == answered
    assert "which game and seat you play), or use" in answer.body
