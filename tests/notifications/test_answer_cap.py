"""The cap on answers (EMAIL_ANSWERS_PER_HOUR per seat) stops a mail storm, but a player is
never left without word: a reply that changed nothing gets one short notice an hour that
answers are paused, and the first reply to a new prompt is answered whatever the cap
(docs/email-commands.md, "Replies and their answers")."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail as django_mail
from django.utils import timezone

from games import rules, store
from games.services import submit_command
from notifications.models import InboundEmail, Outbox
from tests.notifications import mail_clients
from tests.notifications.email_positions import END, game_from
from tests.notifications.test_inbound import feed, prompt_for, send_all

PLAYER = "player1@example.org"   # green in END


@pytest.fixture
def end_game(db, settings):
    settings.EMAIL_ANSWERS_PER_HOUR = 3
    game = game_from(END, seed="answer-cap")
    send_all()
    return game


def answers_to_green(game) -> list[Outbox]:
    return list(Outbox.objects.filter(kind=Outbox.Kind.ANSWER, seat__game=game,
                                      seat__colour="green").order_by("created_at", "id"))


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
    assert "answers to them are paused until" in notice.body_text and "(at most 3 an hour)" in notice.body_text
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
        created_at=timezone.now() - timedelta(minutes=61))

    feed(mail_clients.gmail(prompt, "nonsense again"))

    assert len(paused_notices(end_game)) == 2


def test_an_accepted_reply_over_the_cap_gets_no_notice(end_game):
    prompt = prompt_for(end_game, "green")
    for i in range(3):
        feed(mail_clients.gmail(prompt, f"nonsense {i}"))

    assert feed(mail_clients.gmail(prompt, "pretender")).startswith("accepted")

    assert len(answers_to_green(end_game)) == 3 and not paused_notices(end_game)
    assert "green" in store.load(end_game)[0].pretenders


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
        assert submit_command(game=game, seat=game.seats.get(colour=decision.seat), command=command,
                              expected_seq=seq, play_bots=False).accepted
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
