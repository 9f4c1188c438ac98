"""Replies laid out as real mail clients send them are read for what the player typed, and a
refusal says what was read (docs/email-commands.md, "Replies and their answers").

End to end through `manage.py receive_email` with the layouts of mail_clients.py; then, without
a database, the layouts of the public email_reply_parser corpus (Outlook with the reply right
above the rule, the header block with no rule, an attribution wrapped with no space before
"wrote:", replies written under the quote) read by `parse_reply` on a described position.
"""

from __future__ import annotations

import pytest

from games import store
from games.rules import IllegalCommand, InvalidCommand
from notifications.command_language import parse_reply
from notifications.command_language.reply_parts import split_reply
from tests.notifications import mail_clients
from tests.notifications.email_positions import END, game_from
from tests.notifications.test_inbound import feed, last_to, log_length, prompt_for, send_all
from tests.rules.positions import Table

PLAYER = "player1@example.org"  # green in END: its Season turn, "pass" or "pretender"


@pytest.fixture
def end_game(db):
    game = game_from(END, seed="mail-clients")
    send_all()
    return game


def took_pretender(game) -> bool:
    return "green" in store.load(game)[0].pretenders


@pytest.mark.parametrize(
    "client",
    [
        "outlook_google_sync",
        "outlook_word_html",
        "gmail_french",
        "gmail",
        "outlook",
        "apple_mail",
        "html_only",
    ],
)
def test_one_command_line_above_the_history_is_played(end_game, client):
    prompt = prompt_for(end_game, "green")
    assert len(prompt.body.splitlines()) > 20  # the history alone would be too many lines

    status = feed(mail_clients.CLIENTS[client](prompt, "pretender"))

    assert status.startswith("accepted"), status
    assert took_pretender(end_game)


def test_google_apps_sync_refusal_names_the_one_line_written(end_game):
    before = log_length(end_game)

    status = feed(mail_clients.outlook_google_sync(prompt_for(end_game, "green"), "attack blue"))

    assert status.startswith("rejected") and log_length(end_game) == before
    answer = last_to(PLAYER).body
    assert "I understood “attack blue”, but that is not allowed now." in answer
    assert "lines of text" not in answer and "Line 1" not in answer


def test_word_html_style_block_is_not_read_as_commands(end_game):
    status = feed(mail_clients.outlook_word_html(prompt_for(end_game, "green"), "pretendr"))

    assert status.startswith("rejected")
    answer = last_to(PLAYER).body
    assert "I did not understand “pretendr”" in answer
    assert "font-family" not in answer and "MsoNormal" not in answer and "Line " not in answer


def test_french_gmail_reply_is_read_in_french(end_game):
    assert feed(mail_clients.gmail_french(prompt_for(end_game, "green"), "prétendant")).startswith("accepted")
    assert took_pretender(end_game)


def test_a_reply_written_under_the_quote_is_read_there(end_game):
    assert feed(mail_clients.bottom_posted(prompt_for(end_game, "green"), "pretender")).startswith("accepted")
    assert took_pretender(end_game)


def test_a_greeting_above_the_quote_and_the_command_under_it(end_game):
    raw = mail_clients.bottom_posted(prompt_for(end_game, "green"), "pretender\n\nAlice", above="Hi,")

    assert feed(raw).startswith("accepted")
    assert took_pretender(end_game)


def test_no_command_above_nor_under_the_quote_says_where_to_write(end_game):
    raw = mail_clients.bottom_posted(prompt_for(end_game, "green"), "see you", above="Hi,")

    assert feed(raw).startswith("rejected")
    answer = last_to(PLAYER).body
    assert "I found no command above the quoted email (only “Hi,”), nor under it." in answer
    assert "Write your command above the quoted email" in answer
    assert "I found no command in “Hi,”" not in answer


def test_a_refusal_under_the_quote_says_it_was_read_there(end_game):
    assert feed(mail_clients.bottom_posted(prompt_for(end_game, "green"), "attack blue")).startswith(
        "rejected"
    )
    assert (
        "Under the quoted email: I understood “attack blue”, but that is not allowed now."
        in last_to(PLAYER).body
    )


def test_too_many_lines_says_how_many_were_read_and_from_where(end_game):
    chatter = "\n".join(f"thinking aloud, part {i}" for i in range(1, 26))

    assert feed(mail_clients.gmail(prompt_for(end_game, "green"), chatter)).startswith("rejected")
    answer = last_to(PLAYER).body
    assert "I read 25 lines of text in your reply, from “thinking aloud, part 1”" in answer
    assert "a reply holds at most 20 command lines" in answer


# -- the corpus layouts, without a database ------------------------------------------------------

HISTORY = "\n".join(
    ["Your move: your Season turn — Inis 12", "", "Green, it is your turn."]
    + [f"  {n}. Take a Pretender token" for n in range(1, 30)]
)
QUOTED = "\n".join("> " + line if line else ">" for line in HISTORY.splitlines())


def season_table() -> Table:
    """Green's Season turn with the Bard in hand (pass, Pretender, or play the Bard)."""
    return Table(
        """
        valley  0,0   green 2  blue 1
        cove    1,0   green 1  orange 1
    """,
        seats=("green", "blue", "orange", "white"),
        capital="valley",
        brenn="blue",
        turn="green",
        opened=True,
        hands={"green": ["act_bard"]},
    )


LAYOUTS = {
    # Outlook, the reply typed right above the rule (no blank line between).
    "outlook_rule_right_below": "pass\n________________________________________\n"
    "From: Inis by email [inis@example.org]\nSent: Monday, 23 November "
    "2026 4:19 p.m.\nTo: Alice\nSubject: Your move\n\n" + HISTORY,
    # Outlook without the rule: a blank line, the header block, then the quoted history.
    "outlook_no_rule": "pass\n\nFrom: Inis by email [inis@example.org]\nSent: Monday, 23 November "
    "2026 4:19 p.m.\nTo: Alice\nSubject: Your move\n\n" + QUOTED,
    # An attribution wrapped before the address, with no space before "wrote:".
    "wrapped_no_space": "pass\n\nOn Mon, Nov 23, 2026 at 4:19 PM, Inis by email\n"
    "<inis+12.green.40.abc@example.org>wrote:\n\n" + QUOTED,
    # Gmail in French, the attribution over two lines.
    "gmail_french": "passer\n\nLe lun. 23 nov. 2026 à 00:19, Inis by email\n"
    "<inis+12.green.40.abc@example.org> a écrit :\n\n" + QUOTED,
    # Outlook through Google Apps Sync: a dashed rule then "*From:*" in asterisks.
    "google_apps_sync": "pass\n\n-----------------------------\n*From:* Inis by email "
    "[mailto:inis@example.org]\n*Sent:* Monday, November 23, 2026 4:19 PM\n"
    "*To:* alice@example.org\n*Subject:* Your move\n\n" + HISTORY,
    # A phone client's signature line under the command, then the quote.
    "sent_from_my_phone": "pass\n\nSent from my iPhone\n\nOn 23 Nov 2026, at 16:19, Inis by email "
    "<inis@example.org> wrote:\n\n" + QUOTED,
    # The reply written under the quote, nothing above.
    "under_the_quote": "On Mon, Nov 23, 2026 at 4:19 PM Inis by email <inis@example.org> wrote:\n"
    + QUOTED
    + "\n\npass\n\n-- \nAlice",
}


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_corpus_layouts_read_the_one_typed_line(layout):
    assert parse_reply(LAYOUTS[layout], season_table().state, "green") == [{"type": "pass"}]


def test_a_cell_written_with_a_minus_sign_is_not_taken_for_a_signature():
    parts = split_reply("-1,0\n\nOn Mon, Nov 23, 2026 at 4:19 PM Inis <inis@example.org> wrote:\n" + QUOTED)
    assert parts.above == "-1,0" and parts.quoted


def test_own_lines_that_look_like_headers_are_not_a_quote():
    parts = split_reply("play migration\nfrom: valley\nto: cove")
    assert parts == split_reply("play migration\nfrom: valley\nto: cove")
    assert parts.above == "play migration\nfrom: valley\nto: cove" and not parts.quoted


def test_unknown_words_under_the_quote_with_a_command_above_are_not_read():
    text = (
        "pass\n\nOn Mon, Nov 23, 2026 at 4:19 PM Inis <inis@example.org> wrote:\n"
        + QUOTED
        + "\n\nwhat a game!"
    )
    assert parse_reply(text, season_table().state, "green") == [{"type": "pass"}]


def test_an_illegal_line_above_is_refused_even_with_text_under_the_quote():
    text = (
        "attack blue\n\nOn Mon, Nov 23, 2026 at 4:19 PM Inis <inis@example.org> wrote:\n"
        + QUOTED
        + "\n\npass"
    )
    with pytest.raises(IllegalCommand) as refused:
        parse_reply(text, season_table().state, "green")
    assert "I understood “attack blue”" in str(refused.value)


def test_a_huge_body_of_header_like_lines_is_read_quickly():
    text = "pass\n" + "subject: x\n" * 40_000
    with pytest.raises(InvalidCommand) as refused:
        parse_reply(text, season_table().state, "green")
    assert "lines of text in your reply" in str(refused.value)
