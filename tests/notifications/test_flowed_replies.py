"""Replies sent `format=flowed` (RFC 3676) are read as their writer typed them.

docs/email-commands.md: "A long command may continue on the next line ... (mail programs wrap
long lines)". Thunderbird and Apple Mail wrap at about 72 characters and mark each wrap by a
space at the line's end; those wraps used to reach the command language as two lines, and a
command wrapped after "clan " came back "Rejected: not allowed now" ("going to the plains").
"""

from __future__ import annotations

import pytest

from games import store
from games.models import Command
from notifications.flowed_text import unflowed
from tests.notifications import mail_clients
from tests.notifications.email_positions import MIGRATION, game_from
from tests.notifications.test_inbound import feed, prompt_for, send_all

LONG = "play migration from the valley with 1 clan going to the cove and 1 clan going to the plains"


@pytest.mark.parametrize("delsp", [False, True], ids=["Thunderbird", "DelSp=yes (Apple Mail)"])
@pytest.mark.parametrize("width", [60, 72, 78])
def test_a_long_command_wrapped_by_the_mail_program_is_played(db, delsp, width):
    game = game_from(MIGRATION, seed="flowed")
    send_all()
    raw = mail_clients.thunderbird(prompt_for(game, "green"), LONG, delsp=delsp, width=width)
    assert b'format="flowed"' in raw and LONG.encode() not in raw  # wrapped, as sent

    assert feed(raw).startswith("accepted")

    played = Command.objects.filter(game=game, seat__colour="green").latest("first_seq").body
    assert played["card"] == "act_migration" and played["moves"] == {"cove": 1, "plains": 1}
    assert store.load(game)[0].clans("plains", "green") >= 1


def test_the_unwrapping_keeps_hard_breaks_quotes_and_the_signature_separator():
    """RFC 3676: a line ending in a space is joined to the next one of the same quote depth; a
    line starting with a space was space-stuffed; "-- " is the signature separator, not a wrap."""
    sent = "pass \nuntil it concerns me\n\n-- \nAlice\n> quoted \n> on two lines\n  indented"
    assert unflowed(sent) == "pass until it concerns me\n\n-- \nAlice\n> quoted on two lines\n indented"
    assert unflowed("play migra \ntion", delsp=True) == "play migration"
