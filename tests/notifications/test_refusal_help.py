"""A move refused by email: the answer gives the rules' reason in words, and the email's own
syntax help under the decision shown again (docs/email-commands.md). The rules' messages carry no
email syntax, which the game page could not use (docs/web.md, "Decisions as forms")."""

from __future__ import annotations

from tests.notifications import mail_clients
from tests.notifications.email_positions import END, game_from
from tests.notifications.test_inbound import feed, last_to, log_length, prompt_for, send_all


def test_a_refused_move_gets_the_reason_in_words_and_the_syntax_of_the_decision(db):
    game = game_from(END, seed="refusal-help")
    send_all()
    before = log_length(game)

    assert feed(mail_clients.gmail(prompt_for(game, "green"), "attack blue")).startswith("rejected")

    assert log_length(game) == before
    answer = last_to("player1@example.org").body
    reason, decision = answer.split("Where the game is now:")
    assert "On your Season turn: play a card, pass, or take a Pretender token." in reason
    assert "<card>" not in reason
    assert 'How to write it:\nYour turn: "pass" or "pretender".' in decision
