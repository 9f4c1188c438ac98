"""The cap on answers (EMAIL_ANSWERS_PER_HOUR per seat) stops a mail storm, never a player: a
reply that played something is always answered, and its answer (which carries no reply address,
so no loop can go round through it) does not count; the first reply to a new prompt is answered
whatever it is; over the cap, a reply that changed nothing gets one short notice an hour that
answers are paused (docs/email-commands.md, "Replies and their answers")."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail as django_mail
from django.utils import timezone

from games import rules, store
from games.services import SeatSpec, create_game, submit_command
from notifications.models import InboundEmail, Outbox
from tests.notifications import mail_clients
from tests.notifications.email_positions import END, game_from
from tests.notifications.test_inbound import feed, prompt_for, send_all

PLAYER = "player1@example.org"  # green in END


@pytest.fixture
def end_game(db, settings):
    settings.EMAIL_ANSWERS_PER_HOUR = 3
    game = game_from(END, seed="answer-cap")
    send_all()
    return game


def answers_to_green(game) -> list[Outbox]:
    return list(
        Outbox.objects.filter(kind=Outbox.Kind.ANSWER, seat__game=game, seat__colour="green").order_by(
            "created_at", "id"
        )
    )


def paused_notices(game) -> list[Outbox]:
    return [a for a in answers_to_green(game) if a.subject.startswith("Notice: answers paused")]


def test_over_the_cap_a_reply_that_changed_nothing_gets_one_pause_notice(end_game):
    prompt = prompt_for(end_game, "green")

    for i in range(6):
        assert feed(mail_clients.gmail(prompt, f"nonsense {i}")).startswith("rejected")

    answers = answers_to_green(end_game)
    assert len(answers) == 4  # 3 answers, then one notice; replies 5 and 6 get nothing
    notice = answers[-1]
    assert notice.subject == f"Notice: answers paused — Inis {end_game.pk}"
    assert "Your last reply was not played: nothing changed." in notice.body_text
    assert (
        "answers to them are paused until" in notice.body_text and "(at most 3 an hour)" in notice.body_text
    )
    # Answers resume when the first answer is an hour old (then fewer than 3 remain in the hour).
    resume = answers[1].created_at + timedelta(hours=1)  # answers 2, 3 and the notice remain: 3
    assert f"{resume:%H:%M} (UTC)" in notice.body_text
    assert notice.headers["Auto-Submitted"] == "auto-replied"
    assert notice.headers["Reply-To"].startswith("inis+")  # to try again
    details = list(InboundEmail.objects.order_by("id").values_list("detail", flat=True))
    assert sum("told that answers are paused" in d for d in details) == 1
    assert sum("not answered: rate limit" in d for d in details) == 3


def test_the_pause_notice_comes_again_after_an_hour(end_game):
    prompt = prompt_for(end_game, "green")
    for i in range(4):
        feed(mail_clients.gmail(prompt, f"nonsense {i}"))
    assert len(paused_notices(end_game)) == 1
    Outbox.objects.filter(pk=paused_notices(end_game)[0].pk).update(
        created_at=timezone.now() - timedelta(minutes=61)
    )

    feed(mail_clients.gmail(prompt, "nonsense again"))

    assert len(paused_notices(end_game)) == 2


def test_an_accepted_reply_over_the_cap_is_answered_and_no_notice_is_sent(end_game):
    prompt = prompt_for(end_game, "green")
    for i in range(3):
        feed(mail_clients.gmail(prompt, f"nonsense {i}"))

    assert feed(mail_clients.gmail(prompt, "pretender")).startswith("accepted")

    answers = answers_to_green(end_game)
    assert len(answers) == 4 and not paused_notices(end_game)
    assert answers[-1].subject.startswith("Accepted:") and "Pretender" in answers[-1].body_text
    assert "green" in store.load(end_game)[0].pretenders
    assert not InboundEmail.objects.filter(detail__contains="not answered").exists()


def test_two_players_playing_fast_by_email_get_an_answer_to_every_reply(db, settings):
    """Two people answering each prompt as it comes, far more often than the cap an hour: every
    reply is played and answered ("Accepted: ..."), none is left without word."""
    settings.EMAIL_ANSWERS_PER_HOUR = 2
    game = create_game(
        seats=[SeatSpec(email="player1@example.org"), SeatSpec(email="player2@example.org")],
        seed="fast-play",
        play_bots=False,
    )
    send_all()
    replies = {"player1@example.org": 0, "player2@example.org": 0}
    for _ in range(12):
        state, _seq = store.load(game)
        seat = game.seats.get(colour=rules.pending(state)[0].seat)
        assert feed(mail_clients.gmail(prompt_for(game, seat.colour), "1", sender=seat.email)).startswith(
            "accepted"
        )
        replies[seat.email] += 1

    assert min(replies.values()) > settings.EMAIL_ANSWERS_PER_HOUR
    for email, count in replies.items():
        answers = Outbox.objects.filter(kind=Outbox.Kind.ANSWER, to_email=email).order_by("id")
        assert [a.subject.startswith("Accepted:") for a in answers] == [True] * count, email
    assert not InboundEmail.objects.filter(detail__contains="not answered").exists()
    # Those answers spent none of the cap: two slips to one prompt are both answered in full.
    state, _seq = store.load(game)
    seat = game.seats.get(colour=rules.pending(state)[0].seat)
    prompt = prompt_for(game, seat.colour)
    for slip in ("attack everybody", "attack everybody now"):
        assert feed(mail_clients.gmail(prompt, slip, sender=seat.email)).startswith("rejected")
        answer = Outbox.objects.filter(kind=Outbox.Kind.ANSWER, seat=seat).order_by("id").last()
        assert answer.subject.startswith("Rejected:")


def test_an_auto_responder_answering_every_answer_with_a_valid_reply_address_is_still_stopped(end_game):
    """A machine that replies to each answer (it slipped through the automatic-mail checks) with
    the reply address the answer carries: its replies change nothing, and only the cap's answers
    and one notice go out, however long it goes on."""
    answered = prompt_for(end_game, "green")
    for i in range(15):
        feed(mail_clients.gmail(answered, f"I am out of the office until Monday ({i})."))
        answered = django_mail.outbox[-1]

    answers = answers_to_green(end_game)
    assert len(answers) == 4 and len(paused_notices(end_game)) == 1  # 3 answers, then the notice


def everyone_else_moves_until_green_is_asked(game) -> None:
    """Blue, orange and white pass (and decline Triskel windows) until green has a decision."""
    for _ in range(40):
        state, seq = store.load(game)
        if any(d.seat == "green" for d in rules.pending(state)):
            return
        waiting = [d for d in rules.pending(state) if d.seat != "green"]
        assert waiting, f"nobody is asked: {rules.pending(state)}, over: {rules.is_over(state)}"
        decision = waiting[0]
        legal = rules.legal_commands(state, decision.seat)
        command = next((c for c in legal if c["type"] in ("pass", "decline")), legal[0])
        assert submit_command(
            game=game,
            seat=game.seats.get(colour=decision.seat),
            command=command,
            expected_seq=seq,
            play_bots=False,
        ).accepted
    raise AssertionError("green was never asked again")


def test_the_cap_never_hides_the_rejection_of_the_first_reply_to_a_new_prompt(end_game):
    prompt = prompt_for(end_game, "green")
    for i in range(3):
        feed(mail_clients.gmail(prompt, f"nonsense {i}"))
    assert feed(mail_clients.gmail(prompt, "pass")).startswith("accepted")  # unanswered
    everyone_else_moves_until_green_is_asked(end_game)
    new_prompt = prompt_for(end_game, "green")
    assert new_prompt.extra_headers["Message-ID"] != prompt.extra_headers["Message-ID"]
    sent_before = len(django_mail.outbox)

    assert feed(mail_clients.gmail(new_prompt, "attack blue")).startswith("rejected")

    answer = answers_to_green(end_game)[-1]
    assert answer.subject.startswith("Rejected:")
    assert "I understood “attack blue”, but that is not allowed now." in answer.body_text
    assert len(django_mail.outbox) == sent_before + 1
    # The second reply to the same prompt is back under the cap: one pause notice at most.
    feed(mail_clients.gmail(new_prompt, "attack blue"))
    assert answers_to_green(end_game)[-1].subject.startswith("Notice: answers paused")


def test_over_the_cap_a_refused_move_beside_sent_talk_is_not_told_nothing_changed(end_game):
    prompt = prompt_for(end_game, "green")
    for i in range(3):
        assert feed(mail_clients.gmail(prompt, f"nonsense {i}")).startswith("rejected")
    # Over the cap: the move is refused, its message sent; the notice says so.
    assert feed(mail_clients.gmail(prompt, "play druid\n\nsay: Hello all.")).startswith("rejected")
    notice = answers_to_green(end_game)[-1]
    assert notice.subject == f"Notice: answers paused — Inis {end_game.pk}"
    assert "The move in your last reply was not played; its message was sent." in notice.body_text
    assert "nothing changed" not in notice.body_text
